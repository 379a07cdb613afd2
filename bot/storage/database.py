"""The one long-lived aiosqlite connection, its pragmas and the numbered migrations."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"(\d{3})_[a-z0-9_]+\.sql")


class DatabaseError(Exception):
    """A database this Strategos cannot use; the message is one line that says what to do."""


class UnwritableDatabase(DatabaseError):
    """The database file or its folder cannot be written by this process: a read-only mount, or another user's."""


class NewerDatabase(DatabaseError):
    """The database was written by a newer Strategos: its schema is ahead of the migrations shipped here."""


def is_storage_full(exc: BaseException) -> bool:
    """The database could not write for want of space: SQLite's SQLITE_FULL ("database or disk is full", also at
    its page limit) or PostgreSQL's disk_full (SQLSTATE 53100). The write was rolled back whole."""
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorname", "").startswith("SQLITE_FULL")
    return getattr(exc, "sqlstate", None) == "53100"  # asyncpg's DiskFullError, without importing asyncpg here


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
# The WAL grows as far as the largest run of writes between two checkpoints (a burst, or a disk filling up) and by
# itself never shrinks: once checkpointed, SQLite cuts it back to this size, so the space comes back.
WAL_SIZE_LIMIT = 64 * 1024 * 1024


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
        _check_writable(Path(path).absolute())
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
            f"journal_size_limit={WAL_SIZE_LIMIT}",
        ):
            async with db.execute(f"PRAGMA {pragma}"):
                pass  # some pragmas answer with a row; close the cursor so COMMIT is never blocked by it
        await migrate(db)
    except BaseException as exc:
        # A read-only file fails here, after connecting: close the connection, whose worker thread would
        # otherwise outlive the event loop that reports the error.
        await db.close()
        said = _classified(exc, Path(str(path))) if isinstance(exc, sqlite3.Error) else None
        if said is None:
            raise
        raise said from exc
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


def _check_writable(path: Path) -> None:
    """Refuse, in words, a database the bot could read but not write: SQLite opens such a file read-only without
    a word and the first write fails (or, in WAL mode, the open fails as "unable to open database file")."""
    folder = path.parent
    if path.exists() and not os.access(path, os.W_OK):
        raise UnwritableDatabase(_read_only(folder) or f"this user (uid {os.getuid()}) may not write the file "
                                                       f"{path}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UnwritableDatabase(_read_only(folder) or f"this user (uid {os.getuid()}) may not write in the folder "
                                                       f"{folder}, where SQLite keeps the -wal and -shm files")


def _read_only(folder: Path) -> str | None:
    if os.statvfs(folder).f_flag & os.ST_RDONLY:
        return f"the folder {folder} is mounted read-only"
    return None


# What SQLite answers when it may not write (a read-only file, folder or mount; the primary code of READONLY_*
# too) or cannot open the file it was given to read, as opposed to a file whose header is not SQLite's.
_UNWRITABLE = {"SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM"}


def _classified(exc: sqlite3.Error, path: Path) -> DatabaseError | None:
    """The error SQLite raised at start-up as one line that says which failure it is; None for another kind."""
    name = getattr(exc, "sqlite_errorname", "")  # the extended name: SQLITE_READONLY_DIRECTORY, …
    if name == "SQLITE_NOTADB":
        return DatabaseError(f"the file is not a SQLite database ({exc})")
    if name.startswith("SQLITE_CORRUPT"):
        return DatabaseError(f"the file is a damaged SQLite database ({exc}); restore it from a backup")
    if any(name == code or name.startswith(code + "_") for code in _UNWRITABLE):
        return UnwritableDatabase(f"SQLite may not write {path} or its folder ({exc})")
    return None


def _probe(path: str) -> None:
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA schema_version")  # reads the header: any file that is not SQLite fails here
    except sqlite3.Error as exc:
        said = _classified(exc, Path(path))
        if said is None:
            raise
        raise said from None
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
