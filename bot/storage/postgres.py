"""Opening Strategos's PostgreSQL database: one asyncpg pool, its migrations applied before it serves anything."""

from __future__ import annotations

import asyncpg

from .postgres_schema import migrate

POOL_SIZE = 10  # connections: each unit of work is one transaction on one of them, each read takes one briefly


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What the pool does to a connection it gets back, besides rolling back a transaction left open: nothing.
    Strategos sets no session state (no LISTEN, session locks, cursors or SET), so asyncpg's default reset query
    would be one more round trip per read and per unit for nothing."""


async def open_pool(dsn: str, *, max_size: int = POOL_SIZE) -> asyncpg.Pool:
    """A pool on the database `dsn` names, migrated (processes starting together apply each migration once)."""
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=max_size, reset=_keep_session)
    try:
        async with pool.acquire() as conn:
            await migrate(conn)
    except BaseException:
        await pool.close()
        raise
    return pool
