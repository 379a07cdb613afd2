"""`python -m bot` starts the bot; `python -m bot demo` tries it in a browser; `python -m bot ratings --rebuild`
recomputes every rating from the results; `python -m bot backup PATH` copies the SQLite database while it runs."""

import sys

USAGE = """usage: python -m bot [-h]
       python -m bot demo [--help]
       python -m bot ratings --rebuild [--database FILE]
       python -m bot backup PATH [--force] [--database FILE]

Start the Strategos Discord bot. Settings come from the environment and .env (DISCORD_TOKEN, STRATEGOS_DATABASE,
STRATEGOS_DEV_GUILD, STRATEGOS_LOG_LEVEL, STRATEGOS_CHALLENGE_HOURS, STRATEGOS_VACATION_DAYS, STRATEGOS_SHARD_COUNT,
STRATEGOS_SHARDS); see README.md.

commands:
  demo        try Strategos in your browser, in a simulated Discord (python -m bot demo --help)
  ratings     recompute every rating from the stored results (python -m bot ratings --help)
  backup      copy the SQLite database to PATH while the bot runs, verified (python -m bot backup --help)
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
