"""`python -m bot migrate --to postgresql://…`: a SQLite database of played matches copied into PostgreSQL, where the
bot goes on; and the lock a running bot holds on its SQLite file, which the copy respects."""

from __future__ import annotations

import datetime
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap

import asyncpg
import pytest

from bot import migrate
from bot.app import check_database
from bot.composition import build_leagues, build_match_graph
from bot.games.engines import GAMES, get_game
from bot.storage.database import migration_files
from bot.storage.lock import DatabaseInUse, DatabaseLock, lock_path
from bot.storage.opening import open_repository

GUILD, CHANNEL = 9, 8


def run(*args, cwd, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STRATEGOS_", "DISCORD_"))}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "bot", "migrate", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        self.now += 7.0
        return self.now


async def play(service, match_id: int, rng: random.Random, moves: int | None) -> None:
    """Random legal moves by whoever is to act: `moves` of them, or to the end (None)."""
    played = 0
    while moves is None or played < moves:
        match = await service.get_match(match_id)
        acting = service.to_act(match) if match.active else []
        members = [seat for seat in acting if match.seats[seat].user_id is not None]
        if not members:
            return
        seat = rng.choice(members)
        game = get_game(match.game)
        move = rng.choice(game.legal_moves(service.state_of(match), seat))
        await service.submit_move(match_id, match.seats[seat].user_id, move)
        played += 1


async def challenge(service, game: str, invited, **options) -> int:
    made = await service.create_challenge(guild_id=GUILD, channel_id=CHANNEL, challenger_id=1, challenger_name="u1",
                                          game_key=game, invited=invited, **options)
    return made.id


async def played_database(path) -> dict[str, int]:
    """Every game, finished and running, with clocks and ratings, a resignation, a computer's match, a league, an
    open challenge and an announcement a crash left in the outbox; the ids of matches still to play."""
    rng = random.Random(5)
    repo = await open_repository(path)
    try:
        graph = build_match_graph(repo, clock=Clock(), seed_source=lambda: rng.getrandbits(62),
                                  vacation_days=30)  # a member away draws on her vacation days
        service = graph.service
        running = {}
        for game in GAMES:
            for clock, moves in (("1 day", None), ("No clock", 6)):
                accepted = await service.accept_challenge(await challenge(service, game, [2], clock=clock), 2, "u2")
                await play(service, accepted.match_id, rng, moves)
                if moves is not None:
                    running[game] = accepted.match_id
        resigned = await service.accept_challenge(await challenge(service, "epaminondas", [3]), 3, "u3")
        await play(service, resigned.match_id, rng, 3)
        await service.resign(resigned.match_id, 3)
        computer = await challenge(service, "archimedes", [None], computer_level="easy")
        assert (await service.get_challenge(computer)).match_id is not None
        await challenge(service, "myriath", [4])  # open: nobody accepted it yet
        await service.go_away(2, 3)  # a member's choices, and clocks paused
        await service.notifications(3, turn_dms=True, reminders=False)
        leagues = build_leagues(graph)
        league, _ = await leagues.create(guild_id=GUILD, channel_id=CHANNEL, user_id=1, may_manage=True,
                                         name="Winter", game="epaminondas", format="round_robin")
        for user in (1, 2, 3):
            await leagues.join(league.id, user, f"u{user}")
        await leagues.start_now(league.id, 1, True)
        await service.drain()
        await leagues.idle()
    finally:
        await repo.close()
    db = sqlite3.connect(path)
    with db:  # a board post a stop cut off: its announcement still waits in the outbox
        db.execute("INSERT INTO outbox (match_id, version, token, events, created_at) VALUES (?, 1, 'stopped', "
                   "'[]', 1800000000.5)", (running["myriath"],))
    db.close()
    return running


def counts(path) -> dict[str, int]:
    db = sqlite3.connect(path)
    try:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT "
                                                 "LIKE 'sqlite%'")]
        return {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables}
    finally:
        db.close()


async def test_played_matches_move_to_postgresql_and_go_on_there(tmp_path, postgres_dsn):
    path = tmp_path / "strategos.db"
    running = await played_database(path)
    before = counts(path)
    for table in ("matches", "moves", "match_seats", "timers", "ratings", "rating_changes", "leagues",
                  "league_players", "league_tables", "challenges", "challenge_seats", "outbox", "members"):
        assert before[table] > 0, table  # the copy is tried on every kind of row
    db = sqlite3.connect(path)
    statuses = {row for row in db.execute("SELECT game, status FROM matches")}
    db.close()
    assert statuses == {(game, status) for game in GAMES for status in ("active", "finished")}

    done = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)

    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith(f"copied {path} to postgres@") and f" {before['matches']} matches;" in lines[0]
    assert lines[1].startswith(f"replayed {before['matches']} matches to their stored states; done in ")
    conn = await asyncpg.connect(postgres_dsn)
    try:
        for table, count in before.items():
            assert await conn.fetchval(f"SELECT count(*) FROM {table}") == count, table
        sqlite_rows = sqlite3.connect(path).execute("SELECT id, game, seed, state, version FROM matches ORDER BY id")
        assert [tuple(row) for row in await conn.fetch("SELECT id, game, seed, state, version FROM matches "
                                                       "ORDER BY id")] == list(sqlite_rows)
    finally:
        await conn.close()

    repo = await open_repository(postgres_dsn)  # the bot's store on the copy: the match goes on, ids go on
    try:
        service = build_match_graph(repo, clock=Clock()).service
        match_id = running["epaminondas"]
        version = (await service.get_match(match_id)).version
        await play(service, match_id, random.Random(1), 1)
        assert (await service.get_match(match_id)).version == version + 1
        assert [entry.move for entry in await service.moves_of(await service.get_match(match_id))][:version] == [
            move for (move,) in sqlite3.connect(path).execute(
                "SELECT move FROM moves WHERE match_id = ? ORDER BY version", (match_id,))]
        accepted = await service.accept_challenge(await challenge(service, "mycenae", [2]), 2, "u2")
        assert accepted.id == before["challenges"] + 1 and accepted.match_id == before["matches"] + 1
        await play(service, accepted.match_id, random.Random(2), 2)
        await service.drain()
    finally:
        await repo.close()


async def test_a_target_that_holds_rows_is_refused_and_left_as_it_was(tmp_path, postgres_dsn):
    path = tmp_path / "strategos.db"
    await (await open_repository(path)).close()
    conn = await asyncpg.connect(postgres_dsn)
    await conn.execute("CREATE TABLE notes (line TEXT); INSERT INTO notes VALUES ('keep me')")
    await conn.close()
    refused = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        f"error: the PostgreSQL database {migrate.describe_dsn(postgres_dsn)} is not empty (its table public.notes "
        "holds rows): give an empty database (createdb)"]
    conn = await asyncpg.connect(postgres_dsn)
    try:  # nothing was written: not even the schema
        assert await conn.fetchval("SELECT to_regclass('matches')") is None
    finally:
        await conn.close()


async def test_a_database_migrated_before_is_not_empty(tmp_path, postgres_dsn):
    path = tmp_path / "strategos.db"
    await played_database(path)
    assert run("--to", postgres_dsn, "--database", path, cwd=tmp_path).returncode == 0
    again = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)
    assert again.returncode == 1 and again.stderr.strip().splitlines() == [
        f"error: the PostgreSQL database {migrate.describe_dsn(postgres_dsn)} is not empty (its table "
        "public.challenge_seats holds rows): give an empty database (createdb)"]


HOLD = textwrap.dedent("""
    import asyncio, sys
    from bot.storage.opening import open_repository

    async def hold():
        repo = await open_repository(sys.argv[1])
        print("open", flush=True)
        await asyncio.sleep(3600)

    asyncio.run(hold())
""")


def holding_bot(path, cwd):
    """A process with the store open on `path`, as a running bot has; it says when it has."""
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True, cwd=cwd)
    assert process.stdout is not None and process.stdout.readline() == "open\n"
    return process


async def test_a_running_bot_keeps_the_copy_away_and_a_killed_ones_lock_is_taken_over(tmp_path, postgres_dsn,
                                                                                      caplog):
    path = tmp_path / "strategos.db"
    await (await open_repository(path)).close()
    assert not lock_path(path).exists()  # let go: nothing is left beside the database
    bot = holding_bot(path, os.getcwd())
    try:
        refused = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)
        assert refused.returncode == 1 and refused.stderr.strip().splitlines() == [
            f"error: {path}: process {bot.pid} is using the database (a bot still running?): stop it first "
            f"({path}.lock is its lock)"]
        other = await open_repository(path)  # a tool beside the bot shares the lock (ratings --rebuild, a test)
        await other.close()
    finally:
        bot.send_signal(signal.SIGKILL)
        bot.wait()
    assert lock_path(path).read_text() == f"{bot.pid}\n"  # killed: it never let go, the kernel did

    done = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == (f"took over the lock {path}.lock left by process {bot.pid}, which "
                                           "stopped without letting go of it")
    assert done.stderr == ""
    assert not lock_path(path).exists()

    killed = holding_bot(path, os.getcwd())
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    with caplog.at_level(logging.WARNING, logger="bot.storage.opening"):
        assert await check_database(path) is None  # the bot's start-up takes it over, and says so once
        repo = await open_repository(path)
        await repo.close()
    assert [record.getMessage() for record in caplog.records] == [
        f"took over the lock {path}.lock left by process {killed.pid}, which stopped without letting go of it"]


async def test_a_bot_does_not_start_on_a_database_being_copied(tmp_path):
    path = tmp_path / "strategos.db"
    await (await open_repository(path)).close()
    copying = DatabaseLock.take(path, exclusive=True)
    try:
        assert await check_database(path) == (
            f"refusing the database at {path}: process {os.getpid()} holds the database alone (python -m bot "
            f"migrate copying it?): wait until it is done ({path}.lock is its lock).")
        with pytest.raises(DatabaseInUse):
            await open_repository(path)
    finally:
        copying.release()
    await (await open_repository(path)).close()


async def test_a_source_of_a_newer_strategos_is_refused(tmp_path, postgres_dsn):
    path = tmp_path / "strategos.db"
    await (await open_repository(path)).close()
    known = migration_files()[-1][0]
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {known + 1}")
    db.close()
    refused = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)
    assert refused.returncode == 1 and refused.stderr.strip().splitlines() == [
        f"error: {path} was written by a newer Strategos (schema {known + 1}, this one knows up to {known}): "
        "migrate it with that Strategos"]
    conn = await asyncpg.connect(postgres_dsn)
    try:
        assert await conn.fetchval("SELECT to_regclass('matches')") is None
    finally:
        await conn.close()


async def test_a_match_whose_log_does_not_give_its_state_is_named(tmp_path, postgres_dsn):
    path = tmp_path / "strategos.db"
    running = await played_database(path)
    damaged = running["archimedes"]
    db = sqlite3.connect(path)
    with db:
        db.execute("DELETE FROM moves WHERE match_id = ? AND version = (SELECT max(version) FROM moves WHERE "
                   "match_id = ?)", (damaged, damaged))
    db.close()
    done = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"  match #{damaged}: its log holds versions 1-5, its state is at version 6",
        f"error: 1 of {counts(path)['matches']} matches did not replay to their stored state (listed above); the "
        "copy is kept, but check the SQLite database (python -m bot check)"]


def test_what_is_not_a_postgresql_url_or_a_sqlite_file(tmp_path):
    assert run("--to", tmp_path / "other.db", cwd=tmp_path).stderr.strip().splitlines()[-1] == (
        "error: --to takes a postgresql:// URL")
    url = "postgresql://u@localhost/strategos"
    already = run("--to", url, env_extra={"STRATEGOS_DATABASE": url}, cwd=tmp_path)
    assert already.returncode == 2 and already.stderr.strip().splitlines() == [
        "error: the database is PostgreSQL already; give the SQLite file with --database"]
    missing = run("--to", url, cwd=tmp_path)
    assert missing.returncode == 1 and missing.stderr.strip().splitlines() == ["error: no database at strategos.db"]


async def test_a_lock_file_this_user_may_not_write_stops_the_start_in_one_line(tmp_path, monkeypatch):
    path = tmp_path / "strategos.db"
    await (await open_repository(path)).close()

    def refused(name, *args, **kwargs):  # as a lock file left by root answers another user (the tests run as root)
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr("bot.storage.lock.os.open", refused)
    assert await check_database(path) == (
        f"refusing the database at {path}: this user (uid {os.getuid()}) may not write the lock file {path}.lock; "
        "give it to the user the bot runs as, or delete it while nothing runs.")


async def test_a_source_of_an_older_strategos_is_brought_up_to_date_first(tmp_path, postgres_dsn):
    path = tmp_path / "strategos.db"
    known = migration_files()[-1][0]
    db = sqlite3.connect(path, isolation_level=None)
    for number, _, sql in migration_files()[:-1]:
        db.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
    db.close()
    done = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (known,)
    db.close()


async def test_a_table_a_later_migration_adds_is_copied_with_its_types_mapped(tmp_path, postgres_dsn):
    """Tables are read from the SQLite file's own schema: one a later migration adds (here made by hand on both
    sides) is copied too, each value as its PostgreSQL column's type asks (JSON, a flag, times), its ids kept."""
    path = tmp_path / "strategos.db"
    await (await open_repository(path)).close()
    db = sqlite3.connect(path)
    with db:
        db.execute("CREATE TABLE extras (id INTEGER PRIMARY KEY, data TEXT NOT NULL, flag INTEGER NOT NULL, "
                   "at REAL, made TEXT, note TEXT)")
        db.executemany("INSERT INTO extras VALUES (?, ?, ?, ?, ?, ?)", [
            (1, '{"seats": [0, 1]}', 1, 1_800_000_000.5, "2026-12-07 10:00:00", "first"),
            (7, "[]", 0, None, None, None)])
    db.close()
    conn = await asyncpg.connect(postgres_dsn)
    await conn.execute("CREATE TABLE extras (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, data JSONB NOT NULL,"
                       " flag BOOLEAN NOT NULL, at TIMESTAMPTZ, made TIMESTAMPTZ, note TEXT)")
    await conn.close()

    done = run("--to", postgres_dsn, "--database", path, cwd=tmp_path)

    assert done.returncode == 0, done.stderr
    conn = await asyncpg.connect(postgres_dsn)
    try:
        rows = [tuple(row) for row in await conn.fetch("SELECT id, data, flag, at, made, note FROM extras ORDER BY id")]
        utc = datetime.timezone.utc
        assert rows == [
            (1, '{"seats": [0, 1]}', True, datetime.datetime(2027, 1, 15, 8, 0, 0, 500000, utc),
             datetime.datetime(2026, 12, 7, 10, 0, tzinfo=utc), "first"),
            (7, "[]", False, None, None, None)]
        assert await conn.fetchval("INSERT INTO extras (data, flag) VALUES ('{}', true) RETURNING id") == 8
    finally:
        await conn.close()
