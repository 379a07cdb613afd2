"""Myrmidons: seeded random complete games, checked for invariants and for leaks of hidden values at every ply."""

from __future__ import annotations

import json
import re

import pytest

from bot.games import IllegalMoveError, is_visible
from bot.games.myrmidons import GAME, parse_move
from bot.games.myrmidons.board import EMPTY, PER_SEAT, owner_of
from bot.engine.playout import random_plies

CONFIGS = [
    ({"army": "standard"}, range(8)),
    ({"army": "draft"}, range(6)),
    ({"army": "random"}, range(6)),
    ({"army": "standard", "memory": "on"}, range(6)),
    ({"army": "draft", "memory": "on"}, range(4)),
]
CASES = [(options, seed) for options, seeds in CONFIGS for seed in seeds]
VALUE_KEYS = ("sword", "shield", "move", "code", "name", "commander")
CODE = re.compile(r"\b\d/\d/\d\b")


def play_out(options, seed):
    """Every (state, seat, move, events, new_state) of one random game."""
    plies = []
    for ply in random_plies(GAME, 2, seed, options, max_plies=3000):
        new, events = GAME.apply(ply.state, ply.seat, ply.move)
        plies.append((ply.state, ply.seat, ply.move, events, new, ply.moves))
    return plies


def fought(events) -> set[str]:
    """Ids of the pieces some fight has shown to everyone."""
    return {f[side]["id"] for f in events if f["type"] == "fight" for side in ("attacker", "defender")}


def truth(state) -> dict[str, object]:
    return {p.id: p.kind for p in state.pieces if p is not None}


def piece_dicts(obj):
    if isinstance(obj, dict):
        if isinstance(obj.get("id"), str) and any(k in obj for k in VALUE_KEYS):
            yield obj
        for value in obj.values():
            yield from piece_dicts(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from piece_dicts(value)


def assert_no_leak(obj, viewer, state, known: set[str], context: str):
    """Every piece value in `obj` belongs to a piece the viewer owns or a fight has shown, and is the true one.
    In a draft, no type code of an army the viewer may not know appears anywhere, even outside a piece."""
    kinds = truth(state)
    for data in piece_dicts(obj):
        kind = kinds[data["id"]]
        shown = [k for k in VALUE_KEYS if data.get(k) is not None]
        if not shown:
            continue
        owner = "SN".index(data["id"][0])
        assert owner == viewer or data["id"] in known, f"{context}: {data['id']} leaked to {viewer}: {data}"
        assert (data.get("sword", kind.sword), data.get("shield", kind.shield), data.get("move", kind.move)) == (
            kind.sword, kind.shield, kind.move,
        ), context
        if "code" in data:
            assert data["code"] == kind.code, context
    if state.army_option == "draft":
        allowed = {kinds[i].code for i in known if i in kinds}
        if viewer is not None and state.armies[viewer] is not None:
            allowed |= set(state.armies[viewer])
        codes = set(CODE.findall(json.dumps(obj)))
        assert codes <= allowed, f"{context}: army codes {codes - allowed} leaked to {viewer}"


@pytest.mark.parametrize("options,seed", CASES)
def test_random_game_hides_every_unrevealed_value(options, seed):
    known: set[str] = set()
    for state, seat, move, events, new, _ in play_out(options, seed):
        known |= fought(e for e in events if is_visible(e, None))
        for viewer in (None, 0, 1):
            view = GAME.view(new, viewer)
            assert_no_leak(view, viewer, new, known, f"ply {new.ply} view of {viewer}")
            visible = [e for e in events if is_visible(e, viewer)]
            assert_no_leak(visible, viewer, new, known, f"ply {new.ply} events for {viewer}")
        for ev in events:
            if ev["type"] in ("army", "deploy"):
                assert ev["visible_to"] == [seat]
        assert GAME.is_private_move(move) == state.in_setup()


@pytest.mark.parametrize("options,seed", CASES)
def test_random_game_keeps_its_invariants(options, seed):
    plies = play_out(options, seed)
    memory = options.get("memory") == "on"
    shown: set[str] = set()
    for state, seat, move, events, new, moves in plies:
        assert parse_move(move) and str(parse_move(move)) == move
        if not state.in_setup() and state.ply % 4 == 0:
            for other in moves:  # every listed move round-trips and applies
                assert str(parse_move(other)) == other
                GAME.apply(state, seat, other)
        shown |= fought(events)
        for index, sq in enumerate(new.squares):
            if sq != EMPTY:
                assert new.board[sq] == index
        assert sum(1 for i in new.board if i != EMPTY) == sum(1 for sq in new.squares if sq != EMPTY)
        assert all(new.losses(s) <= 4 for s in (0, 1))
        for index, piece in enumerate(new.pieces):
            if piece is not None:
                assert piece.owner == owner_of(index) and piece.number == index % PER_SEAT + 1
                assert new.revealed[index] == (not memory and piece.id in shown)
        if new.outcome is None and not state.in_setup():
            assert GAME.to_act(new) == [1 - seat]
            assert all(new.squares[new.commander(s)] != EMPTY for s in (0, 1))
    final = plies[-1][4]
    assert final.outcome is not None and plies[-1][3][-1]["type"] == "win"
    assert len(plies) < 400


@pytest.mark.parametrize("options", [{"army": "standard"}, {"army": "draft"}, {"army": "random"}])
def test_random_games_start_with_a_secret_simultaneous_setup(options):
    plies = play_out(options, 3)
    setup = [p for p in plies if p[0].in_setup()]
    assert len(setup) == (4 if options["army"] == "draft" else 2)
    assert GAME.to_act(setup[0][0]) == [0, 1]
    assert all(GAME.is_private_move(p[2]) for p in setup)
    assert not any(GAME.is_private_move(p[2]) for p in plies[len(setup):])
    for state, *_ in setup:
        assert GAME.view(state, None)["first_player"] is None


# --- indistinguishability --------------------------------------------------------------------------------------


def _swap_unfought(plies, seat):
    """The game's deployment for `seat` with the types of two never-fought non-Commander pieces swapped."""
    everyone_saw = fought(e for *_, events, _, _ in plies for e in events)
    deploy = next(move for state, s, move, *_ in plies if s == seat and move.startswith("deploy"))
    codes = list(parse_move(deploy).codes)
    letter = "SN"[seat]
    hidden = [i for i, c in enumerate(codes) if c != "C" and f"{letter}{i + 1}" not in everyone_saw]
    for a in hidden:
        for b in hidden:
            if a < b:
                swapped = codes[:]
                swapped[a], swapped[b] = swapped[b], swapped[a]
                yield deploy, "deploy " + ",".join(swapped)


def _replay(options, seed, moves, replace_move):
    state = GAME.new_state(2, seed, options)
    trail = []
    for seat, move in moves:
        move = replace_move.get((seat, move), move)
        state, events = GAME.apply(state, seat, move)
        trail.append((state, events))
    return trail


@pytest.mark.parametrize("options", [{"army": "standard"}, {"army": "random", "memory": "on"}])
def test_games_that_differ_only_in_hidden_values_look_the_same(options):
    """Swap two pieces no fight ever showed: if the same moves stay legal, every public view and event, and the
    opponent's own view, are identical at every ply — nothing public depends on a hidden value."""
    compared = 0
    for seed in range(30):
        plies = play_out(options, seed)
        moves = [(seat, move) for _, seat, move, *_ in plies]
        for seat in (0, 1):
            for original, swapped in _swap_unfought(plies, seat):
                try:
                    a = _replay(options, seed, moves, {})
                    b = _replay(options, seed, moves, {(seat, original): swapped})
                except IllegalMoveError:
                    continue  # a swapped piece could not make one of the moves: not comparable
                assert a[-1][0].pieces != b[-1][0].pieces
                for (sa, ea), (sb, eb) in zip(a, b):
                    for viewer in (None, 1 - seat):
                        assert GAME.view(sa, viewer) == GAME.view(sb, viewer)
                        assert [e for e in ea if is_visible(e, viewer)] == [e for e in eb if is_visible(e, viewer)]
                    assert GAME.legal_moves(sa, 1 - seat) == GAME.legal_moves(sb, 1 - seat)
                compared += 1
        if compared >= 6:
            break
    assert compared >= 3
