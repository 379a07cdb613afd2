"""Two real bot processes on one PostgreSQL database, shards 0 and 1 of 2, each a match service with its own timer
dispatcher (tests/multiprocess_worker.py), driving 200 matches with random legal moves, some sent through the
process of the other shard, while the clocks of idle matches run out. Afterwards the database must hold what one
process would have left: nothing lost, nothing applied or fired twice."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

from bot.composition import build_match_service
from bot.games.record import rebuild_state
from bot.matches import MatchService
from bot.matches.movelog import effective_moves
from bot.matches.ratelimit import RateLimiter
from bot.matches.rating_service import Ratings
from bot.storage.opening import open_repository
from shared_clock import SharedClock
import shared_clock

ROOT = Path(__file__).parent.parent
MATCHES, IDLE, ABANDONED, MEMBERS = 200, 30, 20, 40
DAY = 24 * 3600.0
# The matches' clocks run on the turns the two processes' players take (tests/shared_clock.py), not on the wall
# clock: a day is 1,600 turns, about six visits of each played match; each process takes 2,000 turns (2.5 days in
# all), so the idle matches run out by the end of the first day and the abandoned ones, left after 400 turns, by
# the middle of the second, however busy the machine is.
TICK = DAY / 1600
TURNS = 2000  # per process
ABANDON_AFTER = 400  # turns of both processes: the abandoned matches are moved no more


def ratings_tables(rows_ratings, rows_changes):
    return ([tuple(r) for r in rows_ratings], [tuple(r) for r in rows_changes])


async def tables(service: MatchService):
    driver = service.repo.driver
    return ratings_tables(
        await driver.fetch("SELECT guild_id, game, member_id, mu, sigma, games, wins, draws, losses, streak,"
                           " recent FROM ratings ORDER BY guild_id, game, member_id"),
        await driver.fetch("SELECT match_id, member_id, mu_before, sigma_before, mu_after, sigma_after, games"
                           " FROM rating_changes ORDER BY match_id, member_id"))


async def test_multiprocess_postgres_two_shards_drive_200_matches_and_leave_one_consistent_database(
        migrated_postgres_dsn, tmp_path):
    base = 1_000_000.0
    clock_file = tmp_path / "clock.bin"
    shared_clock.create(clock_file)
    clock = SharedClock(clock_file, base, TICK)  # stands still while the matches are opened, then runs on turns

    repo = await open_repository(migrated_postgres_dsn)
    # The test's own process: it opens the matches (members challenge often: no rate limit), then only reads.
    service = build_match_service(repo, clock=clock, limiter=RateLimiter(clock, {"challenge": (MATCHES, 60.0)}))
    rng = random.Random(5)
    match_ids = []
    for i in range(MATCHES):
        first, second = rng.sample(range(1000, 1000 + MEMBERS), 2)  # members share matches: ratings race
        guild = ((10_000 + i) << 22) | 1  # shard i % 2 of 2
        challenge = await service.create_challenge(
            guild_id=guild, channel_id=guild + 1, challenger_id=first, challenger_name=f"u{first}",
            game_key=rng.choice(["epaminondas", "archimedes"]), invited=[second], clock="1 day")
        challenge = await service.accept_challenge(challenge.id, second, f"u{second}")
        match = await service.get_match(challenge.match_id)
        await service.record_board(match, 10**15 + match.id, announced=True)  # its first board
        match_ids.append(match.id)
    idle = rng.sample(match_ids, IDLE)
    # Played for the first seconds, then left: played matches whose time runs out, whatever the machine's load
    # does to how often the random players come back to each of the others.
    abandoned = rng.sample([m for m in match_ids if m not in idle], ABANDONED)

    workers = []
    for shard in (0, 1):
        plan = tmp_path / f"plan{shard}.json"
        plan.write_text(json.dumps({"dsn": migrated_postgres_dsn, "shard": shard, "clock": str(clock_file),
                                    "base": base, "tick": TICK, "turns": TURNS, "matches": match_ids,
                                    "idle": idle, "abandoned": abandoned, "abandon_after": ABANDON_AFTER}))
        environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
        workers.append(subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "multiprocess_worker.py"), str(plan), str(tmp_path / f"{shard}.json")],
            env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    for worker in workers:
        output, _ = worker.communicate(timeout=120)
        assert worker.returncode == 0, output
    reports = [json.loads((tmp_path / f"{shard}.json").read_text()) for shard in (0, 1)]
    try:
        moves = [r["moves"] for r in reports]
        assert min(moves) > 30 and sum(moves) > MATCHES, moves  # both processes moved, the matches more than once

        matches = [await service.get_match(m) for m in match_ids]
        timed_out = [m for m in matches if m.id in idle or m.id in abandoned]
        assert all(not m.active for m in timed_out)  # every idle and abandoned match ended during the run
        assert any(m.version for m in timed_out)  # among them played ones

        for match in matches:  # versions contiguous, and the log replays to the stored state
            log = await service.repo.moves(match.id)
            assert [entry.version for entry in log] == list(range(1, match.version + 1)), match.id
            state = rebuild_state(match.game, len(match.seats), match.seed, match.options or None,
                                  effective_moves(log), names=match.names)
            assert service.game_of(match).dump(state) == match.state, match.id

        fired = Counter((timer_id, due_at) for r in reports for timer_id, due_at, _ in r["fired"])
        assert fired and max(fired.values()) == 1  # every timer fired by one process, once
        end = min(r["clock_at_end"] for r in reports)
        left = await service.repo.driver.fetch("SELECT COUNT(*) FROM timers WHERE fired_at IS NULL AND due_at < ?",
                                        (end,))  # due before the end: each process fired its due timers then
        assert left[0][0] == 0

        posted = Counter((m, v) for r in reports for m, v, _ in r["boards"])
        assert max(posted.values()) == 1  # each version shown by one process
        boards = {message: (m, v) for r in reports for m, v, message in r["boards"]}
        for match in matches:  # one live board per match: its current one, of its last version
            assert match.announced_version == match.version, match.id
            if match.version:
                assert boards[match.board_message_id] == (match.id, match.version), match.id

        live = await tables(service)
        assert live[0]  # rated finishes happened, members shared between matches
        summary = await Ratings(service.repo).rebuild()
        assert summary.skipped == []
        assert await tables(service) == live
    finally:
        await service.drain()
        await repo.close()
