"""The store on its own: cancellation around a commit, what it refuses to open, the indexes its searches use."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import time

import asyncpg
import pytest

from bot import rebuild_ratings
from bot.composition import build_match_service
from bot.matches import errors
from bot.storage import (
    DatabaseError,
    Driver,
    NewerDatabase,
    RatingsMoved,
    Repository,
    VersionConflict,
    database,
    open_database,
    open_reader,
)
from bot.storage.opening import open_repository
from bot.storage import matches as match_store
from bot.storage.driver import finish
from bot.storage.sql import Step


# --- a cancellation never gets lost around a commit ----------------------------------------------------------------

async def test_a_cancellation_arriving_as_the_commit_finishes_is_raised_after_it():
    """The caller is cancelled in the very step in which the commit completes: the commit stands, and the caller
    still learns it was cancelled instead of going on as if nothing happened."""
    caller = None
    committed = []

    async def commit():
        caller.cancel()  # the cancellation and the end of the commit reach the caller together
        committed.append(True)

    async def run():
        await finish(commit())
        return "went on"

    caller = asyncio.ensure_future(run())
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert committed == [True]


async def test_a_cancellation_during_the_commit_waits_for_it_and_is_raised():
    started, release = asyncio.Event(), asyncio.Event()
    committed = []

    async def commit():
        started.set()
        await release.wait()
        committed.append(True)

    caller = asyncio.ensure_future(finish(commit()))
    await started.wait()
    caller.cancel()
    await asyncio.sleep(0)
    assert not caller.done()  # still finishing the commit
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert committed == [True]


# --- what the store refuses to open, in one line each ---------------------------------------------------------------

def run_bot(*args, env_extra=None, cwd=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STRATEGOS_", "DISCORD_"))}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=60)


def newer_database(path):
    """A file as a newer Strategos leaves it: its schema version is the file's own header (opened directly, since
    what is checked is how the store treats a file it did not write)."""
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {database.migration_files()[-1][0] + 1}")
    connection.close()
    return path


async def test_a_database_of_a_newer_strategos_is_refused(tmp_path):
    path = newer_database(tmp_path / "newer.db")
    with pytest.raises(NewerDatabase, match="written by a newer Strategos"):
        await open_database(path)
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == []  # nothing was migrated into it


def test_the_bot_and_the_rebuild_refuse_a_newer_database_in_one_line(tmp_path):
    path = newer_database(tmp_path / "newer.db")
    bot = run_bot(env_extra={"DISCORD_TOKEN": "token", "STRATEGOS_DATABASE": str(path)}, cwd=tmp_path)
    assert bot.returncode == 2 and len(bot.stderr.strip().splitlines()) == 1, bot.stderr
    assert bot.stderr.startswith(f"strategos: refusing the database at {path}: the database was written by a newer")
    rebuild = run_bot("ratings", "--rebuild", "--database", str(path), cwd=tmp_path)
    assert rebuild.returncode == 1 and len(rebuild.stderr.strip().splitlines()) == 1, rebuild.stderr
    assert "written by a newer Strategos" in rebuild.stderr


def test_a_file_that_is_not_sqlite_is_refused_in_one_line_by_the_bot_and_the_rebuild(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("my notes, not a database: " * 40)
    bot = run_bot(env_extra={"DISCORD_TOKEN": "token", "STRATEGOS_DATABASE": str(path)}, cwd=tmp_path)
    assert bot.returncode == 2 and bot.stderr.strip().splitlines() == [
        f"strategos: cannot open the database at {path} (the file is not a SQLite database (file is not a "
        "database)). Check STRATEGOS_DATABASE: it must name a Strategos database, or a new file, in a folder that "
        "exists."], bot.stderr
    rebuild = run_bot("ratings", "--rebuild", "--database", str(path), cwd=tmp_path)
    assert rebuild.returncode == 1 and rebuild.stderr.strip().splitlines() == [
        f"error: {path}: the file is not a SQLite database (file is not a database)"], rebuild.stderr
    assert path.read_text() == "my notes, not a database: " * 40  # left as it was


@pytest.mark.parametrize("where", ["a folder", "unwritable"])
def test_a_database_that_cannot_be_opened_is_one_line_without_tracebacks(tmp_path, where):
    path = tmp_path if where == "a folder" else "/proc/strategos.db"
    result = run_bot(env_extra={"DISCORD_TOKEN": "token", "STRATEGOS_DATABASE": str(path)}, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"strategos: cannot open the database at {path} (unable to open database file). Check STRATEGOS_DATABASE:"
        " it must name a file in a folder this user may write."], result.stderr
    assert result.stdout == ""


async def test_a_database_in_a_missing_folder_is_refused_and_nothing_is_created(tmp_path):
    with pytest.raises(DatabaseError, match="does not exist"):
        await open_database(tmp_path / "missing" / "s.db")
    assert not (tmp_path / "missing").exists()


def test_help_prints_usage_instead_of_starting(tmp_path):
    result = run_bot("--help", env_extra={"DISCORD_TOKEN": "token"}, cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("usage: python -m bot")
    assert "ratings --rebuild" in result.stdout and not (tmp_path / "strategos.db").exists()
    wrong = run_bot("--strat", env_extra={"DISCORD_TOKEN": "token"}, cwd=tmp_path)
    assert wrong.returncode == 2 and wrong.stderr.strip().endswith("unknown arguments: --strat")


# --- start-up searches cost what the active matches cost ------------------------------------------------------------

async def plans_of(repo, search) -> list[str]:
    """The query plans of every statement `search()` runs on the repository's connection."""
    statements: list[str] = []
    await repo.driver.db._execute(repo.driver.db._conn.set_trace_callback, statements.append)
    try:
        await search()
    finally:
        await repo.driver.db._execute(repo.driver.db._conn.set_trace_callback, None)
    plans = []
    for sql in statements:
        if sql.lstrip().upper().startswith("SELECT"):
            async with repo.driver.db.execute(f"EXPLAIN QUERY PLAN {sql}") as cur:
                plans.append(" / ".join(row[3] for row in await cur.fetchall()))
    return plans


async def test_start_up_searches_use_their_indexes_and_read_no_finished_match(tmp_path):
    repo = Repository(await open_database(tmp_path / "s.db"))
    try:
        unannounced = await plans_of(repo, repo.unannounced_matches)
        assert unannounced and "matches_unannounced" in unannounced[0], unannounced
        computers = await plans_of(repo, repo.active_matches_with_computers)
        assert computers and "match_seats_computers" in computers[0], computers
        for plan in unannounced[:1] + computers[:1]:  # a scan only of a partial index: the active rows
            steps = plan.split(" / ")
            assert not {"SCAN matches", "SCAN match_seats", "SCAN m", "SCAN s"} & set(steps), plan
    finally:
        await repo.close()


# --- guards that are compare-and-set in their unit --------------------------------------------------------------------

# `service`: tests/conftest.py, on SQLite and PostgreSQL.


async def started(service, game, challenger, opponent):
    challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=challenger,
                                               challenger_name=f"u{challenger}", game_key=game, invited=[opponent])
    return (await service.accept_challenge(challenge.id, opponent, f"u{opponent}")).match_id


async def test_two_rated_finishes_sharing_a_player_give_what_a_rebuild_gives(service):
    first = await started(service, "epaminondas", 10, 20)
    second = await started(service, "epaminondas", 10, 30)
    moved, computed, both_computed = [], [], asyncio.Event()
    real = service.repo.commit_move

    async def spy(unit):
        computed.append(unit.match_id)
        if len(computed) == 2:
            both_computed.set()
        if len(computed) <= 2:  # both computed from the same ratings before either is written: they race
            await both_computed.wait()
        try:
            return await real(unit)
        except RatingsMoved:
            moved.append(unit.match_id)
            raise

    service.repo.commit_move = spy
    await asyncio.gather(service.resign(first, 20), service.resign(second, 30))  # both finish at once
    assert moved  # they raced: one was computed from a rating the other had just changed, and was rated again
    live = await service.ratings.store.leaderboard(9, "epaminondas", limit=10)
    assert next(e.rating for e in live.entries if e.rating.member_id == 10).games == 2
    await service.ratings.rebuild()
    rebuilt = await service.ratings.store.leaderboard(9, "epaminondas", limit=10)
    assert [(e.rating.member_id, e.rating.mu, e.rating.sigma, e.rating.games) for e in live.entries] == [
        (e.rating.member_id, e.rating.mu, e.rating.sigma, e.rating.games) for e in rebuilt.entries]


async def test_the_rating_rebuild_runs_on_the_database_it_is_given(service, store_database, capsys):
    await service.resign(await started(service, "epaminondas", 10, 20), 20)
    # beside the running store, as `python -m bot ratings --rebuild` runs beside the bot (its own event loop)
    assert await asyncio.to_thread(rebuild_ratings.main, ["--rebuild", "--database", str(store_database)]) == 0
    assert capsys.readouterr().out.startswith("rebuilt ratings: 1 rated matches, 2 ratings")


async def test_an_older_board_post_never_becomes_the_current_board(service):
    match_id = await started(service, "epaminondas", 10, 20)
    old = await service.get_match(match_id)
    await service.submit_move(match_id, 10, "a1-a3")
    new = await service.get_match(match_id)
    # the new version's post is recorded first; the old version's post, drawn slowly, comes after it
    assert await service.record_board(new, 222, announced=True)
    assert not await service.record_board(old, 111, announced=True)
    assert (await service.get_match(match_id)).board_message_id == 222
    assert (await service.get_match(match_id)).announced_version == new.version
    assert await service.record_board(new, 333, announced=False)  # a re-post of the current version is fine


async def test_a_move_and_its_clock_timers_land_together_or_not_at_all(service, tmp_path):
    challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=10, challenger_name="u10",
                                               game_key="epaminondas", invited=[20], clock="1 day")
    match_id = (await service.accept_challenge(challenge.id, 20, "u20")).match_id
    deadlines = "SELECT seat FROM timers WHERE ref_id = ? AND kind = 'turn_deadline'"
    assert [r[0] for r in await service.repo.driver.fetch(deadlines, (match_id,))] == [0]  # started with the match
    real, real_call = match_store.seat_timer_steps, match_store.move_call

    def failing(match_id, timers):  # the unit dies after its timers were written (a disk error)
        return real(match_id, timers) + [Step("SELECT * FROM a_table_that_is_gone")]

    def failing_call(unit):  # PostgreSQL's one call: its statement fails once the function has written everything
        step = real_call(unit)
        return step._replace(sql=step.sql + " / 0")

    match_store.seat_timer_steps, match_store.move_call = failing, failing_call
    try:
        with pytest.raises((sqlite3.OperationalError, asyncpg.DivisionByZeroError)):
            await service.submit_move(match_id, 10, "a1-a3")
    finally:
        match_store.seat_timer_steps, match_store.move_call = real, real_call
    assert (await service.get_match(match_id)).version == 0
    assert [r[0] for r in await service.repo.driver.fetch(deadlines, (match_id,))] == [0]
    await service.submit_move(match_id, 10, "a1-a3")
    assert [r[0] for r in await service.repo.driver.fetch(deadlines, (match_id,))] == [1]


# --- group commit -----------------------------------------------------------------------------------------------------

@pytest.fixture
async def driver(tmp_path):
    driver = Driver(await open_database(tmp_path / "g.db"))
    await driver.db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    yield driver
    await driver.close()


def note(text, *, fail=None):
    def unit(conn):
        conn.execute("INSERT INTO notes (text) VALUES (?)", (text,))
        if fail is not None:
            raise fail
        return text
    return unit


async def notes(driver):
    async with driver.db.execute("SELECT text FROM notes ORDER BY id") as cur:
        return [r[0] for r in await cur.fetchall()]


async def test_units_waiting_together_commit_together_and_a_failed_guard_undoes_only_its_own(driver):
    transactions = []
    await driver.db._execute(driver.db._conn.set_trace_callback,
                             lambda sql: transactions.append(sql) if sql.startswith("BEGIN") else None)
    results = await asyncio.gather(
        driver.run_unit(note("a")), driver.run_unit(note("b", fail=VersionConflict("moved on"))),
        driver.run_unit(note("c")), return_exceptions=True)
    assert results[0] == "a" and isinstance(results[1], VersionConflict) and results[2] == "c"
    assert await notes(driver) == ["a", "c"]
    assert len(transactions) == 1  # one transaction, one trip to the writer's thread, for the three


async def test_an_io_error_fails_every_unit_of_its_group_and_writes_none(driver):
    disk = sqlite3.OperationalError("disk I/O error")
    results = await asyncio.gather(driver.run_unit(note("a")), driver.run_unit(note("b", fail=disk)),
                                   driver.run_unit(note("c")), return_exceptions=True)
    assert all(r is disk for r in results)
    assert await notes(driver) == []
    assert await driver.run_unit(note("d")) == "d"  # the writer goes on
    assert not driver.db.in_transaction


async def test_a_cancelled_callers_unit_is_written_whole_or_not_at_all(driver):
    # cancelled while it waits behind a running group: dropped, nothing written
    blocker = asyncio.ensure_future(driver.run_unit(lambda conn: time.sleep(0.2)))
    await asyncio.sleep(0.05)
    waiting = asyncio.ensure_future(driver.run_unit(note("dropped")))
    await asyncio.sleep(0.01)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await blocker
    # cancelled while its group runs: written whole, and the caller still learns it was cancelled
    running = asyncio.ensure_future(driver.run_unit(lambda conn: (time.sleep(0.1), note("whole")(conn))[1]))
    await asyncio.sleep(0.03)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert await notes(driver) == ["whole"]


async def test_reads_on_the_shared_reader_see_every_commit_before_them(tmp_path):
    """Many reads share the reader connection; one left half-done between two trips would hold its snapshot,
    and a read right after a commit would see the match as it was (a board skipped as superseded)."""
    path = tmp_path / "r.db"
    repo = Repository(await open_database(path), reader=await open_reader(path))
    service = build_match_service(repo, clock=lambda: 1_000_000.0, seed_source=lambda: 7)
    try:
        matches = [await started(service, "epaminondas", 100 + 2 * i, 101 + 2 * i) for i in range(20)]
        done = False

        async def others_reading():
            while not done:
                await asyncio.gather(*(repo.get_match(m) for m in matches), repo.timer_claims().next_due())

        async def move_then_read(match_id, player):
            report = await service.submit_move(match_id, player, "a1-a3")
            return (await repo.get_match(match_id)).version == report.match.version

        noise = [asyncio.ensure_future(others_reading()) for _ in range(3)]
        await asyncio.sleep(0.01)
        seen = await asyncio.gather(*(move_then_read(m, 100 + 2 * i) for i, m in enumerate(matches)))
        done = True
        await asyncio.gather(*noise)
        assert all(seen), seen
    finally:
        await repo.close()


async def two_services(database):
    """Two services on one database (a SQLite file, or PostgreSQL: `store_database`), as two bot processes would
    be; their members have 30 vacation days a year, as the bot's are by default."""
    return [build_match_service(await open_repository(database), clock=lambda: 1_000_000.0, seed_source=lambda: 7,
                                vacation_days=30) for _ in range(2)]


async def three_player_myriath(service) -> int:
    challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                               game_key="myriath", invited=[2, 3])
    await service.accept_challenge(challenge.id, 2, "u2")
    return (await service.accept_challenge(challenge.id, 3, "u3")).match_id


async def test_two_answers_to_a_draw_offer_at_once_from_two_processes_both_count(store_database):
    """Two processes (two services on one database) each hold only their own match lock: the agreements are
    compare-and-set, so the second answer reads the first and the match is drawn."""
    first, second = await two_services(store_database)
    try:
        match_id = await three_player_myriath(first)
        await first.offer_draw(match_id, 1)
        await asyncio.gather(first.offer_draw(match_id, 2), second.offer_draw(match_id, 3))
        match = await first.get_match(match_id)
        assert match.status == "finished" and match.result["reason"] == "draw by agreement"
    finally:
        await first.repo.close()
        await second.repo.close()


async def test_two_take_back_answers_at_once_from_two_processes_both_count(store_database):
    first, second = await two_services(store_database)
    try:
        match_id = await three_player_myriath(first)
        match = await first.get_match(match_id)
        game, state = first.game_of(match), first.state_of(match)
        await first.submit_move(match_id, 1, game.legal_moves(state, 0)[0])
        records_one, records_two = first, second
        asked = await records_one.ask_takeback(match_id, 1)
        version = asked.match.version
        await asyncio.gather(records_one.answer_takeback(match_id, 2, version, True),
                             records_two.answer_takeback(match_id, 3, version, True))
        match = await first.get_match(match_id)
        assert match.version == version + 1 and match.state == game.dump(state)  # taken back
    finally:
        await first.repo.close()
        await second.repo.close()




async def test_away_racing_back_from_two_processes_leaves_the_clocks_as_the_last_one_says(store_database):
    first, second = await two_services(store_database)
    try:
        challenge = await first.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                                 game_key="epaminondas", invited=[2], clock="1 day")
        match_id = (await first.accept_challenge(challenge.id, 2, "u2")).match_id
        before = (await first.clocks.of(await first.get_match(match_id))).deadlines[0]
        await first.clocks.go_away(1, 2)
        await asyncio.gather(first.clocks.go_away(1, 3), second.clocks.come_back(1))
        away = (await first.clocks.prefs([1]))[1].away(1_000_000.0)
        after = (await first.clocks.of(await first.get_match(match_id))).deadlines[0]
        assert after == before + (3 * 86400 if away else 0)  # each read-and-shift is one unit: none is lost
    finally:
        await first.repo.close()
        await second.repo.close()


async def test_two_members_taking_the_last_seat_from_two_processes_start_one_match(store_database):
    first, second = await two_services(store_database)
    try:
        challenge = await first.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                                 game_key="epaminondas", invited=[None])
        results = await asyncio.gather(first.accept_challenge(challenge.id, 2, "u2"),
                                       second.accept_challenge(challenge.id, 3, "u3"), return_exceptions=True)
        taken = [r for r in results if not isinstance(r, BaseException)]
        assert len(taken) == 1 and taken[0].status == "started"
        assert isinstance([r for r in results if isinstance(r, BaseException)][0], errors.UserError)
        assert await first.repo.driver.fetchvalue("SELECT COUNT(*) FROM matches") == 1
    finally:
        await first.repo.close()
        await second.repo.close()
