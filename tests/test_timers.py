"""The timer dispatcher: one task sleeps until the earliest deadline; a timer written for later needs no wake-up."""

from __future__ import annotations

import asyncio

import pytest

from bot.matches import timers as timers_module
from bot.matches.timers import LEASE_SECONDS, TimerDispatcher, claims_of
from bot.storage.clocks import DEADLINE
from bot.storage.postgres_pool import DatabaseUnavailable
from bot_helpers import start_match
from conftest import ON_BOTH


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def dispatcher(store):
    """On SQLite and on PostgreSQL (`store`, tests/conftest.py)."""
    timers = TimerDispatcher(store, Clock())
    timers.sweep_every = None  # the timers alone decide when it looks (the periodic look has tests of its own)
    fired: list[int] = []

    async def handler(timer):
        fired.append(timer.ref_id)

    timers.on("test", handler)
    timers.fired = fired
    yield timers
    await timers.stop()


async def until_asleep(timers: TimerDispatcher) -> None:
    for _ in range(200):
        if timers._sleeping:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the dispatcher never went to sleep")


async def test_a_later_timer_leaves_the_sleeping_dispatcher_alone_and_an_earlier_one_wakes_it(dispatcher):
    repo, clock = dispatcher.repo, dispatcher.clock
    await repo.set_timer("test", 1, clock.now + 100)
    dispatcher.start()
    await until_asleep(dispatcher)
    sleeping = dispatcher._task

    await repo.set_timer("test", 2, clock.now + 500)
    dispatcher.wake(clock.now + 500)  # found anyway when the dispatcher looks at +100: no restart, no queries
    assert dispatcher._task is sleeping and not sleeping.cancelled()

    await repo.set_timer("test", 3, clock.now + 50)
    dispatcher.wake(clock.now + 50)  # earlier than its next look: it must look again now
    await until_asleep(dispatcher)
    assert dispatcher._task is not sleeping

    clock.now += 600  # all three are due: each fires once, earliest first
    assert await dispatcher.fire_due() == 3
    assert dispatcher.fired == [3, 1, 2]


async def test_a_wake_without_a_time_always_looks_again(dispatcher):
    dispatcher.start()
    await dispatcher.repo.set_timer("test", 1, dispatcher.clock.now + 100)
    dispatcher.wake()
    await until_asleep(dispatcher)
    assert dispatcher._wake_at == dispatcher.clock.now + 100


# --- claims with leases: several dispatchers (processes) may share the timers ---------------------------------


async def test_two_dispatchers_on_one_database_fire_each_due_timer_once(dispatcher):
    repo, clock = dispatcher.repo, dispatcher.clock
    other = TimerDispatcher(repo, clock)
    other.on("test", dispatcher._handlers["test"])
    for ref in range(100):
        await repo.set_timer("test", ref, clock.now - ref)
    fired = await asyncio.gather(dispatcher.fire_due(), other.fire_due())
    assert sum(fired) == 100 and sorted(dispatcher.fired) == list(range(100))
    assert await dispatcher.fire_due() == 0 and await other.fire_due() == 0


async def test_a_claim_whose_process_died_fires_once_after_its_lease(dispatcher):
    repo, clock = dispatcher.repo, dispatcher.clock
    await repo.set_timer("test", 7, clock.now)
    dead = claims_of(repo)  # a process that claimed the timer, then died before its handler ran
    assert [t.ref_id for t in await dead.claim_due("dead#1", clock.now, clock.now + LEASE_SECONDS, 10)] == [7]
    assert await dispatcher.fire_due() == 0 and dispatcher.fired == []  # held: its lease is running
    assert await dispatcher.claims.next_due() == clock.now + LEASE_SECONDS  # the dispatcher looks again then
    clock.now += LEASE_SECONDS
    assert await dispatcher.fire_due() == 1 and dispatcher.fired == [7]
    clock.now += 10 * LEASE_SECONDS
    assert await dispatcher.fire_due() == 0 and dispatcher.fired == [7]  # done: never again


async def test_a_failed_handler_fires_again_when_its_claim_runs_out(dispatcher):
    repo, clock = dispatcher.repo, dispatcher.clock
    attempts = []

    async def flaky(timer):
        attempts.append(clock.now)
        if len(attempts) == 1:
            raise RuntimeError("the database went away")

    dispatcher.on("flaky", flaky)
    await repo.set_timer("flaky", 1, clock.now)
    assert await dispatcher.fire_due() == 0
    assert await dispatcher.fire_due() == 0  # not before its lease ran out
    clock.now += LEASE_SECONDS
    assert await dispatcher.fire_due() == 1 and len(attempts) == 2
    clock.now += LEASE_SECONDS
    assert await dispatcher.fire_due() == 0 and len(attempts) == 2


async def test_a_running_batch_keeps_its_claims_and_a_stop_gives_them_back(dispatcher, monkeypatch):
    monkeypatch.setattr(timers_module, "RENEW_EVERY", 0.01)
    repo, clock = dispatcher.repo, dispatcher.clock
    started, release = asyncio.Event(), asyncio.Event()

    async def slow(timer):  # a computer thinking for longer than a lease
        started.set()
        await release.wait()

    dispatcher.on("slow", slow)
    await repo.set_timer("slow", 1, clock.now)
    await repo.set_timer("slow", 2, clock.now)
    running = asyncio.ensure_future(dispatcher.fire_due())
    await started.wait()
    clock.now += 2 * LEASE_SECONDS
    await asyncio.sleep(0.05)  # the batch renewed its lease meanwhile
    other = TimerDispatcher(repo, clock)
    other.on("slow", slow)
    assert await other.claims.claim_due("other#1", clock.now, clock.now + LEASE_SECONDS, 10) == []
    running.cancel()  # the bot stops mid-batch
    with pytest.raises(asyncio.CancelledError):
        await running
    await dispatcher.stop()
    release.set()
    assert [t.ref_id for t in await other.claims.claim_due("other#2", clock.now, clock.now + 60, 10)] == [1, 2]


async def test_a_timer_written_again_while_claimed_is_a_new_timer(dispatcher):
    repo, clock = dispatcher.repo, dispatcher.clock

    async def rearming(timer):  # a league step that asks for another step at once, in the same instant
        if not dispatcher.fired:
            await repo.set_timer("again", 1, clock.now)
        dispatcher.fired.append(timer.ref_id)

    dispatcher.on("again", rearming)
    await repo.set_timer("again", 1, clock.now)
    assert await dispatcher.fire_due() == 2 and dispatcher.fired == [1, 1]


async def test_timers_of_different_matches_fire_side_by_side_and_one_match_s_in_order(dispatcher):
    repo, clock = dispatcher.repo, dispatcher.clock
    second_started = asyncio.Event()
    order = []

    async def waiting(timer):  # a handler waiting for the database: the next match's timer need not wait for it
        order.append((timer.ref_id, timer.seat))
        if timer.ref_id == 1 and timer.seat == 0:
            await asyncio.wait_for(second_started.wait(), 5)
        if timer.ref_id == 2:
            second_started.set()

    dispatcher.on("slow", waiting)
    await repo.set_timer("slow", 1, clock.now - 3, seat=0)
    await repo.set_timer("slow", 2, clock.now - 2)
    await repo.set_timer("slow", 1, clock.now - 1, seat=1)
    assert await dispatcher.fire_due() == 3
    assert order.index((1, 0)) < order.index((1, 1))  # one match's timers: in order, the second after the first


# --- a lost database (PostgreSQL restarting) delays a deadline by seconds, not by a minute -----------------------


@ON_BOTH
@pytest.mark.parametrize("where", ["look", "handler"])
async def test_a_deadline_the_lost_database_delayed_fires_within_five_seconds(world, monkeypatch, where):
    """On SimCord's virtual clock: the database is lost as the deadline comes, at the dispatcher's look (claiming)
    or inside the deadline's handler; by five seconds later the match is settled on time, once."""
    _, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    timers, clocks = world.bot.matches.timers, world.bot.repo.clocks
    due = await clocks.timer_due(DEADLINE, match_id, 0)
    await world.env.advance_time(due - world.env.now().timestamp() - 60)
    lost: list[float] = []  # when the database was lost

    def lost_once(original):
        async def losing(*args):
            if not lost:
                lost.append(world.env.now().timestamp())
                raise DatabaseUnavailable("the connection to PostgreSQL was lost (ConnectionResetError)")
            return await original(*args)
        return losing

    if where == "look":
        monkeypatch.setattr(timers.claims, "claim_due", lost_once(timers.claims.claim_due))
    else:
        timers.on(DEADLINE, lost_once(timers._handlers[DEADLINE]))
    await world.env.advance_time(61)  # the deadline passes, and the dispatcher meets the lost database
    assert lost and (await world.bot.matches.get_match(match_id)).status == "active"
    await world.env.advance_time(lost[0] + 5 - world.env.now().timestamp())
    assert (await world.bot.matches.get_match(match_id)).status == "finished"
    assert [entry.move for entry in await world.bot.repo.moves(match_id)] == ["timeout"]
