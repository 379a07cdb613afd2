"""Whole matches through the real bot and a simulated Discord: what the players see, from /play to the end."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot_helpers import (text_of,
    ARCHIMEDES_BLACK_WINS, EPAMINONDAS_LIGHT_WINS, board_posts, buttons, choose, is_disabled, move, play_moves,
    posted_challenge, private_answer, start_match, stored,
)
from conftest import ON_BOTH


async def test_challenge_post_invites_only_the_opponent(world):
    result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    post = world.channel.last_message
    assert posted_challenge(result) and result.followups[0].id == post.id
    assert "alice" in text_of(post) and world.bob.mention in text_of(post) and "Epaminondas" in text_of(post)
    assert {u.id for u in post.mentions} == {world.bob.id}
    assert set(buttons(post)) == {"Accept", "Decline", "Cancel"}


async def test_accept_opens_a_thread_with_the_first_board(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    board = board_posts(thread)[-1]
    assert "Epaminondas" in thread.name and "alice" in thread.name and "bob" in thread.name
    assert "**alice** (Light) to move" in text_of(board)
    assert [u.id for u in board.mentions] == [world.alice.id]  # only the player who must act
    assert set(buttons(board)) == {"Move", "My view", "Describe", "Resign", "Offer draw", "Explore"}
    image = Image.open(io.BytesIO(await board.attachments[0].read()))
    assert image.format == "PNG" and image.width >= 900
    posts = [m for m in world.channel.history() if "challenges" in text_of(m)]
    assert "has started" in text_of(posts[-1]) and not buttons(posts[-1])


@ON_BOTH
async def test_whole_epaminondas_match_to_a_win(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    # the first move through the step-by-step picker, with a preview, the rest by notation
    opened = await world.alice.click(board_posts(thread)[-1], label="Move")
    picker = opened.response
    assert opened.ephemeral and "Which piece" in text_of(picker)
    assert is_disabled(buttons(stored(world, picker))["Confirm"])
    await choose(world, world.alice, picker, "a1")
    await choose(world, world.alice, picker, "-d4")
    ready = stored(world, picker)
    assert "Ready to play **`a1-d4`**" in text_of(ready)
    assert [a.filename for a in ready.attachments] == ["preview.png"]
    await world.alice.click(picker, label="Confirm")
    assert "You played `a1-d4`" in text_of(stored(world, picker))
    board = board_posts(thread)[-1]
    assert "**alice** (Light) played `a1-d4`" in text_of(board) and "**bob** (Dark) to move" in text_of(board)
    assert [u.id for u in board.mentions] == [world.bob.id]
    first_board = board_posts(thread)[0]
    assert all(is_disabled(b) for b in buttons(stored(world, first_board)).values())

    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS[1:], [world.bob, world.alice])
    final = board_posts(thread)[-1]
    assert "🏆 **alice** (Light) wins: Light has more pieces across (1 to 0)." in text_of(final)
    assert set(buttons(final)) == {"Rematch"}  # the finished match: no board buttons, only a rematch
    assert {u.id for u in final.mentions} == {world.alice.id, world.bob.id}
    result = await move(world.bob, thread, match_id, "a12-a11")
    assert result.ephemeral and result.response.content == "This match is already over."


@ON_BOTH
async def test_whole_archimedes_match_to_a_port_win(world):
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    await play_moves(world, thread, match_id, ARCHIMEDES_BLACK_WINS, [world.alice, world.bob])
    final = board_posts(thread)[-1]
    assert "🏆 **bob** (Black) wins: Black's ship held White's port." in text_of(final)
    assert set(buttons(final)) == {"Rematch"}


SIDES = {"epaminondas": ("Light", "Dark"), "archimedes": ("White", "Black")}


@pytest.mark.parametrize("game", ["epaminondas", "archimedes"])
async def test_resign_asks_first_then_ends_the_match(world, game):
    thread, match_id = await start_match(world, game, world.alice, world.bob)
    board = board_posts(thread)[-1]
    asked = await world.bob.click(board, label="Resign")
    assert asked.ephemeral and "Resign match" in asked.response.content
    assert len(board_posts(thread)) == 1  # nothing happened yet
    done = await world.bob.click(asked.response, label="Yes, resign")
    final = board_posts(thread)[-1]
    assert f"🏆 **alice** ({SIDES[game][0]}) wins: bob resigned." in text_of(final)
    assert all(is_disabled(b) for b in buttons(stored(world, board)).values())


@pytest.mark.parametrize("game", ["epaminondas", "archimedes"])
async def test_draw_offer_accepted(world, game):
    thread, match_id = await start_match(world, game, world.alice, world.bob)
    offered = await world.alice.click(board_posts(thread)[-1], label="Offer draw")
    assert offered.ephemeral and "Draw offered" in offered.response.content
    offer = thread.last_message
    assert "offers a draw" in text_of(offer) and [u.id for u in offer.mentions] == [world.bob.id]
    own = await world.alice.click(offer, label="Accept draw")
    said = private_answer(own)
    assert said.ephemeral and "your own offer" in said.content
    await world.bob.click(offer, label="Accept draw")
    final = board_posts(thread)[-1]
    assert "🤝 The match is drawn: draw by agreement." in text_of(final)
    assert set(buttons(final)) == {"Rematch"}


async def test_draw_offer_declined_and_withdrawn_by_a_move(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await world.alice.click(board_posts(thread)[-1], label="Offer draw")
    offer = thread.last_message
    await world.bob.click(offer, label="Decline draw")
    assert "declined" in text_of(thread.last_message) or "declined" in text_of(offer)
    await world.alice.click(board_posts(thread)[-1], label="Offer draw")
    second = thread.last_message
    await move(world.alice, thread, match_id, "a1-a3")  # a move withdraws the pending offer
    late = await world.bob.click(second, label="Accept draw")
    said = private_answer(late)
    assert said.ephemeral and "withdrawn" in said.content


async def test_my_view_is_ephemeral_and_from_the_players_side(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    mine = await world.bob.click(board_posts(thread)[-1], label="My view")
    assert mine.ephemeral
    assert "you play **Dark**" in text_of(mine.response)
    assert mine.response.attachments and mine.response.attachments[0].filename == "your-view.png"
    outsider = await world.carol.click(board_posts(thread)[-1], label="My view")
    assert outsider.ephemeral and outsider.response.content == "You are not playing in this match."


async def test_games_lists_your_turn_first_with_links(world):
    t1, m1 = await start_match(world, "epaminondas", world.alice, world.bob)
    t2, m2 = await start_match(world, "archimedes", world.bob, world.alice)
    listed = await world.alice.slash(world.channel, "games")
    assert listed.ephemeral
    lines = listed.response.content.splitlines()
    assert f"#{m1} Epaminondas vs bob — your turn" in lines[1]
    assert f"#{m2} Archimedes vs bob" in lines[2] and "your turn" not in lines[2]
    assert f"/{t1.id}" in lines[1]
    none = await world.carol.slash(world.channel, "games")
    assert "no active matches" in none.response.content


async def test_board_command_reposts_and_retires_the_old_post(world):
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    old = board_posts(thread)[-1]
    result = await world.alice.slash(world.channel, "board", match=match_id)
    assert result.ephemeral and "Board re-posted" in result.response.content
    assert len(board_posts(thread)) == 2
    assert all(is_disabled(b) for b in buttons(stored(world, old)).values())


async def test_rules_explains_with_a_diagram(world):
    result = await world.carol.slash(world.channel, "rules", game="archimedes")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert "Archimedes" in embed.title and "port" in embed.description
    assert result.response.attachments[0].filename == "rules.png"


async def test_autocomplete_offers_your_matches_and_legal_moves(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    matches = await world.alice.autocomplete(thread, "move", "match", "")
    assert matches[0]["value"] == match_id and "your turn" in matches[0]["name"]
    moves = await world.alice.autocomplete(thread, "move", "move", "b1-", match=match_id)
    names = [c["value"] for c in moves]
    assert names and all(n.startswith("b1-") for n in names) and "b1-b3" in names
    assert await world.carol.autocomplete(thread, "move", "move", "", match=match_id) == []


async def test_open_challenge_anyone_can_take(world):
    await world.alice.slash(world.channel, "play", game="archimedes")
    post = world.channel.last_message
    assert "anyone" in text_of(post) and "Decline" not in buttons(post)
    await world.carol.click(post, label="Accept")
    board = board_posts(world.channel.threads[-1])[-1]
    assert "carol" in world.channel.threads[-1].name and world.alice.mention in text_of(board)


async def test_two_matches_at_once_in_one_channel(world):
    t1, m1 = await start_match(world, "epaminondas", world.alice, world.bob)
    t2, m2 = await start_match(world, "archimedes", world.carol, world.alice)
    await move(world.alice, t1, m1, "a1-a3")
    await move(world.carol, t2, m2, "d1-g1")
    assert "played `a1-a3`" in text_of(board_posts(t1)[-1])
    assert "played `d1-g1`" in text_of(board_posts(t2)[-1])
    posts = len(board_posts(t2))
    wrong = await move(world.alice, t2, m2, "a1-a3")  # alice is Black in match 2: a1 is not her ship
    assert wrong.ephemeral and not wrong.response.content.startswith("✅")
    assert len(board_posts(t2)) == posts


@pytest.mark.parametrize("game, title", [("mycenae", "Mycenae"), ("myriath", "Myriath")])
async def test_rules_of_the_multiplayer_games_have_their_pictures(world, game, title):
    result = await world.carol.slash(world.channel, "rules", game=game)
    embed = result.response.embeds[0]
    assert result.ephemeral and title in embed.title and "2–4 players" in embed.footer.text
    assert [a.filename for a in result.response.attachments] == ["rules.png"]
