"""Vacation days: one allowance a calendar year per member across servers, drawn by /away, given back by /back to
the hour, and spent a day at a time, automatically, when her time runs out (unless a league forbids it).

Time moves on SimCord's virtual clock (`env.advance_time`).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.composition import build_match_service

from bot_helpers import move, stored_match
from conftest import ON_BOTH
from test_bot_leagues import open_league, organiser, tables_of
from test_clocks import DAY, HOUR, clocks, deadline_of, dms, now, start
from test_weekends import to_thursday_evening


async def used(world, member) -> float:
    return (await clocks(world).prefs([member.id]))[member.id].vacation_used


def vacation_dms(member) -> list[str]:
    return [text for text in dms(member) if text.startswith("🏖️")]


@ON_BOTH
@pytest.mark.vacation_days(30)
async def test_away_draws_on_the_years_vacation_days_and_back_gives_back_the_unused_hours(world):
    _, match_id = await start(world, clock="1 day")
    asked = await world.alice.slash(world.channel, "away", days=31)
    assert asked.ephemeral and asked.response.content == (
        "You have 30 vacation days left this year, so you can be away for at most that.")
    await world.alice.slash(world.channel, "away", days=10)
    assert await used(world, world.alice) == pytest.approx(10 * DAY)
    await world.env.advance_time(2 * DAY + 5 * HOUR + 1800)  # 7 days 18.5 hours unused: 186 hours go back
    back = await world.alice.slash(world.channel, "back")
    assert "You have 27d 18h of vacation left this year." in back.response.content
    assert await used(world, world.alice) == pytest.approx(54 * HOUR)
    await world.restart()
    refused = await world.alice.slash(world.channel, "away", days=28)
    assert "You have 27 vacation days left this year" in refused.response.content
    profile = await world.alice.slash(world.channel, "profile")
    assert "🏖️ Vacation left this year: 27d 18h." in profile.response.content
    assert (await stored_match(world, match_id)).status == "active"



@ON_BOTH
@pytest.mark.vacation_days(30)
async def test_a_vacation_day_saves_a_game_whose_time_ran_out_and_extends_her_other_clocks(world):
    thread, match_id = await start(world, clock="1 day")
    other_thread, other = await start(world, "archimedes", world.alice, world.carol, clock="2 days")
    first, second = await deadline_of(world, match_id, 0), await deadline_of(world, other, 0)
    await world.restart()
    await world.env.advance_time(DAY + 60)  # her day in the first match has passed
    assert (await stored_match(world, match_id)).status == "active"
    assert await deadline_of(world, match_id, 0) == pytest.approx(first + DAY, abs=1)
    assert await deadline_of(world, other, 0) == pytest.approx(second + DAY, abs=1)
    assert await used(world, world.alice) == pytest.approx(DAY)
    (told,) = vacation_dms(world.alice)
    assert f"match #{match_id}" in told and f"#{other}" in told and "29d of vacation left" in told
    await move(world.alice, thread, match_id, "a1-a3")  # she is back in time
    assert await used(world, world.alice) == pytest.approx(DAY)
    assert len(vacation_dms(world.alice)) == 1


@pytest.mark.vacation_days(1)
async def test_with_no_whole_day_left_the_time_out_stands(world):
    await world.alice.slash(world.channel, "away", days=1)
    await world.env.advance_time(2 * HOUR)
    await world.alice.slash(world.channel, "back")  # 22 of her 24 hours back: not a whole day left
    _, match_id = await start(world, clock="1 day")

    await world.env.advance_time(DAY + 60)
    assert (await stored_match(world, match_id)).status == "finished"
    assert vacation_dms(world.alice) == []


@ON_BOTH
@pytest.mark.vacation_days(30)
async def test_a_league_that_forbids_vacation_days_loses_on_time_and_is_not_extended(world):
    olga = organiser(world)
    members = {m.id: m for m in (world.alice, world.bob)}
    leagues, league_id = await open_league(world, olga, list(members.values()), name="Strict", clock="1 day",
                                           vacation_days=False)
    assert not (await leagues.get(league_id)).clock_rules.vacation
    await olga.slash(world.channel, "league start", league="Strict")
    (table,) = await tables_of(world, league_id)
    first = members[table.players[0]]
    league_due = await deadline_of(world, table.match_id, 0)
    # Her own match, on a clock of two hours, runs out first: a vacation day saves it, not the league's clock.
    _, own = await start(world, "archimedes", first, world.carol, clock="fischer 2h +0h max 2h")
    await world.env.advance_time(2 * HOUR + 60)
    assert (await stored_match(world, own)).status == "active" and len(vacation_dms(first)) == 1
    assert await deadline_of(world, table.match_id, 0) == pytest.approx(league_due, abs=1)
    await world.env.advance_time(league_due - now(world) + 60)
    assert (await stored_match(world, table.match_id)).status == "finished"
    assert await used(world, first) == pytest.approx(DAY)  # the league's time-out spent nothing


@pytest.mark.vacation_days(30)
async def test_a_vacation_day_in_a_match_with_quiet_weekends_is_a_day_of_her_clock(world):
    await to_thursday_evening(world)
    _, match_id = await start(world, clock="1 day", weekends=True)
    due = await deadline_of(world, match_id, 0)  # Friday 20:00
    await world.env.advance_time(DAY + 60)
    # Four hours until Saturday, then the other twenty on Monday: not a deadline in her weekend.
    assert await deadline_of(world, match_id, 0) == pytest.approx(due + 3 * DAY, abs=1)
    assert (await stored_match(world, match_id)).status == "active"


async def test_two_deadlines_running_out_at_once_spend_one_day(store):
    """On both databases: her two clocks run out in the same instant; both handlers try to spend a day."""
    service = build_match_service(store, clock=lambda: 1_000_000.0, seed_source=lambda: 7, vacation_days=30)
    try:
        matches = []
        for opponent in (2, 3):
            challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1,
                                                       challenger_name="u1", game_key="epaminondas",
                                                       invited=[opponent], clock="1 day")
            matches.append((await service.accept_challenge(challenge.id, opponent, f"u{opponent}")).match_id)
        due = 1_000_000.0 + DAY
        results = await asyncio.gather(*(service.time_out(m, 0, due_at=due) for m in matches))
        assert results == [None, None]  # nobody lost
        for match_id in matches:
            match = await service.get_match(match_id)
            assert match.active and (await service.clocks.of(match)).deadlines[0] == due + DAY
        assert (await service.clocks.prefs([1]))[1].vacation_used == DAY
    finally:
        await service.drain()
