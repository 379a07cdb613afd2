"""League benchmark: standings of a large division and Swiss pairings of a large field.

    python -m benchmarks.leagues                        # 100-player division, 200-player Swiss
    python -m benchmarks.leagues --division 40 --swiss 64 --runs 5

Standings: a whole round robin of the division (every pair once: 4,950 games for 100 players, a third of them drawn)
through `standings`, points and every tie-break; also a league of 4-player tables. Swiss: a field plays the
default number of rounds (⌈log2 n⌉ + 1) with random results, and each round's pairing is timed. Wall-clock
milliseconds; budgets 50 ms for the standings and 1 s for a Swiss pairing.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import random
import statistics
import time
from typing import Callable, Sequence

from bot.leagues.pairing import SwissPlayer, default_swiss_rounds, swiss_round, table_round_robin
from bot.leagues.standings import POINT, GameResult, standings

STANDINGS_BUDGET_MS = 50.0
SWISS_BUDGET_MS = 1000.0


Times = tuple[list[float], list[float]]  # wall-clock and CPU milliseconds per run


def timed(func: Callable[[], object], runs: int) -> Times:
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        func()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def row(label: str, times: Times, budget: float) -> str:
    """One table row; the verdict is on the wall-clock median (a shared machine's load only makes it worse)."""
    wall, cpu = times
    ordered = sorted(wall)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    verdict = "within" if statistics.median(wall) <= budget else "OVER"
    return (f"| {label} | {len(wall)} | {statistics.median(wall):.1f} ms | {p90:.1f} ms | {max(wall):.1f} ms "
            f"| {statistics.median(cpu):.1f} ms | {verdict} the {budget:.0f} ms budget |")


def round_robin_results(n: int, rng: random.Random) -> list[GameResult]:
    games = []
    for a, b in itertools.combinations(range(n), 2):
        pick = rng.random()
        games.append(GameResult(((a, b),)) if pick < 1 / 3 else GameResult(((a,), (b,)) if pick < 2 / 3 else ((b,), (a,))))
    return games


def table_results(n: int, size: int, rng: random.Random) -> list[GameResult]:
    results = []
    for table in table_round_robin(list(range(n)), size):
        order = list(table.players)
        rng.shuffle(order)
        results.append(GameResult(tuple((p,) for p in order)))
    return results


def swiss_times(n: int, rng: random.Random) -> Times:
    field = [SwissPlayer(i, 0, rng.uniform(1000, 2000)) for i in range(n)]
    by_id = {p.id: p for p in field}
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(default_swiss_rounds(n)):
        tables = []
        round_wall, round_cpu = timed(lambda: tables.append(swiss_round(field)), 1)
        wall += round_wall
        cpu += round_cpu
        tables = tables[0]
        for t in tables:
            if t.is_bye:
                by_id[t.players[0]].had_bye = True
                by_id[t.players[0]].score += POINT
                continue
            a, b = (by_id[i] for i in t.players)
            a.opponents.add(b.id)
            b.opponents.add(a.id)
            a.firsts += 1
            b.seconds += 1
            stronger = a if a.rating + rng.gauss(0, 200) > b.rating else b
            stronger.score += POINT
    return wall, cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--division", type=int, default=100, help="players in the standings' division")
    parser.add_argument("--swiss", type=int, default=200, help="players in the Swiss field")
    parser.add_argument("--runs", type=int, default=30, help="timed standings runs")
    args = parser.parse_args(argv)
    rng = random.Random(1)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print("| what | runs | median | p90 | max | median CPU | budget |")
    print("|---|---|---|---|---|---|---|")
    n = args.division
    players = list(range(n))
    ratings = {p: rng.uniform(1000, 2000) for p in players}
    games = round_robin_results(n, rng)
    print(row(f"standings, {n} players, {len(games):,} games", timed(lambda: standings(players, ratings, games),
                                                                       args.runs), STANDINGS_BUDGET_MS))
    tables = table_results(n, 4, rng)
    print(row(f"standings, {n} players at {len(tables):,} tables of 4",
              timed(lambda: standings(players, ratings, tables), args.runs), STANDINGS_BUDGET_MS))
    times = swiss_times(args.swiss, rng)
    print(row(f"Swiss pairing, {args.swiss} players, each of {len(times[0])} rounds", times, SWISS_BUDGET_MS))
    build = timed(lambda: table_round_robin(list(range(min(n, 40))), 4), 3)
    print(row(f"tables of 4 for {min(n, 40)} players (the largest division)", build, SWISS_BUDGET_MS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
