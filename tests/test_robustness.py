"""What hostile users, crashes and cancellations must not break: Discord's limits, pings, the database
connection, announcements cut off by a crash, racing clicks, and matches seen from other servers."""

from __future__ import annotations

import asyncio
import logging
import time

import discord
import pytest

from bot.matches import errors
from bot_helpers import (text_of,
    board_posts, buttons, challenge_id_of, choose, is_disabled, move, moves_stored, posted_challenge, private_answer,
    start_match, stored, stored_match,
)

DISCORD_LIMIT = 2000
CHOICE_LIMIT = 100  # an autocomplete choice's name and value


def pings_of(world, user) -> list:
    """Every message that pinged `user` (a mention without a ping is only text)."""
    return [m for channel in world.env.backend.messages.values() for m in channel.values()
            if user.id in m.ping_user_ids]


def logged_errors(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


# --- 1. every text fits Discord's limits, whatever the user typed ----------------------------------------------

async def test_a_huge_bad_move_gets_a_short_clear_answer(world, caplog):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    for typed in ("a1-" + "9" * 1900, "x" * 1990, "a1-a3 " * 300):
        result = await move(world.alice, thread, match_id, typed)
        content = result.response.content
        assert result.ephemeral and 0 < len(content) <= DISCORD_LIMIT, len(content)
        assert "Something went wrong" not in content and not content.startswith("✅")
    assert await moves_stored(world, match_id) == 0 and len(board_posts(thread)) == 1
    assert not logged_errors(caplog)


async def test_autocomplete_answers_huge_input_within_limits(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    for typed in ("a" * 6000, "a1" + "-" * 3000, ""):
        moves = await world.alice.autocomplete(thread, "move", "move", typed, match=match_id)
        assert all(len(c["name"]) <= CHOICE_LIMIT and len(str(c["value"])) <= CHOICE_LIMIT for c in moves)
        matches = await world.alice.autocomplete(thread, "move", "match", typed)
        assert all(len(c["name"]) <= CHOICE_LIMIT for c in matches)


async def test_long_display_names_fit_challenges_captions_and_choices(world):
    long_names = [world.guild.add_member(world.env.create_user(f"{i}" + "Ω" * 31), nick="Ж" * 32)
                  for i in range(3)]
    for member in long_names:
        result = await member.slash(world.channel, "play", game="epaminondas", opponent=world.alice)
        assert posted_challenge(result), result.response.content
        challenge = world.channel.last_message
        assert len(text_of(challenge)) <= DISCORD_LIMIT and "Ж" * 32 in text_of(challenge)
        await world.alice.click(challenge, label="Accept")
    thread = world.channel.threads[-1]
    assert "Ж" * 32 in text_of(board_posts(thread)[-1])
    choices = await world.alice.autocomplete(world.channel, "move", "match", "")
    assert len(choices) == 3 and all(len(c["name"]) <= CHOICE_LIMIT for c in choices)
    listed = await world.alice.slash(world.channel, "games")
    assert len(listed.response.content) <= DISCORD_LIMIT


async def test_four_long_names_fit_the_thread_name_and_the_board(world):
    players = [world.guild.add_member(world.env.create_user(f"p{i}"), nick=f"{i}" + "Ж" * 31) for i in range(4)]
    result = await players[0].slash(world.channel, "play", game="myriath", players=4, opponent=players[1],
                                    opponent2=players[2], opponent3=players[3])
    assert posted_challenge(result)
    for member in players[1:]:
        await member.click(world.channel.last_message, label="Accept")
    thread = world.channel.threads[-1]
    assert len(thread.name) <= 100
    board = board_posts(thread)[-1]
    assert len(text_of(board)) <= DISCORD_LIMIT and "Ж" * 31 in text_of(board)


# --- 2. nobody can make the bot ping others without end --------------------------------------------------------

async def test_challenge_spam_is_refused_and_pings_at_most_five_times(world):
    answers = [await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.bob)
               for _ in range(8)]
    refused = [a for a in answers if not posted_challenge(a)]
    assert len(refused) == 3 and all(a.ephemeral and not a.followups for a in refused)
    assert all(a.response.content.startswith("Slow down a little: try again in") for a in refused)
    assert len(pings_of(world, world.bob)) == 5

    # the window slides, but no more than 10 challenges stay open at once
    await world.env.advance_time(61)
    for _ in range(5):
        assert posted_challenge(await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.bob))
    await world.env.advance_time(61)
    eleventh = await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.bob)
    assert eleventh.ephemeral and "10 open challenges" in eleventh.response.content
    assert len(pings_of(world, world.bob)) == 10


async def test_a_refused_post_from_the_options_panel_says_only_that_and_keeps_the_panel(world):
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob)
    await choose(world, world.alice, panel.response, "on")  # memory: on
    for _ in range(5):  # her five challenges a minute, used up elsewhere
        await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.carol)
    posted = len(world.channel.history())
    refused = await world.alice.click(panel.response, label="Post challenge")
    assert [text_of(m) for m in refused.followups] == [refused.followups[0].content]
    assert refused.followups[0].ephemeral and refused.followups[0].content.startswith("Slow down a little")
    shown = stored(world, panel.response)
    assert "Challenge posted" not in text_of(shown) and "Post challenge" in buttons(shown)
    assert len(world.channel.history()) == posted  # nothing was posted

    await world.env.advance_time(61)  # the same panel, its choice kept, posts once she may again
    await world.alice.click(panel.response, label="Post challenge")
    assert text_of(stored(world, panel.response)) == "Challenge posted below."
    challenge = await world.bot.matches.get_challenge(6)  # after the five above
    assert challenge.game == "myrmidons" and challenge.options["memory"] == "on"


async def test_board_by_an_outsider_pings_nobody_and_reposts_are_limited(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    before = len(pings_of(world, world.alice))
    shown = await world.carol.slash(world.channel, "board", match=match_id)
    assert shown.ephemeral and shown.response.content.startswith("Board re-posted")
    newest = world.env.backend.get_message(thread.id, board_posts(thread)[-1].id)
    assert newest.ping_user_ids == [] and len(pings_of(world, world.alice)) == before

    for _ in range(2):  # carol's three re-posts a minute, then a clear refusal
        await world.carol.slash(world.channel, "board", match=match_id)
    refused = await world.carol.slash(world.channel, "board", match=match_id)
    assert refused.ephemeral and refused.response.content.startswith("Slow down a little")
    assert len(board_posts(thread)) == 4
    # a player's own re-post still pings whoever must act, within her own limit
    mine = await world.bob.slash(world.channel, "board", match=match_id)
    assert mine.response.content.startswith("Board re-posted")
    assert len(pings_of(world, world.alice)) == before + 1


# --- 3. a cancelled write never blocks later writes ------------------------------------------------------------

def hold_the_writer(repo, seconds: float):
    """A unit that keeps the writer's thread busy, as other matches' moves ahead in a burst would."""
    return asyncio.ensure_future(repo.driver.run_unit(lambda conn: time.sleep(seconds)))


@pytest.mark.parametrize("when", ["waiting", "written"])
async def test_a_move_cancelled_around_its_unit_is_whole_or_absent_and_blocks_nothing(world, when):
    """Cancelled while its unit waits behind others: nothing of it is written. Cancelled while its group is
    being written: all of it is, and the task still ends cancelled. Either way the next writes work."""
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    repo = world.bot.repo
    ahead = hold_the_writer(repo, 0.3)
    await asyncio.sleep(0.05)  # the writer is busy with the unit ahead
    with world.env.time_context():  # the bot's (simulated) clock
        task = asyncio.ensure_future(world.bot.matches.submit_move(match_id, world.alice.id, "a1-a3"))
    if when == "written":
        await ahead  # its group is being written now
        await asyncio.sleep(0)
    else:
        await asyncio.sleep(0.05)  # still waiting behind the unit ahead
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await ahead
    assert not repo.driver.db.in_transaction
    await world.bot.matches.bus.idle()
    assert await moves_stored(world, match_id) == (1 if when == "written" else 0)

    first = "a12-a10" if await moves_stored(world, match_id) == 1 else "a1-a3"
    player = world.bob if first == "a12-a10" else world.alice
    result = await move(player, thread, match_id, first)
    assert result.response.content.startswith("✅"), result.response.content
    assert posted_challenge(await world.carol.slash(world.channel, "play", game="archimedes", opponent=world.alice))


async def test_moves_cancelled_at_random_points_leave_the_connection_usable(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    service = world.bot.matches
    for delay in (0, 0.0001, 0.0005, 0.001, 0.002, 0.005):
        with world.env.time_context():  # the task keeps the bot's (simulated) clock
            task = asyncio.ensure_future(service.submit_move(match_id, world.alice.id, "a1-a3"))
        await asyncio.sleep(delay)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert not world.bot.repo.driver.db.in_transaction
        if await moves_stored(world, match_id):
            break
    await service.bus.idle()
    first = "a12-a10" if await moves_stored(world, match_id) == 1 else "a1-a3"
    result = await move(world.bob if await moves_stored(world, match_id) == 1 else world.alice, thread, match_id, first)
    assert result.response.content.startswith("✅"), result.response.content


# --- 4. a crash between saving a move and recording its board post is repaired at start-up --------------------

async def test_a_move_saved_but_never_posted_is_posted_once_after_a_restart(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=500)  # the post dies with the bot
    # typed outside the thread: the board goes as a message of the thread (from it, as the move's answer)
    assert (await move(world.alice, world.channel, match_id, "a1-a3")).response.content.startswith("✅")
    assert len(board_posts(thread)) == 1 and await moves_stored(world, match_id) == 1
    pinged_before = len(pings_of(world, world.bob))

    await world.restart()

    posts = board_posts(thread)
    assert len(posts) == 2 and "**bob** (Dark) to move" in text_of(posts[-1])
    assert len(pings_of(world, world.bob)) == pinged_before + 1
    assert is_disabled(buttons(stored(world, posts[0]))["Move"])
    await world.restart()  # announced now: a second start posts nothing
    assert len(board_posts(thread)) == 2
    result = await move(world.bob, thread, match_id, "a12-a10")
    assert result.response.content.startswith("✅")


async def test_a_board_posted_but_not_recorded_is_adopted_after_a_restart(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    service = world.bot.matches
    real = service.record_board

    async def killed(match, message_id, **kwargs):  # the bot dies right after Discord took the post
        service.record_board = real
        raise SystemError("killed")

    service.record_board = killed
    await move(world.alice, thread, match_id, "a1-a3")
    await service.bus.idle()
    old, new = board_posts(thread)
    assert not is_disabled(buttons(stored(world, old))["Move"])  # the crash left the old board live
    stale = await stored_match(world, match_id)
    assert stale.announced_version < stale.version
    world.expect_errors()

    await world.restart()

    assert [p.id for p in board_posts(thread)] == [old.id, new.id]  # no duplicate
    assert is_disabled(buttons(stored(world, old))["Move"])
    with pytest.raises(errors.StaleBoard):  # and a click that raced the greying out is refused
        await world.bot.matches.playable_match(match_id, world.bob.id, board_message_id=old.id)
    opened = await world.bob.click(new, label="Move")
    assert "Which piece" in text_of(opened.response)
    await choose(world, world.bob, opened.response, "a12")
    await choose(world, world.bob, opened.response, "-a10")
    await world.bob.click(opened.response, label="Confirm")
    assert "**bob** (Dark) played `a12-a10`" in text_of(board_posts(thread)[-1])


async def test_the_repair_recognises_a_board_post_by_its_buttons_whatever_its_caption_says(world, monkeypatch):
    """The start-up repair must not depend on a caption's wording (which other work is free to change)."""
    from bot.presenters import board as board_presenter

    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    service = world.bot.matches
    real_caption, real_record = board_presenter.turn_caption, service.record_board
    monkeypatch.setattr(board_presenter, "turn_caption", lambda *a, **k: "A board worded some other way")

    async def killed(match, message_id, **kwargs):  # the bot dies right after Discord took the post
        service.record_board = real_record
        raise SystemError("killed")

    service.record_board = killed
    await move(world.alice, thread, match_id, "a1-a3")
    await service.bus.idle()
    world.expect_errors()
    old, new = board_posts(thread)
    assert "match #" not in text_of(new)
    monkeypatch.setattr(board_presenter, "turn_caption", real_caption)

    await world.restart()

    assert [p.id for p in board_posts(thread)] == [old.id, new.id]  # adopted, not posted again
    assert is_disabled(buttons(stored(world, old))["Move"])


# --- 5. Cancel racing Accept -------------------------------------------------------------------------------------

async def test_cancel_racing_accept_ends_cancelled_in_the_service(world):
    service = world.bot.matches
    for _ in range(3):
        challenge = await service.create_challenge(
            guild_id=world.guild.id, channel_id=world.channel.id, challenger_id=world.alice.id,
            challenger_name="alice", game_key="archimedes", invited=[world.bob.id])
        cancelled, accepted = await asyncio.gather(
            service.cancel_challenge(challenge.id, world.alice.id),
            service.accept_challenge(challenge.id, world.bob.id, "bob"),
            return_exceptions=True,
        )
        assert not isinstance(cancelled, BaseException) and cancelled.status == "cancelled"
        assert isinstance(accepted, errors.ChallengeClosed) and str(accepted) == "This challenge was cancelled."
        assert (await service.get_challenge(challenge.id)).status == "cancelled"
    await service.bus.idle()
    for member in (world.alice, world.bob):
        assert await world.bot.repo.matches_of_user(member.id, active_only=False) == []


async def test_cancel_racing_accept_through_a_click(world):
    await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.bob)
    post = world.channel.last_message
    challenge_id = challenge_id_of(post)
    # The simulated Discord runs one click at a time, so the cancel comes straight from the service: it starts
    # first and is still in flight when Bob's click reaches the bot.
    with world.env.time_context():  # the service reads the simulated clock, as it does inside the bot
        cancelled, accept = await asyncio.gather(world.bot.matches.cancel_challenge(challenge_id, world.alice.id),
                                                 world.bob.click(post, label="Accept"))
    assert cancelled.status == "cancelled"
    said = private_answer(accept)
    assert said.ephemeral and said.content == "This challenge was cancelled."
    assert not world.channel.threads and not board_posts(world.channel)


def coherent(status: str, accepted, cancelled) -> bool:
    """Whoever lost the race is told what really happened, and the challenge is what the winner made it."""
    if status == "cancelled":
        return not isinstance(cancelled, BaseException) and accepted == "This challenge was cancelled."
    return status == "started" and str(cancelled) == "This challenge has already been accepted."


async def test_cancel_landing_while_an_accept_is_seating_its_player(world):
    """The cancel arrives just after Bob's seat was written, before his match started."""
    repo, service = world.bot.repo, world.bot.matches
    real = repo.take_challenge_seat
    racing = []

    async def take_seat(challenge_id, *args, **kwargs):
        taken = await real(challenge_id, *args, **kwargs)
        racing.append(asyncio.ensure_future(service.cancel_challenge(challenge_id, world.alice.id)))
        for _ in range(5):  # let the cancel run as far as it can
            await asyncio.sleep(0)
        return taken

    repo.take_challenge_seat = take_seat
    await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.bob)
    post = world.channel.last_message
    accept = await world.bob.click(post, label="Accept")
    (cancelled,) = await asyncio.gather(*racing, return_exceptions=True)
    world.expect_errors()  # the losing cancel's refusal, raised in a task the bot's click started
    status = (await service.get_challenge(challenge_id_of(post))).status
    matches = len(await repo.matches_of_user(world.bob.id, active_only=False))
    assert coherent(status, accept.response.content, cancelled), (status, accept.response.content, cancelled)
    assert matches == (status == "started") == len(world.channel.threads)


# --- 6. a challenge to someone outside the server ---------------------------------------------------------------

async def test_challenging_a_user_outside_the_server_answers_clearly(world, caplog):
    stranger = world.env.create_user("dave")
    result = await world.alice.slash(world.channel, "play", game="archimedes", opponent=stranger)
    assert result.ephemeral
    assert result.response.content == "I can't find that member in this server. Pick someone from the list."
    assert not logged_errors(caplog)
    assert len(world.channel.history()) == 0


# --- 7. matches of other servers stay unseen; a player who left can still play -----------------------------------

async def test_another_servers_match_answers_like_a_missing_one(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    other = world.env.create_guild("Elsewhere")
    lobby = other.create_text_channel("lobby")
    dave = other.add_member(world.env.create_user("dave"))
    world.bot.tree.copy_global_to(guild=discord.Object(other.id))
    await world.bot.tree.sync(guild=discord.Object(other.id))

    for number in (match_id, 999):
        moved = await dave.slash(lobby, "move", match=number, move="a1-a3")
        assert moved.response.content == str(errors.UnknownMatch()), number
        board = await dave.slash(lobby, "board", match=number)
        assert board.response.content == str(errors.UnknownMatch()), number
        assert await dave.autocomplete(lobby, "move", "move", "a", match=number) == []
    assert await moves_stored(world, match_id) == 0 and len(board_posts(thread)) == 1


async def test_a_player_who_left_the_server_plays_on_from_a_dm(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await world.bot.tree.sync()  # the commands everywhere, DMs included
    world.guild.remove_member(world.alice)
    alice = world.alice.user  # no longer a member: she acts from her DM with the bot
    choices = await alice.autocomplete("move", "match", "")
    assert [c["value"] for c in choices] == [match_id]
    assert "a1-a3" in [c["value"] for c in await alice.autocomplete("move", "move", "a1-", match=match_id)]
    result = await alice.slash("move", match=match_id, move="a1-a3")
    assert result.response.content.startswith("✅")
    assert "**alice** (Light) played `a1-a3`" in text_of(board_posts(thread)[-1])
