"""The SQL of the timer dispatcher: due timers are claimed in batches, each claim with a lease.

A claim writes who holds the timer (`claimed_by`, one token per batch) and until when (`lease_until`); the timer
is done (`fired_at`) only once its handler finished. A claim whose lease ran out (its process died, or its
handler failed) is due again, so any live process fires it, after the lease. Writing a timer again (the
`ON CONFLICT` re-arms of the stores) clears its claim: the new time is a new timer.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterable, Sequence

import asyncpg

from bot.domain import Timer

from .driver import Driver
from .postgres_pool import DatabaseUnavailable, is_lost_connection
from .set_aside import PARKED_BY
from .sql import Step

log = logging.getLogger(__name__)

_TIMER_COLUMNS = "id, kind, ref_id, seat, due_at"
_NEXT_DUE = ("SELECT (SELECT MIN(due_at) FROM timers WHERE fired_at IS NULL AND lease_until IS NULL),"
             " (SELECT MIN(lease_until) FROM timers WHERE fired_at IS NULL AND lease_until IS NOT NULL)")
NOTIFY_CHANNEL = "strategos_timers"  # PostgreSQL: a timer was written or given back (migration 009's trigger)


class TimerClaims:
    # One process owns a SQLite database (settings refuse several): a claim found at start-up was its own,
    # from before a stop, and nobody else is firing it.
    shared = False

    def __init__(self, driver: Driver):
        self.driver = driver

    async def next_due(self) -> float | None:
        """When the next timer becomes claimable: the earliest unclaimed deadline or running lease."""
        return _earliest((await self.driver.fetch(_NEXT_DUE))[0])

    async def claim_due(self, token: str, now: float, lease_until: float, limit: int) -> list[Timer]:
        """Claim up to `limit` timers due at `now` (unclaimed, or whose lease ran out) for `token`, earliest first."""
        (done,) = await self.driver.write_statements([Step(
            "UPDATE timers SET claimed_by = ?, lease_until = ? WHERE id IN (SELECT id FROM timers"
            " WHERE fired_at IS NULL AND due_at <= ? AND (lease_until IS NULL OR lease_until <= ?)"
            f" ORDER BY due_at, id LIMIT ?) RETURNING {_TIMER_COLUMNS}",
            (token, lease_until, now, now, limit))])
        return _timers(done.rows)

    async def extend(self, token: str, lease_until: float) -> None:
        """Keep the batch's claims that are not done yet: their handlers are still coming."""
        await self.driver.write_statements([(
            "UPDATE timers SET lease_until = ? WHERE claimed_by = ? AND fired_at IS NULL", (lease_until, token))])

    async def complete(self, token: str, timer: Timer, now: float) -> bool:
        """Mark a claimed timer done, unless it was written again meanwhile (a new time, or deleted)."""
        (cur,) = await self.driver.write_statements([(
            "UPDATE timers SET fired_at = ?, lease_until = NULL WHERE id = ? AND claimed_by = ? AND due_at = ?"
            " AND fired_at IS NULL", (now, timer.id, token, timer.due_at))])
        return cur.rowcount == 1

    async def release(self, claimant: str) -> None:
        """Give back this dispatcher's claims that are not done (it stops): due again at once, for anyone."""
        await self.driver.write_statements([(
            "UPDATE timers SET claimed_by = NULL, lease_until = NULL WHERE claimed_by LIKE ? AND fired_at IS NULL",
            (claimant.replace("%", "") + "#%",))])

    async def release_stale(self) -> None:
        """At start-up with a database nobody else uses: every claim is this process's own, from before a stop."""
        if not self.shared:  # a set-aside match's timers are no dispatcher's claim: they keep waiting
            await self.driver.write_statements([(
                "UPDATE timers SET claimed_by = NULL, lease_until = NULL"
                " WHERE claimed_by IS NOT NULL AND claimed_by != ? AND fired_at IS NULL", (PARKED_BY,))])

    async def arm_unless_claimed(self, kind: str, ref_id: int, due_at: float, seat: int = -1) -> None:
        """Arm a timer unless a dispatcher holds it: a process starting does not take another's work away."""
        await self.driver.write_statements([(
            "INSERT INTO timers (kind, ref_id, seat, due_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (kind, ref_id, seat) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL,"
            " claimed_by = NULL, lease_until = NULL WHERE timers.fired_at IS NOT NULL OR timers.claimed_by IS NULL",
            (kind, ref_id, seat, due_at))])

    async def listen(self, wake: Callable[[float], None]) -> None:
        """Nothing to hear: every timer of this database is written by this process, which wakes its dispatcher."""

    async def close(self) -> None:
        pass


class PostgresTimerClaims(TimerClaims):
    """The same claims on PostgreSQL, shared by every bot process: a batch is taken with `FOR UPDATE SKIP LOCKED`,
    so two dispatchers claiming at once take different timers without waiting for each other, and each process
    listens for timers the others write (NOTIFY), looking periodically as well in case a notification is lost.
    The rest is the SQLite claims' own SQL, through the store (a lost connection is "try again" there too)."""

    shared = True

    def __init__(self, driver: Driver):
        super().__init__(driver)
        self._listener: asyncpg.Connection | None = None  # a connection of the pool, held while listening
        self._wake: Callable[[float], None] = lambda due_at: None

    def _heard(self, _connection: object, _pid: int, _channel: str, payload: object) -> None:
        self._wake(float(str(payload)))  # NOTIFY's payload: the due time as text

    async def claim_due(self, token: str, now: float, lease_until: float, limit: int) -> list[Timer]:
        rows = await self.driver.fetch(
            "WITH due AS (SELECT id FROM timers WHERE fired_at IS NULL AND due_at <= ?"
            " AND (lease_until IS NULL OR lease_until <= ?) ORDER BY due_at, id LIMIT ? FOR UPDATE SKIP LOCKED)"
            " UPDATE timers AS t SET claimed_by = ?, lease_until = ? FROM due WHERE t.id = due.id"
            " RETURNING t.id, t.kind, t.ref_id, t.seat, t.due_at", (now, now, limit, token, lease_until))
        return _timers(rows)

    async def close(self) -> None:
        if self._listener is not None:
            listener, self._listener = self._listener, None
            try:
                if not listener.is_closed():
                    await listener.remove_listener(NOTIFY_CHANNEL, self._heard)
            except Exception as exc:  # the server dropped it (a restart): it is given back to be thrown away
                if not is_lost_connection(exc):
                    raise
            await self.driver.release(listener)

    async def listen(self, wake: Callable[[float], None]) -> None:
        """Hear the timers other processes write, on a connection of its own; again after it was lost."""
        if self._listener is not None and not self._listener.is_closed():
            return
        await self.close()
        self._wake = wake
        try:
            self._listener = await self.driver.acquire()
            await self._listener.add_listener(NOTIFY_CHANNEL, self._heard)
        except Exception as exc:
            if not (isinstance(exc, (DatabaseUnavailable, asyncpg.PostgresError)) or is_lost_connection(exc)):
                raise
            log.warning("cannot listen for other processes' timers (%s); looking periodically instead", exc)
            await self.close()


def _earliest(row: Sequence[Any]) -> float | None:
    times = [value for value in row if value is not None]
    return min(times) if times else None


def _timers(rows: Iterable[Sequence[Any]]) -> list[Timer]:
    """Claimed rows as timers, earliest first (a batch fires in this order)."""
    return sorted((Timer(r[0], r[1], r[2], r[3], r[4]) for r in rows), key=lambda t: (t.due_at, t.id))
