"""Restarts, closed DMs and shutdowns: nothing is lost, nothing is applied twice."""

from __future__ import annotations

import asyncio
import pytest

from bot.matches import errors
from bot_helpers import text_of, board_posts, choose, move, moves_stored, private_channels, start_match, stored
from conftest import ON_BOTH


@ON_BOTH
async def test_restart_mid_match_keeps_match_buttons_and_pending_challenge(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, "a1-a3")
    await world.carol.slash(world.channel, "play", game="archimedes", opponent=world.alice)
    pending = world.channel.last_message

    await world.restart()

    # the board's buttons still work, and the picker plays a move
    opened = await world.bob.click(board_posts(thread)[-1], label="Move")
    assert opened.ephemeral and "Which piece" in text_of(opened.response)
    await choose(world, world.bob, opened.response, "a12")
    await choose(world, world.bob, opened.response, "-a10")
    await world.bob.click(opened.response, label="Confirm")
    assert "**bob** (Dark) played `a12-a10`" in text_of(board_posts(thread)[-1])
    # the challenge made before the restart can still be accepted
    await world.alice.click(pending, label="Accept")
    assert len(world.channel.threads) == 2
    assert "carol" in text_of(board_posts(world.channel.threads[-1])[-1])


async def test_picker_from_before_a_restart_expires_cleanly(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    opened = await world.alice.click(board_posts(thread)[-1], label="Move")
    await choose(world, world.alice, opened.response, "a1")
    await world.restart()
    gone = await world.alice.click(opened.response, label="Back")
    assert gone.ephemeral and "expired" in gone.response.content
    assert await moves_stored(world, match_id) == 0
    fresh = await world.alice.click(board_posts(thread)[-1], label="Move")  # the board itself still works
    assert "Which piece" in text_of(fresh.response)


async def test_closed_dms_fall_back_to_my_view(world):
    bob_dm = world.bob.user.dm_channel
    world.env.inject_error("POST", f"/channels/{bob_dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    alice_dm = world.alice.user.dm_channel.last_message
    assert alice_dm is not None and "you play **White**" in text_of(alice_dm)
    assert await private_channels(world, match_id) == {world.alice.id: "dm", world.bob.id: "pending"}

    shown = await world.bob.click(board_posts(thread)[-1], label="My view")
    assert shown.ephemeral and "📬 Your Archimedes match" in text_of(shown.response)
    assert "you play **Black**" in text_of(shown.response)
    again = await world.bob.click(board_posts(thread)[-1], label="My view")
    assert "📬" not in again.response.content  # handed out once
    assert (await private_channels(world, match_id))[world.bob.id] == "ephemeral"


async def test_shutdown_finishes_moves_in_flight_and_refuses_new_ones(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    service = world.bot.matches
    with world.env.time_context():  # the bot's clock is the simulated one, also for calls made from the test
        in_flight = asyncio.ensure_future(service.submit_move(match_id, world.alice.id, "a1-a3"))
    await asyncio.sleep(0)
    await service.drain()
    assert in_flight.done() and in_flight.result().move == "a1-a3"
    with pytest.raises(errors.ShuttingDown):
        await service.submit_move(match_id, world.bob.id, "a12-a10")
    service.closing = False  # let the fixture's teardown close normally


async def test_without_thread_permission_the_match_is_played_in_the_channel(world):
    world.env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=403, code=50013,
                           message="Missing Permissions")
    await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.bob)
    await world.bob.click(world.channel.last_message, label="Accept")
    assert not world.channel.threads
    notice = [m for m in world.channel.history() if "couldn't open a thread" in text_of(m)]
    assert notice and "Create Public Threads" in text_of(notice[0])
    board = board_posts(world.channel)[-1]
    assert world.alice.mention in text_of(board)
    result = await move(world.alice, world.channel, 1, "d1-g1")
    assert result.response.content.startswith("✅")
    assert "played `d1-g1`" in text_of(board_posts(world.channel)[-1])


async def test_a_refused_board_post_is_reported_not_denied(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=500)
    # typed outside the thread: the board goes as a message of the thread (from it, as the move's answer)
    result = await move(world.alice, world.channel, match_id, "a1-a3")
    assert result.response.content.startswith("✅")
    assert [text_of(f) for f in result.followups] == [
        "Your action counts, but I could not post the new board in the match thread. "
        "`/board` posts it again once I can write there."
    ]
    reposted = await world.bob.slash(world.channel, "board", match=match_id)
    assert reposted.response.content.startswith("Board re-posted")
    assert "played" not in text_of(board_posts(thread)[-1]) and "**bob** (Dark) to move" in text_of(board_posts(thread)[-1])
