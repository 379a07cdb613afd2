"""`python -m bot check`: every match's log replays to its stored state, the database's rows hold together, and the
timers are those the matches need; one line per problem naming what it concerns, beside a running bot."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import asyncpg
import pytest

from bot import check
from bot.composition import build_match_graph
from bot.games.engines import GAMES, get_game
from bot.games.record import replay_moves
from bot.games.registry import choose_move
from bot.matches.computer import ComputerPlayers
from bot.storage.opening import open_repository
from bot.storage.sql import postgres_sql

LATER = 10.0**10  # "now" for the checks: long after every virtual time the matches were played at


def run(*args, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STRATEGOS_", "DISCORD_"))}
    return subprocess.run([sys.executable, "-m", "bot", "check", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


async def play(database) -> dict[str, int]:
    """Real matches of every game through the match service: running ones on a clock, finished ones (resigned,
    drawn, timed out, one with a take-back), one without a clock, one against the computer, and an open challenge.
    Their match ids by name."""
    repo = await open_repository(database)
    ticks = itertools.count(1_000_000)
    graph = build_match_graph(repo, clock=lambda: float(next(ticks)), seed_source=lambda: 7)
    service = graph.service
    computers = ComputerPlayers(service, repo, graph.timers, graph.bus, choose_move, lambda: ThreadPoolExecutor(1),
                                pause=0.0)
    rng = random.Random(5)
    ids: dict[str, int] = {}

    async def start(key: str, *, clock: str | None = None) -> int:
        players = GAMES[key].info.min_players
        challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                                   game_key=key, invited=list(range(2, players + 1)), clock=clock)
        for user in range(2, players + 1):
            challenge = await service.accept_challenge(challenge.id, user, f"u{user}")
        return challenge.match_id

    async def moves(match_id: int, plies: int) -> None:
        for _ in range(plies):
            match = await service.get_match(match_id)
            seat = rng.choice(service.to_act(match))
            move = rng.choice(get_game(match.game).legal_moves(service.state_of(match), seat))
            await service.submit_move(match_id, match.seats[seat].user_id, move)

    try:
        for key in GAMES:
            ids[f"{key} running"] = match_id = await start(key)
            await moves(match_id, 7)
            ids[f"{key} resigned"] = match_id = await start(key)
            await moves(match_id, 5)
            match = await service.get_match(match_id)
            await service.resign(match_id, match.seats[service.to_act(match)[0]].user_id)
        ids["drawn"] = match_id = await start("epaminondas")
        await moves(match_id, 4)
        await service.offer_draw(match_id, 1)
        await service.offer_draw(match_id, 2)
        ids["timed out"] = match_id = await start("archimedes")
        await moves(match_id, 3)
        match = await service.get_match(match_id)
        await service.time_out(match_id, service.to_act(match)[0])
        ids["taken back"] = match_id = await start("epaminondas")
        await moves(match_id, 3)
        match = await service.get_match(match_id)
        report = await service.ask_takeback(match_id, match.seats[1 - service.to_act(match)[0]].user_id)
        await service.answer_takeback(match_id, match.user_of(service.to_act(match)[0]), report.match.version,
                                      True)
        await moves(match_id, 2)
        ids["no clock"] = match_id = await start("myriath", clock="No clock")
        await moves(match_id, 3)
        challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                                   game_key="archimedes", invited=[None], computer_level="easy")
        ids["computer"] = match_id = challenge.match_id
        for turn in range(3):
            match = await service.get_match(match_id)
            while not match.seats[service.to_act(match)[0]].is_member:  # the computer's turn: its timer fires
                await graph.timers.fire_due()
                await asyncio.sleep(0.01)
                match = await service.get_match(match_id)
            if turn < 2:
                await moves(match_id, 1)
        await service.create_challenge(guild_id=9, channel_id=8, challenger_id=3, challenger_name="u3",
                                       game_key="myrmidons", invited=[4])  # open: its expiry timer runs
        await service.drain()
    finally:
        computers.close()
        await repo.close()
    return ids


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A SQLite database of real played matches (made once; each test takes a copy) and their ids."""
    path = tmp_path_factory.mktemp("played") / "strategos.db"
    ids = asyncio.run(play(path))
    return path, ids


@pytest.fixture
def database(played, tmp_path):
    original, ids = played
    path = tmp_path / "strategos.db"
    shutil.copy(original, path)
    return path, ids


def write(path, *statements):
    """Damage the database as a bad disk, a hand edit or a bug would: with its references unchecked."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA foreign_keys = OFF")
        for sql, *params in statements:
            connection.execute(sql, tuple(params))
    finally:
        connection.close()


def rows(path, sql, *params):
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def other_legal_move(path, match_id) -> tuple[int, int, str]:
    """(version, seat) of the match's last log entry and a legal move other than it, where it was played."""
    (game, seed, options), = rows(path, "SELECT game, seed, options FROM matches WHERE id = ?", match_id)
    names = [name for (name,) in rows(path, "SELECT user_name FROM match_seats WHERE match_id = ? ORDER BY seat",
                                      match_id)]
    log = rows(path, "SELECT version, seat, move FROM moves WHERE match_id = ? ORDER BY version", match_id)
    before = replay_moves(game, len(names), seed, json.loads(options), [(s, m) for _, s, m in log[:-1]], names)
    version, seat, move = log[-1]
    return version, seat, next(m for m in get_game(game).legal_moves(before.final_state, seat) if m != move)


def test_a_database_of_real_played_matches_of_every_game_is_sound(database):
    path, ids = database
    games = {game for (game,) in rows(path, "SELECT game FROM matches")}
    statuses = {status for (status,) in rows(path, "SELECT status FROM matches")}
    assert games == set(GAMES) and statuses == {"active", "finished"}
    assert rows(path, "SELECT count(*) FROM moves WHERE move = 'takeback'") == [(1,)]
    assert rows(path, "SELECT count(*) FROM timers WHERE kind = 'computer_move' AND fired_at IS NOT NULL") == [(1,)]
    result = run("--database", path, cwd=path.parent)
    assert result.returncode == 0, result.stdout + result.stderr
    matches = len(ids)
    (moves,), = rows(path, "SELECT count(*) FROM moves")
    assert result.stdout.splitlines() == [f"checked {path}: {matches} matches, {moves} logged moves: no problems"]
    assert result.stderr == ""


def test_the_database_is_the_settings_one_by_default(database):
    path, _ = database
    (path.parent / ".env").write_text(f"STRATEGOS_DATABASE={path.name}\n")
    result = run(cwd=path.parent)
    assert result.returncode == 0 and result.stdout.startswith(f"checked {path.name}: "), result.stderr


def test_each_kind_of_damage_is_reported_naming_its_match(database):
    path, ids = database
    illegal, different, not_json, refused = (ids["epaminondas running"], ids["archimedes running"],
                                             ids["myriath running"], ids["mycenae running"])
    version, mover, move = other_legal_move(path, different)
    finished, clocked = ids["myrmidons resigned"], ids["taken back"]
    (seat,), = rows(path, "SELECT seat FROM timers WHERE kind = 'turn_deadline' AND ref_id = ?", clocked)
    write(path,
          ("UPDATE moves SET move = 'a1-a9' WHERE match_id = ? AND version = 3", illegal),
          ("UPDATE moves SET move = ? WHERE match_id = ? AND version = ?", move, different, version),
          ("UPDATE matches SET state = '{\"game\": \"myriath\", ' WHERE id = ?", not_json),
          ("UPDATE matches SET state = '{\"game\": \"archimedes\"}' WHERE id = ?", refused),
          ("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES ('turn_deadline', ?, 0, 5.0)", finished),
          ("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES ('computer_move', 900, 1, 5.0)",),
          ("DELETE FROM timers WHERE kind = 'turn_deadline' AND ref_id = ?", clocked),
          ("INSERT INTO moves (match_id, version, seat, move, created_at) VALUES (901, 1, 0, 'a1-a2', 0)",),
          ("INSERT INTO match_seats (match_id, seat, kind, user_id, user_name) VALUES (901, 0, 'member', 1, 'x')",))
    result = run("--database", path, cwd=path.parent)
    assert result.returncode == 1, result.stderr
    *problems, summary = result.stdout.splitlines()
    assert problems == sorted(problems, key=lambda line: int(line.split("#")[1].split(":")[0]))
    said = {int(line.split("#")[1].split(":")[0]): line for line in problems}
    assert said[illegal].startswith(f"match #{illegal}: its log does not replay: move 3: 'a1-a9' by seat 0 does "
                                    f"not replay")
    assert said[different] == (f"match #{different}: its log replays to a different state than the one stored "
                               f"(from move {version}, {move!r} by seat {mover}: its replay does not "
                               f"give the events logged with it)")
    assert said[not_json].startswith(f"match #{not_json}: its stored state is not valid JSON (")
    assert said[refused].startswith(f"match #{refused}: its engine refuses its stored state (")
    assert said[finished] == f"match #{finished}: is finished, but its turn_deadline timer of seat 0 is left"
    assert said[900] == "match #900: does not exist, but its computer_move timer of seat 1 is left"
    assert said[clocked] == (f"match #{clocked}: seat {seat} (u{seat + 1}) is to act on a clock but has no deadline "
                             f"timer")
    assert [line for line in problems if "#901" in line] == [
        "match #901: does not exist, but 1 row of match_seats (match_id) points at it",
        "match #901: does not exist, but 1 row of moves (match_id) points at it"]
    assert len(problems) == 9
    assert summary.endswith(": 9 problems (8 matches)")


def test_a_log_entry_replaced_by_an_illegal_move_fails_alone(database):
    path, ids = database
    match_id = ids["archimedes resigned"]
    write(path, ("UPDATE moves SET move = 'z9-z8' WHERE match_id = ? AND version = 2", match_id))
    problems = asyncio.run(check.check_database(path, now=LATER))
    assert [(p.kind, p.match_id) for p in problems] == [(check.REPLAY, match_id)]
    assert problems[0].line().startswith(f"match #{match_id}: its log does not replay: move 2: 'z9-z8' by seat 1")


def test_a_lost_log_entry_and_a_result_the_log_does_not_reach_are_reported(database):
    path, ids = database
    lost, ended = ids["mycenae resigned"], ids["drawn"]
    write(path, ("DELETE FROM moves WHERE match_id = ? AND version = 2", lost),
          ("DELETE FROM moves WHERE match_id = ? AND move = 'draw'", ended),
          ("UPDATE matches SET version = version - 1 WHERE id = ?", ended))
    problems = asyncio.run(check.check_database(path, now=LATER))
    assert [p.line() for p in problems] == [
        f"match #{lost}: its log holds versions 1, 3-6, its state is at version 6",
        f"match #{ended}: it is finished, but its log replays to a match that goes on"]


def test_a_computer_turn_without_its_timer_and_an_open_challenge_without_its_expiry_are_missing_timers(database):
    path, ids = database
    match_id = ids["computer"]
    # The computer's last move taken out of the log and the state: the computer is to act, its timer fired.
    write(path, ("DELETE FROM moves WHERE match_id = ? AND version = (SELECT max(version) FROM moves"
                 " WHERE match_id = ?)", match_id, match_id),
          ("UPDATE matches SET version = version - 1 WHERE id = ?", match_id))
    (game, seed, options), = rows(path, "SELECT game, seed, options FROM matches WHERE id = ?", match_id)
    log = rows(path, "SELECT seat, move FROM moves WHERE match_id = ? ORDER BY version", match_id)
    names = [name for (name,) in rows(path, "SELECT user_name FROM match_seats WHERE match_id = ? ORDER BY seat",
                                      match_id)]
    state = replay_moves(game, 2, seed, json.loads(options), log, names).final_state
    write(path, ("UPDATE matches SET state = ? WHERE id = ?", json.dumps(get_game(game).dump(state)), match_id),
          ("DELETE FROM timers WHERE kind = 'challenge_expiry'",))
    (challenge,), = rows(path, "SELECT id FROM challenges WHERE status = 'open'")
    problems = asyncio.run(check.check_database(path, now=LATER))
    seat = next(s for s, kind in rows(path, "SELECT seat, kind FROM match_seats WHERE match_id = ?", match_id)
                if kind == "computer")
    assert [(p.kind, p.line()) for p in problems] == [
        (check.MISSING_TIMER, f"match #{match_id}: the computer's seat {seat} is to act but has no timer to think"),
        (check.MISSING_TIMER, f"challenge #{challenge}: is open but has no expiry timer: it would never expire")]
    # A match that changed a moment ago is not judged on its computer's timer: the bot writes it after the move.
    (updated,), = rows(path, "SELECT updated_at FROM matches WHERE id = ?", match_id)
    assert [p.kind for p in asyncio.run(check.check_database(path, now=updated + 1))] == [check.MISSING_TIMER]


def test_a_damaged_page_is_reported_by_sqlites_integrity_check(database):
    path, _ = database
    # The index of seats by member now says it indexes their names: its entries (member ids) match no row.
    write(path, ("PRAGMA writable_schema = ON",),
          ("UPDATE sqlite_master SET sql = 'CREATE INDEX match_seats_by_user ON match_seats(user_name)'"
           " WHERE name = 'match_seats_by_user'",))
    result = run("--database", path, cwd=path.parent)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[0].startswith("the database: integrity_check: ")


def test_a_page_too_damaged_to_read_ends_the_check_with_one_line(database):
    path, _ = database
    connection = sqlite3.connect(path)
    (page,), = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'moves'")
    (size,), = connection.execute("PRAGMA page_size")
    connection.close()
    with open(path, "r+b") as file:
        file.seek((page - 1) * size)
        file.write(b"\xff" * size)
    result = run("--database", path, cwd=path.parent)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[0] == ("the database: cannot be read further (database disk image is "
                                             "malformed): restore it from a backup")


def test_a_check_neither_waits_for_a_write_in_progress_nor_holds_one_up(database, monkeypatch):
    """Another connection holds a write transaction open all along; while the check reads a batch it commits
    (with no patience at all: a lock held by the check would fail it). The check reads the state committed when its
    batch began, then the next check reads the commit."""
    path, ids = database
    match_id = ids["epaminondas running"]
    writer = sqlite3.connect(path, isolation_level=None, timeout=0)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE moves SET move = 'a1-a9' WHERE match_id = ? AND version = 3", (match_id,))
    reads = check._SQLite.fetch
    commit = ["COMMIT"]  # once

    async def fetch_then_commit(self, sql, params=()):
        found = await reads(self, sql, params)
        if sql.startswith("SELECT id, game") and commit:
            writer.execute(commit.pop())  # inside the check's read transaction of its first batch
        return found

    monkeypatch.setattr(check._SQLite, "fetch", fetch_then_commit)
    try:
        assert asyncio.run(check.check_database(path, now=LATER)) == []
        assert not writer.in_transaction
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE matches SET state = '[' WHERE id = ?", (ids["no clock"],))
        problems = asyncio.run(check.check_database(path, now=LATER))
        writer.execute("COMMIT")
    finally:
        writer.close()
    assert [(p.kind, p.match_id) for p in problems] == [(check.REPLAY, match_id)]


def test_what_cannot_be_checked_says_why_in_one_line_with_status_2(tmp_path):
    missing = run("--database", tmp_path / "none.db", cwd=tmp_path)
    assert (missing.returncode, missing.stdout, missing.stderr) == (2, "", f"error: no database at "
                                                                           f"{tmp_path / 'none.db'}\n")
    (tmp_path / "text.db").write_text("not a database")
    foreign = run("--database", tmp_path / "text.db", cwd=tmp_path)
    assert foreign.returncode == 2 and foreign.stderr.startswith("error: ") and len(foreign.stderr.splitlines()) == 1
    sqlite3.connect(tmp_path / "empty.db").execute("CREATE TABLE t (x)").connection.close()
    empty = run("--database", tmp_path / "empty.db", cwd=tmp_path)
    assert (empty.returncode, empty.stderr) == (2, f"error: {tmp_path / 'empty.db'} is not a Strategos database "
                                                   f"(it has no matches)\n")
    unreachable = run("--database", "postgresql://u:secret@127.0.0.1:1/strategos", cwd=tmp_path)
    assert unreachable.returncode == 2 and "secret" not in unreachable.stderr
    assert unreachable.stderr.startswith("error: cannot connect to PostgreSQL at u@127.0.0.1:1/strategos (")
    assert (tmp_path / "none.db").exists() is False  # nothing was created


def test_a_database_of_a_newer_strategos_is_not_read(database):
    path, _ = database
    write(path, ("PRAGMA user_version = 999",))
    result = run("--database", path, cwd=path.parent)
    assert result.returncode == 2 and "newer Strategos (schema 999" in result.stderr


async def test_on_postgresql_the_same_matches_are_sound_and_their_damage_reported(migrated_postgres_dsn):
    ids = await play(migrated_postgres_dsn)
    assert await check.check_database(migrated_postgres_dsn, now=LATER) == []
    illegal, not_json, finished = ids["epaminondas running"], ids["myriath running"], ids["myrmidons resigned"]
    conn = await asyncpg.connect(migrated_postgres_dsn)
    try:
        # A copy made with the references unchecked (a restore with triggers off) is where orphans come from.
        await conn.execute("SET session_replication_role = replica")
        for sql, *params in (
                ("UPDATE moves SET move = 'a1-a9' WHERE match_id = ? AND version = 3", illegal),
                ("UPDATE matches SET state = '{' WHERE id = ?", not_json),
                ("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES ('turn_reminder', ?, 1, 5.0)", finished),
                ("INSERT INTO moves (match_id, version, seat, move, created_at) VALUES (901, 1, 0, 'x', 0)",)):
            await conn.execute(postgres_sql(sql), *params)
        # While the checks run, another connection holds a write transaction open.
        async with conn.transaction():
            await conn.execute("UPDATE matches SET updated_at = updated_at + 1 WHERE id = $1", finished)
            checked = await check.check(migrated_postgres_dsn, now=LATER)
    finally:
        await conn.close()
    assert [(p.kind, p.match_id) for p in checked.problems] == sorted(
        [(check.REPLAY, illegal), (check.STATE, not_json), (check.ORPHAN_TIMER, finished), (check.FOREIGN_KEY, 901)],
        key=lambda found: found[1])
    assert checked.problems[-1].line() == "match #901: does not exist, but 1 row of moves (match_id) points at it"
    assert checked.matches == len(ids)
    assert checked.where.startswith("PostgreSQL at postgres@")


def test_the_command_checks_postgresql_by_its_url(migrated_postgres_dsn, tmp_path):
    result = run("--database", migrated_postgres_dsn, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(": 0 matches, 0 logged moves: no problems\n")


def test_check_sets_aside_a_match_whose_log_does_not_replay_and_then_reports_it_as_set_aside(database, capsys):
    """--set-aside does what the bot does when it finds damage: the match waits for the operator, who ends or
    restores it (bot/damaged.py); a second check names it as set aside instead of replaying it again."""
    path, ids = database
    match_id = ids["archimedes resigned"]
    write(path, ("UPDATE moves SET move = 'z9-z8' WHERE match_id = ? AND version = 2", match_id))
    assert check.main(["--database", str(path), "--set-aside"]) == 1
    assert f"match #{match_id}: set aside; its players are told it is damaged" in capsys.readouterr().out
    (reason,), = rows(path, "SELECT set_aside FROM matches WHERE id = ?", match_id)
    assert reason.startswith("its log does not replay: move 2")
    problems = asyncio.run(check.check_database(path, now=LATER))
    assert [(p.kind, p.match_id) for p in problems] == [(check.SET_ASIDE, match_id)]
    assert check.main(["--database", str(path), "--set-aside"]) == 1
    assert "set aside;" not in capsys.readouterr().out, "set aside once"
