"""Myrmidons: losses, the Commander and the race to the far rank.

Four losses or the Commander lose the game and a piece that survives a turn on the enemy home rank wins it, so
the evaluation counts losses, the Commander's life and how far each side's most advanced piece has come. The
values it reads are those of the sampled state: the opponent's are guesses drawn from what the view allows.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.myrmidons import board as rules

from .policy import Policy, Values, leader_values, ranked

_RANK_OF = tuple(sq // rules.FILES for sq in range(rules.CELLS))
_LAST = rules.RANKS - 1


def _type_worth(code: str) -> float:
    """Draft preference: sword takes pieces, movement reaches the far rank; a thick shield only holds."""
    sword, shield, move = (int(x) for x in code.split("/"))
    return 1.0 * sword + 0.8 * move + 0.6 * shield


class MyrmidonsPolicy(Policy):
    playout_depth = 10
    max_candidates = 30
    determinisations = 4
    normal_iterations = 220
    hard_iterations = 850

    def evaluate(self, state: Any, num_players: int) -> Values:
        score = [0.0, 0.0]
        for seat in (0, 1):
            furthest = 0
            alive = 0
            for i in range(seat * rules.PER_SEAT, (seat + 1) * rules.PER_SEAT):
                sq = state.squares[i]
                if sq == rules.EMPTY:
                    continue
                alive += 1
                rank = _RANK_OF[sq]
                furthest = max(furthest, rank if seat == 0 else _LAST - rank)
            commander = state.commander(seat)
            has_commander = commander != rules.EMPTY and state.squares[commander] != rules.EMPTY
            score[seat] = 1.0 * alive + 2.0 * has_commander + 0.25 * furthest + (2.0 if furthest == _LAST else 0.0)
        return leader_values(score, 0.7)

    def candidates(self, state: Any, seat: int, rng: random.Random, limit: int) -> list[str]:
        moves = self.game.legal_moves(state, seat)
        if moves and moves[0].startswith("army "):
            return ranked(moves, lambda m: sum(_type_worth(c) for c in m[5:].split(",")), limit, rng)
        if len(moves) > limit:
            return rng.sample(moves, limit)
        return moves

