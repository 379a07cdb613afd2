"""Determinised Monte Carlo tree search.

Hidden information is handled by sampling: each of a few determinisations is a full state drawn consistently
with the computer's view (`Game.sample_state`), searched with its own UCT tree; the root statistics of all trees
are added up and the most visited move wins (an "ensemble" of determinised trees). Perfect-information games use
one determinisation, which is the exact state.

Budgets are counted in iterations, never in seconds, so the same view, level and seed always give the same move
whatever the load of the machine.

Values are vectors, one entry per seat, so the same code serves two, three and four players: at each node the
seat to act picks the child that is best for itself (max^n).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable

from .policy import Policy, Values, outcome_values


@dataclass(frozen=True)
class Budget:
    iterations: int  # tree iterations in all, shared among the determinisations
    determinisations: int = 1
    exploration: float = 0.7  # UCT constant; values lie in [0, 1]
    playout_depth: int | None = None  # None: the policy's own


class Node:
    __slots__ = ("seat", "untried", "children", "visits", "totals")

    def __init__(self, num_players: int) -> None:
        self.seat = -1  # who acts here; known once the node is first reached
        self.untried: list[str] | None = None  # candidates not expanded yet, best last (popped first)
        self.children: list[tuple[str, Node]] = []
        self.visits = 0
        self.totals = [0.0] * num_players


def acting_seat(game: Any, state: Any) -> int | None:
    """The seat whose move the tree considers next. During a simultaneous secret setup any order gives the same
    positions, so the lowest seat goes first."""
    seats = game.to_act(state)
    return min(seats) if seats else None


class Search:
    def __init__(self, policy: Policy, num_players: int, budget: Budget, rng: random.Random) -> None:
        self.policy = policy
        self.game = policy.game
        self.num_players = num_players
        self.budget = budget
        self.rng = rng
        self.depth = budget.playout_depth if budget.playout_depth is not None else policy.playout_depth

    def run(self, sample: Callable[[random.Random], Any], seat: int, root_moves: list[str]) -> str:
        """The most visited root move over all determinisations. `root_moves` are the same in every sample: the
        computer's own legal moves never depend on what it cannot see."""
        visits: dict[str, int] = {move: 0 for move in root_moves}
        wins: dict[str, float] = {move: 0.0 for move in root_moves}
        trees = self.budget.determinisations
        for index in range(trees):
            state = sample(self.rng)
            root = Node(self.num_players)
            root.seat = seat
            root.untried = list(reversed(root_moves))
            share = self.budget.iterations // trees + (1 if index < self.budget.iterations % trees else 0)
            for _ in range(share):
                self._iterate(root, state)
            for move, child in root.children:
                visits[move] += child.visits
                wins[move] += child.totals[seat]
        return max(root_moves, key=lambda m: (visits[m], wins[m] / visits[m] if visits[m] else 0.0))

    def _iterate(self, root: Node, state: Any) -> None:
        game, policy = self.game, self.policy
        node, path = root, [root]
        while True:
            if node.untried is None:
                seat = acting_seat(game, state)
                if seat is None:
                    break
                node.seat = seat
                node.untried = list(reversed(policy.candidates(state, seat, self.rng, policy.max_candidates)))
            if node.untried:
                move = node.untried.pop()
                state, _ = game.apply(state, node.seat, move)
                child = Node(self.num_players)
                node.children.append((move, child))
                path.append(child)
                break
            if not node.children:  # a finished game
                break
            parent = node
            move, node = self._select(parent)
            state, _ = game.apply(state, parent.seat, move)
            path.append(node)
        values = self._playout(state)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i, v in enumerate(values):
                totals[i] += v

    def _select(self, node: Node) -> tuple[str, Node]:
        seat, c = node.seat, self.budget.exploration
        log_n = math.log(node.visits)
        best, best_score = node.children[0], -1.0
        for move, child in node.children:
            score = child.totals[seat] / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = (move, child), score
        return best

    def _playout(self, state: Any) -> Values:
        game, policy, rng = self.game, self.policy, self.rng
        steps = 0
        while self.depth is None or steps < self.depth:
            seat = acting_seat(game, state)
            if seat is None:
                break
            state, _ = game.apply(state, seat, policy.playout_move(state, seat, rng))
            steps += 1
        done = outcome_values(game, state, self.num_players)
        return done if done is not None else policy.evaluate(state, self.num_players)


def greedy(policy: Policy, state: Any, seat: int, moves: list[str], num_players: int, rng: random.Random,
           noise: float) -> str:
    """One ply of look-ahead with some noise: the weak level, which sees what a move does but not the reply."""
    best, best_score = moves[0], -1.0
    for move in moves:
        after, _ = policy.game.apply(state, seat, move)
        values = outcome_values(policy.game, after, num_players) or policy.evaluate(after, num_players)
        score = values[seat] + noise * rng.random()
        if score > best_score:
            best, best_score = move, score
    return best
