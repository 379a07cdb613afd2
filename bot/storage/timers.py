"""The timers' SQL that arms and drops them: one row per (kind, reference, seat), due at a time.

A match's timers use its id as reference (a seat's clock timers their seat, the rest seat -1); a league's use the
negated league id, so a finished match, which drops every timer of its id, never touches a league's. Claiming
and firing due timers is bot/storage/timer_claims.py.
"""

from __future__ import annotations

from typing import Any, Iterable

from bot.domain import SeatTimers

from .driver import Driver
from .sql import Step, dumps

CLOCK_KINDS = ("turn_deadline", "turn_reminder")  # a seat's clock timers (bot/storage/clocks.py)

# Writing a timer again makes it a new timer: not fired, nobody's claim.
_ARM = ("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES {rows}"
        " ON CONFLICT (kind, ref_id, seat) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL,"
        " claimed_by = NULL, lease_until = NULL")


def arm_step(kind: str, ref_id: int, due_at: float, seat: int = -1) -> Step:
    """The statement that arms one timer (again), for a store's own unit."""
    return Step(_ARM.format(rows="(?, ?, ?, ?)"), (kind, ref_id, seat, due_at))


def armed(timers: SeatTimers) -> list[tuple[str, int, float]]:
    """(kind, seat, due_at) of every clock timer the unit arms, in one order on both databases."""
    return [(kind, seat, due_at)
            for seat, kinds in sorted(timers.arm.items()) for kind, due_at in sorted(kinds.items())]


def seat_timer_steps(match_id: int, timers: SeatTimers) -> list[Step]:
    """Drop the clock timers of the `cancel` seats; (re)arm, unfired, the given kinds of the `arm` seats; write a
    Fischer clock's banks."""
    kinds = ", ".join(f"'{kind}'" for kind in CLOCK_KINDS)
    steps = []
    if timers.cancel:
        marks = ", ".join("?" * len(timers.cancel))
        steps.append(Step(f"DELETE FROM timers WHERE ref_id = ? AND seat IN ({marks}) AND kind IN ({kinds})",
                          (match_id, *timers.cancel)))
    rows = [(kind, match_id, seat, due_at) for kind, seat, due_at in armed(timers)]
    if rows:
        steps.append(Step(_ARM.format(rows=", ".join(["(?, ?, ?, ?)"] * len(rows))),
                          tuple(value for row in rows for value in row)))
    if timers.banks is not None:
        steps.append(Step("UPDATE matches SET clock_banks = ? WHERE id = ?",
                          (dumps(_banks(timers.banks, timers.prior)), match_id)))
    return steps


def _banks(banks: dict[int, float], prior: dict[int, float] | None) -> dict[str, Any]:
    """The `clock_banks` column's JSON (bot/storage/clocks.py banks_of reads it)."""
    return {"banks": {str(s): b for s, b in sorted(banks.items())},
            "prior": {str(s): b for s, b in sorted(prior.items())} if prior is not None else None}


class TimerStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def set_timer(self, kind: str, ref_id: int, due_at: float, seat: int = -1) -> None:
        await self.driver.write_statements([arm_step(kind, ref_id, due_at, seat)])

    async def cancel_timers(self, ref_id: int, kinds: Iterable[str]) -> None:
        await self.driver.write_statements(
            [("DELETE FROM timers WHERE ref_id = ? AND kind = ?", (ref_id, kind)) for kind in kinds])

    async def write_seat_timers(self, match_id: int, timers: SeatTimers) -> None:
        if not timers.empty:
            await self.driver.write_statements(seat_timer_steps(match_id, timers))
