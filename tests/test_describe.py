"""The words for a picture: alt text within Discord's limit that states the game, the turn, the last move and
the material; a text board that lists every piece by square; both from the view the picture is drawn from."""

from __future__ import annotations

import random

import pytest

from bot.games.registry import GAMES, declaration_of
from bot.presenters.describe import (
    MAX_ALT_TEXT, MAX_MESSAGE, alt_text, pack, rating_chart_alt_text, rules_alt_text, text_board,
)
from bot_helpers import EPAMINONDAS_LIGHT_WINS, board_posts, choose, play_moves, start_match, stored

LONG_NAMES = ["Ω" * 32, "a-very-long-display-name-here-32", "third player with a long name!!!", "x" * 32]


def walk(key: str, players: int, seed: int, plies: int):
    """Views of a seeded random game, ply by ply, for the public and for seat 0."""
    game = GAMES[key]
    state, rng = game.new_state(players, seed, None), random.Random(seed)
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        yield game.view(state, None), game.view(state, 0)


CASES = [(key, n) for key, game in GAMES.items() for n in sorted({game.info.min_players, game.info.max_players})]


@pytest.mark.parametrize("key,players", CASES)
def test_descriptions_fit_discords_limits_at_every_ply(key, players):
    title = GAMES[key].info.title
    names = LONG_NAMES[:players]
    for public, private in walk(key, players, seed=3, plies=400):
        for view in (public, private):
            assert 0 < len(alt_text(title, view, names, match_id=123456)) <= MAX_ALT_TEXT
            messages = text_board(title, view, names, match_id=123456)
            assert messages and all(0 < len(m) <= MAX_MESSAGE for m in messages)


@pytest.mark.parametrize("key,players", CASES)
def test_text_board_lists_every_piece_by_square(key, players):
    """The text board lists, per seat, every piece its game's describer finds, by square."""
    title = GAMES[key].info.title
    *_, (public, private) = walk(key, players, seed=5, plies=30)
    board = "\n".join(text_board(title, private, LONG_NAMES[:players]))
    pieces = declaration_of(key).describer.pieces("en", private)
    for seat, items in enumerate(pieces):
        assert f", {len(items)} on the board: " in board
        for item in items:
            assert f" {item}," in board or f" {item}." in board, item


# What the built-in games' describers list: every occupied square of their views.
SQUARES = {
    "epaminondas": lambda v: [f"{chr(97 + f)}{r + 1}" for r, row in enumerate(v["board"])
                              for f, o in enumerate(row) if o is not None],
    "archimedes": lambda v: [f"{chr(97 + f)}{r + 1}" for r, row in enumerate(v["board"])
                             for f, o in enumerate(row) if o is not None],
    "myrmidons": lambda v: list(v["cells"]),
    "mycenae": lambda v: [p["square"] for p in v["board"]],
    "myriath": lambda v: [tile["move"] for tile in v["tiles"]],
}


@pytest.mark.parametrize("key", SQUARES)
def test_the_built_in_describers_name_every_occupied_square(key):
    game = GAMES[key]
    *_, (public, private) = walk(key, game.info.max_players, seed=5, plies=30)
    listed = " ".join(item for items in declaration_of(key).describer.pieces("en", private) for item in items)
    squares = SQUARES[key](private)
    assert squares and all(square in listed.split() for square in squares)


def test_alt_text_states_the_game_the_turn_the_last_move_and_the_material():
    game = GAMES["epaminondas"]
    state = game.new_state(2, 1, None)
    state, _ = game.apply(state, 0, "a1-d4")
    public = alt_text("Epaminondas", game.view(state, None), ["alice", "bob"], match_id=7)
    assert public == ("Epaminondas board, match #7, move 1. Last move: alice (Light) played a1-d4, a phalanx of 2. "
                      "To move: bob (Dark). alice (Light): 28 pieces, 0 across; bob (Dark): 28 pieces, 0 across.")
    mine = alt_text("Epaminondas", game.view(state, 1), ["alice", "bob"], match_id=7)
    assert mine.startswith("Epaminondas, match #7, move 1: your view as bob (Dark).")


def test_a_capture_and_a_win_are_told():
    game = GAMES["epaminondas"]
    state = game.new_state(2, 1, None)
    for i, move in enumerate(EPAMINONDAS_LIGHT_WINS):
        state, _ = game.apply(state, i % 2, move)
        text = alt_text("Epaminondas", game.view(state, None), ["alice", "bob"], match_id=7)
        if "x" in move:
            assert "capturing" in text, text
    assert "alice (Light) won: Light has more pieces across (1 to 0)." in text


def test_pack_splits_long_listings_at_commas_only():
    squares = ", ".join(f"z{i}" for i in range(900))
    messages = pack(["Header.", f"Player: {squares}."], 2000)
    assert all(len(m) <= 2000 for m in messages) and len(messages) >= 3
    joined = " ".join(messages)
    assert all(f"z{i}," in joined or f"z{i}." in joined for i in range(900))


def test_rules_and_rating_chart_descriptions():
    for key in GAMES:
        text = rules_alt_text(key)
        assert text.startswith(f"{GAMES[key].info.title}: the starting position.") and len(text) <= MAX_ALT_TEXT
    assert "a1, a2, b1" in rules_alt_text("epaminondas")
    chart = rating_chart_alt_text("alice", "Archimedes", [(0.0, 1500), (1.0, 1523), (2.0, 1511)])
    assert chart == ("Rating chart of alice in Archimedes over 2 rated games: from 1500 to 1511, "
                     "highest 1523, lowest 1500.")


# --- through the real bot: the attachments carry their descriptions ------------------------------------------------


def description_of(message, filename: str) -> str:
    return next(a.description for a in message.attachments if a.filename == filename)


async def test_every_picture_of_a_match_has_its_alt_text(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    first = description_of(board_posts(thread)[-1], "board.png")
    assert first == (f"Epaminondas board, match #{match_id}, move 0. To move: alice (Light). "
                     "alice (Light): 28 pieces, 0 across; bob (Dark): 28 pieces, 0 across.")

    opened = await world.alice.click(board_posts(thread)[-1], label="Move")
    await choose(world, world.alice, opened.response, "a1")
    await choose(world, world.alice, opened.response, "-d4")
    preview = description_of(stored(world, opened.response), "preview.png")
    assert preview.startswith(f"Epaminondas, match #{match_id}, move 1: preview of your move, as alice (Light).")
    await world.alice.click(opened.response, label="Confirm")

    board = description_of(board_posts(thread)[-1], "board.png")
    assert "Last move: alice (Light) played a1-d4, a phalanx of 2." in board and "To move: bob (Dark)." in board
    mine = await world.bob.click(board_posts(thread)[-1], label="My view")
    assert description_of(mine.response, "your-view.png").startswith(
        f"Epaminondas, match #{match_id}, move 1: your view as bob (Dark).")

    rules = await world.carol.slash(world.channel, "rules", game="archimedes")
    assert description_of(rules.response, "rules.png").startswith("Archimedes: the starting position.")

    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS[1:], [world.bob, world.alice])
    final = description_of(board_posts(thread)[-1], "board.png")
    assert "alice (Light) won: Light has more pieces across (1 to 0)." in final


async def test_describe_button_and_board_text_give_the_askers_own_view_in_words(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS[:2], [world.alice, world.bob])
    board = board_posts(thread)[-1]
    posts_before = len(thread.history())

    described = await world.bob.click(board, label="Describe")
    assert described.ephemeral
    text = described.response.content
    assert text.startswith(f"Epaminondas, match #{match_id}, move 2: your view as bob (Dark).")
    assert "Last move: bob (Dark) played f12-f9" in text and "To move: alice (Light)." in text
    assert "alice (Light), 28 on the board: a2, b1, c1, c2, c3, d1, d2, d4, e1," in text  # a1-d4 moved a1, b2
    assert "bob (Dark), 28 on the board: a11, a12," in text and " f9, f10, g11," in text

    typed = await world.alice.slash(thread, "board", match=match_id, text=True)
    assert typed.ephemeral and "your view as alice (Light)" in typed.response.content
    assert len(thread.history()) == posts_before  # nothing re-posted: the text is for the asker alone

    outsider = await world.carol.click(board, label="Describe")  # not a player: the public view, in words
    assert outsider.ephemeral and outsider.response.content.startswith(f"Epaminondas board, match #{match_id}")


async def test_move_autocomplete_labels_read_well_aloud(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    moves = await world.alice.autocomplete(thread, "move", "move", "b1-b3", match=match_id)
    assert {"name": "b1-b3 (b1 to b3)", "value": "b1-b3"} in [{"name": c["name"], "value": c["value"]} for c in moves]


async def test_describe_survives_a_restart(world):
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    await world.restart()  # the button is found again by its custom id, like every board button
    described = await world.alice.click(board_posts(thread)[-1], label="Describe")
    assert described.ephemeral
    assert described.response.content.startswith(f"Archimedes, match #{match_id}, move 0: your view as alice (White).")
    assert "alice (White), 12 on the board: a2, a3, a4, b1," in described.response.content


@pytest.mark.parametrize(("score", "text"), [(0, "0"), (0.5, "½"), (2, "2"), (2.5, "2½"), (12.5, "12½")])
def test_a_half_point_reads_as_one_not_as_zero_and_a_half(score, text):
    from bot.presenters.captions import format_score

    assert format_score(score) == text


def test_an_own_mycenaean_knight_that_carries_nothing_reads_empty():
    from bot.games.mycenae.describe import pieces
    game = GAMES["mycenae"]
    state = game.new_state(2, 0, {"armies": ["mycenae", "mycenae"]})
    assert pieces("en", game.view(state, 0))[0][0] == "b2 Mycenaean knight (empty)"
    loaded, _ = game.apply(state, 0, "cargo b2:K,R,B,B,P,P d2:P")
    own = pieces("fr", game.view(loaded, 0))[0]
    assert "(transporte " in own[0] and own[1].startswith("c1 ") and own[1].endswith(" (vide)")


def test_a_computer_seat_named_with_its_side_is_not_given_it_twice():
    from bot.presenters.captions import seat_label
    from bot.presenters.describe import player

    game = GAMES["myriath"]
    view = game.view(game.new_state(3, 0, None), None)
    sides = view["seat_names"]
    names = ["alice", f"Strategos (easy, {sides[1]})", f"Strategos (easy, {sides[2]})"]
    assert player(view, names, 1) == names[1]
    assert seat_label(view, names, 2) == f"**{names[2]}**"
    assert player(view, names, 0) == f"alice ({sides[0]})"
    assert seat_label(view, names, 0, "de").startswith("**alice** (") and sides[0] not in seat_label(view, names, 0, "de")
