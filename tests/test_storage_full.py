"""A full disk: the player hears "storage is full; nothing was changed", the operator gets one error line, and the
bot goes on by itself once there is space again. SQLite's page limit (PRAGMA max_page_count) stands in for the
disk: SQLite answers both with SQLITE_FULL, "database or disk is full"."""

from __future__ import annotations

import logging
import random
import sqlite3

import asyncpg
import pytest
from bot_helpers import board_posts, move, moves_stored, start_match

from bot.i18n import t
from bot.matches.errors import is_storage_full
from bot.views.common import STORAGE_FULL


async def pragma(world, statement: str) -> int:
    """A pragma on the bot's writing connection (max_page_count is one connection's own)."""
    async with world.bot.repo.driver.db.execute(f"PRAGMA {statement}") as cursor:
        return (await cursor.fetchone())[0]


async def test_a_full_database_changes_nothing_says_so_and_recovers_once_there_is_room(world, caplog):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    members = [world.alice, world.bob]
    service = world.bot.matches
    await pragma(world, f"max_page_count = {await pragma(world, 'page_count')}")  # the disk is full from now on
    # Each move takes room in pages partly filled: played until one needs a page more (random moves: a match
    # raced to its end is over before that).
    choices = random.Random(1)
    for _ in range(200):
        match = await service.get_match(match_id)
        game, state = service.game_of(match), service.state_of(match)
        seat = game.to_act(state)[0]
        text = choices.choice(game.legal_moves(state, seat))
        stored, posts = await moves_stored(world, match_id), len(board_posts(thread))
        with caplog.at_level(logging.ERROR, logger="bot.views.common"):
            caplog.clear()
            result = await move(members[seat], thread, match_id, text)
        if not result.response.content.startswith("✅"):
            break
    else:
        raise AssertionError("200 moves fitted in a full database")
    assert result.ephemeral and result.response.content == STORAGE_FULL
    assert (await service.get_match(match_id)).version == match.version  # nothing was changed
    assert await moves_stored(world, match_id) == stored and len(board_posts(thread)) == posts
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None, errors
    assert "database's storage is full (database or disk is full)" in errors[0].getMessage()

    await pragma(world, "max_page_count = 1073741823")  # room again: the same move now plays, nothing restarted
    again = await move(members[seat], thread, match_id, text)
    assert again.response.content.startswith("✅"), again.response.content
    assert await moves_stored(world, match_id) == stored + 1 and len(board_posts(thread)) == posts + 1


def test_the_answer_is_translated():
    for lang in ("de", "es", "fr", "pt_BR"):
        assert t(lang, STORAGE_FULL) != STORAGE_FULL, lang


def test_what_is_a_full_storage_on_either_database(tmp_path):
    connection = sqlite3.connect(tmp_path / "full.db")
    connection.execute("CREATE TABLE t (x)")
    (pages,) = connection.execute("PRAGMA page_count").fetchone()
    connection.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(sqlite3.OperationalError) as full:
        connection.execute("INSERT INTO t VALUES (zeroblob(100000))")
    assert is_storage_full(full.value)
    with pytest.raises(sqlite3.OperationalError) as other:
        connection.execute("INSERT INTO nowhere VALUES (1)")
    assert not is_storage_full(other.value)
    # PostgreSQL: "could not extend file …: No space left on device", SQLSTATE 53100, as asyncpg raises it
    assert is_storage_full(asyncpg.exceptions.DiskFullError("could not extend file"))
    assert not is_storage_full(asyncpg.exceptions.UniqueViolationError("duplicate key"))
    assert not is_storage_full(OSError(28, "No space left on device"))  # not the database's own word


async def test_the_wal_gives_its_space_back_once_checkpointed(tmp_path, monkeypatch):
    # On a small disk a burst grew the WAL until the disk was full, and it stayed that size after the burst.
    from bot.storage import database
    from bot.storage.opening import open_repository

    monkeypatch.setattr(database, "WAL_SIZE_LIMIT", 1 << 20)
    repo = await open_repository(tmp_path / "strategos.db")
    wal = tmp_path / "strategos.db-wal"
    try:
        driver = repo.driver
        async with driver.transaction():  # 4 MB in one go: the WAL holds all of it until the commit's checkpoint
            await driver.db.execute("CREATE TABLE burst (x)")
            await driver.db.executemany("INSERT INTO burst VALUES (randomblob(4000))", [()] * 1000)
        assert wal.stat().st_size > 4_000_000
        await driver.fetch("SELECT count(*) FROM burst")  # the reader moves past the checkpointed frames
        for _ in range(2):  # the next writes start the WAL over, and cut it back
            await driver.write_statements([("DELETE FROM burst WHERE rowid = (SELECT min(rowid) FROM burst)", ())])
        assert wal.stat().st_size <= 1 << 20
    finally:
        await repo.close()
