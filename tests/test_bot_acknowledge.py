"""Every kind of interaction is acknowledged before anything that can wait on the database: with every storage
call held back, a slash command, a button, a select, the picker's Move / select / Confirm, Consent and /board
still get their acknowledgement, and finish once the database answers.

(Strategos shows no modals. Autocomplete cannot be deferred: it answers from one bounded read, see
docs/performance.md.)
"""

from __future__ import annotations

import pytest

from bot_helpers import text_of, buttons, HeldDatabase, board_posts, choose, open_match, start_match, stored
from mycenae_policy import make_policy
from test_bot_mycenae import last_dm, play_until_request


async def held_click(world, member, message, **where):
    """Click while the database is held back: the click must be acknowledged, and must have reached the
    database (else the hold proved nothing); then the database answers and the handler finishes."""
    with HeldDatabase(world) as held:
        result = await member.click(message, **where)
        assert result.acknowledged, "no acknowledgement while the database was held"
        assert held.calls, "the click never reached the database"
    await world.env.settle()
    return result


async def held_slash(world, member, channel, name, **options):
    with HeldDatabase(world) as held:
        result = await member.slash(channel, name, **options)
        assert result.acknowledged, f"/{name} was not acknowledged while the database was held"
        assert held.calls, f"/{name} never reached the database"
    await world.env.settle()
    return result


async def held_select(world, member, message, value):
    with HeldDatabase(world) as held:
        result = await choose(world, member, message, value)
        assert result.acknowledged, "the select was not acknowledged while the database was held"
        assert held.calls, "the select never reached the database"
    await world.env.settle()
    return result


@pytest.mark.vacation_days(30)
async def test_slash_commands_are_acknowledged_while_the_database_is_held(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    games = await held_slash(world, world.alice, world.channel, "games")
    assert games.ephemeral and f"#{match_id}" in games.response.content
    moved = await held_slash(world, world.alice, thread, "move", match=match_id, move="a1-d4")
    assert moved.response.content.startswith("✅")
    history = await held_slash(world, world.alice, thread, "history", match=match_id)
    assert history.ephemeral and "a1-d4" in history.response.embeds[0].description
    clock = await held_slash(world, world.bob, thread, "clock", match=match_id)
    assert clock.ephemeral and f"#{match_id}" in clock.response.content
    away = await held_slash(world, world.carol, world.channel, "away", days=2)
    assert away.ephemeral and "paused" in away.response.content
    leaderboard = await held_slash(world, world.carol, world.channel, "leaderboard", game="epaminondas")
    assert leaderboard.ephemeral and leaderboard.response.embeds
    profile = await held_slash(world, world.carol, world.channel, "profile")
    assert profile.ephemeral and "no rated matches" in profile.response.content
    for name, options in (("notify", {"turns": "on"}), ("back", {})):
        answered = await held_slash(world, world.carol, world.channel, name, **options)
        assert answered.ephemeral and answered.response.content
    exported = await held_slash(world, world.alice, thread, "export", match=match_id)
    assert exported.ephemeral and exported.response.attachments
    asked = await held_slash(world, world.alice, thread, "takeback", match=match_id)
    assert asked.ephemeral and asked.response.content.startswith("↩️ You asked to take back `a1-d4`")


async def test_board_is_acknowledged_while_the_database_is_held(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    board = await held_slash(world, world.bob, world.channel, "board", match=match_id)
    assert board.ephemeral and board.response.content.startswith("Board re-posted")
    assert len(board_posts(thread)) == 2


async def test_play_is_acknowledged_and_a_refusal_stays_private(world):
    result = await held_slash(world, world.alice, world.channel, "play", game="archimedes", opponent=world.bob)
    assert result.ephemeral and result.response.content == "Challenge posted below."
    challenge = world.channel.last_message
    assert not challenge.flags.ephemeral and "Accept" in buttons(challenge)
    accepted = await held_click(world, world.bob, challenge, label="Accept")
    assert accepted.acknowledged and world.channel.threads


async def test_the_pickers_move_select_and_confirm_are_acknowledged_while_the_database_is_held(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    opened = await held_click(world, world.alice, board_posts(thread)[-1], label="Move")
    assert opened.ephemeral
    picker = opened.response
    assert "Your move" in text_of(picker)
    await held_select(world, world.alice, picker, "a1")
    await held_select(world, world.alice, picker, "-d4")
    assert "Ready to play" in text_of(stored(world, picker))
    await held_click(world, world.alice, picker, label="Confirm")
    assert text_of(stored(world, picker)).startswith("✅ You played `a1-d4`")
    assert (await world.bot.matches.get_match(match_id)).version == 1


async def test_board_buttons_are_acknowledged_while_the_database_is_held(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    board = board_posts(thread)[-1]
    mine = await held_click(world, world.bob, board, label="My view")
    assert mine.ephemeral and mine.response.attachments
    resign = await held_click(world, world.bob, board, label="Resign")
    assert resign.ephemeral and "Resign match" in resign.response.content
    draw = await held_click(world, world.bob, board, label="Offer draw")
    assert draw.ephemeral and draw.response.content.startswith("Draw offered")
    answer = await held_click(world, world.alice, world.channel.threads[-1].last_message, label="Decline draw")
    assert "declined" in text_of(stored(world, answer.response))
    await held_click(world, world.bob, resign.response, label="Yes, resign")
    assert not (await world.bot.matches.get_match(match_id)).active


async def test_consent_is_acknowledged_while_the_database_is_held(world):
    members = [world.alice, world.bob, world.carol]
    thread, match_id = await open_match(world, "mycenae", members)
    choose_move = make_policy(28)  # a short 3-player match in which a load request comes early
    service = world.bot.matches
    match, seat = await play_until_request(world, thread, match_id, members, choose_move)
    asked = members[seat]
    answered = await held_click(world, asked.user, last_dm(asked), label="Refuse")
    assert answered.ephemeral and answered.response.content.startswith("✅ You refused the request")
    assert (await service.get_match(match_id)).version == match.version + 1
