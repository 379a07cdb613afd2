"""The database driver: connections, units of work, group commit, transactions and the two dialects. No table of
Strategos is named here; the stores (one per aggregate, beside this module) hold the SQL and use only this face:

- `write(steps)`: one unit of work (a generator of statements, bot/storage/sql.py), all or nothing;
- `write_statements(steps)`: statements that need nothing of each other, as one unit;
- `fetch`, `fetchone`, `fetchvalue`: one read; `any_of(ids)`: a dialect's "one of these ids" clause;
- `transaction()`: SQLite's bulk writes (benchmarks, tests); `run_unit(fn)`: SQLite's raw group-commit door;
- `acquire()` and `release(conn)`: a PostgreSQL connection held apart (the timer listener's LISTEN).

SQLite (a file, the default): one writing connection and a reader (WAL); the units waiting at the same moment are
committed together (run_unit: group commit, each unit in a savepoint) and reads use the reader. PostgreSQL (an
asyncpg pool): each unit is one transaction on a pooled connection, each read takes a pooled connection of its
own, and a connection lost on the way is DatabaseUnavailable ("try again")."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from contextlib import asynccontextmanager, suppress
from typing import Any, AsyncIterator, Callable, Concatenate, Coroutine, Iterable, ParamSpec, TypeVar

import aiosqlite
import asyncpg

from bot import answers_first

from .database import is_storage_full
from .postgres_pool import DatabaseUnavailable, lost_connection_is_unavailable
from .sql import (
    Done,
    Step,
    Steps,
    T,
    UnitRefused,
    postgres_sql,
    postgres_step,
    run_on_postgres,
    run_on_sqlite,
    statements,
)

Unit = Callable[[sqlite3.Connection], Any]  # one unit of work: synchronous SQL on the writer's own thread
MAX_BATCH = 256  # units committed together at most
# Failures that belong to one unit: its savepoint is rolled back and the rest of its group is written.
UNIT_FAILURES = (UnitRefused, sqlite3.IntegrityError)

# What a failed database call is, as the bot's metrics count it (bot/metrics.py): the connection lost (PostgreSQL
# restarting), the disk full, a lock or conflict that outlasted its wait, a damaged file or page, the disk or file
# refusing (an I/O error, a read-only file), or another error of the database.
ERROR_KINDS = ("unavailable", "storage_full", "busy", "damaged", "io", "other")
_SQLITE_KINDS = {"SQLITE_BUSY": "busy", "SQLITE_LOCKED": "busy", "SQLITE_CORRUPT": "damaged",
                 "SQLITE_NOTADB": "damaged", "SQLITE_IOERR": "io", "SQLITE_READONLY": "io", "SQLITE_CANTOPEN": "io",
                 "SQLITE_PERM": "io"}  # by the error's name, or its primary code's (SQLITE_BUSY_SNAPSHOT: SQLITE_BUSY)
_POSTGRES_KINDS = {"40001": "busy", "40P01": "busy", "55P03": "busy", "57014": "busy", "XX001": "damaged",
                   "XX002": "damaged", "58": "io"}  # by SQLSTATE, or its class (the first two characters)


def error_kind(exc: BaseException) -> str | None:
    """The kind (ERROR_KINDS) of what a database call raised; None for what is no failure of the database: a
    refused guard or constraint (UnitRefused, an integrity error: the unit's own answer) or the caller's mistake."""
    if isinstance(exc, DatabaseUnavailable):
        return "unavailable"
    if is_storage_full(exc):
        return "storage_full"
    if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
        name = getattr(exc, "sqlite_errorname", "")
        return _SQLITE_KINDS.get(name, _SQLITE_KINDS.get("_".join(name.split("_")[:2]), "other"))
    if isinstance(exc, asyncpg.PostgresError) and not isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        state = exc.sqlstate or ""
        return _POSTGRES_KINDS.get(state, _POSTGRES_KINDS.get(state[:2], "other"))
    return None


P = ParamSpec("P")
R = TypeVar("R")


def _counted(call: Callable[Concatenate[Driver, P], Coroutine[Any, Any, R]],
             ) -> Callable[Concatenate[Driver, P], Coroutine[Any, Any, R]]:
    """A database call whose failure is told by kind to the driver's `on_error` (the bot's metrics)."""

    @functools.wraps(call)
    async def counted(self: Driver, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await call(self, *args, **kwargs)
        except Exception as exc:
            kind = error_kind(exc)
            if kind is not None and self.on_error is not None:
                self.on_error(kind)
            raise

    return counted


def _answers_first(call: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """A read or write whose caller goes on with work that can wait: while an interaction waits for its answer,
    that work waits its turn (bot/answers_first.py), as a read or write that comes back is where it resumes."""

    @functools.wraps(call)
    async def then_answers_first(*args: P.args, **kwargs: P.kwargs) -> R:
        result = await call(*args, **kwargs)
        await answers_first.turn()
        return result

    return then_answers_first


async def finish(coro: Any) -> Any:
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


async def _settled(future: asyncio.Future) -> None:
    await asyncio.wait([future])


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


class _Queued:
    __slots__ = ("unit", "future")

    def __init__(self, unit: Unit, future: asyncio.Future):
        self.unit = unit
        self.future = future


class Driver:
    """On SQLite: `db`, the writing connection, and `reader`. On PostgreSQL: `pool` (see bot/storage/postgres.py)."""

    def __init__(self, db: aiosqlite.Connection | None = None, reader: aiosqlite.Connection | None = None, *,
                 pool: Any = None):
        if (db is None) == (pool is None):
            raise ValueError("a Driver needs either a SQLite connection or a PostgreSQL pool")
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
        self.on_error: Callable[[str], None] | None = None  # told the kind of each failed call (bot/metrics.py)

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()
            return
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        for connection in {id(self.reader): self.reader, id(self.db): self.db}.values():
            # closing twice (shutdown, then a test's teardown) is harmless
            if connection is not None and connection._running:
                await connection.close()

    @property
    def _sqlite(self) -> aiosqlite.Connection:
        """The writing connection: group commit and transaction() are SQLite's alone."""
        if self.db is None:
            raise RuntimeError("a SQLite write on a PostgreSQL driver")
        return self.db

    # --- group commit -------------------------------------------------------------------------------------

    async def run_unit(self, unit: Unit) -> Any:
        """SQLite: run one unit of work (a function of the writing connection; `write` makes one of a generator),
        committed together with the other units waiting at the same moment: one
        transaction and one trip to the writer's thread for the whole group, each unit in its own savepoint, so
        a refused guard (UnitRefused: VersionConflict, RatingsMoved …, or a constraint) rolls back that unit alone.
        Any other failure (an I/O error) fails every unit of the group with it, and nothing of them is written.

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
            await finish(_settled(queued.future))
            raise

    async def _write_groups(self) -> None:
        while self._queue:
            group, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            try:
                async with self._tx_lock:  # never inside a transaction opened through transaction()
                    db = self._sqlite
                    outcomes = await finish(db._execute(_run_group, db._conn, [q.unit for q in group]))
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
        everything inside lands or nothing does. The bot's own writes are units (`write`).

        Cancellation-safe: a task cancelled at any await in here (BEGIN included) still leaves the shared
        connection outside any transaction, because the ROLLBACK (or COMMIT) is finished before the lock is freed.
        """
        async with self._tx_lock:
            try:
                await self._sqlite.execute("BEGIN IMMEDIATE")
                yield
            except BaseException:
                await finish(self._end("ROLLBACK"))
                raise
            try:
                await finish(self._end("COMMIT"))
            except BaseException:
                await finish(self._end("ROLLBACK"))
                raise

    async def _end(self, statement: str) -> None:
        # A cancelled BEGIN (or COMMIT) may or may not have reached SQLite (aiosqlite runs it on its own thread);
        # ask the connection, so a ROLLBACK never fails with "no transaction is active". A cancelled statement
        # can still wait in aiosqlite's queue, though, and run after we asked: a no-op queued behind it (the
        # queue runs in order) makes the answer true, or a late BEGIN would leave the connection in a transaction.
        db = self._sqlite
        if statement == "ROLLBACK":
            async with db.execute("SELECT 1"):
                pass
        if db.in_transaction:
            await db.execute(statement)

    # --- one unit, one read: the same SQL on both databases ---------------------------------------------

    @_answers_first
    @_counted
    async def write(self, steps: Steps[T]) -> T:
        """Run one unit of work (a generator of statements, bot/storage/sql.py) all or nothing; returns what it
        returns. A refused guard raises out of the unit and nothing of it is written. On SQLite it is group-
        committed (run_unit); on PostgreSQL it is one transaction, run to its end even if the caller is cancelled
        meanwhile (the cancellation is raised after)."""
        if self.pool is None:
            return await self.run_unit(functools.partial(run_on_sqlite, steps=steps))
        return await finish(self._write_on_postgres(steps))

    async def _write_on_postgres(self, steps: Steps[T]) -> T:
        # A connection lost on the way (PostgreSQL restarting) rolls the transaction back: DatabaseUnavailable.
        async with lost_connection_is_unavailable(self.pool):
            async with self.pool.acquire() as conn:
                async with conn.transaction():
                    return await run_on_postgres(conn, steps)

    async def write_statements(self, steps: Iterable[Step | tuple[str, tuple]]) -> list[Done]:
        """Statements that need nothing of each other, as one unit: what each did."""
        listed = [Step(*step) for step in steps]
        if self.pool is not None and len(listed) == 1 and not listed[0].many:
            # One statement is atomic on its own: no BEGIN and COMMIT round trips around it.
            return [await finish(self._one_statement(listed[0]))]
        return await self.write(statements(listed))

    @_answers_first
    @_counted
    async def _one_statement(self, step: Step) -> Done:
        async with lost_connection_is_unavailable(self.pool):  # as a unit does: "try again", never a traceback
            async with self.pool.acquire() as conn:
                return await postgres_step(conn, step)

    @_answers_first
    @_counted
    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """The rows of one read, by column name or position (sqlite3.Row, asyncpg.Record)."""
        if self.pool is None:
            assert self.reader is not None  # on SQLite: the reader, or the writer
            return list(await self.reader.execute_fetchall(sql, tuple(params)))
        async with lost_connection_is_unavailable(self.pool):
            return await self.pool.fetch(postgres_sql(sql), *params)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def fetchvalue(self, sql: str, params: Iterable[Any] = ()) -> Any:
        row = await self.fetchone(sql, params)
        return row[0] if row is not None else None

    def any_of(self, ids: list[int]) -> tuple[str, tuple]:
        """A clause and its parameters for "one of `ids`": `= ANY(?)` with one array on PostgreSQL (one statement
        text for any number, prepared once); `IN (?, …)` on SQLite, which has no arrays."""
        if self.pool is not None:
            return "= ANY(?)", (list(ids),)
        return f"IN ({', '.join('?' * len(ids))})", tuple(ids)

    # --- a PostgreSQL connection held apart ---------------------------------------------------------------

    @_counted
    async def acquire(self) -> Any:
        """PostgreSQL: a pooled connection of the caller's own until `release` (it must leave no session state).
        A server that cannot be reached is DatabaseUnavailable, as everywhere."""
        async with lost_connection_is_unavailable(self.pool):
            return await self.pool.acquire()

    async def release(self, conn: Any) -> None:
        """Give back a connection of `acquire`. One the server dropped is thrown away (asyncpg terminates a
        connection it cannot reset): that is no failure of the caller's."""
        with suppress(DatabaseUnavailable):
            async with lost_connection_is_unavailable(self.pool):
                await self.pool.release(conn)
