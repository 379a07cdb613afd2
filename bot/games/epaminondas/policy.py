"""Epaminondas: material, advance and crossings.

Random playouts in Epaminondas wander for hundreds of plies and say little, so playouts are short and then the
position is judged: pieces count most, a piece on the enemy home row (a crossing, which wins unless answered)
counts a lot, and so does advancing, since crossings decide most games.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.epaminondas import game as rules

from bot.ai.policy import Policy, Values, leader_values, pieces_and_weight, ranked

_RANK_OF = tuple(sq // rules.FILES for sq in range(rules.CELLS))
_LAST = rules.RANKS - 1
_ADVANCE = (_RANK_OF, tuple(_LAST - rank for rank in _RANK_OF))  # by seat: ranks gone forward from home


def _rank(square: str) -> int:
    return int(square[1:]) - 1


class EpaminondasPolicy(Policy):
    playout_depth = 6
    max_candidates = 24
    normal_iterations = 450
    hard_iterations = 1800
    # Work per move (units of about one engine call), from this game's slowest positions (bench.py).
    easy_work = 1500
    normal_work = 15000
    hard_work = 60000

    def evaluate(self, state: Any, num_players: int) -> Values:
        board = state.board
        count, advance = pieces_and_weight(board, _ADVANCE)
        across = rules.crossings(board)
        score = [1.0 * count[s] + 0.06 * advance[s] + 3.0 * across[s] for s in (0, 1)]
        return leader_values(score, 0.35)

    def candidates(self, state: Any, seat: int, rng: random.Random, limit: int) -> list[str]:
        forward = 1 if seat == 0 else -1

        def key(move: str) -> float:
            capture = "x" in move
            tail, dest = move.replace("x", "-").split("-")
            gain = forward * (_rank(dest) - _rank(tail))
            return (10.0 if capture else 0.0) + gain

        return ranked(self.game.legal_moves(state, seat), key, limit, rng)

    def playout_move(self, state: Any, seat: int, rng: random.Random) -> str:
        # Captures are what random play misses most: take one when there is one, half of the time.
        moves = self.game.legal_moves(state, seat)
        if rng.random() < 0.5:
            captures = [m for m in moves if "x" in m]
            if captures:
                return rng.choice(captures)
        return rng.choice(moves)
