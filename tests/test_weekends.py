"""Quiet weekends' deadline arithmetic: clocks stand still from Saturday 00:00 to Monday 00:00 local time."""

from __future__ import annotations

from datetime import datetime, timezone

import discord
import pytest

from bot.matches.weekends import known_zone, ran_back, run_between, run_until, weekend_at, zone
from bot_helpers import board_posts, move, stored_match, text_of
from conftest import ON_BOTH
from test_clocks import clocks, deadline_of, dms, now, reminders_of, start

HOUR = 3600
DAY = 24 * HOUR


def at(text: str, name: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=zone(name)).timestamp()


def local(stamp: float, name: str) -> str:
    return datetime.fromtimestamp(stamp, zone(name)).strftime("%a %Y-%m-%d %H:%M")


def test_a_day_started_on_friday_noon_ends_on_monday_noon():
    friday = at("2026-12-04 12:00", "UTC")
    assert local(run_until(friday, DAY, zone("UTC")), "UTC") == "Mon 2026-12-07 12:00"
    assert run_between(friday, run_until(friday, DAY, zone("UTC")), zone("UTC")) == DAY


def test_a_clock_started_at_the_weekend_starts_on_monday():
    sunday = at("2026-12-06 15:00", "UTC")
    assert local(run_until(sunday, HOUR, zone("UTC")), "UTC") == "Mon 2026-12-07 01:00"
    assert run_between(sunday, at("2026-12-07 00:00", "UTC"), zone("UTC")) == 0


def test_two_weeks_of_clock_time_skip_two_weekends():
    monday = at("2026-12-07 09:00", "UTC")
    assert local(run_until(monday, 10 * DAY, zone("UTC")), "UTC") == "Mon 2026-12-21 09:00"


@pytest.mark.parametrize("name, friday, monday, wall", [
    # Summer time begins in Berlin on Sunday 29 March 2026: that weekend is 47 hours long.
    ("Europe/Berlin", "2026-03-27 12:00", "Mon 2026-03-30 12:00", 71 * HOUR),
    # ...and ends on Sunday 25 October 2026: 49 hours.
    ("Europe/Berlin", "2026-10-23 12:00", "Mon 2026-10-26 12:00", 73 * HOUR),
    # New York changes on Sunday 8 March 2026 (2:00) and Sunday 1 November 2026.
    ("America/New_York", "2026-03-06 12:00", "Mon 2026-03-09 12:00", 71 * HOUR),
    ("America/New_York", "2026-10-30 12:00", "Mon 2026-11-02 12:00", 73 * HOUR),
])
def test_weekends_across_changes_of_summer_time_are_two_local_days(name, friday, monday, wall):
    start = at(friday, name)
    deadline = run_until(start, DAY, zone(name))
    assert local(deadline, name) == monday and deadline - start == wall
    assert run_between(start, deadline, zone(name)) == pytest.approx(DAY)
    assert ran_back(deadline, DAY, zone(name)) == pytest.approx(start)


def test_one_instant_is_a_weekend_in_one_zone_and_a_weekday_in_another():
    instant = at("2026-12-05 06:00", "Asia/Tokyo")  # Saturday morning in Tokyo: Friday evening in New York
    assert weekend_at(instant, zone("Asia/Tokyo")) is not None
    assert weekend_at(instant, zone("America/New_York")) is None
    assert run_until(instant, HOUR, zone("America/New_York")) == instant + HOUR
    assert local(run_until(instant, HOUR, zone("Asia/Tokyo")), "Asia/Tokyo") == "Mon 2026-12-07 01:00"


def test_a_reminder_before_a_monday_deadline_falls_on_friday():
    deadline = at("2026-12-07 06:00", "UTC")
    assert local(ran_back(deadline, 12 * HOUR, zone("UTC")), "UTC") == "Fri 2026-12-04 18:00"
    assert local(ran_back(deadline, 6 * HOUR, zone("UTC")), "UTC") == "Mon 2026-12-07 00:00"


def test_zone_names_as_iana_spells_them():
    assert known_zone("europe/berlin") == "Europe/Berlin" and known_zone("UTC") == "UTC"
    assert known_zone("Mars/Olympus") is None
    with pytest.raises(ValueError):
        zone("Mars/Olympus")


# --- on the bot, on SimCord's virtual clock -----------------------------------------------------------------


async def to_thursday_evening(world) -> None:
    """Let the virtual clock run to the next Thursday 20:00 UTC (Thursday 15:00 in New York, Friday 05:00 in
    Tokyo)."""
    thursday = datetime.fromtimestamp(now(world), timezone.utc)
    await world.env.advance_time((3 - thursday.weekday()) % 7 * DAY + (20 - thursday.hour) * HOUR
                                 - thursday.minute * 60 - thursday.second)


@ON_BOTH
async def test_a_quiet_weekend_in_two_time_zones_across_a_restart(world):
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    dave = world.guild.add_member(world.env.create_user("dave"), roles=[role])
    saved = await dave.slash(world.channel, "settings", setting="time_zone", value="Asia/Tokyo")
    assert "**Time zone**: Asia/Tokyo" in saved.response.content
    # Thursday 20:00 UTC: Thursday 15:00 in New York, already Friday 05:00 in Tokyo.
    await to_thursday_evening(world)
    assert local(now(world), "UTC").startswith("Thu") and local(now(world), "UTC").endswith("20:00")
    unknown = await world.alice.slash(world.channel, "timezone", zone="Mars/Olympus")
    assert unknown.ephemeral and "I don't know the time zone **Mars/Olympus**" in unknown.response.content
    assert "\n" not in unknown.response.content
    mine = await world.alice.slash(world.channel, "timezone", zone="america/new_york")
    assert "Your time zone: **America/New_York**" in mine.response.content
    shown = await world.bob.slash(world.channel, "timezone")
    assert "this server's applies: **Asia/Tokyo**" in shown.response.content
    thread, match_id = await start(world, clock="1 day", weekends=True)
    started = now(world)
    assert "clocks stop at weekends" in dms(world.alice)[-1]
    # Her day ends on Friday in New York, before its weekend begins.
    assert await deadline_of(world, match_id, 0) == pytest.approx(started + DAY, abs=5)
    await move(world.alice, thread, match_id, "a1-a3")
    # His (Tokyo's) weekend begins on Friday 15:00 UTC, after 19 hours; the other 5 run from Sunday 15:00 UTC.
    assert await deadline_of(world, match_id, 1) == pytest.approx(started + 3 * DAY, abs=5)
    assert await clocks(world).timer_due("turn_reminder", match_id, 1) == pytest.approx(started + 12 * HOUR, abs=5)
    assert f"⏳ **bob** must move <t:{int(started + 3 * DAY)}" in text_of(board_posts(thread)[-1])
    await world.restart()
    await world.env.advance_time(13 * HOUR)
    assert len(reminders_of(world.bob)) == 1
    await world.env.advance_time(3 * DAY - 13 * HOUR - 120)
    assert (await stored_match(world, match_id)).status == "active"
    await world.env.advance_time(240)
    assert (await stored_match(world, match_id)).status == "finished"


async def test_a_match_without_quiet_weekends_keeps_plain_days(world):
    await world.alice.slash(world.channel, "timezone", zone="Asia/Tokyo")
    _, match_id = await start(world, clock="1 day")
    assert await deadline_of(world, match_id, 0) == pytest.approx(now(world) + DAY, abs=5)
    assert "clocks stop at weekends" not in dms(world.alice)[-1]


@pytest.mark.vacation_days(30)
async def test_time_away_keeps_what_a_quiet_weekend_clock_had_left(world):
    await to_thursday_evening(world)
    _, match_id = await start(world, clock="1 day", weekends=True)
    started = now(world)
    assert await deadline_of(world, match_id, 0) == pytest.approx(started + DAY, abs=5)  # Friday 20:00
    await world.alice.slash(world.channel, "away", days=1)
    # Her day runs from Friday 20:00: four hours before the weekend, twenty on Monday (not Saturday 20:00).
    assert await deadline_of(world, match_id, 0) == pytest.approx(started + 4 * DAY, abs=5)
    await world.env.advance_time(HOUR)
    await world.alice.slash(world.channel, "back")  # an hour of it used: her day runs again from now
    assert await deadline_of(world, match_id, 0) == pytest.approx(started + HOUR + DAY, abs=5)
