"""Every mistake a user can make gets a clear ephemeral answer and changes nothing."""

from __future__ import annotations

import asyncio
from bot_helpers import (text_of,
    board_posts, buttons, choose, is_disabled, move, moves_stored, private_answer, start_match, stored,
)


async def test_not_your_turn(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    result = await move(world.bob, thread, match_id, "a12-a10")
    assert result.ephemeral and result.response.content == "It is not your turn — waiting for alice."
    opened = await world.bob.click(board_posts(thread)[-1], label="Move")
    assert opened.ephemeral and opened.response.content == "It is not your turn — waiting for alice."
    assert await moves_stored(world, match_id) == 0 and len(board_posts(thread)) == 1


async def test_not_your_match(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    for attempt in (move(world.carol, thread, match_id, "a1-a3"),
                    world.carol.click(board_posts(thread)[-1], label="Move"),
                    world.carol.click(board_posts(thread)[-1], label="Resign"),
                    world.carol.click(board_posts(thread)[-1], label="Offer draw")):
        result = await attempt
        assert result.ephemeral and result.response.content == "You are not playing in this match."
    assert await moves_stored(world, match_id) == 0


async def test_illegal_and_unparsable_moves(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    illegal = await move(world.alice, thread, match_id, "a1-a9")
    assert illegal.ephemeral and "Too far" in illegal.response.content
    garbage = await move(world.alice, thread, match_id, "castle kingside")
    assert garbage.ephemeral and garbage.response.content and not garbage.response.content.startswith("✅")
    empty = await move(world.alice, thread, match_id, "e5-e6")
    assert empty.ephemeral and "empty" in empty.response.content
    assert await moves_stored(world, match_id) == 0 and len(board_posts(thread)) == 1


async def test_unknown_match(world):
    result = await world.alice.slash(world.channel, "move", match=999, move="a1-a3")
    assert result.ephemeral and result.response.content.startswith("I can't find that match")
    board = await world.alice.slash(world.channel, "board", match=999)
    assert board.ephemeral and board.response.content.startswith("I can't find that match")


async def test_match_already_over(world):
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    asked = await world.alice.click(board_posts(thread)[-1], label="Resign")
    asked_again = await world.alice.click(board_posts(thread)[-1], label="Resign")
    await world.alice.click(asked.response, label="Yes, resign")
    again = await world.alice.click(asked_again.response, label="Yes, resign")  # a second confirmation
    said = private_answer(again)
    assert said.ephemeral and said.content == "This match is already over."
    late = await move(world.bob, thread, match_id, "h5-h1")
    assert late.response.content == "This match is already over."
    assert await moves_stored(world, match_id) == 1


async def test_stale_board_button_answers_instead_of_acting(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    first = board_posts(thread)[-1]
    # Discord fails to grey out the old buttons, so they stay clickable: the bot must still refuse them
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/{first.id}", status=500)
    await move(world.alice, thread, match_id, "a1-a3")
    assert not is_disabled(buttons(stored(world, first))["Move"])
    stale = await world.bob.click(first, label="Move")
    assert stale.ephemeral and stale.response.content.startswith("This board is out of date")
    assert str(board_posts(thread)[-1].id) in stale.response.content  # with a link to the current board


async def test_double_confirm_applies_the_move_once(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    board = board_posts(thread)[-1]
    pickers = [(await world.alice.click(board, label="Move")).response for _ in range(2)]
    for picker in pickers:
        await choose(world, world.alice, picker, "a1")
        await choose(world, world.alice, picker, "-a3")
    await world.alice.click(pickers[0], label="Confirm")
    second = await world.alice.click(pickers[1], label="Confirm")
    said = private_answer(second)
    assert said.ephemeral and said.content.startswith("This board is out of date")
    assert await moves_stored(world, match_id) == 1 and len(board_posts(thread)) == 2
    repeat = await move(world.alice, thread, match_id, "a1-a3")  # the same move typed again
    assert repeat.response.content == "It is not your turn — waiting for bob."
    assert await moves_stored(world, match_id) == 1


async def test_racing_submissions_apply_once(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    service = world.bot.matches
    with world.env.time_context():  # the bot's clock is the simulated one, also for calls made from the test
        results = await asyncio.gather(
            *(service.submit_move(match_id, world.alice.id, "a1-a3", expected_version=0) for _ in range(5)),
            return_exceptions=True,
        )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert await moves_stored(world, match_id) == 1


async def test_challenge_answers(world):
    await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    post = world.channel.last_message
    outsider = await world.carol.click(post, label="Accept")
    said = private_answer(outsider)
    assert said.ephemeral and said.content == "This challenge is for someone else."
    not_yours = await world.bob.click(post, label="Cancel")
    assert private_answer(not_yours).content == "Only the challenger can cancel this challenge."
    own = await world.alice.click(post, label="Accept")
    assert private_answer(own).content == "You already have a seat in this challenge."
    await world.bob.click(post, label="Decline")
    assert "❌ Declined." in text_of(stored(world, post)) and not buttons(stored(world, post))
    assert not world.channel.threads


async def test_challenge_already_answered(world):
    await world.alice.slash(world.channel, "play", game="archimedes")
    post = world.channel.last_message
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{post.id}", status=500)
    await world.bob.click(post, label="Accept")  # starts the match; the post keeps its buttons (edit failed)
    late = await world.carol.click(post, label="Accept")
    said = private_answer(late)
    assert said.ephemeral and said.content == "This challenge has already been accepted."
    assert len(world.channel.threads) == 1


async def test_cancel_and_bad_challenges(world):
    await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.bob)
    post = world.channel.last_message
    await world.alice.click(post, label="Cancel")
    assert "Cancelled" in text_of(stored(world, post))
    self_play = await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.alice)
    assert self_play.ephemeral and "can't challenge yourself" in self_play.response.content
    too_many = await world.alice.slash(world.channel, "play", game="archimedes", opponent=world.bob,
                                       opponent2=world.carol)
    assert too_many.ephemeral and "players" in too_many.response.content


async def test_unanswered_challenge_expires(world):
    await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    post = world.channel.last_message
    await world.env.advance_time(25 * 3600)
    now = stored(world, post)
    assert "expired" in text_of(now) and not buttons(now)


async def test_expired_challenge_refuses_a_late_accept(world):
    await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    post = world.channel.last_message
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{post.id}", status=500, times=None)
    await world.env.advance_time(25 * 3600)
    late = await world.bob.click(post, label="Accept")
    said = private_answer(late)
    assert said.ephemeral and said.content == "This challenge has expired."
    assert not world.channel.threads
