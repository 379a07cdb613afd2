"""A damaged match fails alone: a row of the database file damaged under the bot (a state that is not JSON, one its
engine refuses, a missing seat) sets that match aside with one line for the operator, its players get one clear
line wherever they touch it, and the bot, the computer and every other match go on."""

from __future__ import annotations

import logging
import sqlite3

from bot_helpers import text_of, board_posts, match_id_of, move, start_match, thread_of

DAMAGED = "The record of match #{match} is damaged; the server's operator has been told."
SET_ASIDE = "is damaged and set aside"


def damage(world, sql: str, *params) -> None:
    """Change the bot's SQLite file behind its back, as a bad disk or a careless hand would."""
    connection = sqlite3.connect(world.settings.database)
    try:
        with connection:
            connection.execute(sql, params)
    finally:
        connection.close()


async def computer_match(world, member):
    await member.slash(world.channel, "play", game="epaminondas", computer="easy")
    thread = thread_of(world)
    return thread, match_id_of(thread)


def operator_lines(caplog, match_id: int) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.ERROR and SET_ASIDE in r.getMessage() and f"match={match_id} " in r.getMessage()]


async def test_a_state_that_is_not_json_sets_its_match_aside_and_the_bot_starts(world, caplog):
    damaged_thread, damaged_id = await computer_match(world, world.alice)
    other_thread, other_id = await start_match(world, "epaminondas", world.alice, world.bob)
    computer_thread, computer_id = await computer_match(world, world.carol)
    damage(world, "UPDATE matches SET state = '{\"board\": [' WHERE id = ?", damaged_id)

    await world.restart()  # start-up resumes the computer's matches: the damaged one must not stop it

    said = await move(world.alice, damaged_thread, damaged_id, "a1-a3")
    assert said.ephemeral and said.response.content == DAMAGED.format(match=damaged_id)
    games = await world.alice.slash(world.channel, "games")
    listed = games.response.content
    assert DAMAGED.format(match=damaged_id) in listed and f"#{other_id} Epaminondas vs bob" in listed
    # every other match plays on, the computer's too
    assert (await move(world.alice, other_thread, other_id, "a1-a3")).response.content.startswith("✅")
    before = len(board_posts(computer_thread))
    assert (await move(world.carol, computer_thread, computer_id, "a1-a3")).response.content.startswith("✅")
    await world.env.advance_time(5)
    assert len(board_posts(computer_thread)) == before + 2  # carol's move and the computer's answer
    assert "Strategos (easy)" in text_of(board_posts(computer_thread)[-1])

    # its deadline passes twice over, and the bot restarts: the operator was told once
    await world.env.advance_time(4 * 24 * 3600)
    await world.env.advance_time(4 * 24 * 3600)
    await world.restart()
    again = await move(world.alice, damaged_thread, damaged_id, "a1-a3")
    assert again.response.content == DAMAGED.format(match=damaged_id)
    assert len(operator_lines(caplog, damaged_id)) == 1
    assert "state is not valid JSON" in operator_lines(caplog, damaged_id)[0]


async def test_a_state_its_engine_refuses_is_damaged_for_every_command_and_button(world, caplog):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    other_thread, other_id = await start_match(world, "archimedes", world.bob, world.carol)
    board = board_posts(thread)[-1]
    damage(world, "UPDATE matches SET state = '{\"board\": 5}' WHERE id = ?", match_id)
    await world.restart()  # a damaged file is found when the match is loaded, after the state in memory is gone

    line = DAMAGED.format(match=match_id)
    assert (await world.bob.slash(thread, "board", match=match_id)).response.content == line
    assert (await world.alice.slash(thread, "history", match=match_id)).response.content == line
    clicked = await world.alice.click(board, label="Move")
    assert clicked.ephemeral and line in text_of((clicked.followups[-1] if clicked.followups else clicked.response))
    await fails_alone(world, caplog, (world.bob, thread, match_id), (world.bob, other_thread, other_id, "d1-g1"),
                      listed=f"#{other_id} Archimedes vs carol", reason="engine refuses")


async def test_a_missing_seat_is_damage_the_other_player_is_told_of(world, caplog):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    other_thread, other_id = await start_match(world, "epaminondas", world.alice, world.carol)
    damage(world, "DELETE FROM match_seats WHERE match_id = ? AND seat = 1", match_id)
    await fails_alone(world, caplog, (world.alice, thread, match_id), (world.alice, other_thread, other_id, "a1-a3"),
                      listed=f"#{other_id} Epaminondas vs carol", reason="seats are missing")


async def fails_alone(world, caplog, damaged, other, *, listed: str, reason: str) -> None:
    """The damaged match's player (`damaged`: member, thread, match) is told in one line by /move and marked in
    /games beside her other matches (`listed`); `other` (member, thread, match, move) plays on; the operator was
    told once, and why (`reason`)."""
    member, thread, match_id = damaged
    line = DAMAGED.format(match=match_id)
    assert (await move(member, thread, match_id, "a1-a3")).response.content == line
    games = (await member.slash(world.channel, "games")).response.content
    assert line in games and listed in games
    player, other_thread, other_id, other_move = other
    assert (await move(player, other_thread, other_id, other_move)).response.content.startswith("✅")
    assert len(operator_lines(caplog, match_id)) == 1
    assert reason in operator_lines(caplog, match_id)[0]


async def test_a_deadline_of_a_damaged_match_waits_while_the_others_are_settled(world, caplog):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    other_thread, other_id = await start_match(world, "epaminondas", world.carol, world.bob)
    damage(world, "UPDATE matches SET state = 'not json' WHERE id = ?", match_id)

    await world.env.advance_time(4 * 24 * 3600)  # both deadlines pass: the damaged match's timer meets it first
    assert "carol ran out of time" in text_of(board_posts(other_thread)[-1])
    assert not any("ran out of time" in text_of(post) for post in board_posts(thread))
    await world.env.advance_time(4 * 24 * 3600)  # its timers wait: nothing fires again, nothing is said again
    assert len(operator_lines(caplog, match_id)) == 1
    assert DAMAGED.format(match=match_id) in (await world.alice.slash(world.channel, "games")).response.content
