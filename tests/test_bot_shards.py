"""Several bot processes: whoever handles an action presents it, also for a server its cache does not hold (another
process's shard), and the start-up repair of boards covers only this process's shards."""

from __future__ import annotations

from bot.matches.scope import ProcessScope, shard_of
from bot_helpers import text_of, buttons, board_posts, start_match, stored
from conftest import ON_BOTH

DAY = 24 * 3600


def forget_the_server(world, monkeypatch) -> list[int]:
    """From now on the bot process holds none of the test server in its cache, as a process running other shards
    would; returns the channel lookups by REST it makes, as they come."""
    monkeypatch.setattr(world.bot, "get_channel", lambda channel_id: None)
    lookups = []
    fetch = world.bot.fetch_channel

    async def recorded(channel_id):
        lookups.append(channel_id)
        return await fetch(channel_id)

    monkeypatch.setattr(world.bot, "fetch_channel", recorded)
    return lookups


async def test_a_board_is_posted_by_a_process_without_the_server_in_its_cache_with_no_lookup(world, monkeypatch):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    lookups = forget_the_server(world, monkeypatch)
    boards = len(board_posts(thread))
    with world.env.time_context():  # a move another process took (a /move in DMs comes to shard 0)
        report = await world.bot.matches.submit_move(match_id, world.alice.user.id, "a1-a3")
    assert await report.presented
    await world.env.settle()
    posts = board_posts(thread)
    assert len(posts) == boards + 1 and "a1-a3" in text_of(posts[-1])
    assert lookups == []  # posted by the thread's id through the REST API, nothing looked up first


async def test_a_challenge_expiring_in_a_process_without_the_server_in_its_cache_updates_its_post(world, monkeypatch):
    await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    forget_the_server(world, monkeypatch)
    post = world.channel.last_message
    await world.env.advance_time(25 * 3600)  # the expiry timer may be claimed by any process
    now = stored(world, post)
    assert "expired" in text_of(now) and not buttons(now)


async def test_a_deadline_fired_by_a_process_without_the_server_in_its_cache_ends_the_match_in_its_thread(
        world, monkeypatch):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    lookups = forget_the_server(world, monkeypatch)
    await world.env.advance_time(4 * DAY)  # alice's three days ran out
    assert "ran out of time" in text_of(board_posts(thread)[-1])
    assert lookups == [thread.id]  # only to archive the thread: a partial channel can't say it is one


def test_a_server_belongs_to_the_shard_discord_sends_its_events_to():
    guild = (123456789 << 22) | 4321  # Discord: (server id >> 22) % shard count
    assert shard_of(guild, 4) == 123456789 % 4 and shard_of(None, 4) == 0  # a match in DMs: shard 0
    assert ProcessScope().owns(guild) and ProcessScope(None, None).owns(None)
    assert ProcessScope((0, 1), 4).owns(guild) == (123456789 % 4 in (0, 1))
    assert ProcessScope((1,), 2).owns(None) is False and ProcessScope((0,), 2).owns(None) is True


@ON_BOTH
async def test_a_bot_running_every_shard_neither_listens_nor_looks_periodically(world):
    """Alone on its database, every timer is written by this process and wakes its dispatcher: a periodic look (or a
    LISTEN connection) would only keep an idle bot busy. Processes sharing a database do both (multiprocess test)."""
    await start_match(world, "epaminondas", world.alice, world.bob)  # its clocks' timers are written
    timers = world.bot.matches.timers
    assert world.bot.settings.runs_every_shard
    assert timers.sweep_every is None and not timers.listening
