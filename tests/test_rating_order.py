"""A finish whose process reads the clock a little behind another's (two hosts, or a read taken before a racing
finish committed) is still written as finishing after the finishes its ratings follow, so a rebuild, which rates in
order of finish, gives the ratings the live finishes gave."""

from __future__ import annotations

from bot.composition import build_match_service
from bot.matches.rating_service import Ratings
from bot.storage.opening import open_repository
from test_races_postgres import Clock, ratings_tables, started


async def test_a_finish_read_behind_the_one_its_ratings_follow_is_written_after_it(store_database):
    clock = Clock()
    service = build_match_service(await open_repository(store_database), clock=clock, seed_source=lambda: 7)
    try:
        alice = 400
        first = await started(service, "epaminondas", [401, alice])
        second = await started(service, "epaminondas", [402, alice])
        await service.resign(first, 401)  # alice wins, rated at the clock's time
        finished_first = (await service.get_match(first)).finished_at
        clock.now -= 10  # the next finish's clock reads 10 s behind (another host's, say)
        await service.resign(second, 402)  # rated from the ratings the first finish wrote
        assert (await service.get_match(second)).finished_at > finished_first
        live = await ratings_tables(service)
        summary = await Ratings(service.repo).rebuild()
        assert summary.matches == 2 and summary.skipped == []
        assert await ratings_tables(service) == live
    finally:
        await service.drain()
        await service.repo.close()
