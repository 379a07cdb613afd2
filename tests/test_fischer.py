"""Fischer correspondence clocks: a bank each move adds to, up to a cap; chosen in /play, options panels, leagues
and the server's default; shown on boards, /games, reminders and alt text; given back as it was by a take-back.

Time moves on SimCord's virtual clock (`env.advance_time`).
"""

from __future__ import annotations

import discord
import pytest

from bot.domain import ClockRules
from bot.matches import errors
from bot.matches.clock_kinds import FISCHER_LABEL, parse_fischer
from bot_helpers import (board_posts, challenge_id_of, choose, move, posted_challenge, stored, stored_match,
                         text_of)
from conftest import ON_BOTH
from test_bot_leagues import open_league, organiser, tables_of
from test_clocks import DAY, HOUR, deadline_of, dms, now, reminders_of, start

SHORT = "fischer 1d +12h max 2d"  # a bank of a day, half a day a move, two days at most


async def banks(world, match_id) -> dict[int, float]:
    return (await stored_match(world, match_id)).clock_banks


@ON_BOTH
async def test_a_bank_gains_the_increment_each_move_up_to_its_cap_across_a_restart(world):
    thread, match_id = await start(world, clock=SHORT)
    assert "Clock: Fischer: 1d bank, +12h a move, at most 2d." in dms(world.alice)[-1]
    assert await deadline_of(world, match_id, 0) == pytest.approx(now(world) + DAY, abs=5)
    await world.env.advance_time(6 * HOUR)
    await move(world.alice, thread, match_id, "a1-d4")  # 18 h left, +12 h
    assert (await banks(world, match_id))[0] == pytest.approx(30 * HOUR, abs=5)
    board = board_posts(thread)[-1]
    assert "🏦 **alice**: 1d 6h in the bank." in text_of(board)
    assert "⏳ **bob** must move" in text_of(board) and "(1d in the bank)" in text_of(board)
    assert "Time in the bank: alice 1d 6h, bob 1d." in board.attachments[0].description
    await world.env.advance_time(HOUR)
    await move(world.bob, thread, match_id, "f12-f9")  # 23 h left, +12 h
    assert await deadline_of(world, match_id, 0) == pytest.approx(now(world) + 30 * HOUR, abs=5)
    await world.restart()
    await move(world.alice, thread, match_id, "c1-c6")  # 42 h
    await move(world.bob, thread, match_id, "d12-i7")  # 47 h
    await move(world.alice, thread, match_id, "c4-c9")  # 54 h, capped at 48 h
    assert (await banks(world, match_id)) == {0: pytest.approx(2 * DAY, abs=5), 1: pytest.approx(47 * HOUR, abs=5)}
    games = await world.alice.slash(world.channel, "games")
    assert "you have 2d in the bank" in games.response.content
    await move(world.bob, thread, match_id, "g9-l4")
    assert await deadline_of(world, match_id, 0) == pytest.approx(now(world) + 2 * DAY, abs=5)
    await world.env.advance_time(2 * DAY + 60)  # her whole bank, and she did not move: bob wins on time
    assert (await stored_match(world, match_id)).status == "finished"


@ON_BOTH
async def test_a_take_back_gives_the_banks_back_as_they_were(world):
    thread, match_id = await start(world, clock=SHORT)
    await world.env.advance_time(2 * HOUR)
    await move(world.alice, thread, match_id, "a1-d4")  # 22 h left, +12 h
    assert (await banks(world, match_id))[0] == pytest.approx(34 * HOUR, abs=5)
    await world.env.advance_time(3 * HOUR)  # bob thinks: his bank runs
    asked = await world.alice.slash(thread, "takeback", match=match_id)
    assert asked.ephemeral, asked.response.content
    await world.bob.click(thread.last_message, label="Accept take-back")

    # Her turn again, with what she had when she moved (no increment); his three hours are given back.
    assert await deadline_of(world, match_id, 0) == pytest.approx(now(world) + 22 * HOUR, abs=5)
    assert await deadline_of(world, match_id, 1) is None
    assert (await banks(world, match_id)) == {0: pytest.approx(22 * HOUR, abs=5), 1: pytest.approx(DAY, abs=5)}
    await move(world.alice, thread, match_id, "a1-d4")
    assert (await banks(world, match_id))[0] == pytest.approx(34 * HOUR, abs=5)


async def test_out_of_range_fischer_clocks_are_refused_in_one_line(world):
    for written, said in (("fischer 30m +0h", "Write a Fischer clock as"), ("fischer 0.5h +0h", "from 1 hour to 60 days"),
                          ("fischer 61d +1d", "from 1 hour to 60 days"), ("fischer 2d +3d", "more than its starting"),
                          ("fischer 5d +1d max 3d", "less than its starting bank")):
        result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob,
                                         clock=written)
        assert result.ephemeral and said in result.response.content and "\n" not in result.response.content
        assert not posted_challenge(result)


def test_fischer_clocks_as_written():
    assert parse_fischer("fischer 10d +36h max 15d") == (10 * DAY, ClockRules(increment=36 * HOUR, cap=15 * DAY))
    assert parse_fischer("Fischer: 1d 12h + 12h / 2d") == (36 * HOUR, ClockRules(increment=12 * HOUR, cap=2 * DAY))
    assert parse_fischer("7d+1d") == (7 * DAY, ClockRules(increment=DAY, cap=7 * DAY * 3 // 2))  # cap: half again
    assert parse_fischer("fischer 50d +1d")[1].cap == 60 * DAY  # never over 60 days
    with pytest.raises(errors.UserError):
        parse_fischer("fischer 10d")


async def test_the_listed_fischer_clock_through_an_options_panel_and_the_servers_default(world):
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob,
                                    clock="Fischer: 10 days, +36 hours a move, at most 15 days")
    await world.alice.click(panel.response, label="Post challenge")
    assert "Clock: Fischer: 10d bank, +1d 12h a move, at most 15d." in text_of(world.channel.last_message)
    challenge = await world.bot.matches.get_challenge(challenge_id_of(world.channel.last_message))
    assert (challenge.clock_seconds, challenge.clock_rules) == (10 * DAY, ClockRules(36 * HOUR, 15 * DAY))

    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    dave = world.guild.add_member(world.env.create_user("dave"), roles=[role])
    saved = await dave.slash(world.channel, "settings", setting="default_clock", value="fischer 3d +1d max 5d")
    assert "**Default clock**: fischer 3d +1d max 5d" in saved.response.content
    refused = await dave.slash(world.channel, "settings", setting="default_clock", value="fischer 3d +4d")
    assert "more than its starting bank" in refused.response.content
    _, match_id = await start(world, "archimedes", world.carol, world.bob)
    match = await stored_match(world, match_id)
    assert (match.clock_seconds, match.clock_rules) == (3 * DAY, ClockRules(DAY, 5 * DAY))


@ON_BOTH
async def test_a_league_plays_its_matches_on_its_fischer_clock(world):
    olga = organiser(world)
    leagues, league_id = await open_league(world, olga, [world.alice, world.bob], name="Banks",
                                           clock="fischer 2d +1d max 3d")
    assert (await leagues.get(league_id)).clock_rules == ClockRules(DAY, 3 * DAY)
    await olga.slash(world.channel, "league start", league="Banks")
    (table,) = await tables_of(world, league_id)
    match = await stored_match(world, table.match_id)
    assert (match.clock_seconds, match.clock_rules) == (2 * DAY, ClockRules(DAY, 3 * DAY))


async def test_a_reminder_says_what_is_left_in_the_bank(world):
    _, match_id = await start(world, clock=SHORT)  # reminded 12 hours before the bank runs out
    await world.env.advance_time(12 * HOUR + 60)
    (reminder,) = reminders_of(world.alice)
    assert f"match #{match_id}" in reminder and reminder.endswith("You have 11h in the bank.")


async def test_an_options_panel_chooses_the_clock_where_it_has_room(world):
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob)
    await choose(world, world.alice, panel.response, FISCHER_LABEL)
    await world.alice.click(panel.response, label="Post challenge")
    challenge = await world.bot.matches.get_challenge(challenge_id_of(world.channel.last_message))
    assert (challenge.clock_seconds, challenge.clock_rules) == (10 * DAY, ClockRules(36 * HOUR, 15 * DAY))
    written = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.carol, clock=SHORT)
    menu = next(c for row in stored(world, written.response).components for c in row.children
                if c.custom_id.endswith(":clock"))
    assert [o.value for o in menu.options if o.default] == [SHORT]  # her own Fischer clock, kept as chosen
