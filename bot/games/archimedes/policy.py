"""Archimedes: ships afloat and the race to the enemy port.

Destroying ships decides the game (a side short of ships can neither attack nor defend its port), so the
evaluation is mostly the ship count; a ship close to the enemy port is worth a little more, and one standing on
it (a win unless the opponent answers at once) a lot.
"""

from __future__ import annotations

from typing import Any

from bot.games.archimedes import game as rules

from bot.ai.policy import Policy, Values, leader_values, pieces_and_weight

_SIZE = rules.SIZE


def _distance(a: int, b: int) -> int:
    return max(abs(a % _SIZE - b % _SIZE), abs(a // _SIZE - b // _SIZE))


_CLOSENESS = tuple(tuple(7 - _distance(sq, rules.PORTS[1 - seat]) for sq in range(rules.CELLS)) for seat in (0, 1))


class ArchimedesPolicy(Policy):
    playout_depth = 8
    max_candidates = 30
    normal_iterations = 1000
    hard_iterations = 3500
    # Work per move (units of about one engine call), from this game's slowest positions (bench.py).
    easy_work = 2200
    normal_work = 22000
    hard_work = 90000

    def evaluate(self, state: Any, num_players: int) -> Values:
        board = state.board
        ships, closeness = pieces_and_weight(board, _CLOSENESS)
        score = [1.0 * ships[s] + 0.02 * closeness[s] for s in (0, 1)]
        for seat in (0, 1):
            if board[rules.PORTS[1 - seat]] == seat + 1:
                score[seat] += 4.0
        return leader_values(score, 0.6)
