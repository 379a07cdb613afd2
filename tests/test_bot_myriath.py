"""Myriath on Discord for 2, 3 and 4 players: challenges with open seats, the placement picker with a preview,
forced passes announced, scores with halves, a restart halfway, resigning with three players."""

from __future__ import annotations

import random

import pytest

from bot_helpers import (text_of,
    board_posts, buttons, choose, components, match_id_of, move, open_match, play_out, private_answer, stored,
    thread_of,
)


def members_for(world, count):
    extra = [world.guild.add_member(world.env.create_user("dave"))] if count == 4 else []
    return [world.alice, world.bob, world.carol, *extra][:count]


def random_player(seed):
    rng = random.Random(seed)
    return lambda game, state, seat, moves: rng.choice(moves)


# Every player count on SQLite, one on PostgreSQL too.
@pytest.mark.parametrize(("players", "database"), [(2, "sqlite"), (3, "sqlite"), (4, "sqlite"), (3, "postgres")],
                         indirect=["database"])
async def test_whole_myriath_match_with_a_restart_halfway(world, players):
    members = members_for(world, players)
    thread, match_id = await open_match(world, "myriath", members)
    first = board_posts(thread)[-1]
    acting = world.bot.matches.users_to_act(await world.bot.matches.get_match(match_id))
    assert [u.id for u in first.mentions] == acting  # exactly who must act
    played = await play_out(world, thread, match_id, members, random_player(players), restart_after=10)
    assert played > 10
    final = board_posts(thread)[-1]
    assert "🏆" in text_of(final) and "Scores:" in text_of(final) and set(buttons(final)) == {"Rematch"}
    assert {u.id for u in final.mentions} == {m.id for m in members}
    posts = "\n".join(text_of(m) for m in thread.history())
    assert "had no choice: `pass`" in posts  # forced passes are played for the player and said


async def test_open_seats_fill_and_a_seat_is_taken_once(world):
    dave = world.guild.add_member(world.env.create_user("dave"))
    await world.alice.slash(world.channel, "play", game="myriath", players=4, opponent=world.bob)
    post = world.channel.last_message
    assert text_of(post).count("open seat") == 2
    await world.carol.click(post, label="Accept")
    twice = await world.carol.click(post, label="Accept")
    said = private_answer(twice)
    assert said.ephemeral and said.content == "You already have a seat in this challenge."
    await dave.click(post, label="Accept")
    assert not world.channel.threads  # bob's invited seat is still empty
    await world.bob.click(post, label="Accept")
    thread = thread_of(world)
    assert "Myriath" in thread.name and all(n in thread.name for n in ("alice", "bob", "carol", "dave"))


async def test_placement_picker_previews_before_confirm(world):
    thread, match_id = await open_match(world, "myriath", [world.alice, world.bob])
    service = world.bot.matches
    match = await service.get_match(match_id)
    seat = service.to_act(match)[0]
    member = [world.alice, world.bob][seat]
    opened = await member.click(board_posts(thread)[-1], label="Move")
    picker = opened.response
    while True:  # follow the first option of each step until a whole placement is chosen
        now = stored(world, picker)
        if not buttons(now)["Confirm"].disabled:
            break
        first = next(c for c in components(now) if hasattr(c, "options"))
        await choose(world, member, picker, first.options[0].value)
    ready = stored(world, picker)
    assert "Ready to play" in text_of(ready) and [a.filename for a in ready.attachments] == ["preview.png"]
    await member.click(picker, label="Confirm")
    assert "✅ You played" in text_of(stored(world, picker))
    assert "played `O@" in text_of(board_posts(thread)[-1])


async def test_a_resigning_player_is_out_and_the_others_play_on(world):
    thread, match_id = await open_match(world, "myriath", [world.alice, world.bob, world.carol])
    asked = await world.carol.click(board_posts(thread)[-1], label="Resign")
    assert "the others play on" in asked.response.content
    await world.carol.click(asked.response, label="Yes, resign")
    board = board_posts(thread)[-1]
    assert "**carol**" in text_of(board) and "resigned and is out of the match" in text_of(board)
    assert "🏆" not in text_of(board) and buttons(board)  # the match goes on
    late = await move(world.carol, thread, match_id, "pass")
    assert late.ephemeral and "not your turn" in late.response.content.lower()
    offered = await world.alice.click(board_posts(thread)[-1], label="Offer draw")
    assert "The other players" in offered.response.content
    offer = thread.last_message
    assert [u.id for u in offer.mentions] == [world.bob.id]  # carol is out: only bob's answer is needed
    await world.bob.click(offer, label="Accept draw")
    assert "🤝 The match is drawn" in text_of(board_posts(thread)[-1])


async def test_two_computer_seats_carry_their_colour_in_their_names(world):
    result = await world.alice.slash(world.channel, "play", game="myriath", computer="easy", players=3)
    if result.ephemeral and result.response.components:  # an options panel: post it with the defaults
        await world.alice.click(result.response, label="Post challenge")
    thread = thread_of(world)
    match = await world.bot.matches.get_match(match_id_of(thread))
    assert [s.user_name for s in match.seats] == ["alice", "Strategos (easy, Blue)", "Strategos (easy, Yellow)"]
    first = text_of(board_posts(thread)[0])
    assert "Strategos (easy, Blue)" in first and "Strategos (easy, Yellow)" in first
