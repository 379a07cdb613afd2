"""Service-layer benchmark: board renders, apply + persist, and bursts of many matches moving at once.

    python -m benchmarks.bursts                          # bursts of 200 and 1,000 matches
    python -m benchmarks.bursts --bursts 50              # smaller
    python -m benchmarks.bursts --skip-render --skip-apply --bursts 1000 --synchronous NORMAL --database /tmp/b.db
    python -m benchmarks.bursts --skip-render --skip-apply --bursts 1000 --database postgresql://user@host/db
    python -m benchmarks.bursts --skip-render --skip-apply --bursts 1000 --processes 2 --database postgresql://user@host/db

Everything runs against a real SQLite file in a temporary directory (or the PostgreSQL database `--database` names), through `MatchService` exactly as the cogs
use it; no Discord. Prints Markdown tables for docs/performance.md (budgets in docs/design.md: render ≤ 8 ms
median, apply + persist ≤ 10 ms median). Times are wall-clock milliseconds.

- render: `registry.render(view, player_names=...)` over public and private views from seeded random games.
- apply + persist: `MatchService.submit_move` one move at a time (engine apply, version-guarded write, reload).
- bursts: N matches each receive a move at the same instant, half as /move does, half through the picker (a Move
  click that reads the match and builds the picker's first step, then Confirm): acknowledge first (measured
  as the wait for the event loop), write the move (`submit_move`: the match's lock and the group-committed writer),
  and the board through the service's bus to a presenter that builds the caption and renders the PNG in the
  render queue (bot/presenters/pictures.py: worker processes). "Board ready" is receive → picture ready to send; every board must
  be made once, in order per match. RSS is the process's resident memory after the burst, matches active (not its picture workers'). Every
  match's log must then replay through its engine to its stored state. The last lines are one JSON object per
  burst: {"bench": "burst", "database": "sqlite" or "postgresql", "matches", "ack_p99_ms", "picker_ack_p99_ms", "written_p99_ms",
  "board_p99_ms", "boards", "in_order", "replayed_ok", "processes"}.
- --processes N (PostgreSQL): each burst is split between N bot processes on the same database, each a service of
  its own with its share of the matches, all moving at the same instant; their times are reported together.
- --render-threads: the pictures drawn in two threads of the bot's process, as before they had worker processes.
- --discord-limits: the real bot (cogs, views, presenters, discord.py's HTTP client) against a modelled Discord
  with its rate limits (benchmarks/limited_bursts.py, benchmarks/discord_model.py), on SQLite; its JSON lines add
  "limited_requests_per_move", "requests_429", "floor_ms" (the limited requests at 50 a second) and "board_p99_ms"
  is then interaction → board at Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import multiprocessing
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Sequence

from bot import answers_first
from bot.games import registry
from bot.games.registry import GAMES, get_game
from bot.games.record import rebuild_state
from bot.matches.events import MovePlayed
from bot.matches.movelog import effective_moves
from bot.composition import build_match_service
from bot.matches.service import MatchService
from bot.presenters.captions import turn_caption
from bot.presenters.pictures import RenderQueue
from bot.domain import Match
from bot.settings import is_postgres_dsn
from bot.storage import Repository, open_database, open_reader
from bot.storage.database import SYNCHRONOUS
from bot.storage.postgres import open_pool

from .stats import percentile
from .views import sampled_views

PLAYER_NAMES = ("Alexandra", "Bartholomew")  # realistic lengths for the captions under the board
GUILD_ID, CHANNEL_ID = 1, 2


# --- statistics ----------------------------------------------------------------------------------------------


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
    return list(GAMES)


# --- render ----------------------------------------------------------------------------------------------------


def sample_views(key: str, games: int, every: int) -> list[dict]:
    """Every `every`-th position of `games` seeded random games, alternating the public view and each seat's."""
    return sampled_views(key, get_game(key).info.min_players, games, every)


def bench_render(key: str, games: int, every: int) -> Summary:
    views = sample_views(key, games, every)
    registry.render(views[0], player_names=PLAYER_NAMES)  # warm the cached board layer and sprites
    times = []
    for view in views:
        t0 = time.perf_counter()
        registry.render(view, player_names=PLAYER_NAMES)
        times.append(time.perf_counter() - t0)
    return Summary.of(times)


# --- the service on a real database ------------------------------------------------------------------------------


async def open_service(path: Path | str, synchronous: str = SYNCHRONOUS) -> MatchService:
    seeds = itertools.count(1)  # fixed seeds: the same matches every run
    if is_postgres_dsn(path):
        repo = Repository(pool=await open_pool(str(path)))
    else:
        repo = Repository(await open_database(path, synchronous=synchronous), reader=await open_reader(path))
    return build_match_service(repo, clock=time.time, seed_source=lambda: next(seeds))


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

    def __init__(self, first: int = 1000) -> None:
        self._next = itertools.count(first, 2)

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


# --- bursts: many matches moving at the same instant ------------------------------------------------------------


@dataclass
class BurstTimes:
    ack: list[float] = field(default_factory=list)  # interaction received → acknowledged (deferred)
    picker_ack: list[float] = field(default_factory=list)  # the same, for the picker's Move and Confirm clicks
    submit: list[float] = field(default_factory=list)  # received → move written
    board: list[float] = field(default_factory=list)  # received → board picture and caption ready to send
    boards: dict[int, list[int]] = field(default_factory=dict)  # match id → versions whose board was made
    expected: int = 0  # moves that call for a board (a secret setup move only says who is still setting up)
    rss_mb: float = 0.0
    replayed_ok: bool = False


class BoardMaker:
    """The presenters' work for a MovePlayed, without Discord: caption, then the PNG through the render queue
    (bot/presenters/pictures.py), skipping a board whose match has moved on (as the presenters do)."""

    def __init__(self, service: MatchService, queue: RenderQueue, times: BurstTimes):
        self.service, self.queue, self.times = service, queue, times
        self.received: dict[tuple[int, int], float] = {}

    async def __call__(self, event) -> bool:
        if not isinstance(event, MovePlayed):
            return True
        self.times.expected += 1
        match = await self.service.get_match(event.match.id)
        if match.version != event.match.version:
            return True  # superseded: a newer board is coming
        view = self.service.view(match, None)
        turn_caption(self.service.game_of(match), match, view, played=event)
        await self.queue.run(registry.render, view, player_names=list(match.names))
        self.times.boards.setdefault(match.id, []).append(match.version)
        started = self.received.pop((match.id, match.version), None)
        if started is not None:
            self.times.board.append(time.perf_counter() - started)
        return True


_INTERACTION_IDS = itertools.count(1)


async def acknowledged(into: list[float]) -> float:
    """An interaction arriving now, acknowledged as soon as the event loop gets to its handler (that wait is
    what the acknowledgement costs). As at the bot, it is registered as it arrives and the work that can wait
    waits until it is answered (bot/answers_first.py). Returns when it arrived."""
    received = time.perf_counter()
    key = next(_INTERACTION_IDS)
    first = answers_first.gate()
    first.arrived(key)
    answers_first.ARRIVAL.set(key)  # as discord.py's handler task carries it
    await asyncio.sleep(0)
    first.answered(key)
    into.append(time.perf_counter() - received)
    return received


async def handle_move(service: MatchService, maker: BoardMaker, match: Match, choice: tuple[int, str],
                      times: BurstTimes, *, picker: bool = False) -> None:
    """One move (`choice`: who plays what), acknowledged first, then written; the board follows. As /move does,
    or (`picker`) through the picker: a Move click (acknowledged, then the picker's first step is read and built),
    then Confirm."""
    user, move = choice
    if picker:
        await acknowledged(times.picker_ack)  # Move
        loaded = await service.playable_match(match.id, user, version=match.version, need_turn=True)
        await service.picker_step(match.id, user, [], version=match.version,
                                  simultaneous=service.in_secret_setup(match), loaded=loaded)
        received = await acknowledged(times.picker_ack)  # Confirm
    else:
        received = await acknowledged(times.ack)
    report = await service.submit_move(match.id, user, move, expected_version=match.version)
    times.submit.append(time.perf_counter() - received)
    maker.received[(report.match.id, report.match.version)] = received
    await report.presented


async def bench_burst(service: MatchService, users: UserIds, keys: Sequence[str], matches: int,
                      seed: int = 0, ready: Callable[[], Awaitable[Any]] | None = None,
                      render_threads: bool = False) -> tuple[BurstTimes, float]:
    """Start `matches` matches, then every one of them receives a move at the same instant (after `ready`: the
    other processes' matches are started too)."""
    collections = answers_first.QuietCollections()  # as the bot runs once started (bot/app.py)
    collections.start()
    try:
        return await _burst(service, users, keys, matches, seed, ready, render_threads)
    finally:
        collections.stop()


async def _burst(service: MatchService, users: UserIds, keys: Sequence[str], matches: int, seed: int,
                 ready: Callable[[], Awaitable[Any]] | None, render_threads: bool) -> tuple[BurstTimes, float]:
    started = [await start_match(service, keys[i % len(keys)], users.pair()) for i in range(matches)]
    if ready is not None:
        await ready()
    times = BurstTimes()
    queue = RenderQueue(executor_factory=ThreadPoolExecutor) if render_threads else RenderQueue()
    # The picture workers up, as at a running bot's (it starts them at start-up; their forkserver built each game's
    # first board layer and palette once): a worker's start is kept out of the latencies.
    await asyncio.gather(*map(asyncio.wrap_future, queue.start()))
    if render_threads:
        registry.prepare_pictures()  # in this process, as the forkserver does for the workers
    maker = BoardMaker(service, queue, times)
    service.bus.subscribe(maker)
    # The players' choices, made before they act (their thinking is not the bot's work, nor on its event loop).
    choices = [choose_move(service, m, random.Random(seed * 100_003 + i)) for i, m in enumerate(started)]
    t0 = time.perf_counter()
    await asyncio.gather(*(handle_move(service, maker, m, choices[i], times, picker=i % 2 == 1)
                           for i, m in enumerate(started)))
    wall = time.perf_counter() - t0
    service.bus.unsubscribe(maker)
    queue.close()
    times.rss_mb = rss_megabytes()
    times.replayed_ok = await all_replay(service, [m.id for m in started])
    return times, wall


def burst_in_process(database: str, matches: int, first_user: int, seed: int, barrier: Any) -> BurstTimes:
    """In a bot process of its own: its share of a burst (all processes start moving together at `barrier`)."""
    logging.basicConfig(level=logging.WARNING)

    async def run_share() -> BurstTimes:
        service = await open_service(database)
        try:
            times, _ = await bench_burst(service, UserIds(first_user), renderable_games(), matches, seed,
                                         ready=lambda: asyncio.to_thread(barrier.wait))
            return times
        finally:
            await service.drain()
            await service.repo.close()

    return asyncio.run(run_share())


async def bench_burst_processes(database: str, matches: int, processes: int) -> tuple[BurstTimes, float]:
    """A burst of `matches` split between `processes` bot processes on one PostgreSQL database."""
    context = multiprocessing.get_context("spawn")  # fresh interpreters, as separately started bots are
    with context.Manager() as manager, ProcessPoolExecutor(processes, mp_context=context) as pool:
        barrier = manager.Barrier(processes)
        loop = asyncio.get_running_loop()
        shares = [matches // processes + (i < matches % processes) for i in range(processes)]
        t0 = time.perf_counter()
        parts = await asyncio.gather(*(
            loop.run_in_executor(pool, burst_in_process, database, share, 10**9 * (i + 1), i, barrier)
            for i, share in enumerate(shares)))
        wall = time.perf_counter() - t0
    merged = BurstTimes()
    for part in parts:
        merged.ack += part.ack
        merged.picker_ack += part.picker_ack
        merged.submit += part.submit
        merged.board += part.board
        merged.boards.update(part.boards)
        merged.expected += part.expected
    merged.rss_mb = max(part.rss_mb for part in parts)
    merged.replayed_ok = all(part.replayed_ok for part in parts)
    return merged, wall


async def all_replay(service: MatchService, match_ids: Sequence[int]) -> bool:
    """Whether every match's log replays through its engine to exactly the state stored with it: no move was
    lost, applied twice or stored apart from its state."""
    for match_id in match_ids:
        match = await service.get_match(match_id)
        state = rebuild_state(match.game, len(match.seats), match.seed, match.options or None,
                              effective_moves(await service.repo.moves(match_id)), names=match.names)
        if service.game_of(match).dump(state) != match.state:
            return False
    return True


def rss_megabytes() -> float:
    """Resident memory of this process now (Linux), in MB."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


# --- report --------------------------------------------------------------------------------------------------------


def machine_line() -> str:
    return (
        f"Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores ({platform.machine()}), "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}."
    )


def render_table(results: dict[str, Summary]) -> list[str]:
    lines = ["| game | views | render median | p90 | max | budget |", "|---|---|---|---|---|---|"]
    for key, s in results.items():
        lines.append(f"| {key} | {s.n} | {s.median:.1f} ms | {s.p90:.1f} ms | {s.max:.1f} ms | ≤ 8 ms median |")
    return lines


def apply_table(results: dict[str, Summary]) -> list[str]:
    lines = ["| game | moves | apply + persist median | p90 | max | budget |", "|---|---|---|---|---|---|"]
    for key, s in results.items():
        lines.append(f"| {key} | {s.n} | {s.median:.2f} ms | {s.p90:.2f} ms | {s.max:.2f} ms | ≤ 10 ms median |")
    return lines


def burst_json(database: str, results: list[tuple[int, BurstTimes, float]], processes: int = 1) -> list[str]:
    """One JSON object per burst, for machines (printed last)."""
    def p99(seconds: Sequence[float]) -> float | None:
        return round(Summary.of(seconds).p99, 1) if seconds else None

    lines = []
    for matches, t, _ in results:
        lines.append(json.dumps({
            "bench": "burst", "database": database, "matches": matches,
            "ack_p99_ms": p99(t.ack), "picker_ack_p99_ms": p99(t.picker_ack),
            "written_p99_ms": p99(t.submit), "board_p99_ms": p99(t.board),
            "boards": sum(len(v) for v in t.boards.values()),
            "in_order": all(v == sorted(set(v)) for v in t.boards.values()), "replayed_ok": t.replayed_ok,
            "processes": processes,
        }))
    return lines


def burst_table(results: list[tuple[int, BurstTimes, float]]) -> list[str]:
    lines = [
        "| matches moving at once | acknowledged: median | p99 | move written: median | p99 | board ready: median "
        "| p99 | max | boards | RSS |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for matches, t, wall in results:
        ack, submit, board = Summary.of(t.ack), Summary.of(t.submit), Summary.of(t.board)
        made = sum(len(v) for v in t.boards.values())
        in_order = all(v == sorted(set(v)) for v in t.boards.values())
        lines.append(
            f"| {matches} | {ack.median:.1f} ms | {ack.p99:.1f} ms | {submit.median:.0f} ms | {submit.p99:.0f} ms "
            f"| {board.median:.0f} ms | {board.p99:.0f} ms | {board.max:.0f} ms | {made} of {t.expected}"
            f"{', in order' if in_order else ', OUT OF ORDER'} | {t.rss_mb:.0f} MB |"
        )
    return lines


@dataclass
class Settings:
    bursts: tuple[int, ...] = (200, 1000)
    render_games: int = 4
    render_every: int = 4
    apply_matches: int = 4
    apply_moves: int = 40
    skip_render: bool = False
    skip_apply: bool = False
    skip_concurrency: bool = False
    synchronous: str = SYNCHRONOUS
    database: Path | str | None = None  # a SQLite file or PostgreSQL URL (default: a new file in a temporary folder)
    processes: int = 1  # bot processes sharing each burst (PostgreSQL only)
    render_threads: bool = False  # draw the pictures in threads of the bot's process, as before (for comparison)
    discord_limits: bool = False  # the real bot against a modelled Discord and its rate limits


async def run(settings: Settings, directory: Path) -> list[str]:
    """Every section, as Markdown lines. The database lives in `directory`."""
    lines = [machine_line()]
    if not settings.skip_render:
        results = {key: bench_render(key, settings.render_games, settings.render_every) for key in renderable_games()}
        lines += ["", *render_table(results)]
    if settings.discord_limits and not settings.skip_concurrency:
        from . import limited_bursts  # the bot and discord.py: only this section needs them

        results = await limited_bursts.bench_limited(directory, settings.bursts, renderable_games(), all_replay)
        lines += ["", f"Bursts under Discord's limits ({', '.join(renderable_games())}): the real bot against a "
                  "modelled Discord, half /move, half Move then Confirm, from each match's thread.", "",
                  *limited_bursts.limited_table(results, percentile), "",
                  *limited_bursts.limited_json("sqlite", results, percentile)]
        settings.skip_concurrency = True
    service = await open_service(settings.database or directory / "bench.db", settings.synchronous)
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
            results = []
            for matches in settings.bursts:
                if settings.processes > 1:
                    times, wall = await bench_burst_processes(str(settings.database), matches, settings.processes)
                else:
                    times, wall = await bench_burst(service, users, keys, matches,
                                                    render_threads=settings.render_threads)
                results.append((matches, times, wall))
            among = f", shared by {settings.processes} bot processes" if settings.processes > 1 else ""
            lines += ["", f"Bursts ({', '.join(keys)}): every match receives a move at the same instant, half of them"
                      f" by /move, half through the picker (Move, then Confirm){among}.", "",
                      *burst_table(results), "", *burst_json(service.repo.dialect, results, settings.processes)]
    finally:
        await service.drain()  # the timer dispatcher keeps the matches' clocks: stop it before the database goes
        await service.repo.close()
    return lines


def database_arg(text: str) -> Path | str:
    if is_postgres_dsn(text):
        return text
    if "://" in text:
        raise argparse.ArgumentTypeError("give a SQLite file's path or a postgresql:// URL")
    return Path(text)


def parse_args(argv: list[str] | None) -> Settings:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bursts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bursts", type=int, nargs="+", default=[200, 1000],
                        help="how many matches move at the same instant, one burst each (default 200 1000)")
    parser.add_argument("--render-games", type=int, default=4, help="random games per game for render views")
    parser.add_argument("--render-every", type=int, default=4, help="render every N-th position")
    parser.add_argument("--apply-matches", type=int, default=4, help="matches per game for apply + persist")
    parser.add_argument("--apply-moves", type=int, default=40, help="moves per match for apply + persist")
    for section in ("render", "apply", "concurrency"):
        parser.add_argument(f"--skip-{section}", action="store_true")
    parser.add_argument("--database", type=database_arg,
                        help="the SQLite file or PostgreSQL URL to run in (a new SQLite file in a temporary folder by"
                             " default)")
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default=SYNCHRONOUS,
                        help=f"SQLite's flush setting for the database (default {SYNCHRONOUS}, as the bot)")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes that share each burst, on the PostgreSQL database --database names")
    parser.add_argument("--render-threads", action="store_true",
                        help="draw the pictures in threads of the bot's process instead of its worker processes")
    parser.add_argument("--discord-limits", action="store_true",
                        help="the real bot against a modelled Discord with its rate limits (SQLite only)")
    args = vars(parser.parse_args(argv))
    if args["processes"] < 1:
        parser.error("--processes must be 1 or more")
    if args["processes"] > 1 and not is_postgres_dsn(args["database"] or ""):
        parser.error("several processes need PostgreSQL: add --database postgresql://…")
    if args["discord_limits"] and (args["processes"] > 1 or is_postgres_dsn(args["database"] or "")):
        parser.error("--discord-limits runs one bot process on SQLite")
    args["bursts"] = tuple(args["bursts"])
    return Settings(**args)


def main(argv: list[str] | None = None) -> int:
    settings = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)  # the service logs every move at INFO
    with tempfile.TemporaryDirectory(prefix="strategos-bench-") as directory:
        lines = asyncio.run(run(settings, Path(directory)))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
