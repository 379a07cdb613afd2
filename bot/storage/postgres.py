"""Opening Strategos's PostgreSQL database: one asyncpg pool, its migrations applied before it serves anything."""

from __future__ import annotations

import asyncpg

from . import postgres_pool

POOL_SIZE = 10  # connections: each unit of work is one transaction on one of them, each read takes one briefly


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What the pool does to a connection it gets back, besides rolling back a transaction left open: nothing.
    Strategos leaves no session state (no session locks, cursors or SET; the timer listener's LISTEN ends before
    its connection goes back: bot/storage/timer_claims.py), so asyncpg's default reset query
    would be one more round trip per read and per unit for nothing."""


async def open_pool(dsn: str, *, max_size: int = POOL_SIZE) -> asyncpg.Pool:
    """A pool on the database `dsn` names, migrated (processes starting together apply each migration once).
    A server that can't be reached, a refused password, a missing database or a newer schema raise DatabaseError
    with one line (bot/storage/postgres_pool.py)."""
    return await postgres_pool.open_pool(dsn, min_size=1, max_size=max_size, reset=_keep_session)
