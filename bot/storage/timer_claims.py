"""The SQL of the timer dispatcher: due timers are claimed in batches, each claim with a lease.

A claim writes who holds the timer (`claimed_by`, one token per batch) and until when (`lease_until`); the timer
is done (`fired_at`) only once its handler finished. A claim whose lease ran out (its process died, or its
handler failed) is due again, so any live process fires it, after the lease. Writing a timer again (the
`ON CONFLICT` re-arms of the stores) clears its claim: the new time is a new timer.
"""

from __future__ import annotations

import functools
import sqlite3

from .records import Timer
from .repository import Repository, read

_TIMER_COLUMNS = "id, kind, ref_id, seat, due_at"


class TimerClaims:
    # One process owns a SQLite database (settings refuse several): a claim found at start-up was its own,
    # from before a stop, and nobody else is firing it.
    shared = False

    def __init__(self, repo: Repository):
        self.repo = repo

    async def next_due(self) -> float | None:
        """When the next timer becomes claimable: the earliest unclaimed deadline or running lease."""
        async with read(self.repo.reader,
                        "SELECT (SELECT MIN(due_at) FROM timers WHERE fired_at IS NULL AND lease_until IS NULL),"
                        " (SELECT MIN(lease_until) FROM timers WHERE fired_at IS NULL AND lease_until IS NOT NULL)"
                        ) as cur:
            row = await cur.fetchone()
        times = [value for value in row if value is not None]
        return min(times) if times else None

    async def claim_due(self, token: str, now: float, lease_until: float, limit: int) -> list[Timer]:
        """Claim up to `limit` timers due at `now` (unclaimed, or whose lease ran out) for `token`, earliest first."""
        return await self.repo.run_unit(functools.partial(_claim, token=token, now=now, lease_until=lease_until,
                                                          limit=limit))

    async def extend(self, token: str, lease_until: float) -> None:
        """Keep the batch's claims that are not done yet: their handlers are still coming."""
        await self.repo._write([(
            "UPDATE timers SET lease_until = ? WHERE claimed_by = ? AND fired_at IS NULL", (lease_until, token))])

    async def complete(self, token: str, timer: Timer, now: float) -> bool:
        """Mark a claimed timer done, unless it was written again meanwhile (a new time, or deleted)."""
        (cur,) = await self.repo._write([(
            "UPDATE timers SET fired_at = ?, lease_until = NULL WHERE id = ? AND claimed_by = ? AND due_at = ?"
            " AND fired_at IS NULL", (now, timer.id, token, timer.due_at))])
        return cur.rowcount == 1

    async def release(self, claimant: str) -> None:
        """Give back this dispatcher's claims that are not done (it stops): due again at once, for anyone."""
        await self.repo._write([(
            "UPDATE timers SET claimed_by = NULL, lease_until = NULL WHERE claimed_by LIKE ? AND fired_at IS NULL",
            (claimant.replace("%", "") + "#%",))])

    async def release_stale(self) -> None:
        """At start-up with a database nobody else uses: every claim is this process's own, from before a stop."""
        if not self.shared:
            await self.repo._write([(
                "UPDATE timers SET claimed_by = NULL, lease_until = NULL"
                " WHERE claimed_by IS NOT NULL AND fired_at IS NULL", ())])

    async def arm_unless_claimed(self, kind: str, ref_id: int, due_at: float, seat: int = -1) -> None:
        """Arm a timer unless a dispatcher holds it: a process starting does not take another's work away."""
        await self.repo._write([(
            "INSERT INTO timers (kind, ref_id, seat, due_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (kind, ref_id, seat) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL,"
            " claimed_by = NULL, lease_until = NULL WHERE timers.fired_at IS NOT NULL OR timers.claimed_by IS NULL",
            (kind, ref_id, seat, due_at))])


def _claim(conn: sqlite3.Connection, *, token: str, now: float, lease_until: float, limit: int) -> list[Timer]:
    rows = conn.execute(
        "UPDATE timers SET claimed_by = ?, lease_until = ? WHERE id IN (SELECT id FROM timers"
        " WHERE fired_at IS NULL AND due_at <= ? AND (lease_until IS NULL OR lease_until <= ?)"
        f" ORDER BY due_at, id LIMIT ?) RETURNING {_TIMER_COLUMNS}",
        (token, lease_until, now, now, limit)).fetchall()
    return sorted((Timer(r[0], r[1], r[2], r[3], r[4]) for r in rows), key=lambda t: (t.due_at, t.id))
