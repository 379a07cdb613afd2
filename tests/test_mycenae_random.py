"""Mycenae: seeded random complete games for two, three and four players, checked at every ply."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.games import IllegalMoveError
from bot.games.mycenae import GAME as G
from bot.games.mycenae import HORSE, parse_move, position
from bot.engine.playout import final_state, random_plies

ARMIES = {
    2: [None, ["mycenae", "mycenae"], ["plain", "mycenae"]],
    3: [None, ["mycenae"] * 3],
    4: [None, ["mycenae"] * 4, ["plain", "mycenae", "plain", "mycenae"]],
}
CASES = [(n, armies, seed) for n, choices in ARMIES.items() for armies in choices for seed in range(6)]
CASES.append((2, ["mycenae", "mycenae"], 59))  # a random game drawn by the fifty-move rule: rare among the others


def check_position(state, seat, moves, rng):
    # dump/load round-trips through JSON
    data = G.dump(state)
    assert G.dump(G.load(json.loads(json.dumps(data)))) == data
    # notation round-trips and every listed move applies (a sample when the list is huge)
    sample = moves if len(moves) <= 60 else rng.sample(moves, 60)
    for move in sample:
        assert str(parse_move(move)) == move
        G.apply(state, seat, move)
    # nobody else may move; the public view shows no cargo and each player sees only her own knights
    for other in range(state.num_players):
        if other not in G.to_act(state):
            assert G.legal_moves(state, other) == []
        own = {sq for sq, code in enumerate(state.board) if code and code >> 3 == other and code & 7 == HORSE}
        assert set(G.view(state, other)["cargo"]) == {_name(sq) for sq in own}
    assert G.view(state, None)["cargo"] == {}
    # the automatic draws would have fired already
    active = sum(1 for o in state.out if not o)
    assert state.quiet < 50 * active
    assert max(Counter(state.history).values(), default=0) < 3


def _name(sq: int) -> str:
    return "abcdefgh"[sq >> 3] + str((sq & 7) + 1)


@pytest.mark.parametrize("n,armies,seed", CASES)
def test_random_complete_game(n, armies, seed):
    options = {"armies": armies} if armies else None
    rng = random.Random(seed)
    last = None
    for i, ply in enumerate(random_plies(G, n, seed, options, max_plies=3000)):
        last = ply
        assert len(set(ply.moves)) == len(ply.moves)
        if i % 4 == 0 or len(ply.moves) < 3:
            check_position(ply.state, ply.seat, ply.moves, rng)
        if i % 10 == 0:  # a random walk through the picker ends on a listed move
            path, step = [], G.choices(ply.state, ply.seat)
            while step.options and (step.move is None or rng.random() < 0.7):
                path.append(rng.choice(step.options).value)
                step = G.choices(ply.state, ply.seat, path)
            assert step.move in ply.moves
    assert last is not None
    final = G.apply(last.state, last.seat, last.move)[0]
    outcome = G.outcome(final)
    assert outcome is not None, "no end within 3000 plies"
    assert G.to_act(final) == [] and all(G.legal_moves(final, s) == [] for s in range(n))
    with pytest.raises(IllegalMoveError, match="over"):
        G.apply(final, last.seat, last.move)
    if outcome.winners:
        assert len(outcome.winners) == 1 and final.out.count(False) == 1
    else:
        assert outcome.reason in ("threefold repetition",
                                  "fifty-move rule: 50 moves by every player without a capture, burn or pawn move")


def test_random_games_ended_both_ways():
    """The games above reach both kinds of end: some are won, some drawn by the fifty-move rule. Played here
    again, only until both are seen, so the test does not depend on which process ran which game."""
    seen = set()
    for n, armies, seed in CASES:
        outcome = G.outcome(final_state(G, n, seed, {"armies": armies} if armies else None, max_plies=3000))
        seen.add("win" if outcome.winners else outcome.reason.split(":")[0])
        if {"win", "fifty-move rule"} <= seen:
            return
    pytest.fail(f"the random games only ended by: {sorted(seen)}")


def test_every_move_of_a_crowded_position_applies_and_round_trips():
    s = position("""
        . . . . . . . 1K
        . . . . . . . 1P
        . . . . . . . .
        . . . . . . . .
        . . . 0M . . . .
        . . . . . . . .
        . . . . . . . .
        0B . . . . . . .
    """, cargo={"d4": "0K 0R 0B 0P 0P"}, armies=("mycenae", "plain"))
    moves = G.legal_moves(s, 0)
    assert len(moves) == len(set(moves)) > 5000
    for move in moves:
        assert str(parse_move(move)) == move
        G.apply(s, 0, move)
