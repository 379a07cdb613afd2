"""Engine benchmark: median `legal_moves`, `apply` and first picker step over positions from random games.

    python -m bot.games.bench                 # every game, every player count
    python -m bot.games.bench mycenae --games 20

Prints a Markdown table for the README. Times are per call, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

from . import GAMES, get_game
from .playout import random_plies


def _median_ms(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):  # the best of a few runs filters out scheduler noise on a shared machine
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def bench_game(key: str, num_players: int, games: int, sample_every: int) -> dict[str, float]:
    game = get_game(key)
    legal, apply, first_step = [], [], []
    positions = 0
    for seed in range(games):
        for i, ply in enumerate(random_plies(game, num_players, seed)):
            if i % sample_every:
                continue
            positions += 1
            legal.append(_median_ms(lambda: game.legal_moves(ply.state, ply.seat)))
            apply.append(_median_ms(lambda: game.apply(ply.state, ply.seat, ply.move)))
            first_step.append(_median_ms(lambda: game.choices(ply.state, ply.seat, ())))
    return {
        "positions": positions,
        "legal_moves": statistics.median(legal),
        "legal_moves_max": max(legal),
        "apply": statistics.median(apply),
        "first_step": statistics.median(first_step),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.games.bench")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--games", dest="count", type=int, default=8, help="random games per game and size")
    parser.add_argument("--every", type=int, default=3, help="sample every N-th position")
    args = parser.parse_args(argv)
    print("| game | players | positions | legal_moves median | legal_moves max | apply median | picker first step median |")
    print("|---|---|---|---|---|---|---|")
    for key in args.games:
        info = get_game(key).info
        for n in range(info.min_players, info.max_players + 1):
            r = bench_game(key, n, args.count, args.every)
            print(
                f"| {key} | {n} | {r['positions']} | {r['legal_moves']:.2f} ms | {r['legal_moves_max']:.2f} ms "
                f"| {r['apply']:.3f} ms | {r['first_step']:.2f} ms |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
