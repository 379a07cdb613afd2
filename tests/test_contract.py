"""Invariants every engine must keep, checked on seeded random complete games of every registered game."""

from __future__ import annotations

import json

import pytest

from bot.games import IllegalMoveError, MoveSyntaxError, is_visible
from bot.games.registry import GAMES
from bot.engine.playout import random_plies

REQUIRED_VIEW_KEYS = {"game", "num_players", "viewer", "to_act", "last_move", "ply", "outcome"}

CASES = [
    (key, n, seed)
    for key, game in GAMES.items()
    for n in range(game.info.min_players, game.info.max_players + 1)
    for seed in range(2)
]


def test_every_game_has_metadata():
    for key, game in GAMES.items():
        info = game.info
        assert info.key == key
        assert 2 <= info.min_players <= info.max_players <= 4
        assert info.summary and info.title
        for spec in info.options:
            assert spec.description
            if spec.choices and not spec.per_seat:
                assert spec.default in spec.choices


@pytest.mark.parametrize("key,num_players,seed", CASES)
def test_random_game_keeps_the_contract(key, num_players, seed):
    game = GAMES[key]
    plies = 0
    state = None
    for ply in random_plies(game, num_players, seed, max_plies=3000):
        plies += 1
        state = ply.state
        before = json.dumps(game.dump(state), sort_keys=True)
        acting = game.to_act(state)
        assert game.outcome(state) is None
        assert ply.seat in acting and ply.moves, "a seat to act must have a move"
        assert len(set(ply.moves)) == len(ply.moves), "legal_moves lists each move once"
        # dump/load round-trips and a loaded state behaves the same
        data = json.loads(before)
        assert json.dumps(game.dump(game.load(data)), sort_keys=True) == before
        for viewer in [None, *range(num_players)]:
            view = game.view(state, viewer)
            json.dumps(view)
            assert REQUIRED_VIEW_KEYS <= view.keys()
            assert view["viewer"] == viewer
        # a seat that may not act has no moves, and its moves are refused
        for other in range(num_players):
            if other not in acting:
                assert game.legal_moves(state, other) == []
        new_state, events = game.apply(state, ply.seat, ply.move)
        json.dumps(events)
        for ev in events:
            assert "type" in ev and "visible_to" in ev
        # apply is pure
        assert json.dumps(game.dump(state), sort_keys=True) == before
        state = new_state
    assert state is not None
    final = game.apply(ply.state, ply.seat, ply.move)[0]
    outcome = game.outcome(final)
    assert outcome is not None, f"{key} did not end within 3000 plies"
    assert game.to_act(final) == []
    assert all(0 <= w < num_players for w in outcome.winners)
    assert game.view(final, None)["outcome"] == outcome.to_json()
    for seat in range(num_players):
        assert game.legal_moves(final, seat) == []
        with pytest.raises(IllegalMoveError):
            game.apply(final, seat, ply.move)


@pytest.mark.parametrize("key", list(GAMES))
def test_garbage_is_a_syntax_error_and_changes_nothing(key):
    game = GAMES[key]
    state = game.new_state(game.info.min_players, 3, None)
    before = json.dumps(game.dump(state), sort_keys=True)
    seat = game.to_act(state)[0]
    for text in ["", "   ", "hello", "zz99-zz100", "💥", "a1-"]:
        with pytest.raises((MoveSyntaxError, IllegalMoveError)) as info:
            game.apply(state, seat, text)
        assert str(info.value)
    assert json.dumps(game.dump(state), sort_keys=True) == before


@pytest.mark.parametrize("key", list(GAMES))
def test_wrong_seat_is_refused(key):
    game = GAMES[key]
    state = game.new_state(game.info.min_players, 5, None)
    while True:  # past a simultaneous secret setup, where every seat acts, to a position where one seat waits
        acting = game.to_act(state)
        others = [s for s in range(game.info.min_players) if s not in acting]
        if others:
            break
        state, _ = game.apply(state, acting[0], game.legal_moves(state, acting[0])[0])
    move = game.legal_moves(state, acting[0])[0]
    with pytest.raises(IllegalMoveError):
        game.apply(state, others[0], move)


@pytest.mark.parametrize("key", list(GAMES))
def test_picker_reaches_only_legal_moves(key):
    game = GAMES[key]
    for ply in random_plies(game, game.info.min_players, 11, max_plies=12):
        legal = set(ply.moves)
        path: list[str] = []
        step = game.choices(ply.state, ply.seat, path)
        # walk the first option at every step until a complete move is reached
        for _ in range(40):
            if step.move is not None:
                assert step.move in legal
                if not step.options:
                    break
            assert step.options, "a picker step without a move must offer options"
            path.append(step.options[0].value)
            step = game.choices(ply.state, ply.seat, path)
        assert step.move in legal


def test_visibility_helper():
    assert is_visible({"visible_to": None}, None)
    assert is_visible({"visible_to": [1]}, 1)
    assert not is_visible({"visible_to": [1]}, 0)
    assert not is_visible({"visible_to": [1]}, None)


def test_autocomplete_keeps_a_trailing_space():
    game = GAMES["epaminondas"]
    state = game.new_state(2, 0)
    assert game.matching_moves(state, 0, "b1-b") and all(m.startswith("b1-b") for m in game.matching_moves(state, 0, "b1-b"))
    assert game.matching_moves(state, 0, "b1-b3 ") == []  # nothing continues after a complete move
    assert game.matching_moves(state, 0, "  b1-b3") == ["b1-b3"]
