"""Who plays whom, and in which seat.

Round robins (two players) orient every pair so each player has each side equally often, ±1. Tables of three or
four cover every pair of players at least once with as few tables as a greedy cover finds, keeping each player's
number of tables within one of the others' and rotating seats. Swiss pairs within score groups, never the same
opponents twice, gives the odd player out a bye (at most one each) and balances seats.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Sequence


@dataclass(frozen=True)
class Pairing:
    """One table: `players` in seat order (seat 0 first). A bye is a table of one."""

    players: tuple[int, ...]

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1


def round_robin(players: Sequence[int]) -> list[Pairing]:
    """Every pair once. Pair (i, j) is oriented by the rotation of an odd-sized tournament: in a field of m = n
    (n odd) or n + 1 players, i sits first when (j - i) mod m is in 1..(m-1)/2. Each player then sits first in
    exactly (m-1)/2 of m-1 games; with n even the missing player takes one game from each, so ±1."""
    n = len(players)
    m = n if n % 2 else n + 1
    tables = []
    for i, j in itertools.combinations(range(n), 2):
        first, second = (i, j) if (j - i) % m <= (m - 1) // 2 else (j, i)
        tables.append(Pairing((players[first], players[second])))
    return _interleave(tables)


def _interleave(tables: list[Pairing]) -> list[Pairing]:
    """The same tables in an order where each player's games are spread out (a list reads better that way)."""
    rest, ordered = list(tables), []
    while rest:
        busy: set[int] = set()
        for table in list(rest):
            if busy.isdisjoint(table.players):
                ordered.append(table)
                busy.update(table.players)
                rest.remove(table)
    return ordered


def table_round_robin(players: Sequence[int], size: int) -> list[Pairing]:
    """Tables of `size` (3 or 4) so that every pair of players shares at least one table; each player's count of
    tables within one of everyone else's (as equal as the numbers allow); seats rotated so each player sits in
    each seat as evenly as a greedy choice manages."""
    n = len(players)
    if n < size:
        raise ValueError(f"{n} players cannot fill a table of {size}")
    uncovered = {frozenset(p) for p in itertools.combinations(range(n), 2)}
    count = [0] * n
    groups: list[tuple[int, ...]] = []
    while uncovered:
        groups.append(_best_table(n, size, uncovered, count))
        for pair in itertools.combinations(groups[-1], 2):
            uncovered.discard(frozenset(pair))
        for p in groups[-1]:
            count[p] += 1
    # Even out the number of tables: the players with fewest get one more together.
    for _ in range(n):
        if max(count) - min(count) <= 1:
            break
        fewest = tuple(sorted(range(n), key=lambda p: (count[p], p))[:size])
        groups.append(fewest)
        for p in fewest:
            count[p] += 1
    orders = _rotate_seats(groups, n, size)
    tables = [Pairing(tuple(players[p] for p in order)) for order in orders]
    return _interleave(tables)


def _rotate_seats(groups: list[tuple[int, ...]], n: int, size: int) -> list[tuple[int, ...]]:
    """A seat order per table so each player uses each seat as evenly as possible: greedy first, then passes
    that re-seat one table at a time while that lowers the sum of squared seat counts."""
    use = [[0] * size for _ in range(n)]

    def cost(order: tuple[int, ...]) -> int:
        return sum(use[p][s] ** 2 for s, p in enumerate(order))

    def place(order: tuple[int, ...], step: int) -> None:
        for s, p in enumerate(order):
            use[p][s] += step

    orders = []
    for group in groups:
        best = min(itertools.permutations(group), key=lambda perm: (cost(perm), perm))
        place(best, 1)
        orders.append(best)
    for _ in range(20):
        improved = False
        for i, order in enumerate(orders):
            place(order, -1)
            best = min(itertools.permutations(order), key=lambda perm: (cost(perm), perm))
            if cost(best) < cost(order):
                orders[i], improved = best, True
            place(orders[i], 1)
        if not improved:
            break
    return orders


def _best_table(n: int, size: int, uncovered: set[frozenset[int]], count: list[int]) -> tuple[int, ...]:
    """Greedy: start from the least-used player of an uncovered pair, add whoever covers most new pairs (ties:
    fewest tables so far)."""
    start = min(uncovered, key=lambda pair: (sum(count[p] for p in pair), sorted(pair)))
    table = sorted(start)
    while len(table) < size:
        candidates = [p for p in range(n) if p not in table]
        table.append(max(candidates, key=lambda p: (sum(frozenset((p, q)) in uncovered for q in table),
                                                    -count[p], -p)))
    return tuple(sorted(table))


def divisions(players_by_rating: Sequence[int], size: int) -> list[list[int]]:
    """Split players (strongest first) into the fewest divisions of at most `size`, as equal as possible, the
    strongest in division 1."""
    n = len(players_by_rating)
    if n == 0:
        return []
    count = math.ceil(n / size)
    base, extra = divmod(n, count)
    result, start = [], 0
    for d in range(count):
        length = base + (1 if d < extra else 0)
        result.append(list(players_by_rating[start:start + length]))
        start += length
    return result


def default_swiss_rounds(n: int) -> int:
    """⌈log2 n⌉ + 1, but never more than a field of n can play without a repeat."""
    return min(math.ceil(math.log2(max(n, 2))) + 1, max_swiss_rounds(n))


def max_swiss_rounds(n: int) -> int:
    """A field of n can play n - 1 rounds without a repeat (n with byes when n is odd)."""
    return max(1, n - 1 if n % 2 == 0 else n)


@dataclass
class SwissPlayer:
    id: int
    score: int  # in the standings' units (bot.leagues.standings.POINT per win)
    rating: float
    opponents: set[int] = field(default_factory=set)
    firsts: int = 0  # games in seat 0
    seconds: int = 0  # games in seat 1
    had_bye: bool = False

    @property
    def seat_balance(self) -> int:
        return self.firsts - self.seconds


class NoPairing(Exception):
    """No pairing of this round avoids a repeat: the Swiss is over."""


MAX_STEPS = 200_000  # a search this long means no repeat-free round exists in practice


def swiss_round(players: Sequence[SwissPlayer]) -> list[Pairing]:
    """One Swiss round: players ranked by score then rating; top-down, each takes the best-ranked opponent she
    has not met (her own score group first, then the next), backtracking when the rest cannot be paired. With an
    odd field the lowest-ranked player without a bye sits out (a bye). Raises NoPairing when no round without a
    repeat exists."""
    ranked = sorted(players, key=lambda p: (-p.score, -p.rating, p.id))
    steps = [0]
    bye_candidates: list[SwissPlayer | None] = [None]
    if len(ranked) % 2:
        bye_candidates = [p for p in reversed(ranked) if not p.had_bye]
    for bye in bye_candidates:
        field_ = [p for p in ranked if p is not bye]
        pairs = _pair(field_, steps)
        if pairs is not None:
            tables = [Pairing(_seated(a, b)) for a, b in pairs]
            return tables + ([Pairing((bye.id,))] if bye is not None else [])
    raise NoPairing()


def _pair(field_: list[SwissPlayer], steps: list[int]) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    if not field_:
        return []
    steps[0] += 1
    if steps[0] > MAX_STEPS:
        return None
    top, rest = field_[0], field_[1:]
    # Same score first (rest is ranked); within it, an opponent wanting the other seat first. Two players who
    # have both sat on the same side twice more often meet only when nothing else pairs.
    options = [(i, p) for i, p in enumerate(rest) if p.id not in top.opponents]
    options.sort(key=lambda ip: (_same_wish(top, ip[1]) == 2, -ip[1].score, _same_wish(top, ip[1]), ip[0]))
    for i, opponent in options:
        remaining = rest[:i] + rest[i + 1:]
        tail = _pair(remaining, steps)
        if tail is not None:
            return [(top, opponent)] + tail
        if steps[0] > MAX_STEPS:
            return None
    return None


def _same_wish(a: SwissPlayer, b: SwissPlayer) -> int:
    """0: no clash; 1: both want the same seat; 2: both want it badly (each has sat there twice more often)."""
    if a.seat_balance * b.seat_balance <= 0:
        return 0
    return 2 if min(abs(a.seat_balance), abs(b.seat_balance)) >= 2 else 1


def _seated(a: SwissPlayer, b: SwissPlayer) -> tuple[int, int]:
    """Whoever has sat first less often sits first; equal: the higher ranked (a) sits first on an even score
    total, second otherwise, so the top boards alternate."""
    if a.seat_balance != b.seat_balance:
        return (a.id, b.id) if a.seat_balance < b.seat_balance else (b.id, a.id)
    if a.firsts + a.seconds == 0 or (a.firsts + a.seconds) % 2 == 0:
        return (a.id, b.id)
    return (b.id, a.id)
