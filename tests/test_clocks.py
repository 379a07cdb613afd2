"""Matches over days: clocks, reminders, timeouts, time away, notification choices and server settings.

Time moves on SimCord's virtual clock (`env.advance_time`), so a week passes in no real time.
"""

from __future__ import annotations

import asyncio
import itertools

import discord
import pytest

from bot.domain import MemberPrefs
from bot.games import Outcome
from bot.storage import ClockStore
from bot_helpers import (text_of,
    board_posts, buttons, challenge_id_of, match_id_of, move, moves_stored, posted_challenge, stored_match, thread_of,
)

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture
def database(store_database):
    """Every test here runs on SQLite and on PostgreSQL: the bot's (`world`) as the service's (`service`)."""
    return store_database


def clocks(world) -> ClockStore:
    """The bot's timers, members' choices and server settings, read as the bot reads them."""
    return world.bot.repo.clocks


async def as_a_stop_left_it(world, sql: str, *params) -> None:
    """Change the database the way a bot process stopped at the worst moment leaves it. No store writes such a
    state, so this writes the SQL itself (only for that)."""
    await world.bot.repo.driver.write_statements([(sql, params)])


def shared(world) -> bool:
    """Whether the bot's database may be shared with other bot processes (PostgreSQL), whose claims it respects."""
    return world.bot.matches.timers.claims.shared


def dms(member) -> list[str]:
    channel = member.user.dm_channel
    return [text_of(m) for m in channel.history()]


def reminders_of(member) -> list[str]:
    return [text for text in dms(member) if text.startswith("⏰")]


async def timeouts(world, match_id) -> int:
    return sum(logged.move == "timeout" for logged in await world.bot.repo.moves(match_id))


async def deadline_of(world, match_id, seat) -> float | None:
    return await clocks(world).timer_due("turn_deadline", match_id, seat)


async def turn_timers(world, match_id) -> list[float]:
    """Every seat's deadline and reminder of the match."""
    found = [await clocks(world).timer_due(kind, match_id, seat)
             for kind in ("turn_deadline", "turn_reminder") for seat in range(4)]
    return [due for due in found if due is not None]


def now(world) -> float:
    return world.env.now().timestamp()


async def start(world, game="epaminondas", challenger=None, opponent=None, **options):
    challenger, opponent = challenger or world.alice, opponent or world.bob
    result = await challenger.slash(world.channel, "play", game=game, opponent=opponent, **options)
    assert posted_challenge(result), result.response.content
    await opponent.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    return thread, match_id_of(thread)


async def status(world, match_id) -> str:
    return (await stored_match(world, match_id)).status


# --- the clock is chosen, stored and shown --------------------------------------------------------------------


async def test_default_clock_is_three_days_and_shown_everywhere(world):
    result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    assert "Clock: 3 days a move" in text_of(result.followups[0])
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    match_id = match_id_of(thread)
    due = await deadline_of(world, match_id, 0)
    assert due == pytest.approx(now(world) + 3 * DAY, abs=5)
    board = text_of(board_posts(thread)[-1])
    assert f"⏳ **alice** must move <t:{int(due)}:R>" in board
    assert f"<t:{int(due)}:R>" in dms(world.alice)[-1] and "Clock: 3 days a move" in dms(world.alice)[-1]
    mine = await world.alice.slash(world.channel, "games")
    assert mine.ephemeral and f"your move due <t:{int(due)}:R>" in text_of(mine.response)
    theirs = await world.bob.slash(world.channel, "games")
    assert f"alice's move due <t:{int(due)}:R>" in theirs.response.content


async def test_chosen_clock_and_no_clock(world):
    thread, match_id = await start(world, clock="1 day")
    assert await deadline_of(world, match_id, 0) == pytest.approx(now(world) + DAY, abs=5)
    await move(world.alice, thread, match_id, "a1-a3")
    assert await deadline_of(world, match_id, 0) is None  # her turn ended: her clock stopped
    assert await deadline_of(world, match_id, 1) == pytest.approx(now(world) + DAY, abs=5)

    _, free = await start(world, "archimedes", world.carol, world.bob, clock="No clock")
    assert any("No clock." in text_of(m) and "carol" in text_of(m) for m in world.channel.history())
    assert await turn_timers(world, free) == []
    assert "must move" not in text_of(board_posts(thread_of(world))[-1])
    await world.env.advance_time(30 * DAY)
    assert await status(world, free) == "active"


async def test_clock_option_passes_through_the_options_panel(world):
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob, clock="5 days")
    assert panel.ephemeral
    await world.alice.click(panel.response, label="Post challenge")
    assert "Clock: 5 days a move" in text_of(world.channel.last_message)
    challenge = await world.bot.matches.get_challenge(challenge_id_of(world.channel.last_message))
    assert challenge.clock_seconds == 5 * DAY


# --- reminders and timeouts -----------------------------------------------------------------------------------


async def test_one_reminder_at_the_right_moment_then_a_win_on_time(world):
    thread, match_id = await start(world, clock="2 days")  # reminder 24 h before (half of 2 days is not less)
    await world.env.advance_time(DAY - 60)
    assert reminders_of(world.alice) == []
    await world.env.advance_time(120)
    reminders = reminders_of(world.alice)
    assert len(reminders) == 1
    assert f"match #{match_id}" in reminders[0] and f"/{thread.id}" in reminders[0]  # links to the thread
    assert reminders_of(world.bob) == []
    await world.env.advance_time(DAY - 120)
    assert len(reminders_of(world.alice)) == 1 and await status(world, match_id) == "active"
    await world.env.advance_time(120)
    assert await status(world, match_id) == "finished" and await timeouts(world, match_id) == 1
    final = board_posts(thread)[-1]
    assert "🏆 **bob** (Dark) wins: alice ran out of time." in text_of(final)
    assert set(buttons(final)) == {"Rematch"}  # a finished match offers only a rematch
    await world.env.advance_time(7 * DAY)
    assert await timeouts(world, match_id) == 1 and len(reminders_of(world.alice)) == 1


async def test_reminder_comes_at_half_the_limit_for_short_clocks(world):
    thread, match_id = await start(world, clock="1 day")
    await world.env.advance_time(12 * HOUR - 60)
    assert reminders_of(world.alice) == []
    await world.env.advance_time(120)
    assert len(reminders_of(world.alice)) == 1


async def test_a_move_one_second_before_the_deadline_counts(world):
    thread, match_id = await start(world, clock="1 day")
    await world.env.advance_time(DAY - 1)
    result = await move(world.alice, thread, match_id, "a1-a3")
    assert result.response.content.startswith("✅")
    await world.env.advance_time(2)
    assert await status(world, match_id) == "active" and await timeouts(world, match_id) == 0
    # bob's full day started with alice's move: one more reminder each turn, and bob's own deadline holds
    await world.env.advance_time(DAY - 10)
    assert await status(world, match_id) == "active"
    await world.env.advance_time(20)
    assert await status(world, match_id) == "finished"
    assert "🏆 **alice** (Light) wins: bob ran out of time." in text_of(board_posts(thread)[-1])


async def test_a_deadline_that_passes_while_the_bot_is_down_is_settled_once_at_start(world):
    thread, match_id = await start(world, clock="1 day")
    await world.bot.matches.timers.stop()  # the bot is "down": nothing of it watches the clock
    await world.env.advance_time(2 * DAY)
    assert await status(world, match_id) == "active"
    await world.restart()
    assert await status(world, match_id) == "finished" and await timeouts(world, match_id) == 1
    assert reminders_of(world.alice) == []  # a reminder for a deadline already past is not sent
    ended = [m for m in board_posts(thread) if "ran out of time" in text_of(m)]
    assert len(ended) == 1
    await world.restart()
    with world.env.time_context():  # the bot's clock is the simulated one, also for calls made from the test
        assert await world.bot.matches.timers.fire_due() == 0
    assert await timeouts(world, match_id) == 1
    assert len([m for m in board_posts(thread) if "ran out of time" in text_of(m)]) == 1


async def test_a_deadline_claimed_but_not_settled_fires_again_after_a_restart(world):
    thread, match_id = await start(world, clock="1 day")
    await world.bot.matches.timers.stop()
    # the process stopped right after claiming the deadline, before settling it
    due = await deadline_of(world, match_id, 0)
    await as_a_stop_left_it(world, "UPDATE timers SET claimed_by = 'a stopped process#1', lease_until = ?"
                            " WHERE kind = 'turn_deadline' AND ref_id = ?", due + 3 * DAY, match_id)
    await world.env.advance_time(2 * DAY)
    await world.restart()
    if shared(world):  # the claim may be a live process's: another fires it once its lease has run out
        assert await status(world, match_id) == "active"
        await world.env.advance_time(2 * DAY + 60)
    assert await status(world, match_id) == "finished" and await timeouts(world, match_id) == 1


async def test_a_reminder_claimed_but_not_sent_is_sent_after_a_restart_and_only_once(world):
    thread, match_id = await start(world, clock="1 day")
    await world.bot.matches.timers.stop()
    # the process stopped right after claiming alice's reminder, before sending it (its lease far from over: alone
    # on its SQLite database, the process knows the claim was its own; on a shared one it waits for the lease)
    await as_a_stop_left_it(world, "UPDATE timers SET claimed_by = 'a stopped process#1', lease_until = due_at + 7200"
                            " WHERE kind = 'turn_reminder' AND ref_id = ?", match_id)
    await world.env.advance_time(13 * HOUR)  # past the reminder's time, before the deadline
    assert reminders_of(world.alice) == []
    await world.restart()
    if shared(world):
        assert reminders_of(world.alice) == []
        await world.env.advance_time(HOUR + 60)
    assert len(reminders_of(world.alice)) == 1
    assert [await clocks(world).timer_due("turn_reminder", match_id, seat) for seat in (0, 1)] == [None, None]
    await world.restart()
    await world.env.advance_time(HOUR)
    assert len(reminders_of(world.alice)) == 1 and await status(world, match_id) == "active"


# --- DMs closed, notifications --------------------------------------------------------------------------------


async def test_closed_dms_turn_the_reminder_into_a_mention_in_the_thread(world):
    alice_dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{alice_dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    thread, match_id = await start(world, clock="1 day")
    await world.env.advance_time(12 * HOUR + 60)
    pings = [m for m in thread.history() if text_of(m).startswith("⏰")]
    assert len(pings) == 1 and world.alice.mention in text_of(pings[0]) and "due <t:" in text_of(pings[0])


async def test_notify_turns_dms_on_and_off_and_reminders_off(world):
    thread, match_id = await start(world, clock="1 day")
    shown = await world.bob.slash(world.channel, "notify")
    assert shown.ephemeral and "turn: **off**" in text_of(shown.response) and "short: **on**" in text_of(shown.response)
    saved = await world.bob.slash(world.channel, "notify", turns="on", reminders="off")
    assert saved.ephemeral and "turn: **on**" in saved.response.content and "short: **off**" in saved.response.content
    await move(world.alice, thread, match_id, "a1-a3")
    turns = [t for t in dms(world.bob) if t.startswith("🎲")]
    assert len(turns) == 1 and f"match #{match_id}" in turns[0] and "due <t:" in turns[0]
    assert not [t for t in dms(world.alice) if t.startswith("🎲")]  # alice never asked for turn DMs
    await world.env.advance_time(12 * HOUR + 60)
    assert reminders_of(world.bob) == []  # reminders off
    await world.bob.slash(world.channel, "notify", turns="off")
    await move(world.bob, thread, match_id, "a12-a10")
    await move(world.alice, thread, match_id, "a3-a4")
    assert len([t for t in dms(world.bob) if t.startswith("🎲")]) == 1


# --- time away ------------------------------------------------------------------------------------------------


@pytest.mark.vacation_days(30)
async def test_away_pauses_the_clocks_and_back_resumes_them(world):
    thread, match_id = await start(world, clock="1 day")
    started = now(world)
    away = await world.alice.slash(world.channel, "away", days=3)
    assert away.ephemeral and "paused until <t:" in away.response.content
    assert await deadline_of(world, match_id, 0) == pytest.approx(started + 4 * DAY, abs=5)
    await world.env.advance_time(2 * DAY)
    assert await status(world, match_id) == "active"
    theirs = await world.bob.slash(world.channel, "games")
    assert "alice away until <t:" in theirs.response.content
    mine = await world.alice.slash(world.channel, "games")
    assert "you are away until <t:" in text_of(mine.response)
    reposted = await world.bob.slash(world.channel, "board", match=match_id)
    assert reposted.response.content.startswith("Board re-posted")
    assert "paused while away until" in text_of(board_posts(thread)[-1])
    back = await world.alice.slash(world.channel, "back")
    assert back.ephemeral and "Welcome back" in back.response.content
    # two days away: the deadline moved by exactly those two days
    assert await deadline_of(world, match_id, 0) == pytest.approx(started + 3 * DAY, abs=5)
    again = await world.alice.slash(world.channel, "back")
    assert "not away" in again.response.content
    await world.env.advance_time(DAY - 60)
    assert await status(world, match_id) == "active"
    await world.env.advance_time(120)  # out of time: one of her vacation days is spent instead
    assert await status(world, match_id) == "active"
    assert await deadline_of(world, match_id, 0) == pytest.approx(started + 4 * DAY, abs=5)


@pytest.mark.vacation_days(30)
async def test_a_move_ends_time_away_and_turns_begun_while_away_wait_for_her(world):
    thread, match_id = await start(world, clock="1 day")
    await world.bob.slash(world.channel, "away", days=2)
    begun = now(world)
    await move(world.alice, thread, match_id, "a1-a3")
    # a full day after she is back
    assert await deadline_of(world, match_id, 1) == pytest.approx(begun + 3 * DAY, abs=5)
    await world.env.advance_time(HOUR)
    await move(world.bob, thread, match_id, "a12-a10")  # a move while away ends it
    assert (await clocks(world).prefs([world.bob.id]))[world.bob.id].away_until is None
    mine = await world.alice.slash(world.channel, "games")
    assert "away" not in text_of(mine.response)
    theirs = await world.bob.slash(world.channel, "games")
    assert "away" not in theirs.response.content


@pytest.mark.vacation_days(30)
async def test_bad_away_days_are_refused_and_change_nothing(world):
    thread, match_id = await start(world, clock="1 day")
    due = await deadline_of(world, match_id, 0)
    for days, said in ((0, "at least 1 day away"), (99, "30 vacation days left"), (-1, "at least 1 day away")):
        result = await world.alice.slash(world.channel, "away", days=days)
        assert result.ephemeral and said in result.response.content and "\n" not in result.response.content

    assert await deadline_of(world, match_id, 0) == due
    assert await clocks(world).prefs([world.alice.id]) == {world.alice.id: MemberPrefs(world.alice.id)}


# --- server settings ------------------------------------------------------------------------------------------


def settings_command_id(world) -> int:
    return int(world.env.backend.find_command("settings", world.guild.id, type=1)["id"])


async def test_settings_change_the_defaults_of_new_challenges_only(world):
    thread, running = await start(world)  # 3 days, the default
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    dave = world.guild.add_member(world.env.create_user("dave"), roles=[role])
    shown = await dave.slash(world.channel, "settings")
    assert shown.ephemeral and "**Default clock**: 3 days" in text_of(shown.response)
    saved = await dave.slash(world.channel, "settings", setting="default_clock", value="1 day")
    assert saved.ephemeral and "Saved" in saved.response.content
    assert "**Default clock**: 1 day" in saved.response.content
    await dave.slash(world.channel, "settings", setting="challenge_expiry", value="1 hour")
    _, new = await start(world, "archimedes", world.carol, world.bob)
    assert (await stored_match(world, new)).clock_seconds == DAY
    assert (await stored_match(world, running)).clock_seconds == 3 * DAY
    await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.carol)
    post = world.channel.last_message
    await world.env.advance_time(HOUR + 60)
    assert "expired" in text_of(world.env.backend.get_message(world.channel.id, post.id))
    bad = await dave.slash(world.channel, "settings", setting="default_clock", value="3 weeks")
    assert bad.ephemeral and "must be one of" in bad.response.content


async def test_settings_refused_without_manage_server(world):
    # the server lets everyone see the command; the bot still checks the permission itself
    world.guild.set_command_permissions(settings_command_id(world), {world.carol: True})
    result = await world.carol.slash(world.channel, "settings", setting="default_clock", value="1 day")
    assert result.ephemeral and "Manage Server" in result.response.content
    looked = await world.carol.slash(world.channel, "settings")
    assert looked.ephemeral and "Manage Server" in looked.response.content
    assert await clocks(world).server_settings(world.guild.id) == {}


# --- through the match service: three players, secret setups ---------------------------------------------------


class FakeClock:
    def __init__(self, start: float = 1_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now


# `service` (tests/conftest.py, on SQLite and PostgreSQL) with a clock the tests move (`service.clock`).
@pytest.fixture
def service_clock():
    return FakeClock()


@pytest.fixture
def service_seeds():
    seeds = itertools.count(7)
    return lambda: next(seeds)


async def started_match(svc, game, players, clock="1 day"):
    c = await svc.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1", game_key=game,
                                   invited=list(range(2, players + 1)), clock=clock)
    for user in range(2, players + 1):
        c = await svc.accept_challenge(c.id, user, f"u{user}")
    return await svc.get_match(c.match_id)


async def deadlines(svc, match):
    return (await svc.clocks.of(match)).deadlines


async def test_in_a_secret_setup_each_player_has_her_own_clock(service):
    match = await started_match(service, "myrmidons", 2)
    assert service.in_secret_setup(match) and service.to_act(match) == [0, 1]
    start = service.clock.now
    assert await deadlines(service, match) == {0: start + DAY, 1: start + DAY}
    service.clock.now += HOUR
    setup = service.game_of(match).legal_moves(service.state_of(match), 1)[0]
    report = await service.submit_move(match.id, 2, setup)
    # her setup is done, so her clock stopped; the other's kept running, not restarted by her move
    assert await deadlines(service, report.match) == {0: start + DAY}
    # a look of the dispatcher still in flight (slower on PostgreSQL) must not see the clock jump and fire one
    await asyncio.gather(*(t for t in asyncio.all_tasks() if t.get_name() == "timer-look"))
    service.clock.now = start + DAY + 1
    assert await service.timers.fire_due() == 2  # her reminder (too late now: not sent) and her deadline
    match = await service.get_match(match.id)
    assert not match.active and match.result["winners"] == [1]
    assert match.result["reason"] == "u1 ran out of time"


async def test_a_timeout_with_three_players_knocks_one_out_and_the_match_goes_on(service):
    match = await started_match(service, "myriath", 3)
    late = service.to_act(match)[0]
    service.clock.now += DAY + 1
    assert await service.timers.fire_due() >= 1
    match = await service.get_match(match.id)
    assert match.active
    assert late not in service.game_of(match).in_play(service.state_of(match))
    log = await service.repo.moves(match.id)
    assert [(m.seat, m.move) for m in log if m.move == "timeout"] == [(late, "timeout")]
    acting = service.to_act(match)
    assert acting and late not in acting
    assert await deadlines(service, match) == {acting[0]: service.clock.now + DAY}
    assert await service.timers.fire_due() == 0  # settled once


async def test_time_out_ignores_a_deadline_a_move_has_replaced(service):
    match = await started_match(service, "epaminondas", 2)
    stale = (await deadlines(service, match))[0]
    service.clock.now += DAY - 1
    await service.submit_move(match.id, 1, "a1-a3")
    assert await service.time_out(match.id, 0, due_at=stale) is None
    match = await service.get_match(match.id)
    assert match.active and match.version == 1


async def test_a_turn_whose_clock_never_started_gets_one_at_start_up(world):
    thread, match_id = await start(world, clock="1 day")
    # the bot stopped between a move and its clock's start
    await as_a_stop_left_it(world, "DELETE FROM timers WHERE ref_id = ? AND kind LIKE 'turn_%'", match_id)
    await world.restart()
    assert await deadline_of(world, match_id, 0) == pytest.approx(now(world) + DAY, abs=5)


async def test_clock_shows_a_match_clock_and_refuses_to_change_it(world):
    thread, match_id = await start(world, clock="2 days")
    shown = await world.bob.slash(world.channel, "clock", match=match_id)
    assert shown.ephemeral and "2 days a move" in text_of(shown.response)
    assert "**alice** must move <t:" in text_of(shown.response)
    due = await deadline_of(world, match_id, 0)
    refused = await world.alice.slash(world.channel, "clock", match=match_id, clock="14 days")
    assert refused.ephemeral and "can't change during the game" in refused.response.content
    assert (await stored_match(world, match_id)).clock_seconds == 2 * DAY
    assert await deadline_of(world, match_id, 0) == due
    outsider = await world.carol.slash(world.channel, "clock", match=999)
    assert outsider.ephemeral and outsider.response.content.startswith("I can't find that match")


async def test_a_move_after_the_deadline_is_refused_even_before_the_timeout_is_settled(world):
    thread, match_id = await start(world, clock="1 day")
    await world.bot.matches.timers.stop()  # the dispatcher has not got round to it yet
    await world.env.advance_time(DAY)
    late = await move(world.alice, thread, match_id, "a1-a3")
    assert late.ephemeral and "ran out" in late.response.content
    assert await moves_stored(world, match_id) == 0
    await world.restart()
    assert await status(world, match_id) == "finished" and await timeouts(world, match_id) == 1


async def test_on_discord_a_three_player_timeout_is_told_in_the_thread_and_play_goes_on(world):
    await world.alice.slash(world.channel, "play", game="myriath", opponent=world.bob, opponent2=world.carol,
                            clock="1 day")
    post = world.channel.last_message
    await world.bob.click(post, label="Accept")
    await world.carol.click(post, label="Accept")
    thread = thread_of(world)
    match_id = match_id_of(thread)
    acting = await clocks(world).deadlines([match_id])
    assert len(acting) == 1
    late = acting[0].seat
    name = ["alice", "bob", "carol"][late]
    await world.env.advance_time(DAY + 1)
    assert await status(world, match_id) == "active" and await timeouts(world, match_id) == 1
    board = text_of(board_posts(thread)[-1])
    assert f"**{name}**" in board and "ran out of time and is out of the match" in board
    following = await clocks(world).deadlines([match_id])
    assert len(following) == 1 and following[0].seat != late
    assert following[0].due_at == pytest.approx(now(world) + DAY, abs=5)
    assert f"must move <t:{int(following[0].due_at)}:R>" in board


async def test_when_nobody_makes_a_simultaneous_setup_in_time_nobody_wins_on_time(service):
    match = await started_match(service, "myrmidons", 2)
    service.clock.now += DAY + 1
    await service.timers.fire_due()
    match = await service.get_match(match.id)
    assert not match.active
    outcome = Outcome.from_json(match.result)
    assert tuple(outcome.winners) == () and outcome.reason == "every player ran out of time"
    log = await service.repo.moves(match.id)
    assert [m.move for m in log] == ["timeout"]


async def test_running_clocks_are_rows_not_tasks(service):
    for first in range(1, 201, 2):
        c = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=first, challenger_name="a",
                                           game_key="epaminondas", invited=[first + 1], clock="3 days")
        await service.accept_challenge(c.id, first + 1, "b")
    assert await service.repo.driver.fetchvalue("SELECT COUNT(*) FROM timers WHERE kind = 'turn_deadline'") == 100
    tasks = [t for t in asyncio.all_tasks() if not t.done() and t.get_name() == "timer-dispatcher"]
    assert len(tasks) == 1
