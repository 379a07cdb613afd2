"""Service-layer benchmark: board renders, apply + persist, and the reply latency of many concurrent matches.

    python -m bot.bench                          # 200 concurrent matches × 10 moves (about 30 s on 2 cores)
    python -m bot.bench --matches 50 --moves 5   # smaller
    python -m bot.bench --skip-render --skip-apply --think 2   # players pause 0-4 s between moves

Everything runs against a real SQLite file in a temporary directory, through `MatchService` exactly as the cogs
use it; no Discord. Prints Markdown tables for the README (budgets in design.md: render ≤ 50 ms median, apply +
persist ≤ 10 ms median). Times are wall-clock milliseconds.

- render: `renderers.render(view, player_names=...)` over public and private views from seeded random games.
- apply + persist: `MatchService.submit_move` one move at a time (engine apply, version-guarded write, reload).
- concurrent: every match has its own asyncio task that picks a random legal move, then measures receive → reply
  ready = `submit_move` + caption + public board PNG rendered in a worker thread, as `bot/views/board.py`
  (`post_board`) does before it can answer. All tasks share one event loop, one connection and the default
  thread pool, so the latency includes queueing behind every other match. By default nobody pauses between
  moves (a burst: every match wants an answer at once); `--think S` adds a random pause of 0..2S seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import math
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import renderers
from bot.games import GAMES, get_game
from bot.games.playout import random_plies
from bot.matches import errors
from bot.matches.events import MovePlayed
from bot.matches.service import MatchService
from bot.presenters.captions import turn_caption
from bot.storage import Match, Repository, open_database

PLAYER_NAMES = ("Alexandra", "Bartholomew")  # realistic lengths for the captions under the board
GUILD_ID, CHANNEL_ID = 1, 2


# --- statistics ----------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of unsorted values."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class Summary:
    """Milliseconds."""

    n: int
    median: float
    p90: float
    p99: float
    max: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Summary:
        ms = [s * 1000 for s in seconds]
        return cls(len(ms), statistics.median(ms), percentile(ms, 90), percentile(ms, 99), max(ms))


def renderable_games() -> list[str]:
    return [key for key in renderers.RENDERERS if key in GAMES]


# --- render ----------------------------------------------------------------------------------------------------


def sample_views(key: str, games: int, every: int) -> list[dict]:
    """Every `every`-th position of `games` seeded random games, alternating the public view and each seat's."""
    game = get_game(key)
    players = game.info.min_players
    viewers = [None, *range(players)]
    views = []
    for seed in range(games):
        for i, ply in enumerate(random_plies(game, players, seed)):
            if i % every == 0:
                views.append(game.view(ply.state, viewers[len(views) % len(viewers)]))
    return views


def bench_render(key: str, games: int, every: int) -> Summary:
    views = sample_views(key, games, every)
    renderers.render(views[0], player_names=PLAYER_NAMES)  # warm the cached board layer and sprites
    times = []
    for view in views:
        t0 = time.perf_counter()
        renderers.render(view, player_names=PLAYER_NAMES)
        times.append(time.perf_counter() - t0)
    return Summary.of(times)


# --- the service on a real database ------------------------------------------------------------------------------


async def open_service(path: Path) -> MatchService:
    seeds = itertools.count(1)  # fixed seeds: the same matches every run
    return MatchService(Repository(await open_database(path)), clock=time.time, seed_source=lambda: next(seeds))


async def start_match(service: MatchService, key: str, first_user: int) -> Match:
    """A two-seat match through the same calls as the challenge buttons: create → accept → start."""
    challenger, opponent = first_user, first_user + 1
    challenge = await service.create_challenge(
        guild_id=GUILD_ID, channel_id=CHANNEL_ID, challenger_id=challenger, challenger_name=PLAYER_NAMES[0],
        game_key=key, invited=[opponent],
    )
    challenge = await service.accept_challenge(challenge.id, opponent, PLAYER_NAMES[1])  # starts the match
    return await service.get_match(challenge.match_id)


def choose_move(service: MatchService, match: Match, rng: random.Random) -> tuple[int, str]:
    """(user id, move) for a random seat among those to act (secret setups let both act) and a random legal move.
    This is the player's thinking, not the bot's work: never timed."""
    game = service.game_of(match)
    state = service.state_of(match)
    seat = rng.choice(game.to_act(state))
    return match.user_of(seat), rng.choice(game.legal_moves(state, seat))


class UserIds:
    """Fresh user ids, two per match, so no two matches share a player."""

    def __init__(self) -> None:
        self._next = itertools.count(1000, 2)

    def pair(self) -> int:
        return next(self._next)


# --- apply + persist ---------------------------------------------------------------------------------------------


async def bench_apply(
    service: MatchService, users: UserIds, key: str, matches: int, moves: int, seed: int = 0
) -> Summary:
    """Time `submit_move` alone, one move at a time: no contention, the cost of one move."""
    rng = random.Random(seed)
    times = []
    for _ in range(matches):
        match = await start_match(service, key, users.pair())
        for _ in range(moves):
            if not match.active:
                break
            user, move = choose_move(service, match, rng)
            t0 = time.perf_counter()
            report = await service.submit_move(match.id, user, move, expected_version=match.version)
            times.append(time.perf_counter() - t0)
            match = report.match
    return Summary.of(times)


# --- concurrent matches ------------------------------------------------------------------------------------------


@dataclass
class ReplyTimes:
    total: list[float] = field(default_factory=list)  # receive → reply ready
    submit: list[float] = field(default_factory=list)
    caption: list[float] = field(default_factory=list)
    render: list[float] = field(default_factory=list)  # includes waiting for a free worker thread
    stale: int = 0


async def reply_to_move(service: MatchService, match: Match, user: int, move: str, times: ReplyTimes) -> Match:
    """What the bot does between receiving a move and having its board post ready (see post_board)."""
    t0 = time.perf_counter()
    report = await service.submit_move(match.id, user, move, expected_version=match.version)
    t1 = time.perf_counter()
    match = report.match
    game = service.game_of(match)
    view = service.view(match, None)
    turn_caption(game, match, view, played=MovePlayed(match, "move", report.seat, report.move, report.events))
    t2 = time.perf_counter()
    await asyncio.to_thread(renderers.render, view, player_names=list(match.names))
    t3 = time.perf_counter()
    times.total.append(t3 - t0)
    times.submit.append(t1 - t0)
    times.caption.append(t2 - t1)
    times.render.append(t3 - t2)
    return match


async def drive_match(
    service: MatchService, match: Match, moves: int, rng: random.Random, times: ReplyTimes, think: float = 0.0
) -> None:
    """The only driver of its match: plays up to `moves` moves, pausing 0..2×`think` seconds before each."""
    for _ in range(moves):
        if not match.active:
            return
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        user, move = choose_move(service, match, rng)
        try:
            match = await reply_to_move(service, match, user, move, times)
        except errors.StaleBoard:  # cannot happen with one driver per match; counted to prove it
            times.stale += 1
            match = await service.get_match(match.id)


async def bench_concurrency(
    service: MatchService,
    users: UserIds,
    keys: Sequence[str],
    matches: int,
    moves: int,
    *,
    think: float = 0.0,
    seed: int = 0,
) -> tuple[ReplyTimes, float]:
    """Start `matches` matches (games taken in turn from `keys`), then play them all at once.
    Returns the reply times and the wall-clock seconds of the play."""
    started = [await start_match(service, keys[i % len(keys)], users.pair()) for i in range(matches)]
    for key in keys:  # the first render of a game builds its caches; keep that out of the latencies
        game = get_game(key)
        renderers.render(game.view(game.new_state(2, 0, None), None), player_names=PLAYER_NAMES)
    times = ReplyTimes()
    t0 = time.perf_counter()
    await asyncio.gather(*(
        drive_match(service, match, moves, random.Random(seed * 100_003 + i), times, think)
        for i, match in enumerate(started)
    ))
    return times, time.perf_counter() - t0


# --- report --------------------------------------------------------------------------------------------------------


def machine_line() -> str:
    return (
        f"Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores ({platform.machine()}), "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}."
    )


def render_table(results: dict[str, Summary]) -> list[str]:
    lines = ["| game | views | render median | p90 | max | budget |", "|---|---|---|---|---|---|"]
    for key, s in results.items():
        lines.append(f"| {key} | {s.n} | {s.median:.1f} ms | {s.p90:.1f} ms | {s.max:.1f} ms | ≤ 50 ms median |")
    return lines


def apply_table(results: dict[str, Summary]) -> list[str]:
    lines = ["| game | moves | apply + persist median | p90 | max | budget |", "|---|---|---|---|---|---|"]
    for key, s in results.items():
        lines.append(f"| {key} | {s.n} | {s.median:.2f} ms | {s.p90:.2f} ms | {s.max:.2f} ms | ≤ 10 ms median |")
    return lines


def concurrency_table(
    keys: Sequence[str], matches: int, times: ReplyTimes, wall: float, think: float = 0.0
) -> list[str]:
    total = Summary.of(times.total)
    parts = {name: Summary.of(getattr(times, name)) for name in ("submit", "caption", "render")}
    pause = f"a random pause of 0–{2 * think:g} s before each move" if think else "no pause between moves"
    return [
        f"{matches} concurrent matches ({', '.join(keys)}), each played by its own task, {pause}:",
        "",
        "| measure | moves | median | p90 | p99 | max |",
        "|---|---|---|---|---|---|",
        f"| receive → reply ready | {total.n} | {total.median:.1f} ms | {total.p90:.1f} ms | {total.p99:.1f} ms "
        f"| {total.max:.1f} ms |",
        *(
            f"| · {label} | {s.n} | {s.median:.1f} ms | {s.p90:.1f} ms | {s.p99:.1f} ms | {s.max:.1f} ms |"
            for label, s in (
                ("submit_move (apply + persist, queued)", parts["submit"]),
                ("caption", parts["caption"]),
                ("render PNG in a worker thread", parts["render"]),
            )
        ),
        "",
        f"Throughput: {total.n / wall:.0f} moves/s ({total.n} moves in {wall:.1f} s); "
        f"moves refused as stale: {times.stale}.",
    ]


@dataclass
class Settings:
    matches: int = 200
    moves: int = 10
    render_games: int = 4
    render_every: int = 4
    apply_matches: int = 4
    apply_moves: int = 40
    think: float = 0.0
    skip_render: bool = False
    skip_apply: bool = False
    skip_concurrency: bool = False


async def run(settings: Settings, directory: Path) -> list[str]:
    """Every section, as Markdown lines. The database lives in `directory`."""
    lines = [machine_line()]
    if not settings.skip_render:
        results = {key: bench_render(key, settings.render_games, settings.render_every) for key in renderable_games()}
        lines += ["", *render_table(results)]
    service = await open_service(directory / "bench.db")
    users = UserIds()
    try:
        if not settings.skip_apply:
            startable = [key for key in renderable_games() if GAMES[key].info.min_players <= 2]
            results = {
                key: await bench_apply(service, users, key, settings.apply_matches, settings.apply_moves)
                for key in startable
            }
            lines += ["", *apply_table(results)]
        if not settings.skip_concurrency:
            keys = renderable_games()
            times, wall = await bench_concurrency(
                service, users, keys, settings.matches, settings.moves, think=settings.think
            )
            lines += ["", *concurrency_table(keys, settings.matches, times, wall, settings.think)]
    finally:
        await service.repo.close()
    return lines


def parse_args(argv: list[str] | None) -> Settings:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="concurrent matches (default 200)")
    parser.add_argument("--moves", type=int, default=10, help="moves per concurrent match (default 10)")
    parser.add_argument("--render-games", type=int, default=4, help="random games per game for render views")
    parser.add_argument("--render-every", type=int, default=4, help="render every N-th position")
    parser.add_argument("--apply-matches", type=int, default=4, help="matches per game for apply + persist")
    parser.add_argument("--apply-moves", type=int, default=40, help="moves per match for apply + persist")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player pauses before each move (default 0: a burst)")
    for section in ("render", "apply", "concurrency"):
        parser.add_argument(f"--skip-{section}", action="store_true")
    return Settings(**vars(parser.parse_args(argv)))


def main(argv: list[str] | None = None) -> int:
    settings = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)  # the service logs every move at INFO
    with tempfile.TemporaryDirectory(prefix="strategos-bench-") as directory:
        lines = asyncio.run(run(settings, Path(directory)))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
