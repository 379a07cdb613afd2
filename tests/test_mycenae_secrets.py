"""Mycenae leaks nothing: two games that differ only in one player's secret cargo, played through the same public
moves (mycenae_twins.py), look the same to everybody else at every ply (views, legal moves, picker, autocomplete,
events, outcome)."""

from __future__ import annotations

import pytest
from mycenae_twins import twin_plies

from bot.games import is_visible
from bot.games.mycenae import GAME as G
from bot.games.mycenae import NAMES
from bot.presenters.describe import alt_text, text_board

WALKS: dict[tuple, tuple] = {}  # (n, armies, secret, seed, plies) -> (a, b, event types met), per process


def assert_same_for_others(a, b, others: list[int]):
    assert G.to_act(a) == G.to_act(b)
    assert G.outcome(a) == G.outcome(b)
    names = [f"player {s}" for s in range(a.num_players)]
    for viewer in [None, *others]:
        assert G.view(a, viewer) == G.view(b, viewer), viewer
        # what a screen reader hears of the picture: its alt text and the text board
        view_a, view_b = G.view(a, viewer), G.view(b, viewer)
        assert alt_text("Mycenae", view_a, names, match_id=1) == alt_text("Mycenae", view_b, names, match_id=1)
        assert text_board("Mycenae", view_a, names) == text_board("Mycenae", view_b, names)
    for viewer in [None, *others]:  # an Explore sandbox: the secret player's picker as the explorer gets it
        assert seen_picker(a, secret_of(a, others), viewer) == seen_picker(b, secret_of(a, others), viewer)
    for seat in others:
        assert G.legal_moves(a, seat) == G.legal_moves(b, seat)
        assert G.choices(a, seat) == G.choices(b, seat)
        assert G.matching_moves(a, seat, "") == G.matching_moves(b, seat, "")


def secret_of(state, others: list[int]) -> int:
    return next(s for s in range(state.num_players) if s not in others)


def seen_picker(state, seat: int, viewer) -> list:
    """Every step of `seat`'s picker through her knights and what they carry, as `viewer` is offered it."""
    steps, paths = [], [()]
    while paths:
        path = paths.pop()
        choices = G.choices_seen_by(state, seat, path, viewer)
        steps.append((path, choices))
        if len(path) < 4 and (not path or path[0] in knights_of(state, seat)):
            paths += [(*path, o.value) for o in choices.options if len(path) != 3 or o.value == choices.options[0].value]
    return steps


def knights_of(state, seat: int) -> set[str]:
    return {NAMES[sq] for sq in state.sealed if state.board[sq] >> 3 == seat}


def twin_walk(n: int, armies: list[str], secret: int, seed: int, plies: int):
    """The two games at the end of the walk, remembered with the kinds of public event met on the way."""
    key = (n, tuple(armies), secret, seed, plies)
    if key not in WALKS:
        WALKS[key] = _walk(n, armies, secret, seed, plies)
    return WALKS[key][:2]


def _walk(n: int, armies: list[str], secret: int, seed: int, plies: int):
    seen: set[str] = set()
    others = [s for s in range(n) if s != secret]
    a = b = None
    for ply, (a, b, events_a, events_b) in enumerate(twin_plies(n, armies, secret, seed, plies)):
        if ply >= n:  # after the set-up: a public move
            seen.update(e["type"] for e in events_a)
        for viewer in [None, *others]:
            assert [e for e in events_a if is_visible(e, viewer)] == [e for e in events_b if is_visible(e, viewer)]
        assert_same_for_others(a, b, others)
    return a, b, seen


TWO = [(0, 1), (0, 2), (1, 3), (1, 8)]
FOUR = [(0, 4), (2, 5), (3, 6), (1, 9)]
THREE = [(["mycenae", "plain", "plain"], 7), (["mycenae", "plain", "mycenae"], 10)]


@pytest.mark.parametrize("secret,seed", TWO)
def test_two_players_cannot_tell_the_cargo_apart(secret, seed):
    a, b = twin_walk(2, ["mycenae", "mycenae"], secret, seed, plies=150)
    assert G.view(a, secret)["cargo"] != G.view(b, secret)["cargo"] or G.outcome(a) is not None
    if G.outcome(a) is None:  # her own text board does tell them apart: it lists her knights' cargo
        names = ["alice", "bob"]
        assert text_board("Mycenae", G.view(a, secret), names) != text_board("Mycenae", G.view(b, secret), names)


@pytest.mark.parametrize("secret,seed", FOUR)
def test_four_players_cannot_tell_the_cargo_apart(secret, seed):
    twin_walk(4, ["mycenae"] * 4, secret, seed, plies=200)


@pytest.mark.parametrize("armies,seed", THREE)
def test_three_players_cannot_tell_the_cargo_apart(armies, seed):
    twin_walk(3, armies, 0, seed, plies=200)


def test_the_walks_exercised_every_public_action():
    """Every kind of public move happens in the walks above. Walks another test process made are walked again."""
    for secret, seed in TWO:
        twin_walk(2, ["mycenae", "mycenae"], secret, seed, plies=150)
    for secret, seed in FOUR:
        twin_walk(4, ["mycenae"] * 4, secret, seed, plies=200)
    for armies, seed in THREE:
        twin_walk(3, armies, 0, seed, plies=200)
    seen = set().union(*(kinds for _, _, kinds in WALKS.values()))
    for kind in ("move", "capture", "load", "unload", "burn", "request", "consent", "refuse"):
        assert kind in seen, kind


def test_public_view_never_carries_cargo_or_its_count():
    s = G.new_state(2, 0, {"armies": ["mycenae", "mycenae"]})
    s = G.apply(s, 0, "cargo b2:K,R,B,B,P,P,P")[0]
    s = G.apply(s, 1, "cargo g7:K,P e7:R,B f8:B,P,P")[0]
    public = G.view(s, None)
    assert public["cargo"] == {} and all(v == [] for v in public["known_cargo"].values())
    assert G.view(s, 1)["cargo"].keys() == {"g7", "e7", "f8"}
    assert "b2" not in G.view(s, 1)["cargo"]
