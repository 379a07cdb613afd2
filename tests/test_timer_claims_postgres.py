"""Timer claims on PostgreSQL, shared by several dispatchers (each standing for a bot process): every due timer is
fired once, a dead claimant's timers once after its lease, and a timer one process writes wakes the others."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.matches.timers import LEASE_SECONDS, TimerDispatcher
from bot.storage import Repository, postgres_schema


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def pool(postgres_dsn):
    conn = await asyncpg.connect(postgres_dsn)
    await postgres_schema.migrate(conn)
    await conn.close()
    pool = await asyncpg.create_pool(postgres_dsn, min_size=1, max_size=8)
    yield pool
    await pool.close()


def dispatchers(pool, dsn, clock, count: int, fired: list) -> list[TimerDispatcher]:
    made = []
    for _ in range(count):
        dispatcher = TimerDispatcher(None, clock, claims=Repository(pool=pool).timer_claims())
        dispatcher.listening = True  # one of several processes

        async def handler(timer, dispatcher=dispatcher):
            fired.append((timer.ref_id, dispatcher.claimant))
            await asyncio.sleep(0)  # let the other dispatcher run meanwhile

        dispatcher.on("test", handler)
        made.append(dispatcher)
    return made


async def add_timers(pool, count: int, due_at: float) -> None:
    await pool.executemany("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES ('test', $1, -1, $2)",
                           [(ref, due_at - ref % 17) for ref in range(count)])


async def another_process_writes_a_timer(dsn: str, ref_id: int, due_at: float) -> None:
    """A timer written through a connection of its own, as another bot process writes one."""
    other = await asyncpg.connect(dsn)
    try:
        await other.execute("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES ('test', $1, -1, $2)", ref_id,
                            due_at)
    finally:
        await other.close()


async def until_fired(fired: list, seconds: float = 3.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if fired:
            return
        await asyncio.sleep(0.01)


async def test_postgres_a_thousand_due_timers_with_two_dispatchers_each_fire_once(pool, postgres_dsn):
    clock, fired = Clock(), []
    first, second = dispatchers(pool, postgres_dsn, clock, 2, fired)
    await add_timers(pool, 1000, clock.now)
    counts = await asyncio.gather(first.fire_due(), second.fire_due())
    assert sorted(ref for ref, _ in fired) == list(range(1000)) and sum(counts) == 1000
    assert all(counts), counts  # both took a share: claims skip each other's locked rows instead of waiting
    assert await pool.fetchval("SELECT COUNT(*) FROM timers WHERE fired_at IS NULL") == 0
    assert await first.fire_due() == 0 and await second.fire_due() == 0


async def test_postgres_a_claimant_that_dies_has_its_timer_fired_once_after_the_lease(pool, postgres_dsn):
    clock, fired = Clock(), []
    await add_timers(pool, 3, clock.now)
    dead = Repository(pool=pool).timer_claims()  # claimed, then the process died before any handler ran
    assert len(await dead.claim_due("dead#1", clock.now, clock.now + LEASE_SECONDS, 10)) == 3
    (alive,) = dispatchers(pool, postgres_dsn, clock, 1, fired)
    assert await alive.fire_due() == 0
    assert await alive.claims.next_due() == clock.now + LEASE_SECONDS  # the live dispatcher looks again then
    clock.now += LEASE_SECONDS
    assert await alive.fire_due() == 3 and sorted(ref for ref, _ in fired) == [0, 1, 2]
    clock.now += 10 * LEASE_SECONDS
    assert await alive.fire_due() == 0 and len(fired) == 3


async def test_postgres_a_timer_another_process_writes_wakes_a_sleeping_dispatcher(pool, postgres_dsn):
    clock, fired = Clock(), []
    (sleeper,) = dispatchers(pool, postgres_dsn, clock, 1, fired)
    sleeper.sweep_every = 3600.0  # its periodic look is far away: only the notification can wake it
    sleeper.start()
    for _ in range(200):
        if sleeper._sleeping:
            break
        await asyncio.sleep(0.01)
    await another_process_writes_a_timer(postgres_dsn, 42, clock.now)
    await until_fired(fired)
    await sleeper.stop()
    assert [ref for ref, _ in fired] == [42]


async def test_postgres_a_lost_notification_is_made_up_for_by_the_periodic_look(pool, postgres_dsn):
    clock, fired = Clock(), []
    (sleeper,) = dispatchers(pool, postgres_dsn, clock, 1, fired)

    async def deaf(wake):  # its notifications are lost (a dropped connection)
        pass

    sleeper.claims.listen = deaf
    sleeper.sweep_every = 0.2
    sleeper.start()
    await another_process_writes_a_timer(postgres_dsn, 43, clock.now)
    await until_fired(fired)
    await sleeper.stop()
    assert [ref for ref, _ in fired] == [43]


async def test_postgres_a_stopping_dispatcher_gives_its_claims_back_at_once(pool, postgres_dsn):
    clock, fired = Clock(), []
    await add_timers(pool, 2, clock.now)
    stopping, other = dispatchers(pool, postgres_dsn, clock, 2, fired)
    assert len(await stopping.claims.claim_due(f"{stopping.claimant}#1", clock.now, clock.now + 60, 10)) == 2
    await stopping.stop()
    assert await other.fire_due() == 2  # no lease to wait for
