"""`python -m bot` starts the bot; `python -m bot demo` tries it in a browser; `python -m bot ratings --rebuild`
recomputes every rating from the results; `python -m bot backup PATH` copies the SQLite database while it runs;
`python -m bot check` checks the database beside it; `python -m bot damaged` lists, ends or restores the matches set
aside as damaged; `python -m bot migrate --to URL` copies it into PostgreSQL."""

import sys

USAGE = """usage: python -m bot [-h]
       python -m bot demo [--help]
       python -m bot ratings --rebuild [--database FILE]
       python -m bot backup PATH [--force] [--database FILE]
       python -m bot check [--database FILE_OR_URL]
       python -m bot damaged (list | end N | restore N --from BACKUP) [--database DATABASE]
       python -m bot migrate --to postgresql://... [--database FILE]

Start the Strategos Discord bot. Settings come from the environment and .env (DISCORD_TOKEN, STRATEGOS_DATABASE,
STRATEGOS_DEV_GUILD, STRATEGOS_LOG_LEVEL, STRATEGOS_CHALLENGE_HOURS, STRATEGOS_VACATION_DAYS, STRATEGOS_SHARD_COUNT,
STRATEGOS_SHARDS, STRATEGOS_METRICS_PORT, STRATEGOS_METRICS_HOST); see README.md.

commands:
  demo        try Strategos in your browser, in a simulated Discord (python -m bot demo --help)
  ratings     recompute every rating from the stored results (python -m bot ratings --help)
  backup      copy the SQLite database to PATH while the bot runs, verified (python -m bot backup --help)
  check       replay every match's log to its stored state, check integrity and timers (python -m bot check --help)
  damaged     list, end or restore the matches set aside as damaged (python -m bot damaged --help)
  migrate     copy the SQLite database into an empty PostgreSQL database (python -m bot migrate --help)
"""

arguments = sys.argv[1:]
if arguments[:1] == ["demo"]:  # try it in the browser, in a simulated Discord
    from bot.demo import main as demo_main

    raise SystemExit(demo_main(arguments[1:]))
if arguments[:1] == ["ratings"]:
    from bot.rebuild_ratings import main as ratings_main

    raise SystemExit(ratings_main(arguments[1:]))
if arguments[:1] == ["backup"]:
    from bot.backup import main as backup_main

    raise SystemExit(backup_main(arguments[1:]))
if arguments[:1] == ["check"]:
    from bot.check import main as check_main

    raise SystemExit(check_main(arguments[1:]))
if arguments[:1] == ["damaged"]:
    from bot.damaged import main as damaged_main

    raise SystemExit(damaged_main(arguments[1:]))
if arguments[:1] == ["migrate"]:
    from bot.migrate import main as migrate_main

    raise SystemExit(migrate_main(arguments[1:]))
if arguments in (["-h"], ["--help"]):
    print(USAGE, end="")
    raise SystemExit(0)
if arguments:
    print(USAGE, end="", file=sys.stderr)
    print(f"python -m bot: unknown arguments: {' '.join(arguments)}", file=sys.stderr)
    raise SystemExit(2)

from bot.games.engine_declaration import DeclarationError  # noqa: E402

try:
    from bot.app import main  # noqa: E402  (only when starting: --help must not need the bot's dependencies loaded)
except DeclarationError as exc:  # a game package that lacks a part: one line saying which, no traceback
    print(f"python -m bot: {exc}", file=sys.stderr)
    raise SystemExit(2)

raise SystemExit(main())
