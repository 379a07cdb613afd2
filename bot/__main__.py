"""`python -m bot` starts the bot; `python -m bot ratings --rebuild` recomputes every rating from the results."""

import sys

USAGE = """usage: python -m bot [-h]
       python -m bot ratings --rebuild [--database FILE]

Start the Strategos Discord bot. Settings come from the environment and .env (DISCORD_TOKEN, STRATEGOS_DATABASE,
STRATEGOS_DEV_GUILD, STRATEGOS_LOG_LEVEL, STRATEGOS_CHALLENGE_HOURS); see README.md.

commands:
  ratings     recompute every rating from the stored results (python -m bot ratings --help)
"""

arguments = sys.argv[1:]
if arguments[:1] == ["ratings"]:
    from bot.rebuild_ratings import main as ratings_main

    raise SystemExit(ratings_main(arguments[1:]))
if arguments in (["-h"], ["--help"]):
    print(USAGE, end="")
    raise SystemExit(0)
if arguments:
    print(USAGE, end="", file=sys.stderr)
    print(f"python -m bot: unknown arguments: {' '.join(arguments)}", file=sys.stderr)
    raise SystemExit(2)

from bot.app import main  # noqa: E402  (only when starting: --help must not need the bot's dependencies loaded)

raise SystemExit(main())
