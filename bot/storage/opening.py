"""Opening the store on the database STRATEGOS_DATABASE names: a PostgreSQL URL, or else a SQLite file."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.settings import is_postgres_dsn

from .database import open_database, open_reader
from .lock import DatabaseLock
from .postgres import open_pool
from .repository import Repository

log = logging.getLogger(__name__)


async def open_repository(database: Path | str) -> Repository:
    """The store, its database migrated: on PostgreSQL a pool; on SQLite the writer and, for a file, a reader,
    with the file's lock held shared until the store closes (bot/storage/lock.py)."""
    if is_postgres_dsn(database):
        return Repository(pool=await open_pool(str(database)))
    db = await open_database(database)
    in_memory = str(database) == ":memory:"  # a second connection would see another database
    lock = None
    try:
        if not in_memory:
            lock = take_lock(database)
        return Repository(db, reader=None if in_memory else await open_reader(database), lock=lock)
    except BaseException:
        if lock is not None:
            lock.release()
        await db.close()
        raise


def take_lock(database: Path | str) -> DatabaseLock:
    """The SQLite file's lock, shared; a lock a stopped process left behind is taken over, with a line in the log."""
    lock = DatabaseLock.take(database, exclusive=False)
    said = lock.taken_over()
    if said:
        log.warning("%s", said)
    return lock
