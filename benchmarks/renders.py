"""Renderer benchmark: how long it takes to turn a view into PNG bytes, over positions from seeded random games.

    python -m benchmarks.renders                     # every game with a renderer and an engine, every player count
    python -m benchmarks.renders archimedes --games 20

Prints a Markdown table for docs/performance.md. The budget (docs/design.md, Performance) is a render median of at most
1.2x the time of a PNG encode of a flat image of the same size; the "flat encode" column measures that reference
here, on this machine, so the two can be compared under the same load.

Views alternate between the public view and each seat's private view, so every orientation is measured.
"cold" is the first render in a fresh process (a subprocess per run: it loads the fonts and builds the cached
board layer and sprites), the median of a few such processes. Every other column is with warm
caches: the median and 99th percentile of the whole render, the median CPU time of this process for it (steadier
than the wall clock when other processes share the cores), its split into drawing and encoding, and the PNG
size.
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from bot.games.registry import GAMES, get_game, renderer_of
from renderers.common import BACKGROUND, _text_stamp, fit_text, text_width
from renderers.png import encode_png

from .stats import percentile
from .views import sampled_views

ROOT = Path(__file__).resolve().parent.parent  # where `python -m benchmarks.renders` is run from
RENDERERS = {key: renderer_of(key) for key in GAMES}


def player_counts(key: str) -> range:
    info = get_game(key).info
    return range(info.min_players, info.max_players + 1)


def views_for(key: str, players: int, games: int, every: int) -> list[dict]:
    """Every `every`-th position of `games` seeded random games, plus each game's final position."""
    return sampled_views(key, players, games, every, finals=True)


def _ms(seconds: float) -> float:
    return seconds * 1000


def cold_once(key: str, players: int) -> float:
    """Milliseconds of the first render of this process (run in a fresh one: see cold_render)."""
    view = views_for(key, players, games=1, every=10**9)[0]  # the start position, built before the clock starts
    t0 = time.perf_counter()
    RENDERERS[key].render(view)
    return _ms(time.perf_counter() - t0)


def cold_render(key: str, players: int, runs: int) -> float:
    """Median over `runs` fresh processes of the very first render: nothing cached, nothing imported lazily yet."""
    code = f"from benchmarks.renders import cold_once; print(cold_once({key!r}, {players}))"
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
        times.append(float(out.stdout.strip()))
    return statistics.median(times)


def flat_encode(size: tuple[int, int], repeat: int = 60) -> float:
    """Median milliseconds to encode a flat RGB image of this size as PNG (zlib level 1): the budget's yardstick."""
    img = Image.new("RGB", size, BACKGROUND)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        img.save(io.BytesIO(), format="PNG", compress_level=1)
        times.append(time.perf_counter() - t0)
    return _ms(statistics.median(times))


@dataclass
class Result:
    key: str
    players: int
    size: str
    views: int
    renders: int
    median: float
    p99: float
    cpu: float
    draw: float
    encode: float
    kib: float
    max_kib: float
    flat: float
    cold: float


def bench_game(key: str, players: int, games: int, every: int, samples: int, cold_runs: int) -> Result:
    module = RENDERERS[key]
    compose = getattr(module, "compose", module.draw)  # what render() encodes: a palette picture, or RGB to map
    views = views_for(key, players, games, every)
    for view in views[: len(views) // 4 + 1]:
        module.render(view)  # warm the caches (a layer per orientation, the sprites) before measuring
    total, drawing, encoding, cpu, sizes = [], [], [], [], []
    while len(total) < samples or not sizes:
        # Each pass starts without cached text, as a new match would: within a pass consecutive views come from
        # the same game, so names and counts repeat as they do in a real match and the move line does not.
        for cached in (_text_stamp, text_width, fit_text):
            cached.cache_clear()
        for view in views:
            c0, t0 = time.process_time(), time.perf_counter()
            img = compose(view)
            t1 = time.perf_counter()
            png = encode_png(img)
            t2, c2 = time.perf_counter(), time.process_time()
            cpu.append(c2 - c0)
            drawing.append(t1 - t0)
            encoding.append(t2 - t1)
            total.append(t2 - t0)
            if len(sizes) < len(views):
                sizes.append(len(png))
    return Result(
        key=key,
        players=players,
        size="×".join(map(str, img.size)),
        views=len(views),
        renders=len(total),
        median=_ms(statistics.median(total)),
        p99=_ms(percentile(total, 99)),
        cpu=_ms(statistics.median(cpu)),
        draw=_ms(statistics.median(drawing)),
        encode=_ms(statistics.median(encoding)),
        kib=statistics.median(sizes) / 1024,
        max_kib=max(sizes) / 1024,
        flat=flat_encode(img.size),
        cold=cold_render(key, players, cold_runs),
    )


HEADER = (
    "| game | players | image | renders | render median | p99 | CPU median | draw | encode | PNG size (max) "
    "| flat encode | cold first |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def row(r: Result) -> str:
    return (
        f"| {r.key} | {r.players} | {r.size} | {r.renders} | {r.median:.1f} ms | {r.p99:.1f} ms | {r.cpu:.1f} ms "
        f"| {r.draw:.1f} ms | {r.encode:.1f} ms | {r.kib:.0f} KiB ({r.max_kib:.0f}) | {r.flat:.1f} ms "
        f"| {r.cold:.0f} ms |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.renders")
    parser.add_argument("games", nargs="*", default=[k for k in RENDERERS if k in GAMES])
    parser.add_argument("--games", dest="count", type=int, default=6, help="random games per game and player count")
    parser.add_argument("--every", type=int, default=4, help="sample every N-th position")
    parser.add_argument("--samples", type=int, default=600, help="warm renders at least (views are cycled)")
    parser.add_argument("--cold-runs", type=int, default=5, help="fresh processes for the cold first render")
    args = parser.parse_args(argv)
    print(HEADER)
    for key in args.games:
        for players in player_counts(key):
            print(row(bench_game(key, players, args.count, args.every, args.samples, args.cold_runs)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
