"""The stores of one database over one driver, as the match service reaches them.

The driver (bot/storage/driver.py) owns the connections, the units of work, the group commit and the dialects;
each store owns the SQL of one aggregate and uses only the driver's public face. A `Repository` is the match
service's one object for them: it is the four stores of a match's own aggregates at once (matches, challenges,
timers, private messages: the names the service calls, `repo.get_match`, `repo.commit_move` …) and holds the
other stores as attributes (`leagues`, `plans`, `ratings`, `clocks`, `outbox`, `damaged`: the matches set
aside, `conversations`: what answers where the bot is no member, `analyses`: the analyses asked for). None of
them calls another's private methods; a unit that spans two aggregates (a challenge starting its match) belongs to
the store of what it creates and uses the other's public step builders (bot/storage/timers.py).
"""

from __future__ import annotations

from typing import Any

import aiosqlite

from .analyses import AnalysisStore
from .challenges import ChallengeStore
from .clocks import ClockStore
from .conversations import ConversationStore
from .driver import Driver
from .leagues import LeagueStore
from .lock import DatabaseLock
from .matches import MatchStore
from .outbox import OutboxStore
from .plans import PlanStore
from .private_messages import PrivateMessageStore
from .rating_store import RatingStore
from .set_aside import SetAsideStore
from .timer_claims import PostgresTimerClaims, TimerClaims
from .timers import TimerStore


class Repository(MatchStore, ChallengeStore, TimerStore, PrivateMessageStore):
    """On SQLite: `db`, the writing connection, and `reader`. On PostgreSQL: `pool` (see bot/storage/postgres.py).
    The driver is `driver`; every store shares it. `lock`: the SQLite file's lock, let go when the store closes."""

    def __init__(self, db: aiosqlite.Connection | None = None, reader: aiosqlite.Connection | None = None, *,
                 pool: Any = None, lock: DatabaseLock | None = None):
        self.lock = lock
        driver = Driver(db, reader, pool=pool)
        MatchStore.__init__(self, driver)  # the others keep only the driver, which this sets for all of them
        self.leagues = LeagueStore(driver)
        self.plans = PlanStore(driver)
        self.ratings = RatingStore(driver)
        self.clocks = ClockStore(driver)
        self.outbox = OutboxStore(driver)
        self.damaged = SetAsideStore(driver)
        self.conversations = ConversationStore(driver)
        self.analyses = AnalysisStore(driver)

    @property
    def dialect(self) -> str:
        return self.driver.dialect

    def timer_claims(self) -> TimerClaims:
        """New timer claims on this database (one per dispatcher: on PostgreSQL each holds its own listener)."""
        return PostgresTimerClaims(self.driver) if self.driver.dialect == "postgresql" else TimerClaims(self.driver)

    async def ping(self) -> None:
        """One trivial read: the database answers (the health check, bot/metrics.py)."""
        await self.driver.fetchvalue("SELECT 1")

    async def close(self) -> None:
        try:
            await self.driver.close()
        finally:
            if self.lock is not None:
                self.lock.release()
