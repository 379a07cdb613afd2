"""Standings: points per game, then the tie-breaks in order — Sonneborn-Berger, the games between the tied
players, wins, rating.

Points are kept in integer units (POINT = one win) so ties compare exactly: a two-player game scores 1 / ½ / 0; a
table of three or four scores by place, a player earning one point per player she finished ahead of and half a
point per player she shared a place with, divided by the number of opponents (so first alone is 1, last alone 0,
and shared places share points). A bye scores a win.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

POINT = 12  # units per point: divisible by 2·1, 2·2 and 2·3, so halves at tables of 2–4 stay integers


@dataclass(frozen=True)
class GameResult:
    """A finished game: `places` are groups of player ids, best first (a shared place is one group). A bye is
    one player alone with `bye=True`."""

    places: tuple[tuple[int, ...], ...]
    bye: bool = False

    @property
    def players(self) -> list[int]:
        return [p for group in self.places for p in group]


@dataclass(frozen=True)
class Standing:
    rank: int  # 1-based; players equal on every tie-break share a rank
    player: int
    points: int  # in POINT units
    sonneborn_berger: int  # in POINT² units: Σ over games and opponents of (what she scored against them × their points)
    between_tied: int  # points against the players tied with her on points and Sonneborn-Berger, in POINT units
    wins: int
    games: int
    rating: float


def points_text(units: int) -> str:
    """'3', '2½', '1⅓'… for a score in POINT units."""
    whole, rest = divmod(units, POINT)
    fraction = {0: "", 3: "¼", 4: "⅓", 6: "½", 8: "⅔", 9: "¾"}.get(rest)
    if fraction is None:
        return f"{units / POINT:.2f}"
    return f"{whole}{fraction}" if whole or not fraction else fraction


def _edges(result: GameResult) -> list[tuple[int, int, int]]:
    """(a, b, what a scored against b) for every ordered pair at the table: 1 above, ½ shared, 0 below, divided
    by the number of her opponents, so her sum over the table is her points for the game (POINT units)."""
    places = result.places
    if len(places) == 2 and len(places[0]) == len(places[1]) == 1:  # the common case: a two-player win
        (a,), (b,) = places
        return [(a, b, POINT), (b, a, 0)]
    if len(places) == 1 and len(places[0]) == 2:  # a two-player draw
        a, b = places[0]
        return [(a, b, POINT // 2), (b, a, POINT // 2)]
    players = result.players
    share = POINT // (len(players) - 1)
    place = {p: i for i, group in enumerate(places) for p in group}
    return [(a, b, share if place[a] < place[b] else share // 2 if place[a] == place[b] else 0)
            for a in players for b in players if a != b]


def standings(players: Sequence[int], ratings: dict[int, float], games: Iterable[GameResult]) -> list[Standing]:
    """The table, best first. `players` are everyone in the league or division (a player without games scores 0);
    games of players not listed are ignored."""
    listed = set(players)
    points = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    edges: list[tuple[int, int, int]] = []
    for game in games:
        if not all(p in listed for group in game.places for p in group):
            continue
        if game.bye:
            (p,) = game.players
            points[p] += POINT
            wins[p] += 1
            played[p] += 1
            continue
        edges += _edges(game)
        first = game.places[0]
        if len(first) == 1:
            wins[first[0]] += 1
        for group in game.places:
            for p in group:
                played[p] += 1
    for a, _, u in edges:
        points[a] += u
    sb = dict.fromkeys(players, 0)
    for a, b, u in edges:
        sb[a] += u * points[b]
    # Games between the tied: within each group equal on points and Sonneborn-Berger.
    groups: dict[tuple[int, int], set[int]] = {}
    for p in players:
        groups.setdefault((points[p], sb[p]), set()).add(p)
    between = dict.fromkeys(players, 0)
    if any(len(group) > 1 for group in groups.values()):
        for a, b, u in edges:
            tied = groups[(points[a], sb[a])]
            if len(tied) > 1 and b in tied:
                between[a] += u
    key_of = {p: (-points[p], -sb[p], -between[p], -wins[p], -ratings.get(p, 0.0)) for p in players}
    order = sorted(players, key=lambda p: (key_of[p], p))
    table, rank = [], 0
    for i, p in enumerate(order):
        if i == 0 or key_of[p] != key_of[order[i - 1]]:
            rank = i + 1
        table.append(Standing(rank, p, points[p], sb[p], between[p], wins[p], played[p], ratings.get(p, 0.0)))
    return table
