"""One copy of every unit's SQL for both databases.

A unit of work is a generator: it yields statements (Step) and receives what each did (Done), so its reads,
guards and writes are written once. SQLite drives it synchronously on the writer's thread (inside the group
commit's savepoint); PostgreSQL drives it on an asyncpg connection inside one transaction. The SQL is written with
`?` placeholders in the subset both dialects share (ON CONFLICT, RETURNING, CASE, IS NOT DISTINCT FROM);
PostgreSQL's `$1, $2, …` are put in once per statement text, and remembered.

Rows are read by column name or position: sqlite3.Row and asyncpg.Record both allow either.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from typing import Any, Generator, NamedTuple, Sequence, TypeVar

T = TypeVar("T")


class UnitRefused(Exception):
    """Raised by a unit whose guard refused it: nothing of that unit is written (on SQLite, its group is)."""


def dumps(value: Any) -> str:
    """A value as the stores keep JSON: compact, its keys sorted (the same text for the same value)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Step(NamedTuple):
    """One statement of a unit; with `many`, `params` is a list of parameter tuples (one run of it each)."""

    sql: str
    params: Sequence[Any] = ()
    many: bool = False


class Done(NamedTuple):
    """What one statement did: the rows it changed and, for a SELECT or a RETURNING, the rows it gave."""

    rowcount: int
    rows: list[Any]

    def one(self) -> Any:
        return self.rows[0] if self.rows else None


Steps = Generator[Step, Done, T]  # a unit of work: yields its statements, receives what each did, returns a value

_GIVES_ROWS = re.compile(r"^\s*(SELECT|WITH)\b|\bRETURNING\b", re.IGNORECASE)


def gives_rows(sql: str) -> bool:
    return bool(_GIVES_ROWS.search(sql))


def statements(steps: Sequence[Step]) -> Steps[list[Done]]:
    """A unit of fixed statements that need nothing of each other: what each did."""
    done = []
    for step in steps:
        done.append((yield step))
    return done


# --- SQLite ---------------------------------------------------------------------------------------------------


def run_on_sqlite(conn: sqlite3.Connection, steps: Steps[T]) -> T:
    """Drive a unit on SQLite's writer thread, inside the transaction the caller opened."""
    try:
        step = next(steps)
        while True:
            step = steps.send(_sqlite_step(conn, step))
    except StopIteration as stop:
        return stop.value


def _sqlite_step(conn: sqlite3.Connection, step: Step) -> Done:
    if step.many:
        cur = conn.executemany(step.sql, step.params)
        return Done(cur.rowcount, [])
    cur = conn.execute(step.sql, tuple(step.params))
    rows = cur.fetchall() if cur.description is not None else []
    return Done(len(rows) if gives_rows(step.sql) else cur.rowcount, rows)


# --- PostgreSQL -----------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=2048)
def postgres_sql(sql: str) -> str:
    """`?` → `$1, $2, …` (the statements carry no `?` inside string literals)."""
    parts = sql.split("?")
    out = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        out.append(f"${number}{part}")
    return "".join(out)


_COUNT = re.compile(r"(\d+)\s*$")


async def postgres_step(conn: Any, step: Step) -> Done:
    sql = postgres_sql(step.sql)
    if step.many:
        await conn.executemany(sql, [tuple(p) for p in step.params])
        return Done(len(step.params), [])
    if gives_rows(step.sql):
        rows = await conn.fetch(sql, *step.params)
        return Done(len(rows), rows)
    status = await conn.execute(sql, *step.params)  # "UPDATE 1", "INSERT 0 3", "DELETE 0"
    found = _COUNT.search(status or "")
    return Done(int(found.group(1)) if found else 0, [])


async def run_on_postgres(conn: Any, steps: Steps[T]) -> T:
    """Drive a unit on an asyncpg connection, inside the transaction the caller opened."""
    try:
        step = next(steps)
        while True:
            step = steps.send(await postgres_step(conn, step))
    except StopIteration as stop:
        return stop.value
