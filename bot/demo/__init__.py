"""`python -m bot demo`: try Strategos in the browser, without a Discord account.

The real bot (the same `create_bot()`, cogs, service, presenters and SQLite database) runs inside SimCord, a
simulated Discord, with a server, a #games channel and two local members; the page on 127.0.0.1 shows that
Discord as either member sees it. Nothing leaves the machine. Needs the `demo` extra (`pip install -e ".[demo]"`).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
from pathlib import Path

DEFAULT_PORT = 8750  # taken? the demo says so and takes the next free one
NEEDED = ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex")  # SimCord's preview and what it uses


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot demo",
        description="Play Strategos in your browser against a simulated Discord: no account, no token, "
                    "nothing sent anywhere.")
    parser.add_argument("--port", type=int, default=None,
                        help=f"port on 127.0.0.1 (default {DEFAULT_PORT}, or the next free one; 0: any free port)")
    parser.add_argument("--database", type=Path, default=None,
                        help="SQLite file to keep the demo's matches in (default: a temporary file, removed at "
                             "exit)")
    parser.add_argument("--no-browser", action="store_true", help="only print the address; open no browser")
    args = parser.parse_args(argv)
    if args.port is not None and not 0 <= args.port <= 65535:
        parser.error(f"--port must be between 0 and 65535, not {args.port}")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        print('strategos demo: the demo needs its extra: pip install -e ".[demo]" '
              f"(missing: {', '.join(missing)})", file=sys.stderr)
        return 2
    # Imported only now, so a missing extra gets the one line above and not a traceback.
    from .run import run

    return asyncio.run(run(port=args.port, default_port=DEFAULT_PORT, database=args.database,
                           open_browser=not args.no_browser))
