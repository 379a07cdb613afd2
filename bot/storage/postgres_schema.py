"""PostgreSQL's schema: the numbered migrations of bot/storage/migrations/postgresql, applied through asyncpg.

PostgreSQL has no `user_version`, so `schema_version` keeps one row per applied migration. Each migration and its
row land in one transaction that first takes a transaction-scoped advisory lock: processes starting together queue
on it, and each finds the migrations the first one applied already recorded."""

from __future__ import annotations

import logging

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.database import NewerDatabase, migration_files

log = logging.getLogger(__name__)

# Any fixed 64-bit number, the same in every Strategos process: the key of the advisory lock migrations hold.
MIGRATION_LOCK = 0x5354524154454753  # "STRATEGS"

_SCHEMA_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)"""


async def schema_version(conn: asyncpg.Connection | PoolConnectionProxy) -> int:
    """The newest migration applied to this database (0: none, or no schema_version table yet)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")


async def migrate(conn: asyncpg.Connection | PoolConnectionProxy) -> list[int]:
    """Apply the pending migrations, each in its own transaction with its schema_version row; return the numbers
    this call applied. Raises NewerDatabase when the database's schema is ahead of the migrations shipped here."""
    migrations = migration_files("postgresql")
    known = migrations[-1][0]
    applied: list[int] = []
    while True:
        async with conn.transaction():
            # Held until this transaction ends: one migrating process at a time, per database.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(_SCHEMA_VERSION_TABLE)
            current = await schema_version(conn)
            if current > known:
                raise NewerDatabase(
                    f"the database was written by a newer Strategos (schema {current}, this one knows up to "
                    f"{known}): update Strategos, or point STRATEGOS_DATABASE at another database")
            pending = [(number, name, sql) for number, name, sql in migrations if number > current]
            if not pending:
                return applied
            number, name, sql = pending[0]
            log.info("applying migration %s", name)
            await conn.execute(sql)  # no arguments: the simple protocol, which runs a script of statements
            await conn.execute("INSERT INTO schema_version (version, name) VALUES ($1, $2)", number, name)
        applied.append(number)
