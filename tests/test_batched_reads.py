"""Batched reads (bot/storage/batched.py): loads asked for in one turn of the event loop share one statement, and
each caller still gets its own rows, its own failure, and nothing stale."""

from __future__ import annotations

import asyncio

import pytest

from bot.composition import build_match_service
from bot.storage.batched import Batched


class Recorder:
    def __init__(self, fail: BaseException | None = None, hold: asyncio.Event | None = None):
        self.calls: list[list[int]] = []
        self.fail, self.hold = fail, hold

    async def __call__(self, keys):
        self.calls.append(list(keys))
        if self.hold is not None:
            await self.hold.wait()
        if self.fail is not None:
            raise self.fail
        return {key: [f"row of {key}"] for key in keys if key % 2 == 0}


async def test_reads_asked_in_one_turn_share_one_statement_per_chunk():
    fetch = Recorder()
    batched = Batched(fetch, chunk=3)
    rows = await asyncio.gather(*(batched.read(key) for key in (2, 4, 5, 6, 8, 2)))
    assert rows == [["row of 2"], ["row of 4"], [], ["row of 6"], ["row of 8"], ["row of 2"]]
    assert fetch.calls == [[2, 4, 5], [6, 8]]  # a key asked twice is read once
    assert await batched.read(4) == ["row of 4"]  # a lone read later: a statement of its own
    assert fetch.calls[-1] == [4]


async def test_a_failed_statement_fails_every_read_it_carried_and_only_those():
    batched = Batched(Recorder(fail=RuntimeError("disk on fire")))
    results = await asyncio.gather(batched.read(1), batched.read(2), return_exceptions=True)
    assert [str(r) for r in results] == ["disk on fire", "disk on fire"]


async def test_a_cancelled_reader_leaves_the_others_their_rows():
    hold = asyncio.Event()
    batched = Batched(Recorder(hold=hold))
    cancelled = asyncio.ensure_future(batched.read(2))
    kept = asyncio.ensure_future(batched.read(4))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    cancelled.cancel()
    hold.set()
    assert await kept == ["row of 4"]
    with pytest.raises(asyncio.CancelledError):
        await cancelled


async def test_matches_loaded_together_are_each_whole_and_current(store):
    service = build_match_service(store, clock=lambda: 1_000_000.0, seed_source=lambda: 7)
    try:
        ids = []
        for n in range(3):
            challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=10 + n,
                                                       challenger_name=f"u{n}", game_key="epaminondas", invited=[20 + n])
            ids.append((await service.accept_challenge(challenge.id, 20 + n, f"v{n}")).match_id)
        await service.submit_move(ids[1], 11, "a1-a3")  # committed before the loads are asked for: they see it
        statements = []
        fetch = store.driver.fetch

        async def counted(sql, params=()):
            statements.append(sql)
            return await fetch(sql, params)

        store.driver.fetch = counted
        loads = await asyncio.gather(*(store.load_match(i) for i in ids), store.load_match(999_999))
        store.driver.fetch = fetch
        assert len(statements) == 1
        assert [load.match.id for load in loads[:3]] == ids and loads[3] is None
        assert [load.match.version for load in loads[:3]] == [0, 1, 0]
        assert [[seat.user_id for seat in load.match.seats] for load in loads[:3]] == [[10, 20], [11, 21], [12, 22]]
    finally:
        await service.drain()
