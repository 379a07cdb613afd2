"""Autoplay: a member who asks for it has a turn with a single legal move played at once, and the thread says so —
only in games whose declaration makes the number of legal moves public. Twin worlds, differing only in a secret,
show that whether a move is played for her never depends on a secret."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.domain import MemberPrefs
from bot.engine.playout import random_plies
from bot.games import registry
from bot.games.engines import GAMES, get_game, legal_moves_public
from bot.games.myrmidons import GAME as MYRMIDONS
from bot.matches.actions import played_for
from bot_helpers import text_of, board_posts, move, start_match
from conftest import ON_BOTH
from mycenae_twins import twin_plies
from test_render_myrmidons import _twin_games
from tictactoe.declaration import DECLARATION as TICTACTOE

ON = MemberPrefs(1, autoplay=True)
OFF = MemberPrefs(1)
PUBLIC = [key for key in GAMES if legal_moves_public(key)]


def test_the_games_where_anyone_can_count_the_moves_declare_it():
    assert set(PUBLIC) == {"epaminondas", "archimedes", "myriath"}
    assert not legal_moves_public("myrmidons") and not legal_moves_public("mycenae")


@pytest.mark.parametrize("key", PUBLIC)
def test_where_moves_are_public_the_decision_follows_from_the_public_view_alone(key):
    """Each position against a twin rebuilt from what everybody sees: the same legal moves, the same decision."""
    game = get_game(key)
    singles = 0
    for seed in range(3):
        for i, ply in enumerate(random_plies(game, game.info.min_players, seed, max_plies=400)):
            twin = game.sample_state(game.view(ply.state, None), random.Random(i))
            assert game.legal_moves(twin, ply.seat) == ply.moves
            decided = played_for(key, ply.state, ply.seat, ON)
            assert played_for(key, twin, ply.seat, ON) == decided
            assert decided == (ply.moves[0] if len(ply.moves) == 1 else None)
            assert played_for(key, ply.state, ply.seat, OFF) is None  # only for who asked
            singles += decided is not None
    assert key != "myriath" or singles  # Myriath's endings leave single moves: the rule is exercised


def test_mycenae_twins_differing_in_her_cargo_are_never_played_for():
    counts_differ = False
    for a, b, *_ in twin_plies(2, ["mycenae", "mycenae"], 0, 1, 150):
        game = get_game("mycenae")
        for seat in game.to_act(a):
            assert played_for("mycenae", a, seat, ON) is None and played_for("mycenae", b, seat, ON) is None
            counts_differ |= len(game.legal_moves(a, seat)) != len(game.legal_moves(b, seat))
    assert counts_differ  # her legal moves do depend on her cargo: counting them would tell it


def test_myrmidons_twins_differing_in_her_pieces_values_are_never_played_for():
    first, second = _twin_games(0)
    counts_differ = False
    for a, b in zip(first, second):
        for seat in MYRMIDONS.to_act(a):
            assert played_for("myrmidons", a, seat, ON) is None and played_for("myrmidons", b, seat, ON) is None
            counts_differ |= len(MYRMIDONS.legal_moves(a, seat)) != len(MYRMIDONS.legal_moves(b, seat))
    assert counts_differ  # how far each piece may go is hers to know


# --- through the bot: tic-tac-toe, declared here with public legal moves ---------------------------------------

# alice challenges, so bob is the hider: he hides left, alice guesses right (wrong), so bob (X) marks first. After
# these eight marks nobody has three in a row and bob's only legal square is c3.
MARKS = ["a1", "b1", "c1", "a2", "b2", "c2", "b3", "a3"]


@pytest.fixture
def public_tictactoe():
    registry.register(replace(TICTACTOE, engine=replace(TICTACTOE.engine, legal_moves_public=True)))
    yield
    registry.unregister("tictactoe")


@pytest.fixture
async def world(public_tictactoe, world):
    yield world


async def play_to_the_last_square(world):
    thread, match_id = await start_match(world, "tictactoe", world.alice, world.bob)
    await move(world.bob, thread, match_id, "hide left")
    asked = await move(world.alice, thread, match_id, "guess right")
    await world.alice.click(asked.response, label="Yes, guess right")
    for i, text in enumerate(MARKS):
        played = await move((world.bob, world.alice)[i % 2], thread, match_id, text)
        assert played.response.content.startswith("✅"), (text, played.response.content)
    return thread, match_id


@ON_BOTH
async def test_her_only_legal_move_is_played_at_once_when_she_asked(world):
    answer = await world.bob.slash(world.channel, "autoplay", on=True)
    assert answer.ephemeral and "Autoplay is **on**" in answer.response.content
    await world.restart()  # a choice kept with her others
    thread, match_id = await play_to_the_last_square(world)
    match = await world.bot.matches.get_match(match_id)
    assert not match.active  # his c3, played for him, ended it
    moves = await world.bot.repo.moves(match_id)
    assert (moves[-1].seat, moves[-1].move) == (1, "c3")
    board = board_posts(thread)[-1]
    assert "had one legal move, played at once as they asked: `c3`" in text_of(board)
    assert (await world.bob.slash(world.channel, "autoplay")).response.content.startswith("Autoplay is **on**")
    assert (await world.alice.slash(world.channel, "autoplay")).response.content.startswith("Autoplay is **off**")


async def test_without_asking_she_plays_her_only_move_herself(world):
    thread, match_id = await play_to_the_last_square(world)
    assert (await world.bot.matches.get_match(match_id)).active
    assert "had one legal move" not in text_of(board_posts(thread)[-1])
    off = await world.bob.slash(world.channel, "autoplay", on=False)
    assert "Autoplay is **off**" in off.response.content
