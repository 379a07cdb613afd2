"""`python -m bot ratings --rebuild`: recompute every rating from the stored match results.

An entry point beside the bot (bot/ratings stays pure): imported by nothing but `bot.__main__`.
Safe while the bot runs: the replay runs outside any transaction and the tables converge on it in short
transactions with pauses between them, so the bot's writes wait milliseconds, not the whole rebuild.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Sequence

from bot.matches.ratings import Ratings, RebuildSummary
from bot.ratings import RatingError
from bot.settings import Settings, SettingsError, is_postgres_dsn
from bot.storage import DatabaseError
from bot.storage.opening import open_repository


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot ratings",
        description="Ratings are derived from finished rated matches; rebuild them after changing the rating "
                    "model or repairing match results.",
    )
    p.add_argument("--rebuild", action="store_true", help="recompute all ratings from the stored matches")
    p.add_argument("--database", type=_database,
                   help="SQLite file or postgresql:// URL (default: STRATEGOS_DATABASE from the settings)")
    return p


def _database(text: str) -> Path | str:
    return text if is_postgres_dsn(text) else Path(text)


async def rebuild(database: Path | str) -> RebuildSummary:
    repo = await open_repository(database)
    try:
        return await Ratings(repo).rebuild()
    finally:
        await repo.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not args.rebuild:
        parser().print_usage(sys.stderr)
        print("nothing to do: add --rebuild", file=sys.stderr)
        return 2
    try:
        database = args.database or Settings.load().database
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if isinstance(database, Path) and not database.exists():
        # open_database would create an empty one; rebuilding nothing there is a typo, not a success.
        print(f"error: no database at {database}", file=sys.stderr)
        return 1
    try:
        summary = asyncio.run(rebuild(database))
    except (DatabaseError, RatingError) as error:
        where = "the PostgreSQL database" if isinstance(database, str) else database  # a URL may hold a password
        print(f"error: {where}: {error}", file=sys.stderr)
        return 1
    print(summary.line())
    for _, reason in summary.skipped:
        print(f"  skipped {reason}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
