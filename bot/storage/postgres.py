"""Opening Strategos's PostgreSQL database: one asyncpg pool, its migrations applied before it serves anything."""

from __future__ import annotations

import asyncpg

from .postgres_schema import migrate

POOL_SIZE = 10  # connections: each unit of work is one transaction on one of them, each read takes one briefly


async def open_pool(dsn: str, *, max_size: int = POOL_SIZE) -> asyncpg.Pool:
    """A pool on the database `dsn` names, migrated (processes starting together apply each migration once)."""
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=max_size)
    try:
        async with pool.acquire() as conn:
            await migrate(conn)
    except BaseException:
        await pool.close()
        raise
    return pool
