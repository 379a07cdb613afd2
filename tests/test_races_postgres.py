"""Two bot processes on one PostgreSQL database: two match services, each with its own store (its own pool), racing
each other. Every guard must hold across processes, where no in-memory lock can help."""

from __future__ import annotations

import asyncio

import pytest

from bot.composition import build_match_service
from bot.matches import MatchService, errors
from bot.matches.rating_service import Ratings
from bot.storage.opening import open_repository

DAY = 24 * 3600.0
RACES = 12  # each race is run this many times, on fresh matches: a lost one must not pass by luck


class Clock:
    """The processes' shared clock; with a `step`, later at each reading, as a real one is between two processes."""

    def __init__(self) -> None:
        self.now = 1_000_000.0
        self.step = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
async def two_processes(migrated_postgres_dsn):
    clock = Clock()
    services = [build_match_service(await open_repository(migrated_postgres_dsn), clock=clock, seed_source=lambda: 7,
                                    vacation_days=30) for _ in range(2)]
    yield services
    for service in services:
        await service.drain()
        await service.repo.close()


async def started(service: MatchService, game: str, members: list[int], **options) -> int:
    challenge = await service.create_challenge(guild_id=1, channel_id=2, challenger_id=members[0],
                                               challenger_name=f"u{members[0]}", game_key=game,
                                               invited=members[1:], **options)
    for member in members[1:]:
        challenge = await service.accept_challenge(challenge.id, member, f"u{member}")
    return challenge.match_id


async def both(first, second) -> list:
    return await asyncio.gather(first, second, return_exceptions=True)


async def test_postgres_the_same_move_from_two_processes_is_applied_once(two_processes):
    a, b = two_processes
    for race in range(RACES):
        match_id = await started(a, "epaminondas", [100 + 2 * race, 101 + 2 * race])
        before = (await a.get_match(match_id)).version
        results = await both(a.submit_move(match_id, 100 + 2 * race, "a1-a3"),
                             b.submit_move(match_id, 100 + 2 * race, "a1-a3"))
        applied = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(applied) == 1 and all(isinstance(r, errors.UserError) for r in refused), results
        assert (await b.get_match(match_id)).version == before + 1
        assert [m.move for m in await a.repo.moves(match_id)] == ["a1-a3"]


async def test_postgres_two_draw_offers_at_once_are_both_recorded(two_processes):
    a, b = two_processes
    for race in range(RACES):
        members = [200 + 3 * race, 201 + 3 * race, 202 + 3 * race]
        match_id = await started(a, "myriath", members)
        results = await both(a.offer_draw(match_id, members[0]), b.offer_draw(match_id, members[1]))
        assert not [r for r in results if isinstance(r, BaseException)], results
        match = await a.get_match(match_id)
        assert match.active and sorted(match.draw_agreed) == [0, 1]


async def test_postgres_away_and_back_at_once_leave_the_clock_as_one_of_them_after_the_other(two_processes):
    a, b = two_processes
    for race in range(RACES):
        alice, bob = 300 + 2 * race, 301 + 2 * race
        match_id = await started(a, "epaminondas", [alice, bob], clock="1 day")
        deadline = (await a.clocks.of(await a.get_match(match_id))).deadlines[0]
        results = await both(a.clocks.go_away(alice, 3), b.clocks.come_back(alice))
        assert not [r for r in results if isinstance(r, BaseException)], results
        prefs = (await a.clocks.prefs([alice]))[alice]
        now = (await a.clocks.of(await a.get_match(match_id))).deadlines[0]
        if prefs.away(a.clock()):  # back (she was not away: nothing), then away: her clock stands still 3 days
            assert now == deadline + 3 * DAY
        else:  # away, then back at once: not a second of it used
            assert now == deadline


async def ratings_tables(service: MatchService) -> tuple[list, list]:
    ratings = await service.repo.driver.fetch(
        "SELECT guild_id, game, member_id, mu, sigma, games, wins, draws, losses, streak, recent FROM ratings"
        " ORDER BY guild_id, game, member_id")
    changes = await service.repo.driver.fetch(
        "SELECT match_id, member_id, mu_before, sigma_before, mu_after, sigma_after, games FROM rating_changes"
        " ORDER BY match_id, member_id")
    return [tuple(r) for r in ratings], [tuple(r) for r in changes]


async def test_postgres_two_rated_finishes_sharing_a_member_give_what_a_rebuild_gives(two_processes):
    a, b = two_processes
    a.clock.step = 0.001
    alice = 400
    for race in range(RACES):
        bob, carol = 401 + 2 * race, 402 + 2 * race
        first = await started(a, "epaminondas", [bob, alice])  # (each challenger challenges once: no rate limit)
        second = await started(a, "epaminondas", [carol, alice])
        results = await both(a.resign(first, bob), b.resign(second, carol))  # alice wins both at once
        assert not [r for r in results if isinstance(r, BaseException)], results
    live = await ratings_tables(a)
    assert [r for r in live[0] if r[2] == alice][0][5] == 2 * RACES  # every finish counted for her
    summary = await Ratings(a.repo).rebuild()
    assert summary.matches == 2 * RACES and summary.skipped == []
    assert await ratings_tables(b) == live
