"""Myrmidons: the Commander, losses, threats and the race to the far rank.

The Commander has shield 1, so any enemy piece that can reach it kills it and ends the game; the evaluation
therefore looks one move ahead for the side to move: reaching the enemy Commander is as good as winning, and
every enemy piece it can beat on reach counts. Four losses lose too, and a piece that survives a turn on the
enemy home rank wins, so losses and the most advanced piece count as well.

Every value the evaluation reads is from the sampled state: the opponent's hidden values (and which of its
pieces is the Commander) are guesses drawn consistently with the view, averaged over several draws.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.myrmidons import board as rules

from .policy import Policy, Values, leader_values, ranked

_RANK_OF = tuple(sq // rules.FILES for sq in range(rules.CELLS))
_INDEX = {name: sq for sq, name in enumerate(rules.NAMES)}
_LAST = rules.RANKS - 1


def _type_worth(code: str) -> float:
    """Draft preference: sword takes pieces, movement reaches the far rank; a thick shield only holds."""
    sword, shield, move = (int(x) for x in code.split("/"))
    return 1.0 * sword + 0.8 * move + 0.6 * shield


def _targets(state: Any, index: int) -> list[int]:
    """Enemy pieces (by index) that the piece `index` can attack with one single move."""
    sq, kind = state.squares[index], state.pieces[index].kind
    owner = index // rules.PER_SEAT
    found = []
    for ray in rules.RAYS[sq]:
        for square in ray[: kind.move]:
            other = state.board[square]
            if other == rules.EMPTY:
                continue
            if other // rules.PER_SEAT != owner:
                found.append(other)
            break
    return found


class MyrmidonsPolicy(Policy):
    playout_depth = 2
    max_candidates = 14
    determinisations = 16
    normal_iterations = 700
    hard_iterations = 2800

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
            score[seat] = 1.0 * alive + 0.25 * furthest + (1.5 if furthest == _LAST else 0.0)
        mover = state.turn
        if mover in (0, 1):
            score[mover] += self._threats(state, mover)
        return leader_values(score, 0.7)

    @staticmethod
    def _threats(state: Any, seat: int) -> float:
        """What the side to move can take next: the Commander wins, other pieces are worth most of a piece."""
        commander = state.commander(1 - seat)
        best = 0.0
        for i in range(seat * rules.PER_SEAT, (seat + 1) * rules.PER_SEAT):
            if state.squares[i] == rules.EMPTY:
                continue
            sword = state.pieces[i].kind.sword
            for target in _targets(state, i):
                if target == commander:
                    return 5.0
                if sword >= state.pieces[target].kind.shield:
                    best = 0.7
        return best

    def candidates(self, state: Any, seat: int, rng: random.Random, limit: int) -> list[str]:
        moves = self.game.legal_moves(state, seat)
        if moves and moves[0].startswith("army "):
            return ranked(moves, lambda m: sum(_type_worth(c) for c in m[5:].split(",")), limit, rng)
        if not moves or " " in moves[0] and not moves[0].startswith("order"):
            return ranked(moves, lambda m: 0.0, limit, rng)  # a deployment: nothing cheap to tell them apart
        commander = state.commander(1 - seat)
        forward = 1 if seat == 0 else -1

        def key(move: str) -> float:
            # Attacks first (on the Commander above all, as far as this sample knows), then advances.
            value = 0.0
            for step in move.split(" ")[2:] if move.startswith("order") else (move,):
                src, dst = (_INDEX[name] for name in step.split("-"))
                target = state.board[dst]
                if target != rules.EMPTY:
                    value += 50.0 if target == commander else 10.0
                value += forward * (_RANK_OF[dst] - _RANK_OF[src]) * 0.5
            return value

        return ranked(moves, key, limit, rng)
