"""The one long-lived aiosqlite connection, its pragmas and the numbered migrations."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"(\d{3})_[a-z0-9_]+\.sql")


class DatabaseError(Exception):
    """A database this Strategos cannot use; the message is one line that says what to do."""


class NewerDatabase(DatabaseError):
    """The database was written by a newer Strategos: its schema is ahead of the migrations shipped here."""


def migration_files(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """(number, name, sql) for every migration shipped in bot/storage/migrations/<dialect>, in order. Each dialect
    (sqlite, postgresql) has its own folder; a number means the same schema in both."""
    found = []
    for entry in resources.files("bot.storage").joinpath("migrations", dialect).iterdir():
        m = _MIGRATION_NAME.fullmatch(entry.name)
        if m:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


# FULL: a committed move survives a power loss of the machine, not only a crash of the bot (NORMAL with WAL). With
# group commit it costs one flush per group of units, which measured within noise of NORMAL in a burst of 1,000
# moves on a quiet machine (move-written p99 medians 655 and 707 ms; docs/performance.md): the 10 % it was allowed.
SYNCHRONOUS = "FULL"


async def open_database(path: str | Path, *, synchronous: str = SYNCHRONOUS) -> aiosqlite.Connection:
    """Open the database, set the pragmas the bot relies on and apply pending migrations. `synchronous`:
    FULL (durable across power loss) or NORMAL (durable across crashes of the bot only)."""
    if synchronous not in ("FULL", "NORMAL"):
        raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
    if str(path) != ":memory:":
        folder = Path(path).absolute().parent
        if folder.exists() and not folder.is_dir():
            raise DatabaseError(f"{folder} is a file, not a folder")
        if not folder.exists():
            # Creating it would turn a typo in the path into a second, empty database somewhere else.
            raise DatabaseError(f"the folder {folder} does not exist; create it first")
        # Probe with plain sqlite3 first: a failed aiosqlite connect leaves its worker thread answering a loop
        # that may be gone by then (a burst of "Event loop is closed" tracebacks after the error line).
        await asyncio.to_thread(_probe, str(path))
    db = await aiosqlite.connect(str(path), isolation_level=None)  # we issue BEGIN/COMMIT ourselves
    db.row_factory = aiosqlite.Row
    try:
        for pragma in (
            "journal_mode=WAL",
            "foreign_keys=ON",
            "busy_timeout=5000",
            f"synchronous={synchronous}",
        ):
            async with db.execute(f"PRAGMA {pragma}"):
                pass  # some pragmas answer with a row; close the cursor so COMMIT is never blocked by it
        await migrate(db)
    except BaseException:
        # A read-only file fails here, after connecting: close the connection, whose worker thread would
        # otherwise outlive the event loop that reports the error.
        await db.close()
        raise
    return db


async def open_reader(path: str | Path) -> aiosqlite.Connection:
    """A second, read-only connection to a database open_database already opened and migrated: with WAL its
    reads never wait for the writer's transactions, and they see only what was committed."""
    db = await aiosqlite.connect(str(path), isolation_level=None)
    db.row_factory = aiosqlite.Row
    try:
        for pragma in ("query_only=ON", "busy_timeout=5000"):
            async with db.execute(f"PRAGMA {pragma}"):
                pass
    except BaseException:
        await db.close()
        raise
    return db


def _probe(path: str) -> None:
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA schema_version")  # reads the header: any file that is not SQLite fails here
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"the file is not a SQLite database ({exc})") from None
    finally:
        connection.close()


async def migrate(db: aiosqlite.Connection) -> list[int]:
    async with db.execute("PRAGMA user_version") as cur:
        (current,) = await cur.fetchone()  # type: ignore[misc]  # this PRAGMA always gives one row
    migrations = migration_files()
    known = migrations[-1][0] if migrations else 0
    if current > known:
        raise NewerDatabase(f"the database was written by a newer Strategos (schema {current}, this one knows up "
                            f"to {known}): update Strategos, or point STRATEGOS_DATABASE at another file")
    applied = []
    for number, name, sql in migrations:
        if number <= current:
            continue
        log.info("applying migration %s", name)
        # executescript commits first; the whole migration and its version bump land together.
        await db.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        applied.append(number)
    return applied
