"""All SQL of the bot. The match service talks to this class only, never to the connection.

One store, two databases: SQLite (a file, the default) and PostgreSQL (through an asyncpg pool). Writes are units
of work written once as generators of statements (bot/storage/sql.py): `apply` runs one all or nothing. On SQLite
the units waiting at the same moment are committed together (run_unit: group commit, each unit in a savepoint) and
reads use `reader`, a second connection when the bot opened one (WAL); on PostgreSQL each unit is one transaction
on a pooled connection, and each read takes a pooled connection of its own."""

from __future__ import annotations

import asyncio
import functools
import json
import sqlite3
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable, Iterable

import aiosqlite

from .batched import Batched
from .outbox import outbox_step
from .postgres_pool import lost_connection_is_unavailable
from .rating_rows import RatingsMoved, write_rated_finish
from bot.domain import (
    Challenge,
    ChallengeSeat,
    LoggedMove,
    Match,
    MatchLoad,
    MemberPrefs,
    MoveWrite,
    PrivateMessage,
    RatingWrite,
    Seat,
    SeatTimers,
)
from .sql import (
    Done,
    Step,
    Steps,
    UnitRefused,
    postgres_sql,
    postgres_step,
    run_on_postgres,
    run_on_sqlite,
    statements,
)

CLOCK_KINDS = ("turn_deadline", "turn_reminder")  # a seat's clock timers (bot/storage/clocks.py)

# Matches with their seats, one row per seat, in one statement; with each seat's member choices and running
# deadline for an action's load. The seat columns carry a prefix: they must not shadow the match's own. `{ids}`:
# which matches (see _ids_clause).
_MATCHES_WITH_SEATS = """
    SELECT m.*, s.seat AS seat_no, s.kind AS seat_kind, s.user_id AS seat_user, s.user_name AS seat_name,
           s.level AS seat_level{extra}
    FROM matches AS m JOIN match_seats AS s ON s.match_id = m.id{joins}
    WHERE m.id {ids} ORDER BY m.id, s.seat
"""
_LOAD_COLUMNS = (
    ", p.user_id AS member_id, p.turn_dms, p.reminders, p.away_until,"
    " (SELECT t.due_at FROM timers AS t WHERE t.kind = 'turn_deadline' AND t.ref_id = m.id AND t.seat = s.seat)"
    " AS deadline"
)
_LOAD_JOINS = " LEFT JOIN members AS p ON p.user_id = s.user_id"


class VersionConflict(Exception):
    """The match moved on since the caller read it: its write was not applied."""


async def _finish(coro: Any) -> Any:
    """Run `coro` to the end even if the caller is cancelled meanwhile; re-raise the cancellation afterwards.
    Returns what `coro` returned."""
    task = asyncio.ensure_future(coro)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            # Also when the work finished in the same instant: the caller was cancelled all the same.
            cancelled = True
    if cancelled:
        task.result()
        raise asyncio.CancelledError()
    return task.result()


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


async def _settled(future: asyncio.Future) -> None:
    await asyncio.wait([future])


# Failures that belong to one unit: its savepoint is rolled back and the rest of its group is written.
UNIT_FAILURES = (VersionConflict, RatingsMoved, UnitRefused, sqlite3.IntegrityError)


def _run_group(conn: sqlite3.Connection, units: list[Unit]) -> list[tuple[BaseException | None, Any]]:
    """On the writer's thread: every unit in its own savepoint inside one transaction, committed once."""
    conn.execute("BEGIN IMMEDIATE")
    outcomes: list[tuple[BaseException | None, Any]] = []
    try:
        for unit in units:
            conn.execute("SAVEPOINT unit")
            try:
                value = unit(conn)
            except UNIT_FAILURES as failure:
                conn.execute("ROLLBACK TO unit")
                conn.execute("RELEASE unit")
                outcomes.append((failure, None))
            else:
                conn.execute("RELEASE unit")
                outcomes.append((None, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


Unit = Callable[[sqlite3.Connection], Any]  # one unit of work: synchronous SQL on the writer's own thread
MAX_BATCH = 256  # units committed together at most


class _Queued:
    __slots__ = ("unit", "future")

    def __init__(self, unit: Unit, future: asyncio.Future):
        self.unit = unit
        self.future = future


class Repository:
    """On SQLite: `db`, the writing connection, and `reader`. On PostgreSQL: `pool` (see bot/storage/postgres.py)."""

    def __init__(self, db: aiosqlite.Connection | None = None, reader: aiosqlite.Connection | None = None, *,
                 pool: Any = None):
        if (db is None) == (pool is None):
            raise ValueError("a Repository needs either a SQLite connection or a PostgreSQL pool")
        self.db = db
        self.pool = pool
        self.dialect = "postgresql" if pool is not None else "sqlite"
        # Reads that need not see an open transaction's writes go to their own connection when there is one
        # (WAL: readers never wait for the writer); else they share the writer's.
        self.reader = reader or db
        # One writing connection is shared by every coroutine: transactions must not interleave on it.
        self._tx_lock = asyncio.Lock()
        self._queue: list[_Queued] = []
        self._writer: asyncio.Future | None = None
        # Many matches read in one statement: plain (get_match), and with what an action needs (load_match).
        self._match_reads = Batched(functools.partial(self._matches_with_seats, load=False))
        self._load_reads = Batched(functools.partial(self._matches_with_seats, load=True))

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()
            return
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        for connection in {id(self.reader): self.reader, id(self.db): self.db}.values():
            if connection._running:  # closing twice (shutdown, then a test's teardown) is harmless
                await connection.close()

    # --- group commit -------------------------------------------------------------------------------------

    async def run_unit(self, unit: Unit) -> Any:
        """SQLite: run one unit of work (a function of the writing connection; `apply` makes one of a generator),
        committed together with the other units waiting at the same moment: one
        transaction and one trip to the writer's thread for the whole group, each unit in its own savepoint, so
        a failed guard (VersionConflict, RatingsMoved, a constraint) rolls back that unit alone. Any other
        failure (an I/O error) fails every unit of the group with it, and nothing of them is written.

        A caller cancelled while its unit waits drops it (nothing written); once the group runs, the unit is
        written whole or not at all, and the cancellation is raised after."""
        queued = _Queued(unit, asyncio.get_running_loop().create_future())
        self._queue.append(queued)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write_groups())
        try:
            return await asyncio.shield(queued.future)
        except asyncio.CancelledError:
            if queued in self._queue:
                self._queue.remove(queued)
                raise
            await _finish(_settled(queued.future))
            raise

    async def _write_groups(self) -> None:
        while self._queue:
            group, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            try:
                async with self._tx_lock:  # never inside a transaction opened through transaction()
                    outcomes = await _finish(self.db._execute(_run_group, self.db._conn, [q.unit for q in group]))
            except BaseException as exc:  # nothing of the group was written: every unit fails with the error
                for queued in group:
                    if not queued.future.done():
                        queued.future.set_exception(exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            for queued, (failure, value) in zip(group, outcomes):
                if queued.future.done():
                    continue
                if failure is not None:
                    queued.future.set_exception(failure)
                else:
                    queued.future.set_result(value)

    # --- transactions ------------------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """SQLite only (bulk writes of benchmarks and tests): one IMMEDIATE transaction on the writing connection,
        everything inside lands or nothing does. The bot's own writes are units (`apply`).

        Cancellation-safe: a task cancelled at any await in here (BEGIN included) still leaves the shared
        connection outside any transaction, because the ROLLBACK (or COMMIT) is finished before the lock is freed.
        """
        async with self._tx_lock:
            try:
                await self.db.execute("BEGIN IMMEDIATE")
                yield
            except BaseException:
                await _finish(self._end("ROLLBACK"))
                raise
            try:
                await _finish(self._end("COMMIT"))
            except BaseException:
                await _finish(self._end("ROLLBACK"))
                raise

    async def _end(self, statement: str) -> None:
        # A cancelled BEGIN (or COMMIT) may or may not have reached SQLite (aiosqlite runs it on its own thread);
        # ask the connection, so a ROLLBACK never fails with "no transaction is active". A cancelled statement
        # can still wait in aiosqlite's queue, though, and run after we asked: a no-op queued behind it (the
        # queue runs in order) makes the answer true, or a late BEGIN would leave the connection in a transaction.
        if statement == "ROLLBACK":
            async with self.db.execute("SELECT 1"):
                pass
        if self.db.in_transaction:
            await self.db.execute(statement)

    # --- one unit, one read: the same SQL on both databases ---------------------------------------------

    async def apply(self, steps: Steps[Any]) -> Any:
        """Run one unit of work (a generator of statements, bot/storage/sql.py) all or nothing; returns what it
        returns. A failed guard raises out of the unit and nothing of it is written. On SQLite it is group-
        committed (run_unit); on PostgreSQL it is one transaction, run to its end even if the caller is cancelled
        meanwhile (the cancellation is raised after)."""
        if self.pool is None:
            return await self.run_unit(functools.partial(run_on_sqlite, steps=steps))
        return await _finish(self._apply_on_postgres(steps))

    async def _apply_on_postgres(self, steps: Steps[Any]) -> Any:
        # A connection lost on the way (PostgreSQL restarting) rolls the transaction back: DatabaseUnavailable.
        async with lost_connection_is_unavailable(self.pool):
            async with self.pool.acquire() as conn:
                async with conn.transaction():
                    return await run_on_postgres(conn, steps)

    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """The rows of one read, by column name or position (sqlite3.Row, asyncpg.Record)."""
        if self.pool is None:
            return list(await self.reader.execute_fetchall(sql, tuple(params)))
        async with lost_connection_is_unavailable(self.pool):
            return await self.pool.fetch(postgres_sql(sql), *params)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def fetchvalue(self, sql: str, params: Iterable[Any] = ()) -> Any:
        row = await self.fetchone(sql, params)
        return row[0] if row is not None else None

    async def _write(self, steps: Iterable[Step | tuple[str, tuple]]) -> list[Done]:
        """Statements that need nothing of each other, as one unit: what each did."""
        steps = [Step(*step) for step in steps]
        if self.pool is not None and len(steps) == 1 and not steps[0].many:
            # One statement is atomic on its own: no BEGIN and COMMIT round trips around it.
            return [await _finish(self._one_statement(steps[0]))]
        return await self.apply(statements(steps))

    async def _one_statement(self, step: Step) -> Done:
        async with lost_connection_is_unavailable(self.pool):  # as a unit does: "try again", never a traceback
            async with self.pool.acquire() as conn:
                return await postgres_step(conn, step)

    # --- challenges --------------------------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        challenger_id: int,
        challenger_name: str,
        invited: list[int | None],
        now: float,
        expires_at: float,
        computer_level: str | None = None,
        rated: bool = True,
        challenger_position: int = 0,
        clock_seconds: int | None = None,
    ) -> Challenge:
        """`invited`: one entry per other seat, a member id or None for an open seat; with `computer_level` the
        open seats are the computer's. The challenger sits at `challenger_position` (a rematch rotates the seats);
        the invited fill the other positions in order. `clock_seconds`: the time for each move, None for no clock."""
        def unit() -> Steps[int]:
            done = yield Step(
                "INSERT INTO challenges (guild_id, channel_id, game, options, challenger_id, created_at, expires_at,"
                " rated, clock_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, game, _dumps(options), challenger_id, now, expires_at, int(rated),
                 clock_seconds),
            )
            challenge_id = done.one()[0]
            yield Step(
                "INSERT INTO challenge_seats (challenge_id, position, invited_id, user_id, user_name)"
                " VALUES (?, ?, ?, ?, ?)",
                (challenge_id, challenger_position, challenger_id, challenger_id, challenger_name),
            )
            others = [p for p in range(len(invited) + 1) if p != challenger_position]
            for position, invited_id in zip(others, invited):
                computer = invited_id is None and computer_level is not None
                yield Step(
                    "INSERT INTO challenge_seats (challenge_id, position, invited_id, kind, level, user_name)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (challenge_id, position, invited_id, "computer" if computer else "member",
                     computer_level if computer else None, f"Strategos ({computer_level})" if computer else None),
                )
            yield Step("INSERT INTO timers (kind, ref_id, due_at) VALUES ('challenge_expiry', ?, ?)",
                       (challenge_id, expires_at))
            return challenge_id

        return await self.get_challenge(await self.apply(unit()))

    async def get_challenge(self, challenge_id: int) -> Challenge | None:
        row = await self.fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        if row is None:
            return None
        seats = [
            ChallengeSeat(r["position"], r["invited_id"], r["user_id"], r["user_name"], r["kind"], r["level"])
            for r in await self.fetch("SELECT * FROM challenge_seats WHERE challenge_id = ? ORDER BY position",
                                      (challenge_id,))
        ]
        return Challenge(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
            game=row["game"], options=json.loads(row["options"]), challenger_id=row["challenger_id"],
            status=row["status"], created_at=row["created_at"], expires_at=row["expires_at"],
            match_id=row["match_id"], seats=seats, rated=bool(row["rated"]), rematch_of=row["rematch_of"],
            clock_seconds=row["clock_seconds"],
        )

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._write([("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id))])

    async def take_challenge_seat(self, challenge_id: int, position: int, user_id: int, user_name: str) -> bool:
        """Fill an empty seat of an open challenge; False if someone else was faster or it closed."""
        (cur,) = await self._write([(
            "UPDATE challenge_seats SET user_id = ?, user_name = ?"
            " WHERE challenge_id = ? AND position = ? AND user_id IS NULL AND kind = 'member'"
            " AND (SELECT status FROM challenges WHERE id = ?) = 'open'",
            (user_id, user_name, challenge_id, position, challenge_id),
        )])
        return cur.rowcount == 1

    async def close_challenge(self, challenge_id: int, status: str) -> bool:
        """Move an open challenge to a final status; False if it was no longer open."""
        (cur,) = await self._write([(
            "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'", (status, challenge_id)
        )])
        return cur.rowcount == 1

    async def set_rematch_of(self, challenge_id: int, match_id: int) -> None:
        await self._write([("UPDATE challenges SET rematch_of = ? WHERE id = ?", (match_id, challenge_id))])

    async def open_rematch(self, match_id: int, now: float) -> Challenge | None:
        """The newest open, unexpired rematch challenge of a match, if any."""
        row = await self.fetchone(
            "SELECT id FROM challenges WHERE rematch_of = ? AND status = 'open' AND expires_at > ?"
            " ORDER BY id DESC LIMIT 1", (match_id, now),
        )
        return await self.get_challenge(row["id"]) if row else None

    async def count_open_challenges(self, challenger_id: int) -> int:
        return await self.fetchvalue(
            "SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND status = 'open'", (challenger_id,))

    # --- timers ------------------------------------------------------------------------------------------

    async def set_timer(self, kind: str, ref_id: int, due_at: float, seat: int = -1) -> None:
        await self._write([(
            "INSERT INTO timers (kind, ref_id, seat, due_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (kind, ref_id, seat) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL,"
            " claimed_by = NULL, lease_until = NULL",
            (kind, ref_id, seat, due_at),
        )])

    async def cancel_timers(self, ref_id: int, kinds: Iterable[str]) -> None:
        await self._write([("DELETE FROM timers WHERE ref_id = ? AND kind = ?", (ref_id, kind)) for kind in kinds])

    # --- matches -----------------------------------------------------------------------------------------

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
    ) -> Match:
        """Create the match with its first clock timers and mark its challenge started, in one transaction (a
        challenge starts once)."""
        def unit() -> Steps[int]:
            done = yield Step("UPDATE challenges SET status = 'started' WHERE id = ? AND status = 'open'",
                              (challenge.id,))
            if done.rowcount != 1:
                raise VersionConflict("challenge is no longer open")
            done = yield Step(
                "INSERT INTO matches (guild_id, channel_id, thread_id, game, options, seed, state, created_at,"
                " updated_at, rated, clock_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (challenge.guild_id, challenge.channel_id, thread_id, challenge.game, _dumps(challenge.options),
                 seed, _dumps(state), now, now, int(challenge.rated and all(s.kind == "member" for s in seats)),
                 challenge.clock_seconds),
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
            for sql, params in _seat_timer_statements(match_id, timers):
                yield Step(sql, params)
            return match_id

        return await self.get_match(await self.apply(unit()))

    async def get_match(self, match_id: int) -> Match | None:
        """The match with its seats, in one statement (shared with the other matches asked for meanwhile)."""
        rows = await self._match_reads.read(match_id)
        return _match_from_seat_rows(rows) if rows else None

    async def load_match(self, match_id: int) -> MatchLoad | None:
        """What an action on the match needs, in one statement: the match, its running deadlines and its
        members' choices. Matches asked for in the same turn of the event loop share that statement."""
        rows = await self._load_reads.read(match_id)
        if not rows:
            return None
        deadlines = {r["seat_no"]: r["deadline"] for r in rows if r["deadline"] is not None}
        prefs = {r["seat_user"]: MemberPrefs(r["seat_user"], bool(r["turn_dms"]), bool(r["reminders"]),
                                             r["away_until"]) if r["member_id"] is not None
                 else MemberPrefs(r["seat_user"])
                 for r in rows if r["seat_user"] is not None}
        return MatchLoad(_match_from_seat_rows(rows), deadlines, prefs)

    async def _matches_with_seats(self, match_ids: list[int], *, load: bool) -> dict[int, list[Any]]:
        """The rows of several matches at once, by match: with `load`, what load_match needs as well."""
        ids, params = self._ids_clause(match_ids)
        extra, joins = (_LOAD_COLUMNS, _LOAD_JOINS) if load else ("", "")
        rows = await self.fetch(_MATCHES_WITH_SEATS.format(extra=extra, joins=joins, ids=ids), params)
        by_match: dict[int, list[Any]] = {}
        for row in rows:
            by_match.setdefault(row["id"], []).append(row)
        return by_match

    def _ids_clause(self, ids: list[int]) -> tuple[str, tuple]:
        """`= ANY(?)` with one array on PostgreSQL (one statement text for any number, prepared once); `IN (?, …)`
        on SQLite, which has no arrays."""
        if self.pool is not None:
            return "= ANY(?)", (list(ids),)
        return f"IN ({', '.join('?' * len(ids))})", tuple(ids)

    async def _match_from_row(self, row: Any) -> Match:
        seats = [Seat(r["seat"], r["user_id"], r["user_name"], r["kind"], r["level"]) for r in await self.fetch(
            "SELECT seat, kind, user_id, user_name, level FROM match_seats WHERE match_id = ? ORDER BY seat",
            (row["id"],))]
        return _match(row, seats)

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        await self._write([("UPDATE matches SET thread_id = ? WHERE id = ?", (thread_id, match_id))])

    async def record_board(self, match_id: int, version: int, message_id: int, *, announced: bool) -> bool:
        """Record the board post of `version` as the match's current board (and, with `announced`, that version
        as shown), unless a newer version's board is out already: an older post never becomes the current
        board. False when refused."""
        (cur,) = await self._write([(
            "UPDATE matches SET board_message_id = ?, announced_version = CASE WHEN ? = 1 AND announced_version < ?"
            " THEN ? ELSE announced_version END WHERE id = ? AND announced_version <= ?",
            (message_id, int(announced), version, version, match_id, version),
        )])
        return cur.rowcount == 1

    async def mark_announced(self, match_id: int, version: int) -> None:
        await self._write([(
            "UPDATE matches SET announced_version = ? WHERE id = ? AND announced_version < ?",
            (version, match_id, version),
        )])

    async def active_matches_with_computers(self) -> list[Match]:
        rows = await self.fetch(
            "SELECT * FROM matches WHERE status = 'active' AND id IN"
            " (SELECT match_id FROM match_seats WHERE kind = 'computer') ORDER BY id"
        )
        return [await self._match_from_row(r) for r in rows]

    async def unannounced_matches(self) -> list[Match]:
        rows = await self.fetch(
            "SELECT * FROM matches WHERE announced_version < version AND thread_id IS NOT NULL ORDER BY id"
        )
        return [await self._match_from_row(r) for r in rows]

    async def set_draw_agreed(self, match_id: int, version: int, agreed: list[int] | None, *,
                              previous: list[int] | None) -> None:
        """Record who agreed to a draw, only while the match is still at `version` (a move withdraws offers) and
        the agreements are still `previous` (what the caller read): two answers at once both count, the second
        after reading the first. VersionConflict otherwise."""
        (cur,) = await self._write([(
            "UPDATE matches SET draw_agreed = ? WHERE id = ? AND version = ? AND status = 'active'"
            " AND draw_agreed IS NOT DISTINCT FROM ?",
            (_dumps(agreed) if agreed else None, match_id, version, _dumps(previous) if previous else None),
        )])
        if cur.rowcount != 1:
            raise VersionConflict(f"match {match_id} is no longer at version {version} with those agreements")

    async def set_takeback(self, match_id: int, version: int, request: dict[str, Any] | None, *,
                           previous: dict[str, Any] | None) -> None:
        """Record a take-back request (or its answers), only while the match is still at `version` and the
        request is still `previous` (what the caller read). VersionConflict otherwise."""
        (cur,) = await self._write([(
            "UPDATE matches SET takeback = ? WHERE id = ? AND version = ? AND status = 'active'"
            " AND takeback IS NOT DISTINCT FROM ?",
            (_dumps(request) if request else None, match_id, version, _dumps(previous) if previous else None),
        )])
        if cur.rowcount != 1:
            raise VersionConflict(f"match {match_id} is no longer at version {version} with that request")

    async def matches_of_user(self, user_id: int, *, active_only: bool = True) -> list[Match]:
        sql = (
            "SELECT m.* FROM matches m JOIN match_seats s ON s.match_id = m.id WHERE s.user_id = ?"
            + (" AND m.status = 'active'" if active_only else "")
            + " ORDER BY m.updated_at DESC"
        )
        rows = await self.fetch(sql, (user_id,))
        return [await self._match_from_row(r) for r in rows]

    async def commit_move(self, unit: MoveWrite) -> int:
        """One action, all or nothing: the new state and its log entry, only if the match is still at the
        version the action was decided on (else VersionConflict), the seats' clock timers (a finished match
        loses them all) and, when it ends a rated match, its ratings (else RatingsMoved). The new version.

        On PostgreSQL a move that does not end its match (nearly every move) is one call of the server function
        strategos_commit_move (migration 010), the same statements in one round trip instead of six."""
        if self.pool is not None and unit.result is None and unit.ratings is None:
            done = await _finish(self._one_statement(_commit_move_call(unit)))
            if done.one()[0] is None:
                raise VersionConflict(f"match {unit.match_id} is no longer at version {unit.version}")
            return done.one()[0]
        return await self.apply(_commit_move(unit))

    async def record_ratings(self, write: RatingWrite) -> None:
        """A rated finish on its own (a match rated after its end): RatingsMoved when its ratings changed."""
        await self.apply(write_rated_finish(write))

    async def write_seat_timers(self, match_id: int, timers: SeatTimers) -> None:
        if not timers.empty:
            await self._write(_seat_timer_statements(match_id, timers))

    async def moves(self, match_id: int) -> list[LoggedMove]:
        rows = await self.fetch("SELECT * FROM moves WHERE match_id = ? ORDER BY version", (match_id,))
        return [
            LoggedMove(r["version"], r["seat"], r["move"], bool(r["private"]), json.loads(r["events"]),
                       r["created_at"])
            for r in rows
        ]

    # --- private messages --------------------------------------------------------------------------------

    async def add_private_message(
        self, *, match_id: int, seat: int, user_id: int, content: str, with_view: bool, channel: str, now: float
    ) -> int:
        (cur,) = await self._write([(
            "INSERT INTO private_messages (match_id, seat, user_id, content, with_view, channel, created_at,"
            " delivered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (match_id, seat, user_id, content, int(with_view), channel, now, now if channel == "dm" else None),
        )])
        return cur.one()[0]

    async def pending_private_messages(self, match_id: int, user_id: int) -> list[PrivateMessage]:
        rows = await self.fetch(
            "SELECT * FROM private_messages WHERE match_id = ? AND user_id = ? AND channel = 'pending' ORDER BY id",
            (match_id, user_id),
        )
        return [
            PrivateMessage(r["id"], r["match_id"], r["seat"], r["user_id"], r["content"], bool(r["with_view"]),
                           r["channel"], r["created_at"], r["delivered_at"])
            for r in rows
        ]

    async def mark_private_delivered(self, message_ids: list[int], channel: str, now: float) -> None:
        await self._write([
            ("UPDATE private_messages SET channel = ?, delivered_at = ? WHERE id = ? AND channel = 'pending'",
             (channel, now, mid))
            for mid in message_ids
        ])

    async def private_messages(self, match_id: int) -> list[PrivateMessage]:
        rows = await self.fetch("SELECT * FROM private_messages WHERE match_id = ? ORDER BY id", (match_id,))
        return [
            PrivateMessage(r["id"], r["match_id"], r["seat"], r["user_id"], r["content"], bool(r["with_view"]),
                           r["channel"], r["created_at"], r["delivered_at"])
            for r in rows
        ]


def _match_from_seat_rows(rows: list[Any]) -> Match:
    row = rows[0]
    seats = [Seat(r["seat_no"], r["seat_user"], r["seat_name"], r["seat_kind"], r["seat_level"]) for r in rows]
    return _match(row, seats)


def _match(row: Any, seats: list[Seat]) -> Match:
    return Match(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], thread_id=row["thread_id"],
        game=row["game"], options=json.loads(row["options"]), seed=row["seed"], status=row["status"],
        state=json.loads(row["state"]), version=row["version"], board_message_id=row["board_message_id"],
        draw_agreed=json.loads(row["draw_agreed"]) if row["draw_agreed"] else None,
        result=json.loads(row["result"]) if row["result"] else None,
        created_at=row["created_at"], updated_at=row["updated_at"], seats=seats,
        announced_version=row["announced_version"], rated=bool(row["rated"]),
        standings=json.loads(row["standings"]) if row["standings"] else None, finished_at=row["finished_at"],
        takeback=json.loads(row["takeback"]) if row["takeback"] else None,
        clock_seconds=row["clock_seconds"],
    )


def _commit_move(unit: MoveWrite) -> Steps[int]:
    new_version = unit.version + 1
    done = yield Step(
        "UPDATE matches SET state = ?, version = ?, status = ?, result = ?, draw_agreed = NULL,"
        " updated_at = ?, standings = ?, finished_at = ? WHERE id = ? AND version = ? AND status = 'active'",
        (_dumps(unit.state), new_version, "finished" if unit.result else "active",
         _dumps(unit.result) if unit.result else None, unit.now,
         _dumps(unit.standings) if unit.result and unit.standings else None,
         unit.now if unit.result else None, unit.match_id, unit.version),
    )
    if done.rowcount != 1:
        raise VersionConflict(f"match {unit.match_id} is no longer at version {unit.version}")
    yield Step(
        "INSERT INTO moves (match_id, version, seat, move, private, events, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (unit.match_id, new_version, unit.seat, unit.move, int(unit.private), _dumps(unit.events), unit.now),
    )
    if unit.result:
        yield Step("DELETE FROM timers WHERE ref_id = ? AND kind != 'challenge_expiry'", (unit.match_id,))
    else:
        for sql, params in _seat_timer_statements(unit.match_id, unit.timers):
            yield Step(sql, params)
    if unit.ratings is not None:
        yield from write_rated_finish(unit.ratings)
    if unit.outbox is not None:
        yield outbox_step(unit.match_id, new_version, unit.outbox, unit.now)
    return new_version


def _armed(timers: SeatTimers) -> list[tuple[str, int, float]]:
    """(kind, seat, due_at) of every clock timer the unit arms, in one order on both databases."""
    return [(kind, seat, due_at) for seat, kinds in sorted(timers.arm.items()) for kind, due_at in sorted(kinds.items())]


def _commit_move_call(unit: MoveWrite) -> Step:
    """_commit_move of a move that does not end its match, as one call of PostgreSQL's strategos_commit_move."""
    armed = _armed(unit.timers)
    return Step(
        "SELECT strategos_commit_move(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (unit.match_id, unit.version, _dumps(unit.state), unit.now, unit.seat, unit.move, int(unit.private),
         _dumps(unit.events), list(CLOCK_KINDS), list(unit.timers.cancel), [kind for kind, _, _ in armed],
         [seat for _, seat, _ in armed], [due_at for _, _, due_at in armed],
         unit.outbox.token if unit.outbox else None, unit.outbox.events if unit.outbox else None),
    )


def _seat_timer_statements(match_id: int, timers: SeatTimers) -> list[tuple[str, tuple]]:
    """Drop the clock timers of the `cancel` seats; (re)arm, unfired, the given kinds of the `arm` seats."""
    kinds = ", ".join(f"'{kind}'" for kind in CLOCK_KINDS)
    statements = []
    if timers.cancel:
        marks = ", ".join("?" * len(timers.cancel))
        statements.append((f"DELETE FROM timers WHERE ref_id = ? AND seat IN ({marks}) AND kind IN ({kinds})",
                           (match_id, *timers.cancel)))
    rows = [(kind, match_id, seat, due_at) for kind, seat, due_at in _armed(timers)]
    if rows:
        statements.append((
            f"INSERT INTO timers (kind, ref_id, seat, due_at) VALUES {', '.join(['(?, ?, ?, ?)'] * len(rows))}"
            " ON CONFLICT (kind, ref_id, seat) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL,"
            " claimed_by = NULL, lease_until = NULL",
            tuple(value for row in rows for value in row),
        ))
    return statements
