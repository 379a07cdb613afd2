"""Information-set Monte Carlo tree search over a pool of determinisations.

Hidden information is handled by sampling: a pool of full states is drawn consistently with the computer's view
(`Game.sample_state`), and each iteration of one shared tree plays in the next state of the pool (single-observer
information-set MCTS). A move that only wins when a guess is right (attacking the piece one sample calls the
Commander) is thereby judged over all the guesses at once, instead of winning the one tree where the guess holds,
as separate trees per sample would let it. A game may have its pool chosen among more draws, so that it holds
what its decisions turn on (in Myrmidons, which piece is the Commander) in the proportions of the guess
(`Policy.sample_pool`): 16 plain draws can be far off them. A node's moves can differ between samples (an
opponent's hidden movement decides its moves), so a child is only chosen among the moves legal in the current
sample, and its exploration term counts the visits in which it was available. A move whose result depends on what
was hidden (an attack on a face-down piece wins or is repelled) leads to one node per result everyone saw
(`Policy.observation`): the reply to a repelled attack is chosen knowing it was repelled, as the player would, not
judged over the samples where it won as well. Perfect-information games have a pool of one, the exact state, and
no observations, which makes this plain UCT.

Budgets are counted in iterations and in units of engine work (a `Meter`), never in seconds, so the same view,
level and seed always give the same move whatever the load of the machine, and a position whose moves cost more
(thousands of draft armies, a long list of unloads) gets fewer iterations instead of a slower move.

Values are vectors, one entry per seat, so the same code serves two, three and four players: at each node the
seat to act picks the child that is best for itself (max^n).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from .policy import Policy, Values, outcome_values


@dataclass(frozen=True)
class Budget:
    iterations: int  # tree iterations at most
    determinisations: int = 1  # size of the pool of sampled states
    exploration: float = 0.7  # UCT constant; values lie in [0, 1]


class Node:
    __slots__ = ("children", "candidates", "visits", "available", "totals", "outcomes")

    def __init__(self, num_players: int) -> None:
        self.children: dict[str, Node] = {}
        self.candidates: dict[int, list[str]] = {}  # per sample of the pool: the moves tried here, best first
        self.visits = 0
        self.available = 0  # visits of the parent in which this move was legal
        self.totals = [0.0] * num_players
        # For a move whose result everyone sees but nobody could foresee (a fight against a hidden value): the
        # position after it, one per thing seen (`Policy.observation`).
        self.outcomes: dict[Any, Node] = {}


def acting_seat(game: Any, state: Any) -> int | None:
    """The seat whose move the tree considers next. During a simultaneous secret setup any order gives the same
    positions, so the lowest seat goes first."""
    seats = game.to_act(state)
    return min(seats) if seats else None


class Search:
    """Iterations until the budget's count or the policy's meter runs out, whichever comes first."""

    def __init__(self, policy: Policy, num_players: int, budget: Budget, rng: random.Random) -> None:
        self.policy = policy
        self.game = policy.game
        self.num_players = num_players
        self.budget = budget
        self.rng = rng
        self.depth = policy.playout_depth

    def run(self, pool: list[Any], seat: int, root_moves: list[str]) -> str:
        """The most visited of `root_moves`. They are legal in every sample: the computer's own legal moves never
        depend on what it cannot see."""
        root = self._search(pool, seat, root_moves)
        return max(root_moves, key=lambda m: self._rank(root.children.get(m), seat))

    def values(self, pool: list[Any], seat: int, root_moves: list[str]) -> dict[str, tuple[int, float]]:
        """The same search, and for each of `root_moves` its visits and its mean value for `seat` (0 to 1)."""
        root = self._search(pool, seat, root_moves)
        return {move: self._rank(root.children.get(move), seat) for move in root_moves}

    def _search(self, pool: list[Any], seat: int, root_moves: list[str]) -> Node:
        root = Node(self.num_players)
        for index in range(len(pool)):
            root.candidates[index] = root_moves
        meter = self.policy.meter
        for i in range(self.budget.iterations):
            if meter.exhausted:
                break
            index = i % len(pool)
            self._iterate(root, pool[index], index, seat)
        return root

    @staticmethod
    def _rank(child: Node | None, seat: int) -> tuple[int, float]:
        if child is None or not child.visits:
            return (0, 0.0)
        return (child.visits, child.totals[seat] / child.visits)

    def _iterate(self, root: Node, state: Any, index: int, root_seat: int) -> None:
        game, policy = self.game, self.policy
        node, path = root, [root]
        seat: int | None = root_seat
        while seat is not None:
            moves = node.candidates.get(index)
            if moves is None:
                moves = policy.candidates(state, seat, self.rng, policy.max_candidates)
                node.candidates[index] = moves
            if not moves:
                break
            fresh = next((m for m in moves if m not in node.children), None)
            if fresh is not None:
                child = node.children[fresh] = Node(self.num_players)
                for move in moves:  # every move legal in this sample was available on this visit
                    sibling = node.children.get(move)
                    if sibling is not None:
                        sibling.available += 1
                state, _ = game.apply(state, seat, fresh)
                path.append(child)
                break
            move = self._select(node, moves, seat)
            state, _ = game.apply(state, seat, move)
            child = node.children[move]
            path.append(child)
            node = self._beneath(child, state)
            seat = acting_seat(game, state)
        values = self._playout(state)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i, v in enumerate(values):
                totals[i] += v

    def _beneath(self, child: Node, state: Any) -> Node:
        """The node the search goes on from after a move: the move's own node, or, where the policy says what
        everyone saw it do, the one for that observation. Every seat then plays on knowing the result, as in
        the game, instead of one reply being judged over results its player would have told apart (answering an
        attack that was repelled as if it might have won)."""
        seen = self.policy.observation(state)
        if seen is None:
            return child
        below = child.outcomes.get(seen)
        if below is None:
            below = child.outcomes[seen] = Node(self.num_players)
        return below

    def _select(self, node: Node, moves: list[str], seat: int) -> str:
        c = self.budget.exploration
        best, best_score = moves[0], -1.0
        for move in moves:
            child = node.children[move]
            child.available += 1
            score = child.totals[seat] / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = move, score
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
        return done if done is not None else policy.judge(state, self.num_players)


def greedy(policy: Policy, state: Any, seat: int, moves: list[str], num_players: int, rng: random.Random,
           noise: float) -> str:
    """One ply of look-ahead with some noise: the weak level, which sees what a move does but not the reply.
    `moves` come best first; once the policy's meter runs out the rest are not looked at."""
    best, best_score = moves[0], -1.0
    for move in moves:
        if policy.meter.exhausted:
            break
        after, _ = policy.game.apply(state, seat, move)
        policy.meter.charge(policy.evaluation_cost)
        values = outcome_values(policy.game, after, num_players) or policy.easy_evaluate(after, num_players)
        score = values[seat] + noise * rng.random()
        if score > best_score:
            best, best_score = move, score
    return best
