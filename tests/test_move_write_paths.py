"""A move's write exists twice on PostgreSQL: the unit of statements every database runs (`move_steps`) and, for a
move that does not end its match, one call of the server function strategos_commit_move (migrations 010, 011,
016), kept because it saves five round trips per move (README, Performance). Here both run on the same moves, each on its
own copy of the same database, and every row they leave must be the same: a change to one that the other lacks
fails this test."""

from __future__ import annotations

import random
import re
from typing import Any

import asyncpg
import pytest

from bot.domain import MoveWrite, OutboxEntry, SeatTimers
from bot.storage import Driver, VersionConflict
from bot.storage.database import migration_files
from bot.storage.matches import MatchStore, move_steps
from bot.storage.postgres import open_pool
from bot.storage.timers import CLOCK_KINDS

MATCHES = (1, 2, 3)
SEATS = 4


@pytest.fixture
async def twins(postgres_server, postgres_template, migrated_postgres_dsn):
    """Two databases holding the same matches: the first written through the server function, the second through
    the unit of statements."""
    admin = await asyncpg.connect(postgres_server.dsn())
    name = migrated_postgres_dsn.rsplit("/", 1)[-1].split("?")[0] + "_twin"
    await admin.execute(f"CREATE DATABASE {name} TEMPLATE {postgres_template}")
    drivers = [Driver(pool=await open_pool(dsn)) for dsn in (migrated_postgres_dsn, postgres_server.dsn(name))]
    try:
        for driver in drivers:
            await driver.write_statements(setup_rows())
        yield drivers
    finally:
        for driver in drivers:
            await driver.close()
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        await admin.close()


def setup_rows() -> list[tuple[str, tuple]]:
    rows: list[tuple[str, tuple]] = []
    for match_id in MATCHES:
        rows.append(("INSERT INTO matches (id, guild_id, channel_id, game, seed, state, created_at, updated_at)"
                     " VALUES (?, 9, 8, 'epaminondas', 7, '{}', 0, 0)", (match_id,)))
        rows += [("INSERT INTO match_seats (match_id, seat, user_id, user_name) VALUES (?, ?, ?, ?)",
                  (match_id, seat, 100 + seat, f"u{seat}")) for seat in range(SEATS)]
        # Timers a move must leave alone: the challenge's, and a league's sharing nothing but a number.
        rows.append(("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES ('challenge_expiry', ?, -1, 5)",
                     (match_id,)))
    rows.append(("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES ('turn_deadline', -1, 0, 6)", ()))
    return rows


def random_unit(rng: random.Random, match_id: int, version: int, now: float) -> MoveWrite:
    seats = range(SEATS)
    arm = {seat: {kind: round(now + rng.uniform(1, 9999), 3) for kind in CLOCK_KINDS if rng.random() < 0.6}
           for seat in rng.sample(seats, rng.randint(0, SEATS))}
    finishes = rng.random() < 0.03
    return MoveWrite(
        match_id=match_id, version=version, seat=rng.randrange(SEATS), move=f"m{rng.randrange(10**6)}",
        private=rng.random() < 0.2,
        events=[{"type": rng.choice(["move", "capture"]), "at": [rng.randrange(12), rng.randrange(12)]}
                for _ in range(rng.randint(0, 3))],
        state={"turn": version + 1, "board": [rng.randrange(3) for _ in range(6)], "note": "ü \"q\" \\"},
        result={"winners": [0], "reason": "resigned"} if finishes else None,
        standings=[[0], [1, 2, 3]] if finishes else None,
        now=now,
        timers=SeatTimers(cancel=tuple(sorted(rng.sample(seats, rng.randint(0, 2)))),
                          arm={seat: kinds for seat, kinds in arm.items() if kinds}),
        outbox=OutboxEntry(f"host:1:ab#a{version}", '[{"~type": "MovePlayed"}]', now) if rng.random() < 0.8 else None,
        clock_used=round(rng.uniform(0, 9999), 3) if rng.random() < 0.7 else None,
    )


async def rows_of(driver: Driver, tables: list[str] | None = None) -> dict[str, list[tuple]]:
    """Every row of the tables (all of them by default), every column, in one order."""
    if tables is None:
        tables = [r[0] for r in await driver.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name")]
    return {table: sorted((tuple(row) for row in await driver.fetch(f"SELECT * FROM {table}")), key=repr)
            for table in tables}


def assert_same(by_call: dict[str, list[tuple]], by_steps: dict[str, list[tuple]], after: Any) -> None:
    differences = [f"{table}: only by the call {sorted(set(rows) - set(by_steps[table]))},"
                   f" only by the statements {sorted(set(by_steps[table]) - set(rows))}"
                   for table, rows in by_call.items() if rows != by_steps[table]]
    assert not differences, f"after {after}: " + "; ".join(differences)


async def outcome(write: Any) -> Any:
    try:
        return await write
    except VersionConflict:
        return "version conflict"


async def play_on_both(twins: list[Driver], moves: int, seed: int) -> list[Any]:
    """The same moves through both paths (the server function on the first database, where MatchStore chooses it;
    the unit of statements on the second), a few of them stale or on a finished match; what each path answered."""
    by_call, by_steps = twins
    store = MatchStore(by_call)
    units_written = []
    write = by_call.write

    async def counted_write(steps):  # the store's unit of statements on the first database: finishing moves only
        units_written.append(steps)
        return await write(steps)

    by_call.write = counted_write
    rng = random.Random(seed)
    versions = {match_id: 0 for match_id in MATCHES}
    answers, finishing = [], 0
    for n in range(moves):
        match_id = rng.choice(MATCHES)
        stale = rng.random() < 0.1
        unit = random_unit(rng, match_id, versions[match_id] + (rng.choice((-1, 1)) if stale else 0), 1000.0 + n)
        if rng.random() < 0.15:  # a dispatcher claimed or fired some timers meanwhile: a re-arm clears both
            claim = ("UPDATE timers SET claimed_by = 'host:1:ab#3', lease_until = ?,"
                     " fired_at = CASE WHEN id % 2 = 0 THEN CAST(? AS DOUBLE PRECISION) END"
                     " WHERE ref_id = ? AND seat = ?",
                     (2000.0 + n, 1500.0 + n, match_id, rng.randrange(SEATS)))
            for driver in twins:
                await driver.write_statements([claim])
        finishing += unit.result is not None
        answer = await outcome(store.commit_move(unit))
        assert answer == await outcome(by_steps.write(move_steps(unit))), unit
        if answer != "version conflict":
            versions[match_id] = answer
        answers.append(answer)
        touched = ["matches", "moves", "timers", "ratings", "rating_changes", "outbox"]
        assert_same(await rows_of(by_call, touched), await rows_of(by_steps, touched), unit)
    assert len(units_written) == finishing  # every other move went through the server function
    return answers


async def test_a_move_written_by_the_server_function_leaves_every_row_the_unit_leaves(twins):
    answers = await play_on_both(twins, 240, seed=38)
    assert sum(a == "version conflict" for a in answers) >= 10  # stale moves and moves on finished matches
    assert len({a for a in answers if a != "version conflict"}) >= 20  # and many written
    assert_same(await rows_of(twins[0]), await rows_of(twins[1]), "every move")  # every table, every row


async def test_the_comparison_sees_a_server_function_that_drifted(twins):
    """The same moves with a server function that forgets to clear a re-armed timer's claim: the rows differ."""
    await twins[0].write_statements([(drifted(), ())])
    with pytest.raises(AssertionError, match=r"timers: only by the call \[\(.*'host:1:ab#3'"):
        await play_on_both(twins, 240, seed=38)


def drifted() -> str:
    """Migration 010's function, forgetting that a re-armed timer is nobody's claim."""
    (sql,) = [sql for number, _, sql in migration_files("postgresql") if number == 10]
    drifted, found = re.subn(r", claimed_by = NULL,\s+lease_until = NULL;", ";", sql)
    assert found == 1
    return drifted.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION")
