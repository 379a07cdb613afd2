"""Explore board steps: the picture of each step, and the engine work of a played move (with the result sampling a
hidden-information game needs). Budget: a step's picture p99 <= 50 ms.

    python -m benchmarks.explore            # every game, two players, a few seeded random games each
"""

from __future__ import annotations

import argparse
import random
import time

from bot.games import registry
from bot.games.registry import get_game, renderer_of
from bot.engine.playout import random_plies
from bot.matches.explore import Sandbox, results_of
from renderers.explore import explore_png

from .stats import percentile

GAMES = tuple(registry.GAMES)  # every game


def bench(key: str, games: int, every: int) -> dict[str, float]:
    game = get_game(key)
    rng = random.Random(7)
    pictures, boards, steps = [], [], []
    # A running bot has built each layer's palette long before (once per layer and process, docs/performance.md):
    # warm every view a step can show (public and each seat's, with and without the "assumed" mark), and time that
    # apart.
    start = game.new_state(2, 0, None)
    t0 = time.perf_counter()
    for viewer in (None, 0, 1):
        for assumed in (False, True):
            explore_png(game.view(start, viewer), ["alice", "bob"], "warm-up", assumed=assumed,
                        renderer=renderer_of(key))
    cold = time.perf_counter() - t0
    for seed in range(games):
        for i, ply in enumerate(random_plies(game, 2, seed)):
            if i % every or game.outcome(ply.state) is not None:
                continue
            viewer = (None, 0, 1)[i % 3]  # public, seat 0, seat 1 in turn
            state = game.sample_state(game.view(ply.state, viewer), rng)
            view = game.view(state, viewer)
            t0 = time.perf_counter()
            explore_png(view, ["alice", "bob"], "EXPLORE · match #17 · 3 moves ahead · not played",
                        assumed=bool(i % 2), renderer=renderer_of(key))
            pictures.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            registry.render(view, player_names=["alice", "bob"])  # the board post's picture, for comparison
            boards.append(time.perf_counter() - t0)
            seat = game.to_act(state)[0]
            move = rng.choice(game.legal_moves(state, seat))
            sandbox = Sandbox("b", 17, 1, viewer, game, ["alice", "bob"], game.info.title, i, False, rng, [state])
            t0 = time.perf_counter()
            results_of(sandbox, seat, move)
            steps.append(time.perf_counter() - t0)
    ms = lambda xs, p: percentile(xs, p) * 1000  # noqa: E731
    return {"n": len(pictures), "cold": cold * 1000, "pic50": ms(pictures, 50), "pic99": ms(pictures, 99),
            "pic_max": max(pictures) * 1000, "board50": ms(boards, 50), "step50": ms(steps, 50), "step99": ms(steps, 99)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--every", type=int, default=3)
    args = parser.parse_args()
    print("| game | positions | step picture median | p99 | max | board post picture median | "
          "move played (engine, sampling) median | p99 | first pictures of a process (6 views) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key in GAMES:
        r = bench(key, args.games, args.every)
        print(f"| {key} | {r['n']} | {r['pic50']:.1f} ms | {r['pic99']:.1f} ms | {r['pic_max']:.1f} ms | "
              f"{r['board50']:.1f} ms | {r['step50']:.2f} ms | {r['step99']:.2f} ms | {r['cold']:.0f} ms |")


if __name__ == "__main__":
    main()
