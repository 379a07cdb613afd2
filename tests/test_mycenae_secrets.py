"""Mycenae leaks nothing: two games that differ only in one player's secret cargo, played through the same public
moves, look the same to everybody else at every ply (views, legal moves, picker, autocomplete, events, outcome).

The public moves are drawn at random among the moves legal in both games, leaving out only the moves that reveal
the secret by the rules themselves: destroying a knight of the secret player (its cargo is shown) or capturing her
king (her knights are then taken over or removed, and their cargo is shown).
"""

from __future__ import annotations

import random

import pytest

from bot.games import is_visible
from bot.games.mycenae import GAME as G
from bot.games.mycenae import HORSE, KING, ORTHO, Burn, PieceMove, parse_move
from bot.presenters.describe import alt_text, text_board

WALKS: dict[tuple, tuple] = {}  # (n, armies, secret, seed, plies) -> (a, b, event types met), per process


def reveals_the_secret(state, move: str, secret: int) -> bool:
    m = parse_move(move)
    board = state.board
    if isinstance(m, Burn):
        hit = [m.knight, *ORTHO[m.knight]]
        return any(board[sq] >> 3 == secret and board[sq] & 7 == HORSE for sq in hit if board[sq])
    if isinstance(m, PieceMove) and m.capture:
        victim = board[m.target]
        return victim >> 3 == secret and victim & 7 in (HORSE, KING)
    return False


def pick(rng: random.Random, moves: set[str]) -> str:
    """A kind of move first (piece move, load, unload, burn, answer), then a move of that kind: unloads are
    thousands, the rest would hardly ever be drawn."""
    kinds: dict[str, list[str]] = {}
    for move in moves:
        kinds.setdefault(move.split(" ")[0] if " " in move or move.isalpha() else "move", []).append(move)
    kind = rng.choice(sorted(kinds))
    return rng.choice(sorted(kinds[kind]))


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
    for seat in others:
        assert G.legal_moves(a, seat) == G.legal_moves(b, seat)
        assert G.choices(a, seat) == G.choices(b, seat)
        assert G.matching_moves(a, seat, "") == G.matching_moves(b, seat, "")


def twin_walk(n: int, armies: list[str], secret: int, seed: int, plies: int):
    """The two games at the end of the walk, remembered with the kinds of public event met on the way."""
    key = (n, tuple(armies), secret, seed, plies)
    if key not in WALKS:
        WALKS[key] = _walk(n, armies, secret, seed, plies)
    return WALKS[key][:2]


def _walk(n: int, armies: list[str], secret: int, seed: int, plies: int):
    seen: set[str] = set()
    rng = random.Random(seed)
    a = b = G.new_state(n, seed, {"armies": armies})
    others = [s for s in range(n) if s != secret]
    # the secret player spreads her cargo differently in the two games; everybody else the same way
    spreads = G.legal_moves(a, secret)
    cargo_a, cargo_b = rng.sample(spreads, 2)
    for seat in G.to_act(a):
        if seat == secret:
            a, events_a = G.apply(a, seat, cargo_a)
            b, events_b = G.apply(b, seat, cargo_b)
        else:
            move = rng.choice(G.legal_moves(a, seat))
            (a, events_a), (b, events_b) = G.apply(a, seat, move), G.apply(b, seat, move)
        for viewer in [None, *others]:
            assert [e for e in events_a if is_visible(e, viewer)] == [e for e in events_b if is_visible(e, viewer)]
        assert_same_for_others(a, b, others)
    for _ in range(plies):
        if G.outcome(a) is not None:
            break
        seat = G.to_act(a)[0]
        common = set(G.legal_moves(a, seat)) & set(G.legal_moves(b, seat))
        common = {m for m in common if not reveals_the_secret(a, m, secret)}
        if not common:
            break
        move = pick(rng, common)
        (a, events_a), (b, events_b) = G.apply(a, seat, move), G.apply(b, seat, move)
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
