"""Renderer benchmark: median time to turn a view into PNG bytes, over positions from seeded random games.

    python -m renderers.bench                     # every game with a renderer and an engine
    python -m renderers.bench archimedes --games 20

Prints a Markdown table for the README (budget, design.md: <= 50 ms median per game). Views alternate between the
public view and each seat's private view, so both orientations are measured. "cold" is the very first render of
a game in the process (it builds the cached board layer and sprites); every other column is with warm caches.
"""

from __future__ import annotations

import argparse
import statistics
import time

from . import RENDERERS
from .common import encode_png


def _views(key: str, games: int, every: int) -> list[dict]:
    from bot.games import get_game  # the engines produce the views; imported here so `import renderers` stays light
    from bot.games.playout import final_state, random_plies

    game = get_game(key)
    viewers = [None, *range(game.info.min_players)]
    views = []
    for seed in range(games):
        for i, ply in enumerate(random_plies(game, game.info.min_players, seed)):
            if i % every == 0:
                views.append(game.view(ply.state, viewers[len(views) % len(viewers)]))
        views.append(game.view(final_state(game, game.info.min_players, seed), None))
    return views


def _ms(seconds: float) -> float:
    return seconds * 1000


def bench_game(key: str, games: int, every: int) -> dict[str, float]:
    module = RENDERERS[key]
    views = _views(key, games, every)
    t0 = time.perf_counter()
    module.render(views[0])
    cold = time.perf_counter() - t0
    total, drawing, encoding, sizes = [], [], [], []
    for view in views:
        t0 = time.perf_counter()
        img = module.draw(view)
        t1 = time.perf_counter()
        png = encode_png(img)
        t2 = time.perf_counter()
        drawing.append(t1 - t0)
        encoding.append(t2 - t1)
        total.append(t2 - t0)
        sizes.append(len(png))
    total.sort()
    return {
        "views": len(views),
        "median": _ms(statistics.median(total)),
        "p90": _ms(total[int(len(total) * 0.9)]),
        "max": _ms(total[-1]),
        "draw": _ms(statistics.median(drawing)),
        "encode": _ms(statistics.median(encoding)),
        "kib": statistics.median(sizes) / 1024,
        "cold": _ms(cold),
        "size": "×".join(map(str, img.size)),
    }


def main(argv: list[str] | None = None) -> int:
    from bot.games import GAMES

    parser = argparse.ArgumentParser(prog="python -m renderers.bench")
    parser.add_argument("games", nargs="*", default=[k for k in RENDERERS if k in GAMES])
    parser.add_argument("--games", dest="count", type=int, default=6, help="random games per game")
    parser.add_argument("--every", type=int, default=4, help="sample every N-th position")
    args = parser.parse_args(argv)
    print("| game | image | views | render median | p90 | max | draw median | PNG encode median | PNG size "
          "| cold first |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in args.games:
        r = bench_game(key, args.count, args.every)
        print(
            f"| {key} | {r['size']} | {r['views']} | {r['median']:.1f} ms | {r['p90']:.1f} ms | {r['max']:.1f} ms "
            f"| {r['draw']:.1f} ms | {r['encode']:.1f} ms | {r['kib']:.0f} KiB | {r['cold']:.0f} ms |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
