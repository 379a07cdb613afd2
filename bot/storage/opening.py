"""Opening the store on the database STRATEGOS_DATABASE names: a PostgreSQL URL, or else a SQLite file."""

from __future__ import annotations

from pathlib import Path

from bot.settings import is_postgres_dsn

from .database import open_database, open_reader
from .postgres import open_pool
from .repository import Repository


async def open_repository(database: Path | str) -> Repository:
    """The store, its database migrated: on PostgreSQL a pool; on SQLite the writer and, for a file, a reader."""
    if is_postgres_dsn(database):
        return Repository(pool=await open_pool(str(database)))
    db = await open_database(database)
    in_memory = str(database) == ":memory:"  # a second connection would see another database
    try:
        return Repository(db, reader=None if in_memory else await open_reader(database))
    except BaseException:
        await db.close()
        raise
