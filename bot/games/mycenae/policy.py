"""Mycenae: material, kings, and the few moves that take something.

Capturing a king knocks a player out, so in candidates and in playouts captures come first, ordered by the value
of what they take. Pieces carried inside a Mycenaean knight count at a discount: they are safe from capture but
die with their knight. The cargo the evaluation sees is the sampled one, never the opponents' real cargo.
A load request and its answer (consent or refuse) are searched like any other move, with two players as
with more: a request is worth what the asked seat's best answer leaves it, judged from that seat's view.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.mycenae import board as rules

from bot.ai.policy import Policy, Values, leader_values, ranked

_INDEX = {name: sq for sq, name in enumerate(rules.NAMES)}
_WORTH = {rules.KING: 4.0, rules.ROOK: 5.0, rules.BISHOP: 3.0, rules.KNIGHT: 3.0, rules.PAWN: 1.0, rules.HORSE: 2.0}
_CARRIED_DISCOUNT = 0.8
_OUT = -100.0


def _victim(state: Any, move: str) -> int:
    """The kind of piece a capture takes (0 for other moves)."""
    if "x" not in move or " " in move:
        return 0
    target = move.split("x")[1][:3].rstrip("=")
    return state.board[_INDEX.get(target.split("=")[0], 0)] & 7


class MycenaePolicy(Policy):
    playout_depth = 10
    max_candidates = 30
    root_pool = 400
    determinisations = 16
    # The normal and hard levels guess which knight holds each unseen king by how its owner has moved it
    # (posterior.py); the search's pool holds those knights in the posterior's proportions (`pool_key`).
    infers = True
    normal_iterations = 380
    hard_iterations = 1700
    # Work per move (units of about one engine call), from this game's slowest positions (benchmarks/computer.py).
    easy_work = 900
    normal_work = 9000
    hard_work = 36000

    def pool_key(self, state: Any, seat: int) -> Any:
        """Where the sample puts the other players' kings: the knight each rides in, or None on the board."""
        kings = {code: sq for sq, cargo in state.cargo.items() for code in cargo if code & 7 == rules.KING}
        return tuple(kings.get(rules.piece(other, rules.KING)) for other in range(state.num_players) if other != seat)

    def evaluate(self, state: Any, num_players: int) -> Values:
        score = [0.0] * num_players
        for sq, code in enumerate(state.board):
            if code:
                score[code >> 3] += _WORTH[code & 7]
        for cargo in state.cargo.values():
            for code in cargo:
                score[code >> 3] += _CARRIED_DISCOUNT * _WORTH[code & 7]
        for seat, out in enumerate(state.out):
            if out:
                score[seat] = _OUT
        return leader_values(score, 0.35)

    def _key(self, state: Any, move: str) -> float:
        victim = _victim(state, move)
        if victim:
            return 100.0 if victim == rules.KING else 10.0 + _WORTH[victim]
        if "=" in move:
            return 8.0
        if move.startswith("burn"):
            return 3.0
        return 0.0

    def candidates(self, state: Any, seat: int, rng: random.Random, limit: int) -> list[str]:
        moves = self.game.legal_moves(state, seat)
        if len(moves) > 8 * limit:
            # A loaded knight can have tens of thousands of unloads: rank the few forcing moves and a random
            # sample of the rest instead of every move.
            forcing = [m for m in moves if "x" in m or "=" in m or m.startswith("burn")]
            moves = forcing + rng.sample(moves, 4 * limit)
            moves = list(dict.fromkeys(moves))
        return ranked(moves, lambda m: self._key(state, m), limit, rng)

    def playout_move(self, state: Any, seat: int, rng: random.Random) -> str:
        moves = self.game.legal_moves(state, seat)
        captures = [m for m in moves if "x" in m]
        if captures and rng.random() < 0.7:
            best = max(captures, key=lambda m: (_victim(state, m), rng.random()))
            return best
        return rng.choice(moves)
