"""Times in the record: /history and the export say when each move was made and what it charged to its mover's
clock, the record tool reads such exports, and moves logged before times were kept show none."""

from __future__ import annotations

import aiosqlite
import pytest

from bot.domain import LoggedMove
from bot.games.engines import get_game
from bot.games.__main__ import main as record_tool
from bot.games.record import RecordError, format_record, parse_record, replay
from bot.matches.history import history_lines
from bot.storage.database import migrate, migration_files
from bot_helpers import move, posted_challenge, thread_of, match_id_of
from conftest import ON_BOTH

HOUR = 3600


async def clocked_match(world):
    result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob, clock="1 day")
    assert posted_challenge(result), result.response.content
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    return thread, match_id_of(thread)


@ON_BOTH
async def test_history_and_export_show_when_each_move_was_made_and_its_clock_time(world, tmp_path, capsys):
    thread, match_id = await clocked_match(world)
    started = (await world.bot.repo.get_match(match_id)).created_at
    await world.env.advance_time(2 * HOUR + 5 * 60)
    assert (await move(world.alice, thread, match_id, "a1-d4")).response.content.startswith("✅")
    await world.env.advance_time(30 * 60)
    assert (await move(world.bob, thread, match_id, "f12-f9")).response.content.startswith("✅")

    moves = await world.bot.repo.moves(match_id)
    assert [round(m.clock_used) for m in moves] == [2 * HOUR + 5 * 60, 30 * 60]

    shown = await world.carol.slash(world.channel, "history", match=match_id)
    lines = shown.response.embeds[0].description.splitlines()
    assert lines[0].endswith(f"· <t:{int(moves[0].created_at)}:f> · ⏱️ 2h 5m")
    assert lines[1].endswith(f"· <t:{int(moves[1].created_at)}:f> · ⏱️ 30m")

    exported = await world.carol.slash(world.channel, "export", match=match_id)
    (attachment,) = exported.response.attachments
    text = (await attachment.read()).decode("utf-8")
    assert "1. 0 a1-d4 {at " in text and " clock 2:05:00}" in text and " clock 0:30:00}" in text
    record = parse_record(text)
    assert [(m.move, m.at, m.clock) for m in record.moves] == [
        ("a1-d4", int(moves[0].created_at), 2 * HOUR + 5 * 60), ("f12-f9", int(moves[1].created_at), 30 * 60)]
    assert record.moves[0].at >= started
    assert replay(record).replayed == 2
    path = tmp_path / f"match-{match_id}.txt"
    path.write_text(text, encoding="utf-8")
    assert record_tool(["replay", str(path)]) == 0
    assert "2 of 2 moves replayed and checked." in capsys.readouterr().out


async def test_a_match_without_a_clock_records_times_but_no_clock(world):
    result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob,
                                     clock="No clock")
    assert posted_challenge(result)
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    match_id = match_id_of(thread)
    await move(world.alice, thread, match_id, "a1-d4")
    (logged,) = await world.bot.repo.moves(match_id)
    assert logged.clock_used is None
    line = (await world.alice.slash(world.channel, "history", match=match_id)).response.embeds[0].description
    assert line.endswith(f"· <t:{int(logged.created_at)}:f>") and "⏱️" not in line


def test_lines_of_moves_logged_without_times_show_none():
    game = get_game("epaminondas")
    old = LoggedMove(1, 0, "a1-d4", False, [], 1_000_000.0)
    assert history_lines(game, [old], ["alice", "bob"], None, timed=True)[0].endswith(
        "`a1-d4`. · <t:1000000:f>")
    assert history_lines(game, [(0, "a1-d4")], ["alice", "bob"], None, timed=True) == \
        history_lines(game, [(0, "a1-d4")], ["alice", "bob"], None)  # a bare entry: nothing to tell


def test_records_without_times_and_with_them_read_alike():
    entries = [LoggedMove(1, 0, "a1-d4", False, [], 1_765_000_000.4, 7261.6), LoggedMove(2, 1, "f12-f9", False, [],
                                                                                      1_765_003_600.0)]
    timed = format_record(game="epaminondas", num_players=2, seed=5, options={}, entries=entries,
                          names=["alice", "bob"], viewer=None, result=None, timed=True)
    assert "1. 0 a1-d4 {at 2025-12-06T05:46:40Z clock 2:01:02}" in timed
    assert "2. 1 f12-f9 {at 2025-12-06T06:46:40Z}" in timed
    record = parse_record(timed)
    assert format_record(record) == timed
    bare = format_record(game="epaminondas", num_players=2, seed=5, options={}, entries=[(0, "a1-d4"), (1, "f12-f9")],
                         names=["alice", "bob"], viewer=None, result=None)
    assert [(m.seat, m.move) for m in parse_record(bare).moves] == [(m.seat, m.move) for m in record.moves]
    assert replay(record).replayed == replay(parse_record(bare)).replayed == 2
    with pytest.raises(RecordError, match="line 12: a move's time"):
        parse_record(bare.replace("1. 0 a1-d4", "1. 0 a1-d4 {at yesterday}"))


async def test_moves_logged_before_the_migration_have_no_clock_time(tmp_path):
    db = await aiosqlite.connect(tmp_path / "old.db")
    try:
        for number, _, sql in migration_files():
            if number <= 13:  # the schema before move times were kept
                await db.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        await db.execute("INSERT INTO matches (id, guild_id, channel_id, game, seed, status, state, created_at,"
                         " updated_at) VALUES (1, 1, 1, 'epaminondas', 5, 'active', '{}', 1.0, 1.0)")
        await db.execute("INSERT INTO moves (match_id, version, seat, move, private, events, created_at)"
                         " VALUES (1, 1, 0, 'a1-d4', 0, '[]', 2.0)")
        await db.commit()
        await migrate(db)
        async with db.execute("SELECT created_at, clock_used FROM moves") as cursor:
            assert [tuple(r) for r in await cursor.fetchall()] == [(2.0, None)]
    finally:
        await db.close()
