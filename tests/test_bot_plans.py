"""Planned replies: made on the Explore board after one's move, played the moment the expected move comes."""

from __future__ import annotations

import logging
import re

from bot_helpers import (text_of, EPAMINONDAS_LIGHT_WINS, board_posts, buttons, choose, components, is_disabled, move,
                         open_match, play_moves, start_match, stored)
from test_bot_explore import explore_move, sandbox_of
from test_bot_myrmidons import SOUTH_WINS, start_deployed_match
from conftest import ON_BOTH

W = EPAMINONDAS_LIGHT_WINS  # alice (Light) and bob alternate, alice first


async def plan(world, member, thread, line: list[str]):
    """Open Explore on the newest board, Plan replies, play the line, Save plan; returns the panel."""
    panel = (await member.click(board_posts(thread)[-1], label="Explore")).response
    assert "Plan replies" in buttons(panel)
    await member.click(panel, label="Plan replies")
    assert "**Plan replies**" in text_of(stored(world, panel))
    for text in line:
        await explore_move(world, member, panel, text)
    saved = await member.click(panel, label="Save plan")
    note = saved.followups[-1]
    assert note.ephemeral and text_of(note) == "🗓️ Plan saved."
    return panel


async def stored_plan(world, match_id, seat):
    return await world.bot.planner.store.get(match_id, seat)


@ON_BOTH
async def test_a_two_level_plan_is_played_by_the_opponents_moves(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, W[0])
    panel = await plan(world, world.alice, thread, W[1:5])
    assert f"if bob plays `{W[1]}` → you play `{W[2]}`" in text_of(stored(world, panel))
    version = (await world.bot.matches.get_match(match_id)).version

    await move(world.bob, thread, match_id, W[1])
    match = await world.bot.matches.get_match(match_id)
    assert match.version == version + 2  # bob's move and alice's planned answer
    last = thread.history()[-1]
    assert "planned reply" in text_of(last) and f"`{W[2]}`" in text_of(last) and f"`{W[1]}`" in text_of(last)
    assert f"**alice** (Light) played `{W[2]}`" in text_of(board_posts(thread)[-1])
    nxt = await stored_plan(world, match_id, 0)
    assert nxt is not None and nxt.version == match.version and list(nxt.tree) == [W[3]]

    await move(world.bob, thread, match_id, W[3])
    assert (await world.bot.matches.get_match(match_id)).version == version + 4
    assert await stored_plan(world, match_id, 0) is None  # the plan is used up
    await play_moves(world, thread, match_id, W[5:], [world.bob, world.alice])
    assert not (await world.bot.matches.get_match(match_id)).active
    history = await world.alice.slash(thread, "history", match=match_id)
    text = history.response.embeds[0].description
    planned = [line for line in text.splitlines() if "planned reply" in line]
    assert len(planned) == 2 and W[2] in planned[0] and W[4] in planned[1]


async def test_a_planned_reply_is_presented_without_an_error(world, caplog):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, W[0])
    await plan(world, world.alice, thread, W[1:3])
    caplog.set_level(logging.ERROR)
    await move(world.bob, thread, match_id, W[1])
    await world.bot.matches.bus.idle()
    assert "planned reply" in text_of(thread.history()[-1])
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_another_move_drops_the_plan(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, W[0])
    await plan(world, world.alice, thread, W[1:3])
    service = world.bot.matches
    match = await service.get_match(match_id)
    other = next(m for m in service.game_of(match).legal_moves(service.state_of(match), 1) if m != W[1])
    await move(world.bob, thread, match_id, other)
    assert (await service.get_match(match_id)).version == match.version + 1  # no reply was played
    assert await stored_plan(world, match_id, 0) is None
    assert "planned reply" not in text_of(thread.history()[-1])


async def test_a_takeback_drops_the_plan(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    played = await move(world.alice, thread, match_id, W[0])
    await plan(world, world.alice, thread, W[1:3])
    await world.alice.click(played.response, label="Take back")
    await world.bob.click(thread.last_message, label="Accept take-back")
    assert await stored_plan(world, match_id, 0) is None
    await move(world.alice, thread, match_id, W[0])
    await move(world.bob, thread, match_id, W[1])  # the old plan's move: nothing answers it now
    assert "planned reply" not in text_of(thread.history()[-1])
    assert world.alice.id in world.bot.matches.users_to_act(await world.bot.matches.get_match(match_id))


@ON_BOTH
async def test_a_plan_survives_a_restart(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, W[0])
    await plan(world, world.alice, thread, W[1:3])
    await world.restart()
    await move(world.bob, thread, match_id, W[1])
    assert "planned reply" in text_of(thread.history()[-1])
    assert f"**alice** (Light) played `{W[2]}`" in text_of(board_posts(thread)[-1])


async def test_a_plan_is_invisible_to_the_opponent_until_it_fires(world):
    """Twin matches: alice plans in one, not in the other; bob then plays a move the plan did not expect. Everything
    bob sees (the thread, his view) is byte for byte the same."""
    seen = []
    for plans in (True, False):
        world.bot.matches.seed_source = lambda: 1000
        thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
        await move(world.alice, thread, match_id, W[0])
        if plans:
            await plan(world, world.alice, thread, W[1:3])
        await move(world.bob, thread, match_id, "f12-f10")
        await move(world.alice, thread, match_id, "c1-c3")
        mine = await world.bob.click(board_posts(thread)[-1], label="My view")
        posts = [(re.sub(r"#\d+", "#N", text_of(m)), [await a.read() for a in m.attachments])
                 for m in thread.history()]
        seen.append((posts, await mine.response.attachments[0].read()))
    assert seen[0] == seen[1]


async def test_bad_plans_get_one_clear_private_answer(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    panel = (await world.alice.click(board_posts(thread)[-1], label="Explore")).response
    mine = await world.alice.click(panel, label="Plan replies")  # her turn: a plan comes after her move
    assert mine.followups[-1].ephemeral and "after your move" in mine.followups[-1].content
    assert "**Plan replies**" not in text_of(stored(world, panel))
    public = (await world.carol.click(board_posts(thread)[-1], label="Explore")).response
    assert "Plan replies" not in buttons(public)  # not a player: nothing to plan
    await move(world.alice, thread, match_id, W[0])
    panel = (await world.alice.click(board_posts(thread)[-1], label="Explore")).response
    await world.alice.click(panel, label="Plan replies")
    await explore_move(world, world.alice, panel, W[1])
    assert is_disabled(buttons(stored(world, panel))["Save plan"])  # an expected move needs her answer
    assert await stored_plan(world, match_id, 0) is None
    # what the board never offers is refused by the planner too: a non-player, a finished match, 3-4 players
    planner = world.bot.planner
    match = await world.bot.matches.get_match(match_id)
    assert planner.refusal(match, world.carol.id) == "Only the match's players can plan replies."
    await play_moves(world, thread, match_id, W[1:], [world.bob, world.alice])
    finished = await world.bot.matches.get_match(match_id)
    assert planner.refusal(finished, world.alice.id) == "This match is over: there is nothing left to plan."
    _, three = await open_match(world, "myriath", [world.alice, world.bob, world.carol])
    crowded = await world.bot.matches.get_match(three)
    assert planner.refusal(crowded, world.alice.id) == "Planned replies are for two-player matches only."


async def test_hidden_results_are_never_planned(world):
    thread, match_id = await start_deployed_match(world)
    await play_moves(world, thread, match_id, SOUTH_WINS[:2], [world.bob, world.alice])  # bob (North) to move
    panel = (await world.alice.click(board_posts(thread)[-1], label="Explore")).response
    await world.alice.click(panel, label="Plan replies")
    assert "**Plan replies**" in text_of(stored(world, panel))
    # bob's b4 steps next to her d4 (a plain move: one result), and her d4 attacks it: the fight would show
    # his hidden values, so that answer can't be planned
    await explore_move(world, world.alice, panel, "b4-c4")
    sandbox = sandbox_of(world, panel)
    assert [m.move for m in sandbox.line] == ["b4-c4"]
    await choose(world, world.alice, panel, "d4")
    menu = next(c.custom_id for c in components(stored(world, panel))
                if any(o.value == "c4" for o in getattr(c, "options", [])))
    refused = await world.alice.select(panel, ["c4"], custom_id=menu)
    note = refused.followups[-1]
    assert note.ephemeral and "`d4-c4` depends on hidden information" in text_of(note)
    assert [m.move for m in sandbox.line] == ["b4-c4"] and sandbox.path == ["d4"]  # as it was
    assert await stored_plan(world, match_id, 0) is None


async def test_a_cleared_plan_answers_nothing(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, W[0])
    panel = await plan(world, world.alice, thread, W[1:3])
    cleared = await world.alice.click(panel, label="Clear plan")
    assert cleared.followups[-1].content == "🗓️ Plan cleared."
    assert "(no plan)" in text_of(stored(world, panel))
    await move(world.bob, thread, match_id, W[1])
    assert "planned reply" not in text_of(thread.history()[-1])
    assert world.alice.id in world.bot.matches.users_to_act(await world.bot.matches.get_match(match_id))


async def test_a_reply_cut_off_by_a_stop_is_played_at_the_next_start(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, W[0])
    await plan(world, world.alice, thread, W[1:3])
    world.bot.matches.bus.unsubscribe(world.bot.planner._on_event)  # the bot stops before the plan is looked at
    await move(world.bob, thread, match_id, W[1])
    assert "planned reply" not in text_of(thread.history()[-1])
    await world.restart()
    await world.env.settle()
    assert "planned reply" in text_of(thread.history()[-1])
    assert f"**alice** (Light) played `{W[2]}`" in text_of(board_posts(thread)[-1])
