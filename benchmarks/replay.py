"""Replay GIF benchmark: the replay of a seeded random two-player match, its size and how long it took to build.

    python -m benchmarks.replay epaminondas 24                  # prints one line
    python -m benchmarks.replay epaminondas 24 --out replay.gif # also keeps the GIF, to look at it
"""

from __future__ import annotations

import argparse
import time

from bot.engine.playout import random_plies
from bot.games.record import replay_moves
from bot.games.registry import GAMES, get_game, renderer_of
from renderers.replay import build_replay_gif


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.replay")
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("seed", type=int)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    game = get_game(args.game)
    moves = [(ply.seat, ply.move) for ply in random_plies(game, 2, args.seed)]
    views = replay_moves(game, 2, args.seed, None, moves).views()
    started = time.perf_counter()
    report = build_replay_gif(views, ["Alice", "Bob"], renderer=renderer_of(args.game))
    took = time.perf_counter() - started
    print(f"{args.game} seed {args.seed}: {len(moves)} moves, {report.frames} frames "
          f"({report.moves_shown}/{report.moves_total} positions), {report.size[0]}x{report.size[1]} "
          f"(scale {report.scale:.2f}), {len(report.data) / 1e6:.2f} MB, {took:.1f} s, {report.attempts} attempt(s)")
    if args.out:
        with open(args.out, "wb") as file:
            file.write(report.data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
