"""Explore: a private sandbox from a board post or /explore, played through the picker, shared only on request."""

from __future__ import annotations

import io

from PIL import Image

from bot_helpers import board_posts, buttons, choose, is_disabled, move, start_match, stored


async def test_explore_epaminondas_steps_back_reset_and_share(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    board = board_posts(thread)[-1]
    version = (await world.bot.matches.get_match(match_id)).version
    assert "Explore" in buttons(board)
    opened = await world.bob.click(board, label="Explore")  # not his turn: exploring is for anyone, any time
    assert opened.ephemeral
    panel = opened.response
    assert "Explore** match" in panel.content and "your view" in panel.content
    await choose(world, world.bob, panel, "a1")
    await choose(world, world.bob, panel, "-d4")
    now = stored(world, panel)
    assert "1. alice `a1-d4`" in now.content and "Move for **bob**" in now.content
    assert [a.filename for a in now.attachments] == ["explore.png"]
    image = Image.open(io.BytesIO(await now.attachments[0].read()))
    assert image.format == "PNG" and image.width >= 900
    await world.bob.click(panel, label="◀ Back")
    assert "(no moves yet)" in stored(world, panel).content
    await choose(world, world.bob, panel, "a1")
    await choose(world, world.bob, panel, "-d4")
    await choose(world, world.bob, panel, "f12")
    await world.bob.click(panel, label="⟲ Reset")
    assert "(no moves yet)" in stored(world, panel).content
    await choose(world, world.bob, panel, "a1")
    await choose(world, world.bob, panel, "-d4")
    # nothing reached the thread and the match did not move
    assert len(board_posts(thread)) == 1 and (await world.bot.matches.get_match(match_id)).version == version
    before = len(thread.history())
    await world.bob.click(panel, label="Share line")
    posts = thread.history()
    assert len(posts) == before + 1
    shared = posts[-1] if posts[-1].attachments else posts[0]
    assert "A line explored from the start by **bob**" in shared.content and "a1-d4" in shared.content
    assert [a.filename for a in shared.attachments] == ["line.gif"]
    assert (await world.bot.matches.get_match(match_id)).version == version
