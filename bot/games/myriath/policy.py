"""Myriath: points.

The score is the whole game, and a placement's points show at once, so candidates are ordered by what they score
for the mover against what they hand to the others, and playouts are greedy among a few random placements
instead of uniformly random (random placements waste the edges that score).
"""

from __future__ import annotations

import random
from typing import Any

from bot.ai.policy import Policy, Values, leader_values


def _gain(before: tuple[int, ...], after: tuple[int, ...], seat: int) -> int:
    """Half points the mover gains minus the most any other seat gains from the same placement."""
    others = [after[s] - before[s] for s in range(len(before)) if s != seat]
    return (after[seat] - before[seat]) - (max(others) if others else 0)


class MyriathPolicy(Policy):
    playout_depth = 6
    max_candidates = 20
    root_pool = 400
    easy_candidates = 80
    normal_iterations = 150
    hard_iterations = 520
    # Work per move (units of about one engine call), from this game's slowest positions (benchmarks/computer.py).
    easy_work = 800
    normal_work = 8000
    hard_work = 32000
    playout_choices = 4  # placements compared at each playout ply

    def iterations(self, level: str, num_players: int) -> int:
        # With three or four players a tree spreads its visits over two or three opponents' replies, so the
        # normal level searches more with more seats (4 players: twice the iterations and work; at 150 and 8000
        # it used a median of 179 ms of its 500 ms budget there, and finished first in 56% of games, not 60%).
        count = super().iterations(level, num_players)
        return count * num_players // 2 if level == "normal" else count

    def work(self, level: str, num_players: int) -> float:
        limit = super().work(level, num_players)
        return limit * num_players / 2 if level == "normal" else limit

    def call_cost(self, state: Any) -> float:
        # Move generation and scoring look at the tiles already placed: a full board costs several times an
        # empty one.
        return 1.0 + 0.05 * len(state.tiles)

    def evaluate(self, state: Any, num_players: int) -> Values:
        # Scores are kept in half points; a point is worth about as much as a tile's typical gain.
        return leader_values(state.scores, 0.3)

    def candidates(self, state: Any, seat: int, rng: random.Random, limit: int) -> list[str]:
        moves = self.game.legal_moves(state, seat)
        if len(moves) > limit:
            moves = rng.sample(moves, limit)
        scored, unscored = [], []
        for index, move in enumerate(moves):
            if self.meter.exhausted:  # out of work: the rest follow unjudged, in their random order
                unscored = moves[index:]
                break
            after, _ = self.game.apply(state, seat, move)
            scored.append((-_gain(state.scores, after.scores, seat), rng.random(), move))
        scored.sort()
        return [move for *_, move in scored] + list(unscored)

    def playout_move(self, state: Any, seat: int, rng: random.Random) -> str:
        moves = self.game.legal_moves(state, seat)
        if len(moves) <= 1:
            return moves[0]
        best, best_gain = moves[0], None
        for move in rng.sample(moves, min(self.playout_choices, len(moves))):
            after, _ = self.game.apply(state, seat, move)
            gain = _gain(state.scores, after.scores, seat)
            if best_gain is None or gain > best_gain:
                best, best_gain = move, gain
        return best
