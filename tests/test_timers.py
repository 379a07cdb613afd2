"""The timer dispatcher: one task sleeps until the earliest deadline; a timer written for later needs no wake-up."""

from __future__ import annotations

import asyncio

import pytest

from bot.matches.timers import TimerDispatcher


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def dispatcher(store):
    """On SQLite and on PostgreSQL (`store`, tests/conftest.py)."""
    timers = TimerDispatcher(store, Clock())
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
