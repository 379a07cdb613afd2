"""`python -m bot backup PATH`: a consistent, verified copy of the SQLite database beside a running bot."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from bot import backup
from bot.composition import build_match_service
from bot.storage.database import migration_files
from bot.storage.opening import open_repository


def run(*args, cwd, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STRATEGOS_", "DISCORD_"))}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "bot", "backup", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=60)


async def play(service, matches: int) -> None:
    for _ in range(matches):
        challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                                   game_key="epaminondas", invited=[2])
        challenge = await service.accept_challenge(challenge.id, 2, "u2")
        await service.submit_move(challenge.match_id, 1, "a1-a3")


def rows(path, sql):
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


MOVES = "SELECT match_id, version, move FROM moves ORDER BY id"


async def test_a_copy_of_the_running_bots_database_holds_what_was_committed_when_it_began(tmp_path):
    path = tmp_path / "strategos.db"
    repo = await open_repository(path)  # the bot's own connections stay open: its last moves are in the WAL
    try:
        await play(build_match_service(repo), 3)
        assert (tmp_path / "strategos.db-wal").stat().st_size > 0
        committed = rows(path, MOVES)
        # Another writer is in the middle of a transaction (it deletes a match): the copy neither waits for it
        # nor holds any of it.
        writer = sqlite3.connect(path, isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("DELETE FROM moves WHERE match_id = 1")
        try:
            result = run(tmp_path / "copy.db", "--database", path, cwd=tmp_path)
        finally:
            writer.execute("ROLLBACK")
            writer.close()
    finally:
        await repo.close()
    assert result.returncode == 0, result.stderr
    schema = migration_files()[-1][0]
    assert result.stdout.strip().splitlines() == [
        f"backed up {path} to {tmp_path / 'copy.db'}: schema {schema}, 3 matches, integrity ok"]
    copy = tmp_path / "copy.db"
    assert rows(copy, MOVES) == committed and len(committed) == 3
    assert rows(copy, "PRAGMA journal_mode") == [("delete",)]  # one file: no -wal or -shm to carry along
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", "strategos.db"]


async def test_a_copy_restores_by_taking_the_databases_place(tmp_path):
    path, copy = tmp_path / "strategos.db", tmp_path / "copy.db"
    repo = await open_repository(path)
    try:
        await play(build_match_service(repo), 2)
        backup.backup(path, copy)
        await play(build_match_service(repo), 1)  # after the backup: gone once it is restored
    finally:
        await repo.close()
    shutil.copyfile(copy, path)  # as docs/operating.md says: the bot stopped, the copy in the database's place
    repo = await open_repository(path)
    try:
        service = build_match_service(repo)
        assert sorted(m.id for m in await service.matches_of(1)) == [1, 2]
        assert await service.move_log(2, None) == ["a1-a3"]
        await play(service, 1)  # and it goes on from there
    finally:
        await repo.close()


async def test_an_existing_path_is_refused_in_one_line_unless_forced(tmp_path):
    path, copy = tmp_path / "strategos.db", tmp_path / "copy.db"
    repo = await open_repository(path)
    await play(build_match_service(repo), 1)
    await repo.close()
    copy.write_text("last week's backup")
    refused = run(copy, "--database", path, cwd=tmp_path)
    assert refused.returncode == 1 and refused.stderr.strip().splitlines() == [
        f"error: {copy} exists; add --force to replace it"]
    assert copy.read_text() == "last week's backup"
    forced = run(copy, "--force", "--database", path, cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert rows(copy, "SELECT count(*) FROM matches") == [(1,)]


def test_the_database_from_the_settings_and_what_is_not_one(tmp_path):
    missing = run("copy.db", cwd=tmp_path)  # STRATEGOS_DATABASE's default: strategos.db here, which is not there
    assert missing.returncode == 1 and missing.stderr.strip().splitlines() == ["error: no database at strategos.db"]
    (tmp_path / "notes.db").write_text("my notes " * 100)
    foreign = run("copy.db", "--database", "notes.db", cwd=tmp_path)
    assert foreign.returncode == 1 and foreign.stderr.strip().splitlines() == [
        "error: notes.db: file is not a database"]
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE notes (x)")
    other = run("copy.db", "--database", "other.db", cwd=tmp_path)
    assert other.returncode == 1 and other.stderr.strip().splitlines() == [
        "error: other.db is not a Strategos database (it has no matches)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db", "other.db"]  # no copy, no partial file


def test_postgresql_is_pointed_to_pg_dump_in_one_line_without_the_password(tmp_path):
    url = "postgresql://strategos:secret@db.example:5432/strategos?sslmode=require&password=secret"
    result = run("/backups/strategos.dump", cwd=tmp_path, env_extra={"STRATEGOS_DATABASE": url})
    assert result.returncode == 2 and result.stderr.strip().splitlines() == [
        "error: the database is PostgreSQL, which backs up with its own tool: pg_dump --format=custom "
        "--file=/backups/strategos.dump 'postgresql://strategos@db.example:5432/strategos?sslmode=require'"]


@pytest.mark.parametrize("damage", ["a lost row", "a damaged page"])
async def test_a_copy_that_does_not_verify_is_not_kept(tmp_path, monkeypatch, damage):
    path, copy = tmp_path / "strategos.db", tmp_path / "copy.db"
    repo = await open_repository(path)
    await play(build_match_service(repo), 2)
    await repo.close()
    copied = backup._copy

    def damaged_copy(source, partial):
        snapshot = copied(source, partial)
        if damage == "a lost row":
            connection = sqlite3.connect(partial)
            connection.execute("DELETE FROM matches WHERE id = 2")
            connection.commit()
            connection.close()
        else:
            pages = rows(partial, "PRAGMA page_count")[0][0]
            size = partial.stat().st_size // pages
            with open(partial, "r+b") as file:  # the root page of every table's schema: sqlite_master's second half
                file.seek(size // 2)
                file.write(b"\xff" * (size // 2))
        return snapshot

    monkeypatch.setattr(backup, "_copy", damaged_copy)
    with pytest.raises(backup.BackupError) as refused:
        backup.backup(path, copy)
    if damage == "a lost row":
        schema = migration_files()[-1][0]
        assert str(refused.value) == (f"the copy holds schema {schema} and 1 matches, the database schema {schema} "
                                      "and 2; nothing was written")
    else:
        assert str(refused.value).startswith("the copy failed its integrity check (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["strategos.db"]
