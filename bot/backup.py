"""`python -m bot backup PATH`: a consistent copy of the bot's SQLite database, verified before it is said to be done.

An entry point beside the bot, imported by nothing but `bot.__main__`. Safe while the bot runs: the copy is SQLite's
online backup of one read transaction (WAL: a snapshot that never waits for the bot's writes nor holds them up), so
it holds every move committed before it began and nothing after. The copy is written beside PATH under another
name, checked (`PRAGMA integrity_check`, and the same schema version and number of matches as the snapshot), and
only then renamed to PATH. A PostgreSQL database is backed up with its own tool, pg_dump (docs/operating.md).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bot.settings import Settings, SettingsError, is_postgres_dsn


class BackupError(Exception):
    """The copy was not made; the message is one line that says why."""


@dataclass(frozen=True)
class Snapshot:
    """What the copy must hold, read in the same read transaction as the pages copied."""

    schema: int
    matches: int


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy the SQLite database to PATH while the bot runs, and check the copy before saying done. "
                    "Restore by stopping the bot and putting the copy in the database's place (docs/operating.md).")
    p.add_argument("path", type=Path, metavar="PATH", help="the file to write the copy to")
    p.add_argument("--force", action="store_true", help="replace PATH if it exists")
    p.add_argument("--database", metavar="FILE", help="SQLite file (default: STRATEGOS_DATABASE from the settings)")
    return p


def backup(source: Path, target: Path, *, force: bool = False) -> Snapshot:
    """Copy the database at `source` to `target`, verified; what the copy holds. Raises BackupError."""
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if target.exists() and not force:
        raise BackupError(f"{target} exists; add --force to replace it")
    if target.exists() and target.resolve() == source.resolve():
        raise BackupError(f"{target} is the database itself; name another file")
    folder = target.absolute().parent
    if not folder.is_dir():
        raise BackupError(f"the folder {folder} does not exist; create it first")
    handle, name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".partial")
    os.close(handle)
    partial = Path(name)
    try:
        snapshot = _copy(source, partial)
        _verify(partial, snapshot)
        os.replace(partial, target)
        _sync_folder(folder)  # the new name survives a power loss too
    except sqlite3.Error as exc:
        raise BackupError(f"{source}: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return snapshot


def _copy(source: Path, partial: Path) -> Snapshot:
    # query_only: the backup changes nothing of the bot's data. (A mode=ro connection could not remove the -wal
    # and -shm files it opened when the bot is stopped: it would leave them behind.)
    src = sqlite3.connect(source, isolation_level=None)
    try:
        src.execute("PRAGMA query_only = ON")
        src.execute("PRAGMA busy_timeout = 5000")
        src.execute("BEGIN")  # one read transaction: the snapshot read below is the one the backup copies
        snapshot = _snapshot(src, source)
        dst = sqlite3.connect(partial, isolation_level=None)
        try:
            src.backup(dst)  # every page at once, inside the transaction above
            dst.execute("PRAGMA journal_mode = DELETE")  # the copy is one file, without -wal or -shm
        finally:
            dst.close()
        src.execute("COMMIT")
    finally:
        src.close()
    return snapshot


def _snapshot(conn: sqlite3.Connection, path: Path) -> Snapshot:
    (schema,) = conn.execute("PRAGMA user_version").fetchone()
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'matches'").fetchone():
        raise BackupError(f"{path} is not a Strategos database (it has no matches)")
    (matches,) = conn.execute("SELECT count(*) FROM matches").fetchone()
    return Snapshot(schema, matches)


def _verify(partial: Path, snapshot: Snapshot) -> None:
    copy = sqlite3.connect(partial)
    try:
        problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
        if problems == ["ok"]:
            found = _snapshot(copy, partial)
    except sqlite3.DatabaseError as exc:  # a page too damaged to be checked
        problems = [str(exc)]
    finally:
        copy.close()
    if problems != ["ok"]:
        raise BackupError(f"the copy failed its integrity check ({problems[0]}); nothing was written")
    if found != snapshot:
        raise BackupError(f"the copy holds schema {found.schema} and {found.matches} matches, the database "
                          f"schema {snapshot.schema} and {snapshot.matches}; nothing was written")


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def pg_dump_command(dsn: str, target: Path) -> str:
    """The pg_dump command that backs up the database at `dsn` to `target`, without the URL's password (pg_dump
    reads it from PGPASSWORD or ~/.pgpass)."""
    parts = urlsplit(dsn)
    netloc = parts.netloc
    if "@" in netloc:
        user, host = netloc.rsplit("@", 1)
        netloc = f"{user.split(':', 1)[0]}@{host}"
    query = urlencode([(key, value) for key, value in parse_qsl(parts.query) if key != "password"])
    url = urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    return f"pg_dump --format=custom --file={shlex.quote(str(target))} {shlex.quote(url)}"


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        database = args.database or Settings.load().database
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if is_postgres_dsn(database):
        print(f"error: the database is PostgreSQL, which backs up with its own tool: "
              f"{pg_dump_command(str(database), args.path)}", file=sys.stderr)
        return 2
    try:
        snapshot = backup(Path(database), args.path, force=args.force)
    except BackupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"backed up {database} to {args.path}: schema {snapshot.schema}, {snapshot.matches} matches, "
          f"integrity ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
