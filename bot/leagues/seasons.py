"""The next season of a repeating round-robin league with divisions: promotion, relegation, new players, merges.

The top `promotion` players of each division but the first go up one division, the bottom `promotion` of each but
the last go down one, counted among the players still in the league at the end of the season (those who left
during it are dropped); a division too small for that moves at most half of its players each way. Players who
do not sign up again are dropped; new sign-ups enter the lowest division, strongest first, and those a full
lowest division cannot take open divisions of their own below it. Then a division left with fewer players than
`least` (two tables' worth) is merged into the one above it (the first division takes in the second).
"""

from __future__ import annotations

from typing import Sequence

from .pairing import divisions as split_divisions


def movers(size: int, promotion: int, *, first: bool, last: bool) -> tuple[int, int]:
    """How many of a division of `size` players go up and down: (up, down). Nobody goes up from the first
    division, nor down from the last."""
    each = min(promotion, size // 2)
    return (0 if first else each), (0 if last else each)


def next_divisions(previous: Sequence[Sequence[int]], players: Sequence[int], *, promotion: int,
                   division_size: int, least: int) -> list[list[int]]:
    """The divisions of the next season, the first first.

    `previous`: each division of the season that ended, its players in final standing order (the best first),
    those who left during it already taken out. `players`: the next season's players, new sign-ups in the order
    they enter (the strongest first)."""
    staying = set(players)
    count = len(previous)
    result: list[list[int]] = [[] for _ in previous]
    for d, ranked in enumerate(previous):
        up, down = movers(len(ranked), promotion, first=d == 0, last=d == count - 1)
        result[d - 1 if up else d] += ranked[:up]
        result[d] += ranked[up:len(ranked) - down]
        result[d + 1 if down else d] += ranked[len(ranked) - down:]
    result = [[p for p in division if p in staying] for division in result]
    known = {p for ranked in previous for p in ranked}
    new = [p for p in players if p not in known]
    if result and new:
        room = max(0, division_size - len(result[-1]))
        result[-1] += new[:room]
        new = new[room:]
    result += split_divisions(new, division_size)
    result = [division for division in result if division]
    while len(result) > 1 and (small := [d for d, division in enumerate(result) if len(division) < least]):
        d = small[-1] if small[-1] > 0 else 1  # the lowest small one joins the one above; the first takes the second
        result[d - 1] += result.pop(d)
    return result
