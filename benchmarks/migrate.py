"""Migration benchmark: `python -m bot migrate` of a SQLite database of 100,000 matches into PostgreSQL.

    python -m benchmarks.migrate                         # 100,000 matches into a throwaway durable server
    python -m benchmarks.migrate --matches 2000          # smaller
    python -m benchmarks.migrate --to postgresql://…     # into that (empty) database instead

The SQLite file is filled by direct inserts (seconds, not the hours of playing every move through the service) of
rows as the bot writes them: each match is one of 40 engine games per game (random legal moves, cut at 20 to 80
moves; of those cut, nine in ten end there by resignation, the rest are still running with their clock's timers),
with its challenge and seats, every move of its log with its events, the rating changes of a finished match and,
at the end, every member's rating (2,000 members on one server). The PostgreSQL server (tests/postgres_server.py)
commits as a production one does (fsync on). Then the same code as `python -m bot migrate` copies the file, counts
both sides and replays every match; the copy and the whole are timed (wall clock), and one line is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.engine.playout import random_plies
from bot.games.engines import GAMES, get_game
from bot.games.record import RESIGN, replay_moves
from bot.migrate import migrate
from bot.storage.database import open_database
from bot.storage.sql import dumps

GUILD, CHANNEL, MEMBERS, TEMPLATES = 1, 2, 2000, 40
NAMES = ("Alice", "Bob")  # the seats' names, which a resignation's reason keeps in the state
START, DAY = 1_700_000_000.0, 86400.0


def template(game_key: str, seed: int, rng: random.Random) -> dict[str, Any]:
    """One match as the bot stores it: its log, its state after it and how it ended (None: still running)."""
    game = get_game(game_key)
    cut = rng.randint(20, 80)
    log = [(ply.seat, ply.move) for _, ply in zip(range(cut), random_plies(game, 2, seed))]
    if len(log) == cut and rng.random() < 0.9:
        run = replay_moves(game, 2, seed, None, log, NAMES)
        acting = game.to_act(run.final_state)
        if acting:
            log.append((acting[0], RESIGN))
    run = replay_moves(game, 2, seed, None, log, NAMES)
    return {"game": game_key, "seed": seed, "log": log, "events": [dumps(events) for events in run.events],
            "state": dumps(game.dump(run.final_state)), "outcome": run.outcome,
            "to_act": game.to_act(run.final_state)}


def fill(path: Path, matches: int, seed: int = 11) -> int:
    """Write `matches` matches; the number of rows written."""
    rng = random.Random(seed)
    templates = [template(game, n * 1000 + i, rng) for n, game in enumerate(sorted(GAMES)) for i in range(TEMPLATES)]
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    rows = 0
    games: dict[tuple[str, int], int] = {}
    for match_id in range(1, matches + 1):
        shape = rng.choice(templates)
        players = rng.sample(range(1, MEMBERS + 1), 2)
        created = START + match_id * 60.0
        finished = shape["outcome"] is not None
        moved = created + len(shape["log"]) * 600.0
        clock = rng.choice((None, 86400, 3 * 86400))
        result = {"winners": list(shape["outcome"].winners), "reason": "resigned"} if finished else None
        db.execute(
            "INSERT INTO matches (id, guild_id, channel_id, thread_id, game, options, seed, status, state, version, "
            "board_message_id, result, created_at, updated_at, announced_version, rated, standings, finished_at, "
            "clock_seconds) VALUES (?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
            (match_id, GUILD, CHANNEL, 10**17 + match_id, shape["game"], shape["seed"],
             "finished" if finished else "active", shape["state"], len(shape["log"]), 10**17 + 5 * match_id,
             dumps(result) if result else None, created, moved, len(shape["log"]),
             dumps([result["winners"], [s for s in (0, 1) if s not in result["winners"]]]) if result else None,
             moved if finished else None, clock))
        db.execute("INSERT INTO challenges (id, guild_id, channel_id, message_id, game, options, challenger_id, "
                   "status, created_at, expires_at, match_id, rated, clock_seconds) VALUES (?, ?, ?, ?, ?, '{}', ?, "
                   "'started', ?, ?, ?, 1, ?)",
                   (match_id, GUILD, CHANNEL, 10**17 + 3 * match_id, shape["game"], players[0], created - 30,
                    created + DAY, match_id, clock))
        for seat, user in enumerate(players):
            db.execute("INSERT INTO challenge_seats (challenge_id, position, invited_id, user_id, user_name) "
                       "VALUES (?, ?, ?, ?, ?)", (match_id, seat, user, user, NAMES[seat]))
            db.execute("INSERT INTO match_seats (match_id, seat, kind, user_id, user_name) VALUES (?, ?, 'member', "
                       "?, ?)", (match_id, seat, user, NAMES[seat]))
        db.executemany("INSERT INTO moves (match_id, version, seat, move, private, events, created_at) VALUES "
                       "(?, ?, ?, ?, 0, ?, ?)",
                       [(match_id, version, seat, move, events, created + version * 600.0)
                        for version, ((seat, move), events) in enumerate(zip(shape["log"], shape["events"]), 1)])
        rows += 5 + len(shape["log"])
        if finished:
            for seat, user in enumerate(players):
                played = games[shape["game"], user] = games.get((shape["game"], user), 0) + 1
                won = seat in result["winners"]
                db.execute("INSERT INTO rating_changes (match_id, member_id, guild_id, game, seat, place, outcome, "
                           "mu_before, sigma_before, mu_after, sigma_after, games, finished_at) VALUES "
                           "(?, ?, ?, ?, ?, ?, ?, 25.0, 8.3, ?, 8.1, ?, ?)",
                           (match_id, user, GUILD, shape["game"], seat, 1 if won else 2, "W" if won else "L",
                            25.8 if won else 24.2, played, moved))
                rows += 1
        elif clock:
            for kind, due in (("turn_deadline", moved + clock), ("turn_reminder", moved + clock * 0.75)):
                db.execute("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES (?, ?, ?, ?)",
                           (kind, match_id, shape["to_act"][0], due))
                rows += 1
    for (game, user), played in games.items():
        db.execute("INSERT INTO ratings (guild_id, game, member_id, name, mu, sigma, games, wins, draws, losses, "
                   "streak, recent, provisional, last_match_id, updated_at) VALUES (?, ?, ?, ?, 25.0, 3.0, ?, ?, 0, "
                   "?, 1, 'WLW', 0, ?, ?)", (GUILD, game, user, f"member {user}", played, played // 2,
                                            played - played // 2, matches, START))
        rows += 1
    db.execute("COMMIT")
    db.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.migrate")
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--to", metavar="URL", help="an empty PostgreSQL database (default: a throwaway server)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="strategos-migrate-") as folder:
        path = Path(folder) / "strategos.db"
        asyncio.run(_created(path))
        started = time.perf_counter()
        rows = fill(path, args.matches)
        filled = time.perf_counter() - started
        server = None
        if args.to is None:
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
            from postgres_server import PostgresServer

            server = PostgresServer.start("migrate", durable=True)
        try:
            done = asyncio.run(migrate(path, args.to or server.dsn(), say=print))  # type: ignore[union-attr]
        finally:
            if server is not None:
                server.stop()
        size = path.stat().st_size / 1e6
    print(f"migrate: {args.matches} matches ({sum(done.rows.values())} rows, {size:.0f} MB of SQLite; filled in "
          f"{filled:.0f} s): copied and counted in {done.copied_in:.1f} s, {done.matches_replayed} matches replayed, "
          f"{len(done.problems)} problems, {done.took:.1f} s in all; Python {platform.python_version()}, "
          f"{platform.machine()}")
    return 1 if done.problems else 0


async def _created(path: Path) -> None:
    await (await open_database(path)).close()  # this Strategos's schema, empty


if __name__ == "__main__":
    raise SystemExit(main())
