"""The matches' SQL: a match with its seats, its state and version, its move log, its board post and offers.

Every write of a match is guarded by compare-and-set on its version (or on what the caller read), inside its
unit. A move is one unit (`move_steps`): its state only while the match is still at the version the move was
decided on, its log entry, the seats' clock timers, when it ends a rated match its ratings, and what it announces
(its outbox row, bot/storage/outbox.py). On PostgreSQL a move that does not end its match (nearly every move) is
instead one call of the server function strategos_commit_move (migrations 010, 011 and 016): the same statements in one
round trip instead of seven.
tests/test_move_write_paths.py runs both on the same moves and compares every row they leave.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable

from bot.domain import (Challenge, ChallengeSeat, DamagedMatch, LoggedMove, Match, MatchLoad, MemberPrefs, MoveWrite,
                        OutboxEntry, RatingWrite, Seat, SeatTimers)

from .batched import Batched
from .driver import Driver
from .outbox import outbox_step
from .rating_rows import write_rated_finish
from .sql import Step, Steps, UnitRefused, dumps
from .clocks import banks_of, rules_column, rules_of
from .timers import CLOCK_KINDS, armed, seat_timer_steps


class VersionConflict(UnitRefused):
    """The match moved on since the caller read it: its write was not applied."""


# Matches with their seats, one row per seat, in one statement; with each seat's member choices and running
# deadline for an action's load. The seat columns carry a prefix: they must not shadow the match's own. `{ids}`:
# which matches (Driver.any_of). A match whose seats are missing still comes (its seat columns NULL): damaged.
_MATCHES_WITH_SEATS = """
    SELECT m.*, s.seat AS seat_no, s.kind AS seat_kind, s.user_id AS seat_user, s.user_name AS seat_name,
           s.level AS seat_level{extra}
    FROM matches AS m LEFT JOIN match_seats AS s ON s.match_id = m.id{joins}
    WHERE m.id {ids} ORDER BY m.id, s.seat
"""
_LOAD_COLUMNS = (
    ", p.user_id AS member_id, p.turn_dms, p.reminders, p.away_until, p.autoplay, p.vacation_year,"
    " p.vacation_used, p.time_zone,"
    " (SELECT t.due_at FROM timers AS t WHERE t.kind = 'turn_deadline' AND t.ref_id = m.id AND t.seat = s.seat)"
    " AS deadline"
)
_LOAD_JOINS = " LEFT JOIN members AS p ON p.user_id = s.user_id"


class MatchStore:
    def __init__(self, driver: Driver):
        self.driver = driver
        # Many matches read in one statement: plain (get_match), and with what an action needs (load_match).
        self._match_reads = Batched(functools.partial(self._matches_with_seats, load=False))
        self._load_reads = Batched(functools.partial(self._matches_with_seats, load=True))

    async def start_match(
        self,
        challenge: Challenge,
        *,
        thread_id: int | None,
        seed: int,
        state: dict[str, Any],
        seats: list[ChallengeSeat],
        now: float,
        timers: SeatTimers = SeatTimers(),
        announce: Callable[[Match], OutboxEntry] | None = None,
    ) -> Match:
        """Create the match with its first clock timers and mark its challenge started, in one transaction (a
        challenge starts once). `announce`: what the unit records in the outbox, given the match as written (its
        id comes with the write)."""
        def unit() -> Steps[int]:
            done = yield Step("UPDATE challenges SET status = 'started' WHERE id = ? AND status = 'open'",
                              (challenge.id,))
            if done.rowcount != 1:
                raise VersionConflict("challenge is no longer open")
            done = yield Step(
                "INSERT INTO matches (guild_id, channel_id, thread_id, game, options, seed, state, created_at,"
                " updated_at, rated, clock_seconds, clock_rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                (challenge.guild_id, challenge.channel_id, thread_id, challenge.game, dumps(challenge.options),
                 seed, dumps(state), now, now, int(challenge.rated and all(s.kind == "member" for s in seats)),
                 challenge.clock_seconds, rules_column(challenge.clock_rules)),
            )
            match_id = done.one()[0]
            for seat, taken in enumerate(seats):
                yield Step(
                    "INSERT INTO match_seats (match_id, seat, kind, user_id, user_name, level)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, seat, taken.kind, taken.user_id, taken.user_name or str(taken.user_id), taken.level),
                )
            yield Step("UPDATE challenges SET match_id = ? WHERE id = ?", (match_id, challenge.id))
            yield Step("DELETE FROM timers WHERE kind = 'challenge_expiry' AND ref_id = ?", (challenge.id,))
            for step in seat_timer_steps(match_id, timers):
                yield step
            if announce is not None:
                rated = bool(challenge.rated and all(s.kind == "member" for s in seats))
                yield outbox_step(match_id, 0, announce(Match(
                    id=match_id, guild_id=challenge.guild_id, channel_id=challenge.channel_id, thread_id=thread_id,
                    game=challenge.game, options=challenge.options, seed=seed, status="active", state=state,
                    version=0, board_message_id=None, draw_agreed=None, result=None, created_at=now, updated_at=now,
                    seats=[Seat(seat, taken.user_id, taken.user_name or str(taken.user_id), taken.kind, taken.level)
                           for seat, taken in enumerate(seats)],
                    rated=rated, clock_seconds=challenge.clock_seconds, clock_rules=challenge.clock_rules,
                    clock_banks=timers.banks, clock_prior=timers.prior)), challenge.id)
            return match_id

        match = await self.get_match(await self.driver.write(unit()))
        assert match is not None  # just written
        return match

    async def get_match(self, match_id: int) -> Match | None:
        """The match with its seats, in one statement (shared with the other matches asked for meanwhile).
        DamagedMatch when its record cannot be played from, or it was set aside (bot/storage/set_aside.py)."""
        rows = await self._match_reads.read(match_id)
        return _match_from_seat_rows(rows) if rows else None

    async def load_match(self, match_id: int) -> MatchLoad | None:
        """What an action on the match needs, in one statement: the match, its running deadlines and its
        members' choices. Matches asked for in the same turn of the event loop share that statement."""
        rows = await self._load_reads.read(match_id)
        if not rows:
            return None
        match = _match_from_seat_rows(rows)
        deadlines = {r["seat_no"]: r["deadline"] for r in rows if r["deadline"] is not None}
        prefs = {r["seat_user"]: MemberPrefs(r["seat_user"], bool(r["turn_dms"]), bool(r["reminders"]),
                                             r["away_until"], bool(r["autoplay"]), r["vacation_year"],
                                             r["vacation_used"], r["time_zone"])
                 if r["member_id"] is not None
                 else MemberPrefs(r["seat_user"])
                 for r in rows if r["seat_user"] is not None}
        return MatchLoad(match, deadlines, prefs)

    async def _matches_with_seats(self, match_ids: list[int], *, load: bool) -> dict[int, list[Any]]:
        """The rows of several matches at once, by match: with `load`, what load_match needs as well."""
        ids, params = self.driver.any_of(match_ids)
        extra, joins = (_LOAD_COLUMNS, _LOAD_JOINS) if load else ("", "")
        rows = await self.driver.fetch(_MATCHES_WITH_SEATS.format(extra=extra, joins=joins, ids=ids), params)
        by_match: dict[int, list[Any]] = {}
        for row in rows:
            by_match.setdefault(row["id"], []).append(row)
        return by_match

    async def _match_from_row(self, row: Any) -> Match:
        seats = [Seat(r["seat"], r["user_id"], r["user_name"], r["kind"], r["level"]) for r in await self.driver.fetch(
            "SELECT seat, kind, user_id, user_name, level FROM match_seats WHERE match_id = ? ORDER BY seat",
            (row["id"],))]
        return _match(row, seats)

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        await self.driver.write_statements([("UPDATE matches SET thread_id = ? WHERE id = ?", (thread_id, match_id))])

    async def record_board(self, match_id: int, version: int, message_id: int, *, announced: bool) -> bool:
        """Record the board post of `version` as the match's current board (and, with `announced`, that version
        as shown), unless a newer version's board is out already: an older post never becomes the current
        board. False when refused."""
        (cur,) = await self.driver.write_statements([(
            "UPDATE matches SET board_message_id = ?, announced_version = CASE WHEN ? = 1 AND announced_version < ?"
            " THEN ? ELSE announced_version END WHERE id = ? AND announced_version <= ?",
            (message_id, int(announced), version, version, match_id, version),
        )])
        return cur.rowcount == 1

    async def mark_announced(self, match_id: int, version: int) -> None:
        await self.driver.write_statements([(
            "UPDATE matches SET announced_version = ? WHERE id = ? AND announced_version < ?",
            (version, match_id, version),
        )])

    async def _matches_from_rows(self, rows: list[Any]) -> list[Match | DamagedMatch]:
        """Each row's match, or what damages it: one damaged match does not hide the others."""
        found: list[Match | DamagedMatch] = []
        for row in rows:
            try:
                found.append(await self._match_from_row(row))
            except DamagedMatch as damage:
                found.append(damage)
        return found

    async def active_matches_with_computers(self) -> list[Match | DamagedMatch]:
        """The active matches with a computer's seat, not set aside (a damaged one found now comes as such)."""
        rows = await self.driver.fetch(
            "SELECT * FROM matches WHERE status = 'active' AND set_aside IS NULL AND id IN"
            " (SELECT match_id FROM match_seats WHERE kind = 'computer') ORDER BY id"
        )
        return await self._matches_from_rows(rows)

    async def unannounced_matches(self) -> list[Match | DamagedMatch]:
        rows = await self.driver.fetch(
            "SELECT * FROM matches WHERE announced_version < version AND thread_id IS NOT NULL AND set_aside IS NULL"
            " ORDER BY id"
        )
        return await self._matches_from_rows(rows)

    async def set_draw_agreed(self, match_id: int, version: int, agreed: list[int] | None, *,
                              previous: list[int] | None, outbox: OutboxEntry | None = None) -> None:
        """Record who agreed to a draw, only while the match is still at `version` (a move withdraws offers) and
        the agreements are still `previous` (what the caller read): two answers at once both count, the second
        after reading the first. VersionConflict otherwise. `outbox`: what the unit announces."""
        await self._set_while("draw_agreed", match_id, version, agreed, previous, "those agreements", outbox)

    async def set_takeback(self, match_id: int, version: int, request: dict[str, Any] | None, *,
                           previous: dict[str, Any] | None, outbox: OutboxEntry | None = None) -> None:
        """Record a take-back request (or its answers), only while the match is still at `version` and the
        request is still `previous` (what the caller read). VersionConflict otherwise. `outbox`: what the unit
        announces."""
        await self._set_while("takeback", match_id, version, request, previous, "that request", outbox)

    async def _set_while(self, column: str, match_id: int, version: int, value: Any, previous: Any,
                         what: str, outbox: OutboxEntry | None) -> None:
        """Compare-and-set of one JSON column of an active match at `version`, over `previous`, with its outbox
        row."""
        await self.driver.write(_set_while_steps(Step(
            f"UPDATE matches SET {column} = ? WHERE id = ? AND version = ? AND status = 'active'"
            f" AND {column} IS NOT DISTINCT FROM ?",
            (dumps(value) if value else None, match_id, version, dumps(previous) if previous else None),
        ), match_id, version, what, outbox))

    async def matches_of_user(self, user_id: int, *, active_only: bool = True) -> list[Match | DamagedMatch]:
        """The user's matches, the damaged ones (set aside, or found now) as such."""
        sql = (
            "SELECT m.* FROM matches m JOIN match_seats s ON s.match_id = m.id WHERE s.user_id = ?"
            + (" AND m.status = 'active'" if active_only else "")
            + " ORDER BY m.updated_at DESC"
        )
        rows = await self.driver.fetch(sql, (user_id,))
        return await self._matches_from_rows(rows)

    async def commit_move(self, unit: MoveWrite) -> int:
        """One action, all or nothing: the new state and its log entry, only if the match is still at the
        version the action was decided on (else VersionConflict), the seats' clock timers (a finished match
        loses them all) and, when it ends a rated match, its ratings (else RatingsMoved). The new version.

        On PostgreSQL a move that does not end its match (nearly every move) is one call of the server function
        strategos_commit_move (migrations 010, 011, 016), the same statements in one round trip instead of six; a
        move of a Fischer clock, which also writes its banks, takes the statements one by one."""
        if self.driver.dialect == "postgresql" and unit.result is None and unit.ratings is None \
                and unit.timers.banks is None:
            (done,) = await self.driver.write_statements([move_call(unit)])
            if done.one()[0] is None:
                raise VersionConflict(f"match {unit.match_id} is no longer at version {unit.version}")
            return done.one()[0]
        return await self.driver.write(move_steps(unit))

    async def record_ratings(self, write: RatingWrite) -> None:
        """A rated finish on its own (a match rated after its end): RatingsMoved when its ratings changed."""
        await self.driver.write(write_rated_finish(write))

    async def moves(self, match_id: int) -> list[LoggedMove]:
        rows = await self.driver.fetch("SELECT * FROM moves WHERE match_id = ? ORDER BY version", (match_id,))
        return [
            LoggedMove(r["version"], r["seat"], r["move"], bool(r["private"]), json.loads(r["events"]),
                       r["created_at"], r["clock_used"])
            for r in rows
        ]


def _match_from_seat_rows(rows: list[Any]) -> Match:
    row = rows[0]
    seats = [Seat(r["seat_no"], r["seat_user"], r["seat_name"], r["seat_kind"], r["seat_level"]) for r in rows
             if r["seat_no"] is not None]
    return _match(row, seats)


def _match(row: Any, seats: list[Seat]) -> Match:
    """The match of a row and its seats; DamagedMatch when it was set aside, or is found damaged now (what reading
    it shows: a JSON column that does not decode, seats missing). The engine's load is checked where the state is
    loaded (bot/matches/states.py)."""
    def damaged(reason: str, *, known: bool = False) -> DamagedMatch:
        return DamagedMatch(row["id"], reason, game=row["game"], status=row["status"], guild_id=row["guild_id"],
                            players=tuple(s.user_id for s in seats if s.user_id is not None), known=known)

    if row["set_aside"] is not None:
        raise damaged(row["set_aside"], known=True)
    decoded: dict[str, Any] = {}
    for column in _JSON_COLUMNS:
        try:
            decoded[column] = json.loads(row[column]) if row[column] else None
        except ValueError as exc:  # json.JSONDecodeError, and text that is not UTF-8
            raise damaged(f"its stored {column} is not valid JSON ({exc})") from None
    state = decoded["state"]
    if not isinstance(state, dict):
        raise damaged("its stored state is not a JSON object")
    numbers = [seat.seat for seat in seats]
    if len(numbers) < 2 or numbers != list(range(len(numbers))) or state.get("num_players", len(numbers)) != len(
            numbers):
        raise damaged(f"its seats are missing (seats found: {', '.join(map(str, numbers)) or 'none'})")
    try:  # the clock's columns (migration 015) are as much the match's record as its state
        banks, prior = banks_of(row["clock_banks"])
        rules = rules_of(row["clock_rules"])
    except (ValueError, TypeError, AttributeError) as exc:  # not JSON, or not the shape the clock writes
        raise damaged(f"its stored clock is not valid ({exc.__class__.__name__}: {exc})") from None
    return Match(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], thread_id=row["thread_id"],
        game=row["game"], options=decoded["options"] or {}, seed=row["seed"], status=row["status"],
        state=state, version=row["version"], board_message_id=row["board_message_id"],
        draw_agreed=decoded["draw_agreed"], result=decoded["result"],
        created_at=row["created_at"], updated_at=row["updated_at"], seats=seats,
        announced_version=row["announced_version"], rated=bool(row["rated"]),
        standings=decoded["standings"], finished_at=row["finished_at"], takeback=decoded["takeback"],
        clock_seconds=row["clock_seconds"], clock_rules=rules,
        clock_banks=banks, clock_prior=prior,
    )


_JSON_COLUMNS = ("state", "options", "draw_agreed", "result", "standings", "takeback")


def _set_while_steps(update: Step, match_id: int, version: int, what: str,
                     outbox: OutboxEntry | None) -> Steps[None]:
    done = yield update
    if done.rowcount != 1:
        raise VersionConflict(f"match {match_id} is no longer at version {version} with {what}")
    if outbox is not None:
        yield outbox_step(match_id, version, outbox)


def move_steps(unit: MoveWrite) -> Steps[int]:
    """A move as one unit (MatchStore.commit_move): the new version; VersionConflict when the match moved on."""
    new_version = unit.version + 1
    done = yield Step(
        "UPDATE matches SET state = ?, version = ?, status = ?, result = ?, draw_agreed = NULL,"
        " updated_at = ?, standings = ?, finished_at = ? WHERE id = ? AND version = ? AND status = 'active'",
        (dumps(unit.state), new_version, "finished" if unit.result else "active",
         dumps(unit.result) if unit.result else None, unit.now,
         dumps(unit.standings) if unit.result and unit.standings else None,
         unit.now if unit.result else None, unit.match_id, unit.version),
    )
    if done.rowcount != 1:
        raise VersionConflict(f"match {unit.match_id} is no longer at version {unit.version}")
    yield Step(
        "INSERT INTO moves (match_id, version, seat, move, private, events, created_at, clock_used)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (unit.match_id, new_version, unit.seat, unit.move, int(unit.private), dumps(unit.events), unit.now,
         unit.clock_used),
    )
    if unit.result:
        yield Step("DELETE FROM timers WHERE ref_id = ? AND kind != 'challenge_expiry'", (unit.match_id,))
    else:
        for step in seat_timer_steps(unit.match_id, unit.timers):
            yield step
    if unit.ratings is not None:
        yield from write_rated_finish(unit.ratings)
    if unit.outbox is not None:
        yield outbox_step(unit.match_id, new_version, unit.outbox)
    return new_version


def move_call(unit: MoveWrite) -> Step:
    """move_steps of a move that does not end its match, as one call of PostgreSQL's strategos_commit_move."""
    arms = armed(unit.timers)
    return Step(
        "SELECT strategos_commit_move(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (unit.match_id, unit.version, dumps(unit.state), unit.now, unit.seat, unit.move, int(unit.private),
         dumps(unit.events), list(CLOCK_KINDS), list(unit.timers.cancel), [kind for kind, _, _ in arms],
         [seat for _, seat, _ in arms], [due_at for _, _, due_at in arms],
         unit.outbox.token if unit.outbox else None, unit.outbox.events if unit.outbox else None,
         unit.clock_used),
    )


