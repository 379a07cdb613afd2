"""Ratings benchmark: leaderboard and profile reads on a server with 1,000 rated members.

    python -m benchmarks.ratings                    # 1,000 members, ~12 games each, 300 timed reads per query
    python -m benchmarks.ratings --members 5000     # a bigger server
    python -m benchmarks.ratings --members 5000 --games 30 --beside-writer   # ~100,000 matches: how long a
                                                   # running bot's writes wait while `ratings --rebuild` runs

Fills a temporary SQLite file the way the bot does (finished rated matches with their seats, then a rebuild through
RatingStore, which also times the rebuild), plus two other servers and another game as noise, then times through
RatingStore exactly what the leaderboard and profile commands call:

- leaderboard: one page of 10 from the middle of the board, plus the asking member's own rank (she is not on it);
- profile: a member's rating, rank and full history (a regular with ~12 games, and a veteran with 500);
- the profile's chart picture of the veteran's history (Pillow, no database).

Cold: a fresh connection each time (SQLite's page cache empty; the operating system's file cache is warm, as it is in
a running bot). Warm: the same connection, repeated. Times are wall-clock milliseconds. Like the rebuild command,
this is an entry point that touches storage; nothing imports it.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Awaitable, Callable, Sequence

from bot.matches.rating_service import Ratings
from bot.storage import Repository, open_database
from bot.storage.rating_store import FinishedResult, RatingStore
from renderers.rating_chart import rating_chart

from .stats import percentile

GUILD, OTHER_GUILDS = 1, (2, 3)
GAME, OTHER_GAME = "epaminondas", "mycenae"
DAY = 86400.0
BUDGET_MS = 100.0

async def fill(path: Path, members: int, games_each: int, veteran_games: int, seed: int = 7) -> dict[str, int]:
    """Write finished matches: every member of the main server plays ~games_each two-player games against random
    others (stronger members win more often, so the board has a real spread), one veteran plays veteran_games, and
    other servers and another game add rows the queries must skip."""
    rng = random.Random(seed)
    repo = Repository(await open_database(path))
    try:
        strength = {m: rng.gauss(0, 1) for m in range(1, members + 1)}
        plays: list[tuple[int, str, list[int], list[list[int]]]] = []
        for i in range(max(members, members * games_each // 2)):
            a = i % members + 1  # everyone plays: the board has exactly `members` lines
            b = rng.randrange(1, members)  # any other member, uniformly
            b += b >= a
            plays.append((GUILD, GAME, [a, b], _standings(rng, strength[a], strength[b])))
        veteran = 1
        for _ in range(veteran_games):
            b = rng.randrange(2, members + 1)
            plays.append((GUILD, GAME, [veteran, b], _standings(rng, strength[veteran], strength[b])))
        for guild in OTHER_GUILDS:
            for _ in range(members * 2):
                a, b = rng.sample(range(1, members + 1), 2)
                plays.append((guild, GAME, [a, b], _standings(rng, 0, 0)))
        for _ in range(members):
            seats = rng.sample(range(1, members + 1), 3)
            order = list(range(3))
            rng.shuffle(order)
            plays.append((GUILD, OTHER_GAME, seats, [[s] for s in order]))
        rng.shuffle(plays)

        start = time.time() - 365 * DAY
        await repo.ratings.add_finished(
            FinishedResult(match_id, guild, game, seats, standings, start + match_id * (365 * DAY / len(plays)),
                           reason="bench")
            for match_id, (guild, game, seats, standings) in enumerate(plays, start=1))
        return {"matches": len(plays), "veteran": veteran}
    finally:
        await repo.close()


def _standings(rng: random.Random, a: float, b: float) -> list[list[int]]:
    if rng.random() < 0.05:
        return [[0, 1]]
    p_a = 1 / (1 + math.exp(b - a))
    return [[0], [1]] if rng.random() < p_a else [[1], [0]]


async def time_rebuild(path: Path) -> tuple[float, str]:
    repo = Repository(await open_database(path))
    try:
        started = time.perf_counter()
        summary = await Ratings(repo).rebuild()
        return time.perf_counter() - started, summary.line()
    finally:
        await repo.close()


Query = Callable[[RatingStore], Awaitable[object]]


async def time_query(path: Path, query: Query, *, runs: int, cold: bool) -> list[float]:
    seconds = []
    repo = None if cold else Repository(await open_database(path))
    try:
        if repo is not None:
            await query(repo.ratings)  # warm-up: fill SQLite's page cache
        for _ in range(runs):
            if cold:
                fresh = Repository(await open_database(path))
                try:
                    started = time.perf_counter()
                    await query(fresh.ratings)
                    seconds.append(time.perf_counter() - started)
                finally:
                    await fresh.close()
            else:
                started = time.perf_counter()
                await query(repo.ratings)
                seconds.append(time.perf_counter() - started)
    finally:
        if repo is not None:
            await repo.close()
    return seconds


async def profile_points(path: Path, member: int) -> list[tuple[float, int]]:
    repo = Repository(await open_database(path))
    try:
        return (await repo.ratings.profile(GUILD, GAME, member)).chart_points()
    finally:
        await repo.close()


async def pick_members(path: Path, veteran: int) -> dict[str, int]:
    """A member near the bottom of the board (her rank is not on the page asked for) and a regular player."""
    repo = Repository(await open_database(path))
    try:
        store = repo.ratings
        page = await store.leaderboard(GUILD, GAME, offset=0, limit=100)
        last = await store.leaderboard(GUILD, GAME, offset=page.total - 1, limit=1)
        regular = next(e.rating for e in page.entries if e.rating.member_id != veteran)
        return {"bottom": last.entries[0].rating.member_id, "regular": regular.member_id, "total": page.total}
    finally:
        await repo.close()


async def run(members: int, games_each: int, veteran_games: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        filled = await fill(path, members, games_each, veteran_games)
        rebuild_s, line = await time_rebuild(path)
        who = await pick_members(path, filled["veteran"])
        middle = who["total"] // 2

        queries: dict[str, Query] = {
            "leaderboard page + own rank": lambda s: s.leaderboard(
                GUILD, GAME, offset=middle, limit=10, member_id=who["bottom"]),
            f"profile ({games_each}-ish games)": lambda s: s.profile(GUILD, GAME, who["regular"]),
            f"profile ({veteran_games}+ games)": lambda s: s.profile(GUILD, GAME, filled["veteran"]),
        }
        print(f"Python {platform.python_version()}, SQLite file, {who['total']} rated members of {GAME} on the "
              f"server, {filled['matches']} finished matches in all (three servers, two games).")
        print(f"Rebuild of every rating: {rebuild_s * 1000:.0f} ms ({line}).\n")
        print("| query | cache | runs | median | p99 | max |")
        print("|---|---|---|---|---|---|")
        worst = 0.0
        for name, query in queries.items():
            for cold in (True, False):
                ms = [s * 1000 for s in await time_query(path, query, runs=runs, cold=cold)]
                worst = max(worst, percentile(ms, 99))
                print(f"| {name} | {'cold' if cold else 'warm'} | {len(ms)} | {statistics.median(ms):.2f} ms "
                      f"| {percentile(ms, 99):.2f} ms | {max(ms):.2f} ms |")
        points = await profile_points(path, filled["veteran"])
        renders = []
        for _ in range(min(runs, 50)):
            started = time.perf_counter()
            png = rating_chart(points, title="Member 1 · Epaminondas")
            renders.append((time.perf_counter() - started) * 1000)
        print(f"\nChart of {len(points)} points: median {statistics.median(renders):.1f} ms, max {max(renders):.1f} ms,"
              f" {len(png) // 1024} KiB (drawing, not a database read: run it off the event loop).")
        verdict = "within" if worst <= BUDGET_MS else "OVER"
        print(f"\nWorst p99 {worst:.2f} ms: {verdict} the {BUDGET_MS:.0f} ms budget.")


async def beside_writer(path: Path, command: Sequence[str], *, every: float = 0.01) -> dict[str, float]:
    """Run `command` (the rebuild, in its own process as an operator would) while this process writes one small
    row every `every` seconds the way a move does (its own transaction on its own connection); how long those
    writes took while the rebuild ran, in milliseconds."""
    repo = Repository(await open_database(path))
    try:
        started = time.perf_counter()
        rebuild = await asyncio.create_subprocess_exec(*command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        finished = asyncio.ensure_future(rebuild.wait())
        waits: list[float] = []
        failed = 0
        seat = 0
        while not finished.done():
            began = time.perf_counter()
            try:
                await repo.set_timer("bench_probe", 0, began, seat % 1000)
            except sqlite3.OperationalError:  # "database is locked": the move would have failed
                failed += 1
            waits.append((time.perf_counter() - began) * 1000)
            seat += 1
            await asyncio.wait([finished], timeout=every)
        took = time.perf_counter() - started
        if await finished != 0:
            raise RuntimeError(f"the rebuild failed: {(await rebuild.stderr.read()).decode()[-500:]}")
        await repo.cancel_timers(0, ["bench_probe"])
    finally:
        await repo.close()
    return {"rebuild_s": took, "writes": len(waits), "failed": failed, "median_ms": statistics.median(waits),
            "p99_ms": percentile(waits, 99), "max_ms": max(waits)}


async def run_beside_writer(members: int, games_each: int, veteran_games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        filled = await fill(path, members, games_each, veteran_games)
        command = [sys.executable, "-m", "bot", "ratings", "--rebuild", "--database", str(path)]
        print(f"{filled['matches']} finished rated matches; a write every 10 ms beside `{' '.join(command[1:4])}`:")
        print("| rebuild | took | writes | write median | p99 | max | failed (locked) |")
        print("|---|---|---|---|---|---|---|")
        for case in ("every row new", "nothing changed"):
            if case == "every row new":  # the worst case: a first rebuild, or a changed rating model
                repo = Repository(await open_database(path))
                await repo.ratings.converge([], [])
                await repo.close()
            r = await beside_writer(path, command)
            print(f"| {case} | {r['rebuild_s']:.1f} s | {r['writes']} | {r['median_ms']:.1f} ms | {r['p99_ms']:.1f} ms"
                  f" | {r['max_ms']:.1f} ms | {r['failed']} |")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.ratings", description=__doc__.split("\n\n")[0])
    p.add_argument("--members", type=int, default=1000)
    p.add_argument("--games", type=int, default=12, help="rated games per member on average")
    p.add_argument("--veteran", type=int, default=500, help="games of the one long-time member")
    p.add_argument("--runs", type=int, default=300)
    p.add_argument("--beside-writer", action="store_true",
                   help="time a running bot's writes while `python -m bot ratings --rebuild` runs beside it")
    args = p.parse_args(argv)
    if args.beside_writer:
        asyncio.run(run_beside_writer(args.members, args.games, args.veteran))
    else:
        asyncio.run(run(args.members, args.games, args.veteran, args.runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
