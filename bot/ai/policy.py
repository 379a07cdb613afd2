"""What the search needs to know about one game: which moves are worth trying, how to play fast in a playout and
how good a position is when the playout stops.

The default knows nothing about any game: every move is a candidate, playouts are uniformly random and a
position is judged only once the game is over. Each game refines it in bot/ai/<game>.py.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any, Callable, Sequence, cast

from bot.engine.base import Game

Values = list[float]
"""One number per seat in [0, 1]: 1 = certainly finishes first, 0 = certainly does not."""


def logistic(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def leader_values(scores: Sequence[float], scale: float) -> Values:
    """Turn per-seat scores into win chances: each seat is judged against its strongest rival, which is what
    finishing first means with two, three or four players."""
    if len(scores) == 1:
        return [1.0]
    values = []
    for seat, mine in enumerate(scores):
        best_other = max(s for other, s in enumerate(scores) if other != seat)
        values.append(logistic(scale * (mine - best_other)))
    return values


def pieces_and_weight(board: Sequence[int], weights: Sequence[Sequence[float]]) -> tuple[list[int], list[float]]:
    """For a two-seat board whose cells hold 0 (empty) or seat + 1: how many pieces each seat has, and the sum of
    `weights[seat][square]` over its pieces."""
    pieces = [0, 0]
    weight: list[float] = [0, 0]
    for sq, cell in enumerate(board):
        if cell:
            seat = cell - 1
            pieces[seat] += 1
            weight[seat] += weights[seat][sq]
    return pieces, weight


def outcome_values(game: Game, state: Any, num_players: int) -> Values | None:
    """Exact values of a finished game (a shared win is worth a share), None while it runs."""
    result = game.outcome(state)
    if result is None:
        return None
    if not result.winners:
        return [1.0 / num_players] * num_players
    share = 1.0 / len(result.winners)
    return [share if seat in result.winners else 0.0 for seat in range(num_players)]


class Meter:
    """The engine work one decision has done, in units of about one `apply`: what bounds a move's time without
    reading a clock (a clock would make the move depend on the machine's load)."""

    __slots__ = ("spent", "limit")

    def __init__(self, limit: float = math.inf) -> None:
        self.spent = 0.0
        self.limit = limit

    def charge(self, units: float) -> None:
        self.spent += units

    @property
    def exhausted(self) -> bool:
        return self.spent >= self.limit


class MeteredGame:
    """A game whose engine calls are charged to a meter; everything else passes through. A list of moves costs
    by its length, since whoever asked for it will read it."""

    def __init__(self, game: Game, meter: Meter, call_cost: Callable[[Any], float], move_cost: float,
                 sample_cost: float) -> None:
        self._game = game
        self.meter = meter
        self._call_cost = call_cost
        self._move_cost = move_cost
        self._sample_cost = sample_cost

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def apply(self, state: Any, seat: int, move: str) -> Any:
        self.meter.spent += self._call_cost(state)
        return self._game.apply(state, seat, move)

    def legal_moves(self, state: Any, seat: int) -> Any:
        moves = self._game.legal_moves(state, seat)
        self.meter.spent += self._call_cost(state) + self._move_cost * len(moves)
        return moves

    def sample_state(self, view: Any, rng: random.Random, **options: Any) -> Any:
        self.meter.spent += self._sample_cost
        return self._game.sample_state(view, rng, **options)


class Policy:
    """Game knowledge for the search. Subclasses override what random play gets wrong in their game."""

    # Playout length before the position is judged by `evaluate`; None plays to the end.
    playout_depth: int | None = None
    # How many moves a tree node considers at most; the rest of a long list is a random sample.
    max_candidates: int = 40
    root_pool: int = 300
    # With hidden information one sample may misjudge a move: if set, the root keeps this many moves by one
    # sample's look-ahead and `refine_root` re-judges them over `root_samples` states of the pool.
    root_shortlist: int | None = None
    root_samples: int = 1
    # The easy level looks one ply ahead over this many candidates, with this much noise on the values.
    easy_candidates: int = 60
    easy_noise: float = 0.15
    # Iterations of the tree search for the other levels, calibrated on this game's speed (benchmarks/computer.py)
    # so that a move stays within 0.5 s (normal) and 2 s (hard) on one core. Subclasses set them.
    normal_iterations: int = 300
    hard_iterations: int = 1200
    # Determinisations for hidden-information games; perfect-information games need one.
    determinisations: int = 1
    # With `pool_key` set, the search's pool is chosen from this many draws per state, so that it holds each value
    # of the key in the proportion the draws do: a pool of 16 drawn plainly may put the hidden thing the decision
    # turns on (which piece is the Commander) where it is twice as often as the guess says.
    pool_oversampling: int = 1
    # With `infers`, the search levels weigh their draws by what the opponents were seen to do (`Game.likelihood`,
    # a posterior over what is hidden): the pool is then chosen among `posterior_oversampling` draws per state,
    # each kept in proportion to its weight. A game with a model of its players' habits sets it; the benchmark's
    # `prior` level turns it off to play as before.
    infers: bool = False
    posterior_oversampling: int = 8
    # UCT exploration constant (values lie in [0, 1]).
    exploration: float = 0.7
    # Work per move, in `Meter` units, calibrated on this game's slowest positions (benchmarks/computer.py) so that
    # no move of a level takes much over its time budget (0.05 s easy, 0.5 s normal, 2 s hard on one core) even where
    # the iteration counts above would.
    easy_work: float = 400.0
    normal_work: float = 6000.0
    hard_work: float = 24000.0
    # What the meter charges, in units of one `apply`: an evaluation, each move of a listed move set, a sampled
    # state.
    evaluation_cost: float = 1.0
    move_cost: float = 0.02
    sample_cost: float = 2.0
    likelihood_cost: float = 0.1

    def __init__(self, game: Game) -> None:
        self.game = game
        self.meter = Meter()

    def prepare(self) -> None:
        """Build now the tables the policy would build on its first decision (see Game.prepare)."""

    def metered(self, limit: float) -> "Policy":
        """A copy of this policy for one decision, whose engine work and evaluations count against `limit`."""
        clone = copy.copy(self)
        clone.meter = Meter(limit)
        # a proxy that answers every Game call, charging the meter
        clone.game = cast(Game, MeteredGame(self.game, clone.meter, self.call_cost, self.move_cost, self.sample_cost))
        return clone

    def iterations(self, level: str, num_players: int) -> int:
        """Tree iterations for the normal or hard level; the meter's work limit still bounds the time."""
        return self.hard_iterations if level == "hard" else self.normal_iterations

    def work(self, level: str, num_players: int) -> float:
        """The meter's work limit for one decision of `level`."""
        return {"easy": self.easy_work, "normal": self.normal_work, "hard": self.hard_work}[level]

    def sample(self, view: Any, rng: random.Random, level: str) -> Any:
        """A full state consistent with `view`, as `level` guesses what the view hides. The default guesses alike
        at every level; a game may give its search levels a better informed guess than its easy level (as with
        `easy_evaluate`, so that sharpening the search does not also strengthen the weak level)."""
        return self.game.sample_state(view, rng)

    def pool_key(self, state: Any, seat: int) -> Any:
        """What the search's pool should hold in the proportions of the guess (None: nothing in particular)."""
        return None

    def likelihood(self, view: Any, state: Any) -> float:
        """The game's posterior weight of a draw (`Game.likelihood`), charged to the meter."""
        self.meter.charge(self.likelihood_cost)
        return self.game.likelihood(view, state)

    def sample_pool(self, view: Any, rng: random.Random, level: str, size: int) -> list[Any]:
        """`size` states consistent with `view` for the search: plain draws, or, with `pool_oversampling`, a
        stratified choice among more draws (`stratified`); where the policy `infers`, a choice among more draws
        weighted by the posterior (`weighted`)."""
        if self.infers and level != "easy":
            draws = [self.sample(view, rng, level) for _ in range(size * self.posterior_oversampling)]
            weights = [self.likelihood(view, state) for state in draws]
            self.posterior_seen(view, draws, weights)
            return weighted(draws, weights, lambda state: self.pool_key(state, view["viewer"]), size, rng)
        if self.pool_oversampling <= 1:
            return [self.sample(view, rng, level) for _ in range(size)]
        draws = [self.sample(view, rng, level) for _ in range(size * self.pool_oversampling)]
        return stratified(draws, lambda state: self.pool_key(state, view["viewer"]), size)

    def posterior_seen(self, view: Any, draws: Sequence[Any], weights: Sequence[float]) -> None:
        """Called with the draws the pool is chosen among and their posterior weights, where the policy `infers`:
        a game may keep what they say for its evaluation (this decision's copy of the policy only). Nothing by
        default."""

    def observation(self, state: Any) -> Any:
        """What every seat saw the last move do beyond the move itself, for a move whose result depends on hidden
        information (which fights it won, and the values they showed), so that the search tells those results
        apart. None, the default, where a move's result follows from the move (perfect information)."""
        return None

    def call_cost(self, state: Any) -> float:
        """What one `apply` or `legal_moves` costs in `state`, in units: one, unless the engine slows down as a
        game fills up."""
        return 1.0

    def judge(self, state: Any, num_players: int) -> Values:
        """`evaluate`, charged to the meter."""
        self.meter.charge(self.evaluation_cost)
        return self.evaluate(state, num_players)

    def candidates(self, state: Any, seat: int, rng: random.Random, limit: int) -> list[str]:
        """The moves a node tries, best first. The default keeps the engine's list, sampled down to `limit`."""
        moves = self.game.legal_moves(state, seat)
        if len(moves) > limit:
            moves = rng.sample(moves, limit)
        else:
            moves = list(moves)
            rng.shuffle(moves)
        return moves

    def root_candidates(self, state: Any, seat: int, rng: random.Random, num_players: int) -> list[str]:
        """The moves the root of the search considers: the best `max_candidates` by one ply of look-ahead over a
        pool of `root_pool` candidates. Done once a move, so it can afford to apply every candidate; inner
        nodes cannot and use the cheaper `candidates`."""
        pool = self.candidates(state, seat, rng, self.root_pool)
        keep = self.root_shortlist or self.max_candidates
        if len(pool) <= keep:
            return pool
        scored: list[tuple[float, int, Any]] = []
        for index, move in enumerate(pool):
            if self.meter.exhausted:  # the rest keep the order `candidates` gave them, after the judged ones
                scored.extend((1.0, i, m) for i, m in enumerate(pool[index:], index))
                break
            after, _ = self.game.apply(state, seat, move)
            values = outcome_values(self.game, after, num_players) or self.judge(after, num_players)
            scored.append((-values[seat], index, move))
        scored.sort()
        return [move for _, _, move in scored[:keep]]

    def refine_root(self, pool: Sequence[Any], seat: int, moves: list[str], num_players: int) -> list[str]:
        """The best `max_candidates` of the root's `moves` by one ply of look-ahead averaged over the first
        `root_samples` states of the search's pool (the seat's own moves are legal in every one of them)."""
        if len(moves) <= self.max_candidates:
            return moves
        scored: list[tuple[float, int, Any]] = []
        for index, move in enumerate(moves):
            if self.meter.exhausted:
                scored.extend((1.0, i, m) for i, m in enumerate(moves[index:], index))
                break
            total = 0.0
            for state in pool[: self.root_samples]:
                after, _ = self.game.apply(state, seat, move)
                values = outcome_values(self.game, after, num_players) or self.judge(after, num_players)
                total += values[seat]
            scored.append((-total, index, move))
        scored.sort()
        return [move for _, _, move in scored[: self.max_candidates]]

    def settled_move(self, state: Any, seat: int, moves: list[str], rng: random.Random) -> str | None:
        """A move decided without search where the search has nothing to judge by (None: search). Used by the
        search levels only."""
        return None

    def playout_move(self, state: Any, seat: int, rng: random.Random) -> str:
        return rng.choice(self.game.legal_moves(state, seat))

    def evaluate(self, state: Any, num_players: int) -> Values:
        """Chances of each seat in a running game. The default has no opinion."""
        return [1.0 / num_players] * num_players

    def easy_evaluate(self, state: Any, num_players: int) -> Values:
        """What the easy level judges its one ply of look-ahead by: the same evaluation unless a game keeps a
        plainer one there, so that sharpening the search's judgement does not also strengthen the weak level."""
        return self.evaluate(state, num_players)


def stratified(draws: Sequence[Any], key: Callable[[Any], Any], size: int) -> list[Any]:
    """`size` of `draws`, holding each value of `key` in the proportion `draws` do (rounded by largest
    remainder), in the order they were drawn: the first of each value's draws are kept."""
    groups: dict[Any, list[int]] = {}
    for index, draw in enumerate(draws):
        groups.setdefault(key(draw), []).append(index)
    share = {value: size * len(members) / len(draws) for value, members in groups.items()}
    quota = {value: int(s) for value, s in share.items()}
    # Groups in order of first draw, so that ties in the remainders are broken the same way every time.
    by_remainder = sorted(groups, key=lambda value: (-(share[value] - quota[value]), groups[value][0]))
    for value in by_remainder[: size - sum(quota.values())]:
        quota[value] += 1
    kept = sorted(index for value, members in groups.items() for index in members[: quota[value]])
    return [draws[index] for index in kept]


def weighted(draws: Sequence[Any], weights: Sequence[float], key: Callable[[Any], Any], size: int,
             rng: random.Random) -> list[Any]:
    """`size` of `draws` (importance sampling: draws from the guess, `weights` the posterior's over the guess's),
    holding each value of `key` in proportion to its draws' total weight (largest remainder), and within a value
    its draws chosen by weight (Efraimidis and Spirakis), repeated if a value's share outnumbers its draws. In the
    order they were drawn, so that the pool's first states are as random as plain draws."""
    total = sum(weights)
    if not total > 0.0:  # every weight underflowed: nothing to prefer
        weights, total = [1.0] * len(draws), float(len(draws))
    groups: dict[Any, list[int]] = {}
    for index, draw in enumerate(draws):
        groups.setdefault(key(draw), []).append(index)
    share = {value: size * sum(weights[i] for i in members) / total for value, members in groups.items()}
    quota = {value: int(s) for value, s in share.items()}
    by_remainder = sorted(groups, key=lambda value: (-(share[value] - quota[value]), groups[value][0]))
    for value in by_remainder[: size - sum(quota.values())]:
        quota[value] += 1
    kept: list[int] = []
    for value, members in groups.items():
        if not quota[value]:
            continue
        order = sorted(members, key=lambda i: -rng.random() ** (1.0 / weights[i]) if weights[i] > 0 else 1.0)
        kept += [order[n % len(order)] for n in range(quota[value])]
    return [draws[index] for index in sorted(kept)]


def ranked(moves: Sequence[str], key: Callable[[str], float], limit: int, rng: random.Random, explore: float = 0.25
           ) -> list[str]:
    """The `limit` best moves by a cheap `key`, best first, with a share of random others mixed in: a bad key then
    hides a good move from some nodes only, not from the whole search."""
    if len(moves) <= limit:
        return sorted(moves, key=lambda m: -key(m))
    wild = int(limit * explore)
    order = sorted(moves, key=lambda m: (-key(m), rng.random()))
    chosen = order[: limit - wild]
    rest = order[limit - wild:]
    chosen += rng.sample(rest, min(wild, len(rest)))
    return chosen
