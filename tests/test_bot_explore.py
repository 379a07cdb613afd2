"""Explore: a private sandbox from a board post or /explore, played through the picker, shared only on request."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot_helpers import board_posts, buttons, choose, move, open_match, start_match, stored


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


def picker_path(game, state, seat, target: str, path=()) -> list[str] | None:
    """The picker steps that form `target` (a depth-first walk of the engine's choices)."""
    choices = game.choices(state, seat, list(path))
    if choices.move == target:
        return list(path)
    for option in choices.options:
        found = picker_path(game, state, seat, target, (*path, option.value))
        if found is not None:
            return found
    return None


def sandbox_of(world, panel):
    sandbox_id = next(c.custom_id for row in stored(world, panel).components for c in row.children
                      if c.custom_id.startswith("sg:e:")).split(":")[2]
    return world.bot.explorer._sandboxes[sandbox_id]


async def explore_move(world, member, panel, move_text: str) -> None:
    """Play `move_text` on an Explore board through its picker, step by step as a player would."""
    sandbox = sandbox_of(world, panel)
    seat = sandbox.game.to_act(sandbox.state)[0]
    for token in picker_path(sandbox.game, sandbox.state, seat, move_text):
        await choose(world, member, panel, token)
    if f"`{move_text}` is a complete move" in stored(world, panel).content:
        await member.click(panel, label="Play it")


async def play_random(world, thread, match_id, members, count, seed, avoid=()):
    rng = random.Random(seed)
    for _ in range(count):
        service = world.bot.matches
        match = await service.get_match(match_id)
        game, state = service.game_of(match), service.state_of(match)
        seat = game.to_act(state)[0]
        moves = [m for m in game.legal_moves(state, seat) if not m.startswith(avoid)] or game.legal_moves(state, seat)
        result = await move(members[seat], thread, match_id, rng.choice(moves))
        assert result.response.content.startswith("✅"), result.response.content


@pytest.mark.parametrize("game_key", ["archimedes", "myriath", "mycenae"])
async def test_explore_and_share_a_line_in_each_game(world, game_key):
    thread, match_id = await open_match(world, game_key, [world.alice, world.bob])
    members = [world.alice, world.bob]
    # Mycenae: past the secret cargo, and nothing that depends on it
    await play_random(world, thread, match_id, members, 4, seed=3, avoid=("unload", "burn"))
    service = world.bot.matches
    match = await service.get_match(match_id)
    game, state = service.game_of(match), service.state_of(match)
    seat = game.to_act(state)[0]
    explorer = members[1 - seat]  # the player not to move explores her opponent's reply
    panel = (await explorer.click(board_posts(thread)[-1], label="Explore")).response
    sandbox = sandbox_of(world, panel)
    candidates = [m for m in game.legal_moves(sandbox.state, seat) if not m.startswith(("unload", "burn", "load"))]
    line_move = sorted(candidates)[0]
    await explore_move(world, explorer, panel, line_move)
    now = stored(world, panel)
    assert f"`{line_move}`" in now.content.split("Line:")[1], now.content
    assert [a.filename for a in now.attachments] == ["explore.png"]
    versions = match.version
    await explorer.click(panel, label="Share line")
    shared = [m for m in thread.history() if "A line explored" in m.content]
    assert len(shared) == 1 and line_move in shared[0].content
    assert [a.filename for a in shared[0].attachments] == ["line.gif"]
    gif = Image.open(io.BytesIO(await shared[0].attachments[0].read()))
    assert gif.format == "GIF" and gif.n_frames >= 1
    assert (await service.get_match(match_id)).version == versions
