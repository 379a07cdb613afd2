"""The store on its own: cancellation around a commit, what it refuses to open, the indexes its searches use."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys

import pytest

from bot.storage import DatabaseError, NewerDatabase, Repository, database, open_database
from bot.storage.repository import _finish


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
        await _finish(commit())
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

    caller = asyncio.ensure_future(_finish(commit()))
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
    await repo.db._execute(repo.db._conn.set_trace_callback, statements.append)
    try:
        await search()
    finally:
        await repo.db._execute(repo.db._conn.set_trace_callback, None)
    plans = []
    for sql in statements:
        if sql.lstrip().upper().startswith("SELECT"):
            async with repo.db.execute(f"EXPLAIN QUERY PLAN {sql}") as cur:
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
