"""Never late for Discord: an interaction is answered before the board it causes has been drawn."""

from __future__ import annotations

import asyncio

from bot_helpers import text_of, board_posts, hold_renders, move, start_match


async def test_a_move_is_acknowledged_while_its_board_render_is_held(world, monkeypatch):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    gate = hold_renders(world, monkeypatch)
    result = await move(world.alice, thread, match_id, "a1-a3")
    assert result.acknowledged and result.ephemeral
    assert result.response.content == "✅ You played `a1-a3` in match #1."
    assert len(board_posts(thread)) == 1  # the new board is still being drawn
    gate.set()
    await world.env.settle()
    assert len(board_posts(thread)) == 2 and "played `a1-a3`" in text_of(board_posts(thread)[-1])


async def test_a_move_is_acknowledged_before_its_write_waits_for_the_database(world, monkeypatch):
    """Writes share one connection: in a burst a move queues behind other matches' writes, so /move defers first."""
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    gate = asyncio.Event()
    repo_class = type(world.bot.repo)
    original = repo_class.commit_move

    async def queued(self, *args, **kwargs):
        await world.env.external_wait(gate.wait(), reason="other matches' writes ahead of this one")
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(repo_class, "commit_move", queued)
    result = await move(world.alice, thread, match_id, "a1-a3")  # returns once the bot waits for the write
    assert result.acknowledged and result.deferred and result.ephemeral  # Discord heard back in time
    gate.set()
    await world.env.settle()
    assert result.response.content == "✅ You played `a1-a3` in match #1."
    assert "played `a1-a3`" in text_of(board_posts(thread)[-1])
