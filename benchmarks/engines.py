"""Engine benchmark: `legal_moves`, `apply` and the first picker step over positions from seeded random games.

    python -m benchmarks.engines                 # every game, every player count
    python -m benchmarks.engines mycenae --games 20

Prints a Markdown table for docs/performance.md. Times are per call, in milliseconds, in two kinds:

- warm: the best of three calls in a row, as a player clicking through menus meets them (engines remember
  recent move lists, and the scheduler noise of a shared machine is filtered out);
- cold: one call right after the engine forgot every remembered list (`clear_caches`), as the first request
  for a position meets it; shown as median and p99 over all positions, since a cache hides the costly ones.

Mycenae also gets one line for its worst case, a knight carrying all seven pieces with eight empty squares round.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

from bot.engine.base import Game
from bot.engine.playout import random_plies
from bot.games.mycenae import position as mycenae_position
from bot.games.registry import GAMES, get_game

from .stats import percentile

CALLS = ("legal_moves", "apply", "first_step")

FULL_KNIGHT = """
. . . . . . . 1K
. . . . . . . 1P
. . 0P . . . . .
. . . . . . . .
. . . 0M . . . .
. . . . . . . .
. . . . . . . .
0B . . . . . . 1R
"""


def _warm_ms(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def _cold_ms(game: Game, fn: Callable[[], object]) -> float:
    game.clear_caches()
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def bench_game(key: str, num_players: int, games: int, sample_every: int) -> dict[str, float]:
    game = get_game(key)
    warm: dict[str, list[float]] = {name: [] for name in CALLS}
    cold: dict[str, list[float]] = {name: [] for name in CALLS}
    positions = 0
    for seed in range(games):
        for i, ply in enumerate(random_plies(game, num_players, seed)):
            if i % sample_every:
                continue
            positions += 1
            calls = {
                "legal_moves": lambda: game.legal_moves(ply.state, ply.seat),
                "apply": lambda: game.apply(ply.state, ply.seat, ply.move),
                "first_step": lambda: game.choices(ply.state, ply.seat, ()),
            }
            for name, fn in calls.items():
                cold[name].append(_cold_ms(game, fn))
                warm[name].append(_warm_ms(fn))
    result: dict[str, float] = {"positions": positions}
    for name in CALLS:
        result[f"{name}_warm"] = statistics.median(warm[name])
        result[f"{name}_cold"] = statistics.median(cold[name])
        result[f"{name}_cold_p99"] = percentile(cold[name], 99)
        result[f"{name}_cold_max"] = max(cold[name])
    return result


def bench_full_knight(repeat: int = 20) -> dict[str, float]:
    """Mycenae's worst case: listing every unload of a full knight, against what the picker and autocomplete
    need from the same position."""
    mycenae = get_game("mycenae")
    state = mycenae_position(FULL_KNIGHT, 2, 0, cargo={"d4": "0K 0R 0B 0B 0P 0P 0P"})
    steps = (("d4",), ("d4", "unload"), ("d4", "unload", "K"))
    tasks = {
        "legal_moves": lambda: mycenae.legal_moves(state, 0),
        "picker_3_steps": lambda: [mycenae.choices(state, 0, s) for s in steps],
        "autocomplete": lambda: mycenae.matching_moves(state, 0, "unload d4 K@c3 R@"),
    }
    result = {"unloads": sum(m.startswith("unload") for m in mycenae.legal_moves(state, 0))}
    for name, fn in tasks.items():
        result[f"{name}_cold"] = statistics.median(_cold_ms(mycenae, fn) for _ in range(repeat))
        result[f"{name}_warm"] = _warm_ms(fn)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engines")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--games", dest="count", type=int, default=8, help="random games per game and size")
    parser.add_argument("--every", type=int, default=3, help="sample every N-th position")
    args = parser.parse_args(argv)
    print("| game | players | positions | legal_moves median warm / cold | legal_moves cold p99 / max "
          "| apply median warm / cold | apply cold p99 | picker first step median warm / cold | first step cold p99 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key in args.games:
        info = get_game(key).info
        for n in range(info.min_players, info.max_players + 1):
            r = bench_game(key, n, args.count, args.every)
            print(
                f"| {key} | {n} | {r['positions']} "
                f"| {r['legal_moves_warm']:.2f} / {r['legal_moves_cold']:.2f} ms "
                f"| {r['legal_moves_cold_p99']:.2f} / {r['legal_moves_cold_max']:.2f} ms "
                f"| {r['apply_warm']:.3f} / {r['apply_cold']:.3f} ms | {r['apply_cold_p99']:.3f} ms "
                f"| {r['first_step_warm']:.2f} / {r['first_step_cold']:.2f} ms | {r['first_step_cold_p99']:.2f} ms |"
            )
    if "mycenae" in args.games:
        k = bench_full_knight()
        print(
            f"\nMycenae, one full knight ({k['unloads']:,} unloads), median cold / warm: "
            f"legal_moves {k['legal_moves_cold']:.2f} / {k['legal_moves_warm']:.2f} ms, "
            f"picker's first three steps {k['picker_3_steps_cold']:.3f} / {k['picker_3_steps_warm']:.3f} ms, "
            f"autocomplete of a typed unload {k['autocomplete_cold']:.3f} / {k['autocomplete_warm']:.3f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
