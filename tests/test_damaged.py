"""Damaged matches set aside, on both databases (the store's functions), and the operator's commands on a real
SQLite file: `python -m bot damaged list | end N | restore N --from BACKUP` (a backup made by bot.backup)."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from bot import backup, damaged
from bot.composition import build_match_service
from bot.domain import DamagedMatch
from bot.storage.opening import open_repository
from bot.storage.set_aside import NotSetAside

NOW = 1_000_000.0


async def start(service, challenger: int = 1, opponent: int = 2) -> int:
    """An Epaminondas match (the default clock: 3 days), its first move played: its id."""
    challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=challenger,
                                               challenger_name=f"u{challenger}", game_key="epaminondas",
                                               invited=[opponent])
    challenge = await service.accept_challenge(challenge.id, opponent, f"u{opponent}")
    await service.submit_move(challenge.match_id, challenger, "a1-a3")
    return challenge.match_id


async def due_timers(repo, match_id: int) -> list[str]:
    """The kinds of the match's timers a dispatcher could claim, however late."""
    claimed = await repo.timer_claims().claim_due("test#1", 1e10, 1e10 + 60, 100)  # in the year 2286
    await repo.timer_claims().release("test")
    return sorted(t.kind for t in claimed if t.ref_id == match_id)


async def test_a_match_set_aside_answers_damaged_its_timers_wait_and_it_is_ended_or_restored(service):
    repo = service.repo
    match_id = await start(service)
    other = await start(service, 3, 4)
    rows = await repo.damaged.match_rows(match_id)
    assert await due_timers(repo, match_id) == ["turn_deadline", "turn_reminder"]

    assert await repo.damaged.set_aside(match_id, "its log does not replay to its state", NOW) is True
    assert await repo.damaged.set_aside(match_id, "again", NOW) is False  # once: the operator is told once
    with pytest.raises(DamagedMatch) as found:
        await repo.get_match(match_id)
    assert found.value.known and found.value.reason == "its log does not replay to its state"
    assert found.value.players == (1, 2)
    assert await due_timers(repo, match_id) == []  # they wait
    await repo.timer_claims().release_stale()  # a restart on SQLite gives back its own claims, not these
    assert await due_timers(repo, match_id) == []
    listed = await repo.damaged.set_aside_matches()
    assert [(s.match_id, s.status, s.reason, s.players) for s in listed] == [
        (match_id, "active", "its log does not replay to its state", (1, 2))]
    assert [m.id for m in await service.matches_of(3)] == [other]  # nobody else's match is touched

    await repo.damaged.restore(rows)
    assert (await repo.get_match(match_id)).version == 1
    assert await repo.damaged.set_aside_matches() == []
    assert await due_timers(repo, match_id) == ["turn_deadline", "turn_reminder"]
    await service.submit_move(match_id, 2, "a12-a10")  # it plays again

    await repo.damaged.set_aside(match_id, "its stored state is not valid JSON", NOW)
    assert await repo.damaged.end(match_id, NOW) is None  # no league
    with pytest.raises(NotSetAside):
        await repo.damaged.end(match_id, NOW)  # once
    [ended] = await repo.damaged.set_aside_matches()
    assert ended.status == "finished"
    assert await due_timers(repo, match_id) == []
    assert await service.matches_of(1) == []  # it no longer stands among her matches
    with pytest.raises(NotSetAside):
        await repo.damaged.end(other, NOW)  # only a match set aside is ended this way


async def test_a_missing_seat_or_bad_json_is_found_as_the_match_is_read(service):
    repo = service.repo
    match_id = await start(service)
    await repo.driver.write_statements([("UPDATE matches SET draw_agreed = ? WHERE id = ?", ("[0,", match_id))])
    with pytest.raises(DamagedMatch, match="draw_agreed is not valid JSON"):
        await repo.get_match(match_id)
    await repo.driver.write_statements([("UPDATE matches SET draw_agreed = NULL WHERE id = ?", (match_id,)),
                                        ("DELETE FROM match_seats WHERE match_id = ?", (match_id,))])
    with pytest.raises(DamagedMatch, match=r"seats are missing \(seats found: none\)"):
        await repo.load_match(match_id)
    assert [type(found) for found in await repo.active_matches_with_computers()] == []



async def test_ending_a_league_match_lets_its_league_go_on(service):
    repo = service.repo
    match_id = await start(service)
    challenge_id = await repo.driver.fetchvalue("SELECT id FROM challenges WHERE match_id = ?", (match_id,))
    (done,) = await repo.driver.write_statements([(
        "INSERT INTO leagues (guild_id, channel_id, name, name_key, game, format, signup_hours, organiser_id,"
        " status, signup_ends_at, created_at, round) VALUES (9, 8, 'Cup', 'cup', 'epaminondas', 'round_robin', 1, 1,"
        " 'running', 0, 0, 1) RETURNING id", ())])
    league_id = done.one()[0]
    await repo.driver.write_statements([(
        "INSERT INTO league_tables (league_id, round, division, board, players, challenge_id)"
        " VALUES (?, 1, 1, 1, '[1, 2]', ?)", (league_id, challenge_id))])
    await repo.damaged.set_aside(match_id, "its seats are missing", NOW)

    assert await repo.damaged.end(match_id, NOW) == league_id
    [table] = await repo.leagues.tables(league_id)
    assert table.finished and table.result == {"winners": [], "reason": "aborted"}
    step = await repo.timer_claims().claim_due("test#1", NOW, NOW + 60, 100)
    assert [(t.kind, t.ref_id) for t in step] == [("league_step", -league_id)]  # the league looks again now

# --- the operator's commands, on a real SQLite file ----------------------------------------------------------------


def command(capsys, *argv) -> tuple[int, str, str]:
    code = damaged.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out.strip(), err.strip()


async def prepare(database, backup_path=None) -> tuple[int, int]:
    """Two matches, a backup (of a SQLite file), then the first one's state damaged and met by the service (set
    aside)."""
    repo = await open_repository(database)
    try:
        service = build_match_service(repo, seed_source=lambda: 7)
        first, second = await start(service), await start(service, 3, 4)
        if backup_path is not None:
            backup.backup(database, backup_path)
        await repo.driver.write_statements([("UPDATE matches SET state = '{\"bo' WHERE id = ?", (first,))])
        assert [m.id for m in await service.matches_of(1)] == []  # found as it was read, and set aside
        return first, second
    finally:
        await repo.close()


async def stored(path, match_id):
    repo = await open_repository(path)
    try:
        return await repo.get_match(match_id)
    finally:
        await repo.close()


def test_list_and_restore_from_a_backup(tmp_path, capsys):
    path, saved = tmp_path / "strategos.db", tmp_path / "backup.db"
    first, second = asyncio.run(prepare(path, saved))

    code, out, _ = command(capsys, "list", "--database", path)
    assert code == 0 and out.startswith(f"#{first} epaminondas active at version 1, set aside ")
    assert "its stored state is not valid JSON" in out and "players 1, 2" in out and len(out.splitlines()) == 1

    code, _, err = command(capsys, "restore", second, "--from", saved, "--database", path)
    assert code == 1 and err == f"error: match #{second} is not set aside (see python -m bot damaged list)"
    code, out, _ = command(capsys, "restore", first, "--from", saved, "--database", path)
    assert code == 0 and out.startswith(f"restored match #{first} from {saved} at version 1")
    match = asyncio.run(stored(path, first))
    assert match.state["game"] == "epaminondas" and match.version == 1
    assert command(capsys, "list", "--database", path)[1] == "no match is set aside"
    assert sqlite3.connect(saved).execute("PRAGMA integrity_check").fetchone() == ("ok",)  # the backup untouched


def test_a_backup_that_holds_the_same_damage_is_refused(tmp_path, capsys):
    path, saved = tmp_path / "strategos.db", tmp_path / "backup.db"
    first, _ = asyncio.run(prepare(path, saved))
    connection = sqlite3.connect(saved)
    with connection:
        connection.execute("UPDATE matches SET state = ? WHERE id = ?", (json.dumps({"board": 5}), first))
    connection.close()
    code, _, err = command(capsys, "restore", first, "--from", saved, "--database", path)
    assert code == 1 and err.startswith(f"error: match #{first} is damaged in the backup too (its engine refuses")
    code, _, err = command(capsys, "restore", first, "--from", tmp_path / "none.db", "--database", path)
    assert code == 1 and err == f"error: no backup at {tmp_path / 'none.db'}"
    assert command(capsys, "list", "--database", path)[1].startswith(f"#{first} ")  # still set aside


def test_end_records_it_aborted_and_unrated(tmp_path, capsys):
    path, saved = tmp_path / "strategos.db", tmp_path / "backup.db"
    first, second = asyncio.run(prepare(path, saved))
    code, out, _ = command(capsys, "end", first, "--database", path)
    assert code == 0 and out.startswith(f"ended match #{first} as aborted: unrated, nobody wins")
    row = sqlite3.connect(path).execute("SELECT status, result, rated FROM matches WHERE id = ?", (first,)).fetchone()
    assert row == ("finished", '{"reason":"aborted","winners":[]}', 0)
    assert " ended (aborted) at version 1" in command(capsys, "list", "--database", path)[1]
    code, _, err = command(capsys, "end", first, "--database", path)
    assert code == 1 and err == f"error: match #{first} is over already; nothing to end"
    code, _, err = command(capsys, "end", second, "--database", path)
    assert code == 1 and "is not set aside" in err
    code, _, err = command(capsys, "list", "--database", tmp_path / "missing.db")
    assert code == 1 and err == f"error: no database at {tmp_path / 'missing.db'}"


def test_a_match_on_postgresql_is_restored_from_a_sqlite_backup_and_ended(tmp_path, capsys, migrated_postgres_dsn):
    saved = tmp_path / "backup.db"
    asyncio.run(prepare(tmp_path / "strategos.db", saved))  # the same two matches, backed up from SQLite
    first, _ = asyncio.run(prepare(migrated_postgres_dsn))  # and on PostgreSQL, damaged there
    code, out, _ = command(capsys, "list", "--database", migrated_postgres_dsn)
    assert code == 0 and out.startswith(f"#{first} epaminondas active at version 1")

    code, out, _ = command(capsys, "restore", first, "--from", saved, "--database", migrated_postgres_dsn)
    assert code == 0 and out.startswith(f"restored match #{first} from {saved} at version 1"), out
    assert asyncio.run(stored(migrated_postgres_dsn, first)).state["game"] == "epaminondas"

    code, _, err = command(capsys, "restore", first, "--from", migrated_postgres_dsn, "--database",
                           migrated_postgres_dsn)
    assert code == 1 and "password" not in err and "postgresql://" not in err


async def test_a_damaged_clock_column_is_found_as_the_match_is_read(service):
    """The clock's own columns (Fischer banks, clock rules) are part of the record: damage there sets the match
    aside like damage to its state, instead of failing every read of it."""
    repo = service.repo
    match_id = await start(service)
    await repo.driver.write_statements([("UPDATE matches SET clock_banks = ? WHERE id = ?", ("{\"banks\":", match_id))])
    with pytest.raises(DamagedMatch, match="its stored clock is not valid"):
        await repo.get_match(match_id)
    await repo.driver.write_statements([("UPDATE matches SET clock_banks = NULL, clock_rules = ? WHERE id = ?",
                                         ("[1, 2]", match_id))])
    with pytest.raises(DamagedMatch, match="its stored clock is not valid"):
        await repo.load_match(match_id)
