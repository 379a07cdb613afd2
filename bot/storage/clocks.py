"""The SQL of clocks and the choices around them: the deadline and reminder timers of each seat, members' time
away and notification choices, and per-server settings.

ClockStore's writes are units of the driver (all or nothing, and on SQLite never interleaved with a move being
saved); its reads are the driver's reads. Each unit's SQL is written once, for both databases.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from bot.domain import ClockRules, MemberPrefs

from .driver import Driver
from .sql import Step, Steps, UnitRefused
from .timers import CLOCK_KINDS

DEADLINE, REMINDER = CLOCK_KINDS
HOUR, DAY = 3600, 24 * 3600


Shift = Callable[[int, float, float, float], float]  # (match id, due, ran from, runs from) → due


class VacationExhausted(UnitRefused):
    """Time away longer than the member's vacation days left (`left` seconds, what she could still ask for)."""

    def __init__(self, left: float):
        super().__init__(f"{left} seconds of vacation left")
        self.left = left



@dataclass(frozen=True)
class SeatDeadline:
    match_id: int
    seat: int
    due_at: float


class ClockStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    # --- deadlines and reminders -------------------------------------------------------------------------

    async def timer_due(self, kind: str, match_id: int, seat: int) -> float | None:
        return await self.driver.fetchvalue(
            "SELECT due_at FROM timers WHERE kind = ? AND ref_id = ? AND seat = ?", (kind, match_id, seat))

    async def deadlines(self, match_ids: Sequence[int]) -> list[SeatDeadline]:
        """The running deadlines of these matches (a fired one stays until the timeout is settled)."""
        if not match_ids:
            return []
        marks = ",".join("?" * len(match_ids))
        return [SeatDeadline(r[0], r[1], r[2]) for r in await self.driver.fetch(
            f"SELECT ref_id, seat, due_at FROM timers WHERE kind = ? AND ref_id IN ({marks}) ORDER BY ref_id, seat",
            (DEADLINE, *match_ids),
        )]

    async def clocked_matches_without_deadlines(self) -> list[int]:
        """Active matches with a clock and no deadline at all: a stop between a move and its clocks' start."""
        return [r[0] for r in await self.driver.fetch(
            "SELECT id FROM matches m WHERE status = 'active' AND clock_seconds IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM timers t WHERE t.ref_id = m.id AND t.kind = ?) ORDER BY id", (DEADLINE,),
        )]

    async def drop_fired(self, kind: str, match_id: int, seat: int, due_at: float) -> None:
        """Delete a claimed timer that has done its work (unless it was re-armed for another time meanwhile)."""
        await self.driver.write_statements([(
            "DELETE FROM timers WHERE kind = ? AND ref_id = ? AND seat = ? AND due_at = ?",
            (kind, match_id, seat, due_at),
        )])

    # --- members -----------------------------------------------------------------------------------------

    async def prefs(self, user_ids: Iterable[int]) -> dict[int, MemberPrefs]:
        """Every asked member's choices; defaults for members who never chose."""
        ids = sorted(set(user_ids))
        found = {uid: MemberPrefs(uid) for uid in ids}
        if not ids:
            return found
        marks = ",".join("?" * len(ids))
        for r in await self.driver.fetch(
            f"SELECT user_id, turn_dms, reminders, away_until, autoplay, vacation_year, vacation_used, time_zone"
            f" FROM members WHERE user_id IN ({marks})", ids
        ):
            found[r[0]] = MemberPrefs(r[0], bool(r[1]), bool(r[2]), r[3], bool(r[4]), r[5], r[6], r[7])
        return found

    async def set_autoplay(self, user_id: int, on: bool) -> None:
        await self.driver.write_statements([Step(_NEW_MEMBER, (user_id,)),
                                            Step("UPDATE members SET autoplay = ? WHERE user_id = ?",
                                                 (int(on), user_id))])

    async def set_time_zone(self, user_id: int, name: str | None) -> None:
        await self.driver.write_statements([Step(_NEW_MEMBER, (user_id,)), Step(
            "UPDATE members SET time_zone = ? WHERE user_id = ?", (name, user_id))])

    async def set_notifications(self, user_id: int, *, turn_dms: bool | None, reminders: bool | None) -> None:
        steps = [Step(_NEW_MEMBER, (user_id,))]
        if turn_dms is not None:
            steps.append(Step("UPDATE members SET turn_dms = ? WHERE user_id = ?", (int(turn_dms), user_id)))
        if reminders is not None:
            steps.append(Step("UPDATE members SET reminders = ? WHERE user_id = ?", (int(reminders), user_id)))
        await self.driver.write_statements(steps)

    async def set_away(self, user_id: int, until: float | None, now: float, *, year: int, allowance: float,
                       shift: Shift | None = None) -> float | None:
        """Set (or end, with None) the member's time away, moving her running deadlines and reminders so that her
        clocks stand still while she is away; returns her previous `away_until` if she was away.

        Her deadlines already hold the pause granted before (they were pushed by it), so they move by the
        difference between the new pause and what was left of the old one: coming back early gives back exactly
        the unused part, and a longer absence pushes them further.

        Time away is drawn from her vacation days of `year` (`allowance` seconds a year): a longer pause than she
        has left is refused (VacationExhausted, nothing written); the unused part of a pause ended early is given
        back in whole hours.

        `shift`: where each of her timers moves, given (match id, due, when her clock ran from, when it runs from
        now), for clocks that do not run all the time (quiet weekends); without it every one moves by the
        difference."""
        def unit() -> Steps[float | None]:
            yield Step(_NEW_MEMBER, (user_id,))
            # An UPDATE, not a SELECT: on PostgreSQL it locks her row until the unit ends, so a /back racing this
            # /away reads what this one wrote (SQLite's writer runs one unit at a time anyway).
            done = yield Step("UPDATE members SET away_until = away_until WHERE user_id = ?"
                              " RETURNING away_until, vacation_year, vacation_used", (user_id,))
            old, used_year, used = done.one()
            previous = old if old is not None and old > now else None
            delta = ((until - now) if until is not None else 0.0) - ((previous - now) if previous else 0.0)
            used = used if used_year == year else 0.0
            charged = delta if delta >= 0 else -((-delta) // HOUR) * HOUR  # given back to the hour below
            if used + charged > allowance + 1e-6:
                raise VacationExhausted(max(0.0, allowance - used + ((previous - now) if previous else 0.0)))

            mine = (" WHERE fired_at IS NULL AND kind IN {kinds} AND EXISTS (SELECT 1 FROM match_seats s"
                    " JOIN matches m ON m.id = s.match_id WHERE s.match_id = timers.ref_id AND s.seat = timers.seat"
                    " AND s.user_id = ? AND m.status = 'active')").format(kinds=_kinds())
            if delta and shift is None:
                yield Step("UPDATE timers SET due_at = due_at + ?" + mine, (delta, user_id))
            elif delta and shift is not None:
                done = yield Step("SELECT id, ref_id, due_at FROM timers" + mine + " ORDER BY id", (user_id,))
                ran_from, runs_from = previous or now, until if until is not None else now
                for timer_id, ref_id, due in list(done.rows):
                    yield Step("UPDATE timers SET due_at = ? WHERE id = ?",
                               (shift(ref_id, due, ran_from, runs_from), timer_id))
            yield Step("UPDATE members SET away_until = ?, vacation_year = ?, vacation_used = ? WHERE user_id = ?",
                       (until, year, max(0.0, used + charged), user_id))
            return previous

        return await self.driver.write(unit())

    async def spend_vacation_day(self, user_id: int, match_id: int, seat: int, due_at: float,
                                 match_ids: Sequence[int], *, year: int, allowance: float,
                                 later: Callable[[int, float], float]) -> float | None:
        """Spend one of her vacation days instead of losing on time: her deadline `due_at` in `match_id` (still
        standing: a move or another spent day moves it) and every running clock of hers in `match_ids` (her
        matches that allow it) get a day more: each deadline and reminder moves to `later(match id, due)`. Returns
        the seconds she has left after it, None when nothing was spent (not a whole day left, or the deadline
        moved)."""
        def unit() -> Steps[float | None]:
            yield Step(_NEW_MEMBER, (user_id,))
            # Her row, locked until the unit ends: two of her deadlines firing at once spend one day, not two.
            done = yield Step("UPDATE members SET vacation_used = vacation_used WHERE user_id = ?"
                              " RETURNING vacation_year, vacation_used", (user_id,))
            used_year, used = done.one()
            used = used if used_year == year else 0.0
            if used + DAY > allowance + 1e-6:
                return None
            done = yield Step(f"SELECT 1 FROM timers WHERE kind = '{DEADLINE}' AND ref_id = ? AND seat = ?"
                              " AND due_at = ?", (match_id, seat, due_at))
            if not done.rows:
                return None
            marks = ",".join("?" * len(match_ids))
            done = yield Step(
                f"SELECT id, ref_id, due_at FROM timers WHERE fired_at IS NULL AND kind IN {_kinds()}"
                f" AND ref_id IN ({marks}) AND EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = timers.ref_id"
                "  AND s.seat = timers.seat AND s.user_id = ?) ORDER BY id", (*match_ids, user_id))
            for timer_id, ref_id, due in list(done.rows):
                yield Step("UPDATE timers SET due_at = ?, claimed_by = NULL, lease_until = NULL WHERE id = ?",
                           (later(ref_id, due), timer_id))
            yield Step("UPDATE members SET vacation_year = ?, vacation_used = ? WHERE user_id = ?",
                       (year, used + DAY, user_id))
            return allowance - used - DAY

        return await self.driver.write(unit())

    # --- server settings ---------------------------------------------------------------------------------

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        return {r[0]: json.loads(r[1]) for r in await self.driver.fetch(
            "SELECT key, value FROM server_settings WHERE guild_id = ?", (guild_id,))}

    async def set_server_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self.driver.write_statements([(
            "INSERT INTO server_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, json.dumps(value)),
        )])


def rules_column(rules: ClockRules) -> str | None:
    """A clock's rules as their column holds them (NULL: the default rules)."""
    found = rules.to_json()
    return json.dumps(found) if found else None


def rules_of(text: str | None) -> ClockRules:
    return ClockRules.from_json(json.loads(text)) if text else ClockRules()


def banks_of(text: str | None) -> tuple[dict[int, float] | None, dict[int, float] | None]:
    """(banks, prior) from the `clock_banks` column (bot/storage/timers.py writes it)."""
    if not text:
        return None, None
    found = json.loads(text)

    def seats(part: dict[str, float] | None) -> dict[int, float] | None:
        return {int(seat): bank for seat, bank in part.items()} if part is not None else None

    return seats(found.get("banks")), seats(found.get("prior"))


_NEW_MEMBER = "INSERT INTO members (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING"


def _kinds() -> str:
    return "(" + ", ".join(f"'{kind}'" for kind in CLOCK_KINDS) + ")"
