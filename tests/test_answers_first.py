"""The event loop answers first (bot/answers_first.py): while an interaction that arrived waits for its answer,
the work that can wait waits; then it goes on a few steps per pass, in the order it came, so an
interaction arriving meanwhile is answered before the rest; and full garbage collections wait for quiet."""

from __future__ import annotations

import asyncio
import gc

import pytest

from bot import answers_first
from bot.answers_first import ARRIVAL, RELEASED_PER_PASS, QuietCollections, gate

from bot_helpers import start_match


async def passes(count: int = 5) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


def held_steps(count: int, order: list[str]) -> list[asyncio.Future]:
    """`count` steps of work that can wait, each noting its name in `order` once the gate lets it go."""

    async def step(name: str) -> None:
        await answers_first.turn()
        order.append(name)

    return [asyncio.ensure_future(step(f"step {i}")) for i in range(count)]


async def test_with_nothing_waiting_the_gate_does_not_even_yield():
    ran = []
    asyncio.get_running_loop().call_soon(ran.append, "other")
    await answers_first.turn()
    assert ran == []  # nothing else ran: the gate returned without giving the loop away


async def test_work_waits_until_the_interaction_that_arrived_is_answered():
    first = gate()
    first.arrived(1)
    done = []

    async def work():
        await answers_first.turn()
        done.append("work")

    task = asyncio.ensure_future(work())
    await passes(20)
    assert done == [] and not task.done()
    first.answered(1)
    await task
    assert done == ["work"] and first.quiet


async def test_the_handler_of_the_waiting_interaction_passes_the_gate():
    first = gate()
    first.arrived(7)

    async def handler():
        ARRIVAL.set(7)  # as discord.py's handler task carries it
        await answers_first.turn()  # e.g. a read before its answer: its answer is what the rest waits for
        return "read"

    assert await asyncio.wait_for(handler(), 5) == "read"
    first.answered(7)


async def test_an_interaction_arriving_while_held_work_goes_on_is_answered_before_most_of_it():
    first = gate()
    first.arrived(1)
    order: list[str] = []

    steps = held_steps(40, order)
    await passes(3)
    first.answered(1)  # the held steps start to go on
    await asyncio.sleep(0)
    first.arrived(2)  # meanwhile a new interaction arrives; its handler answers at its first chance

    async def handler():
        await asyncio.sleep(0)
        order.append("answer 2")
        first.answered(2)

    await handler()
    await asyncio.gather(*steps)
    assert len(order) == 41
    assert order.index("answer 2") <= 2 * RELEASED_PER_PASS, order


async def test_held_work_goes_on_in_the_order_it_came():
    first = gate()
    first.arrived(1)
    order: list[str] = []

    tasks = held_steps(3 * RELEASED_PER_PASS, order)
    await passes(3)
    first.answered(1)
    await asyncio.gather(*tasks)
    assert order == [f"step {i}" for i in range(3 * RELEASED_PER_PASS)]


async def test_an_arrival_nobody_answers_stops_holding_after_its_time(monkeypatch):
    monkeypatch.setattr(answers_first, "HOLD", 0.0)
    first = gate()
    first.arrived(1)  # never answered (a handler that failed before its answer)
    await asyncio.wait_for(answers_first.turn(), 5)
    assert first.quiet


async def test_a_cancelled_waiter_holds_nobody_up():
    first = gate()
    first.arrived(1)
    cancelled = asyncio.ensure_future(answers_first.turn())
    kept = asyncio.ensure_future(answers_first.turn())
    await passes(3)
    cancelled.cancel()
    await passes(3)
    first.answered(1)
    await asyncio.wait_for(kept, 5)
    assert cancelled.cancelled() and first.quiet


async def test_full_collections_wait_for_a_quiet_moment_and_pythons_counts_come_back(monkeypatch):
    before = gc.get_threshold()
    collected = []
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(args) or 0)
    one, two = QuietCollections(), QuietCollections()
    one.start()
    two.start()
    assert gc.get_threshold()[2] == QuietCollections.NEVER
    first = gate()
    first.arrived(1)  # busy: a full collection falls due but waits
    for _ in range(QuietCollections.DUE_AFTER):
        one._counted("stop", {"generation": 1})
    await passes(5)
    assert collected == []
    first.answered(1)  # quiet: it runs now
    await passes(5)
    assert len(collected) == 1 and one.young == 0
    first.arrived(2)  # busy for good: it runs all the same once overdue
    for _ in range(QuietCollections.OVERDUE_AFTER):
        one._counted("stop", {"generation": 1})
    await passes(5)
    assert len(collected) == 2
    first.answered(2)
    one.stop()
    assert gc.get_threshold()[2] == QuietCollections.NEVER  # the other bot still runs
    two.stop()
    assert gc.get_threshold() == before


async def test_the_bot_registers_each_interaction_as_it_arrives_and_frees_the_rest_at_its_answer(world):
    """Through the real gateway parser and handlers: /move's interaction is registered before anything of its
    handler runs, and answered when it is acknowledged, before the move is read and written."""
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    first = gate()
    seen: list[tuple[str, int | None]] = []
    arrived, answered = first.arrived, first.answered
    reads = world.bot.repo.driver.fetch

    def on_arrival(key):
        seen.append(("arrived", key))
        arrived(key)

    def on_answer(key):
        seen.append(("answered", key))
        answered(key)

    async def on_read(*args, **kwargs):
        seen.append(("read", None))
        return await reads(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(first, "arrived", on_arrival)
        patch.setattr(first, "answered", on_answer)
        patch.setattr(world.bot.repo.driver, "fetch", on_read)
        result = await world.alice.slash(thread, "move", match=match_id, move="a1-d4")
    assert result.response.content.startswith("✅")
    kinds = [kind for kind, _ in seen]
    assert kinds[0] == "arrived" and "answered" in kinds
    key = seen[0][1]
    assert ("answered", key) in seen
    assert kinds.index("answered") < kinds.index("read"), seen  # acknowledged before the move is read
    assert first.quiet
