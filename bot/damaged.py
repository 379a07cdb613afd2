"""`python -m bot damaged list | end N | restore N --from BACKUP`: the operator's side of damaged matches.

The bot sets a damaged match aside (bot/matches/damage.py) and says so once in its log; these commands list those
matches, end one (finished as aborted: unrated, nobody wins; its timers dropped, its league goes on) or restore one
from a backup made by `python -m bot backup` (its rows copied back, checked first, the mark cleared). They run beside
the bot, on SQLite or PostgreSQL, each change one transaction. An entry point imported by nothing but bot.__main__.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from bot.domain import DamagedMatch
from bot.games.engines import get_game
from bot.settings import Settings, SettingsError, is_postgres_dsn
from bot.storage import DatabaseError, Repository
from bot.storage.opening import open_repository
from bot.storage.set_aside import MatchRows, NotSetAside, SetAside


class Refused(Exception):
    """Nothing was changed; the message is one line that says why."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot damaged",
                                description="The matches the bot set aside because their stored record is damaged: "
                                            "list them, end one, or restore one from a backup (docs/operating.md).")
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument("--database", metavar="DATABASE",
                          help="SQLite file or postgresql:// URL (default: STRATEGOS_DATABASE from the settings)")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("list", parents=[database], help="the set-aside matches, one line each")
    end = commands.add_parser("end", parents=[database], help="end a set-aside match as aborted (unrated, nobody wins)")
    end.add_argument("match", type=int, metavar="N")
    restore = commands.add_parser("restore", parents=[database],
                                  help="copy a set-aside match back from a backup (python -m bot backup)")
    restore.add_argument("match", type=int, metavar="N")
    restore.add_argument("--from", dest="backup", required=True, metavar="BACKUP",
                         help="a SQLite backup (python -m bot backup), or the postgresql:// URL of a database a "
                              "pg_dump backup was restored into")
    return p


def line_of(found: SetAside) -> str:
    """One set-aside match as `list` prints it."""
    since = (datetime.fromtimestamp(found.since, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
             if found.since is not None else "?")
    thread = f" https://discord.com/channels/{found.guild_id}/{found.thread_id}" if found.thread_id else ""
    players = ", ".join(map(str, found.players)) or "none found"
    ended = "ended (aborted)" if found.status == "finished" else found.status
    return (f"#{found.match_id} {found.game} {ended} at version {found.version}, set aside {since}: {found.reason};"
            f" players {players}{thread}")


async def set_aside_one(repo: Repository, match_id: int) -> SetAside:
    for found in await repo.damaged.set_aside_matches():
        if found.match_id == match_id:
            return found
    raise Refused(f"match #{match_id} is not set aside (see python -m bot damaged list)")


async def end(repo: Repository, match_id: int, now: float) -> str:
    found = await set_aside_one(repo, match_id)
    try:
        league = await repo.damaged.end(match_id, now)
    except NotSetAside:
        raise Refused(f"match #{match_id} is over already; nothing to end") from None
    said = f"ended match #{match_id} as aborted: unrated, nobody wins, its timers dropped"
    if league is not None:
        said += f"; its table in league {league} counts as played (every player placed alike)"
    thread = f" (its thread: https://discord.com/channels/{found.guild_id}/{found.thread_id})" if found.thread_id else ""
    return f"{said}. Its players no longer see it among their matches; tell them why in its thread{thread}."


async def restore(repo: Repository, match_id: int, backup: str) -> str:
    found = await set_aside_one(repo, match_id)
    rows = await rows_from_backup(backup, match_id)
    await repo.damaged.restore(rows)
    return (f"restored match #{match_id} from {named(backup)} at version {rows.match['version']} (the damaged record was "
            f"at version {found.version}; moves after the backup are not in it). It plays again: its timers run, "
            f"and /board posts its board.")


def named(backup: str) -> str:
    """The backup as a line may name it: a URL's password never shows."""
    return "the backup database" if is_postgres_dsn(backup) else backup


async def rows_from_backup(backup: str, match_id: int) -> MatchRows:
    """The match's rows in the backup, checked as the bot would load them. A SQLite backup itself is never
    written: a copy of it is opened (and migrated, if it is older than this Strategos); a PostgreSQL one is a
    database the operator restored the dump into, migrated like any."""
    if is_postgres_dsn(backup):
        return await checked_rows(await open_repository(backup), backup, match_id)
    if not Path(backup).is_file():
        raise Refused(f"no backup at {backup}")
    with tempfile.TemporaryDirectory(prefix="strategos-restore-") as folder:
        copy = Path(folder) / "backup.db"
        shutil.copyfile(backup, copy)
        return await checked_rows(await open_repository(copy), backup, match_id)


async def checked_rows(source: Repository, backup: str, match_id: int) -> MatchRows:
    try:
        rows = await source.damaged.match_rows(match_id)
        if rows is None:
            raise Refused(f"{named(backup)} holds no match #{match_id}")
        try:
            match = await source.get_match(match_id)
            assert match is not None  # its row was just read
            get_game(match.game).load(match.state)
        except DamagedMatch as damage:
            raise Refused(f"match #{match_id} is damaged in the backup too ({damage.reason}); "
                          "choose an older backup") from None
        except Exception as exc:  # the engine's load refuses it
            raise Refused(f"match #{match_id} is damaged in the backup too (its engine refuses its state: "
                          f"{exc}); choose an older backup") from None
        return rows
    finally:
        await source.close()


async def run(args: argparse.Namespace, database: Path | str) -> str:
    if not is_postgres_dsn(database) and not Path(database).exists():
        raise Refused(f"no database at {database}")  # opening it would create an empty one
    repo = await open_repository(database)
    try:
        if args.command == "list":
            found = await repo.damaged.set_aside_matches()
            return "\n".join(line_of(f) for f in found) if found else "no match is set aside"
        if args.command == "end":
            return await end(repo, args.match, time.time())
        return await restore(repo, args.match, args.backup)
    finally:
        await repo.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        print(asyncio.run(run(args, args.database or Settings.load().database)))
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (Refused, DatabaseError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
