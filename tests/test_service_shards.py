"""The start-up repair with several processes: each repairs the boards of its own shards' servers, and on a shared
database only boards old enough that no live process can still be posting them."""

from __future__ import annotations

import asyncio

from bot.composition import build_match_service
from bot.matches import events
from bot.matches.scope import REPAIR_AFTER, ProcessScope, shard_of
from bot.storage.opening import open_repository

GUILD = (987654321 << 22) | 77


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Repairs:
    def __init__(self):
        self.seen: list[int] = []

    async def __call__(self, event) -> bool:
        if isinstance(event, events.BoardRepaired):
            self.seen.append(event.match.id)
        return True


async def a_match_whose_last_board_was_cut_off(database, clock) -> int:
    service = build_match_service(await open_repository(database), clock=clock, seed_source=lambda: 7)
    await service.start()
    challenge = await service.create_challenge(guild_id=GUILD, channel_id=2, challenger_id=100,
                                               challenger_name="u100", game_key="epaminondas", invited=[101])
    await service.accept_challenge(challenge.id, 101, "u101")
    match = (await service.matches_of(100))[0]
    await service.repo.set_thread(match.id, 555)
    await service.submit_move(match.id, 100, "a1-a3")
    await service.drain()
    # the process stopped before the move's board was posted
    await service.repo.driver.write_statements([
        ("UPDATE matches SET announced_version = version - 1 WHERE id = ?", (match.id,))])
    await service.repo.close()
    return match.id


async def restarted(database, clock, scope=ProcessScope(), shared=False):
    service = build_match_service(await open_repository(database), clock=clock, seed_source=lambda: 7,
                                  scope=scope)
    service.timers.claims.shared = shared
    repairs = Repairs()
    service.bus.subscribe(repairs)
    await service.start()
    await service.bus.idle()
    # a look of the dispatcher still in flight (slower on PostgreSQL) must not see the test's clock jump
    await asyncio.gather(*(t for t in asyncio.all_tasks() if t.get_name() == "timer-look"))
    return service, repairs


async def test_the_start_up_repair_covers_only_this_process_s_shards(store_database):
    clock = Clock()
    match_id = await a_match_whose_last_board_was_cut_off(store_database, clock)
    mine = shard_of(GUILD, 4)
    for shards, repaired in [(tuple(s for s in range(4) if s != mine), []), ((mine,), [match_id])]:
        service, repairs = await restarted(store_database, clock, ProcessScope(shards, 4))
        assert repairs.seen == repaired
        await service.drain()
        await service.repo.close()


async def test_on_a_shared_database_a_young_board_is_repaired_once_a_minute_has_passed(store_database):
    clock = Clock()
    match_id = await a_match_whose_last_board_was_cut_off(store_database, clock)
    clock.now += REPAIR_AFTER / 2  # another live process may be posting it right now
    service, repairs = await restarted(store_database, clock, shared=True)
    try:
        assert repairs.seen == []
        clock.now += REPAIR_AFTER / 2
        assert await service.timers.fire_due() == 1
        await service.bus.idle()
        assert repairs.seen == [match_id]
    finally:
        await service.drain()
        await service.repo.close()


async def test_alone_on_its_database_a_process_repairs_every_board_at_once(store_database):
    clock = Clock()
    match_id = await a_match_whose_last_board_was_cut_off(store_database, clock)
    service, repairs = await restarted(store_database, clock)
    assert repairs.seen == [match_id]
    await service.drain()
    await service.repo.close()
