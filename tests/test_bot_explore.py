"""Explore: a private sandbox from a board post or /explore, played through the picker, shared only on request."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from bot.games.myrmidons import renderer as myrmidons_renderer
from bot.matches import explore as explore_module
from bot.matches.explore import SANDBOX_TTL, picture_banner
from bot_helpers import (text_of, components,
    EPAMINONDAS_LIGHT_WINS, board_posts, buttons, choose, hold_renders, move, open_match, play_moves, start_match, stored,
)
from renderers.explore import explore_png
from test_bot_myrmidons import SOUTH_WINS, start_deployed_match


async def test_explore_epaminondas_steps_back_reset_and_share(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    board = board_posts(thread)[-1]
    version = (await world.bot.matches.get_match(match_id)).version
    assert "Explore" in buttons(board)
    opened = await world.bob.click(board, label="Explore")  # not his turn: exploring is for anyone, any time
    assert opened.ephemeral
    panel = opened.response
    assert "Explore** match" in text_of(panel) and "your view" in text_of(panel)
    await choose(world, world.bob, panel, "a1")
    await choose(world, world.bob, panel, "-d4")
    now = stored(world, panel)
    assert "1. alice `a1-d4`" in text_of(now) and "Move for **bob**" in text_of(now)
    assert [a.filename for a in now.attachments] == ["explore.png"]
    image = Image.open(io.BytesIO(await now.attachments[0].read()))
    assert image.format == "PNG" and image.width >= 900
    await world.bob.click(panel, label="◀ Back")
    assert "(no moves yet)" in text_of(stored(world, panel))
    await choose(world, world.bob, panel, "a1")
    await choose(world, world.bob, panel, "-d4")
    await choose(world, world.bob, panel, "f12")
    await world.bob.click(panel, label="⟲ Reset")
    assert "(no moves yet)" in text_of(stored(world, panel))
    await choose(world, world.bob, panel, "a1")
    await choose(world, world.bob, panel, "-d4")
    # nothing reached the thread and the match did not move
    assert len(board_posts(thread)) == 1 and (await world.bot.matches.get_match(match_id)).version == version
    before = len(thread.history())
    await world.bob.click(panel, label="Share line")
    posts = thread.history()
    assert len(posts) == before + 1
    shared = posts[-1] if posts[-1].attachments else posts[0]
    assert "A line explored from the start by **bob**" in text_of(shared) and "a1-d4" in text_of(shared)
    assert [a.filename for a in shared.attachments] == ["line.gif"]
    assert (await world.bot.matches.get_match(match_id)).version == version


def picker_path(game, state, seat, target: str, path=(), viewer=None) -> list[str] | None:
    """The picker steps that form `target` (a depth-first walk of the choices an explorer seeing as `viewer` gets)."""
    choices = game.choices_seen_by(state, seat, list(path), viewer)
    if choices.move == target:
        return list(path)
    for option in choices.options:
        found = picker_path(game, state, seat, target, (*path, option.value), viewer)
        if found is not None:
            return found
    return None


def sandbox_of(world, panel):
    sandbox_id = next(c.custom_id for c in components(stored(world, panel))
                      if getattr(c, "custom_id", "").startswith("sg:e:")).split(":")[2]
    return world.bot.explorer._sandboxes[sandbox_id]


async def explore_move(world, member, panel, move_text: str) -> None:
    """Play `move_text` on an Explore board through its picker, step by step as a player would."""
    sandbox = sandbox_of(world, panel)
    seat = sandbox.game.to_act(sandbox.state)[0]
    path = picker_path(sandbox.game, sandbox.state, seat, move_text, viewer=sandbox.viewer)
    assert path is not None, (move_text, sandbox.game.legal_moves(sandbox.state, seat), text_of(stored(world, panel)))
    for token in path:
        await choose(world, member, panel, token)
    if f"`{move_text}` is a complete move" in text_of(stored(world, panel)):
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
    assert f"`{line_move}`" in text_of(now).split("Line:")[1], text_of(now)
    assert [a.filename for a in now.attachments] == ["explore.png"]
    versions = match.version
    await explorer.click(panel, label="Share line")
    shared = [m for m in thread.history() if "A line explored" in text_of(m)]
    assert len(shared) == 1 and line_move in text_of(shared[0])
    assert [a.filename for a in shared[0].attachments] == ["line.gif"]
    gif = Image.open(io.BytesIO(await shared[0].attachments[0].read()))
    assert gif.format == "GIF" and gif.n_frames >= 1
    assert (await service.get_match(match_id)).version == versions


async def test_myrmidons_fight_result_is_chosen_and_marked_assumed_and_never_shared(world):
    thread, match_id = await start_deployed_match(world)
    await play_moves(world, thread, match_id, SOUTH_WINS[:2], [world.bob, world.alice])  # North starts
    # bob's b4 (his own 1/3/5) may now attack alice's d4, whose values he can't see: the result is his to assume
    panel = (await world.bob.click(board_posts(thread)[-1], label="Explore")).response
    await explore_move(world, world.bob, panel, "b4-d4")
    asking = stored(world, panel)
    assert "`b4-d4` depends on what you can't see" in text_of(asking)
    results = [o for c in components(asking) for o in getattr(c, "options", [])]
    assert len(results) > 1
    result_menu = next(c.custom_id for c in components(asking)
                       if getattr(c, "custom_id", "").startswith(f"sg:e:{sandbox_of(world, panel).id}:sr"))
    chosen = await world.bob.select(panel, ["0"], custom_id=result_menu)
    assert chosen.followups == []  # the choice alone: no other handler answered it too
    assumed = stored(world, panel)
    assert all(" beats " in r.label or " is repelled by " in r.label for r in results)  # cut after who won
    assert f"`b4-d4` [assumed: {results[0].label.rstrip('…')}" in text_of(assumed)
    before = len(thread.history())
    refused = await world.bob.click(panel, label="Share line")
    assert refused.ephemeral and "can't be shared while the match runs" in refused.response.content
    assert len(thread.history()) == before
    # without the fight, the same line's first move can be shared
    await world.bob.click(panel, label="◀ Back")
    await explore_move(world, world.bob, panel, "b4-b3")
    await world.bob.click(panel, label="Share line")
    assert "b4-b3" in text_of(thread.history()[-1])


async def test_explore_pictures_hold_only_what_the_explorer_may_see(world):
    """The sandbox's first picture is exactly the picture of the explorer's own view of the real match: a player's
    view for her, the public view for anyone else (so nothing she may not see can be in it)."""
    thread, match_id = await start_deployed_match(world)
    await play_moves(world, thread, match_id, SOUTH_WINS[:2], [world.bob, world.alice])
    service = world.bot.matches
    match = await service.get_match(match_id)
    for member, viewer in ((world.alice, 0), (world.bob, 1), (world.carol, None)):
        panel = (await member.click(board_posts(thread)[-1], label="Explore")).response
        assert ("your view" if viewer is not None else "the public view") in text_of(panel)
        sandbox = sandbox_of(world, panel)
        expected = explore_png(service.view(match, viewer), match.names, picture_banner(sandbox), assumed=False,
                               renderer=myrmidons_renderer)
        assert await stored(world, panel).attachments[0].read() == expected


async def test_an_explore_sandbox_leaves_no_trace_for_the_opponent(world):
    """Twin matches (same seed, same moves); in one alice explores a long line. Everything bob can see, the thread
    and his own view, is byte for byte the same."""
    seen = []
    for explores in (True, False):
        world.bot.matches.seed_source = lambda: 1000
        thread, match_id = await start_deployed_match(world)
        await play_moves(world, thread, match_id, SOUTH_WINS[:2], [world.bob, world.alice])
        if explores:
            panel = (await world.alice.click(board_posts(thread)[-1], label="Explore")).response
            await explore_move(world, world.alice, panel, "b4-b3")
            await explore_move(world, world.alice, panel, "c2-c3")
        await play_moves(world, thread, match_id, SOUTH_WINS[2:4], [world.bob, world.alice])
        mine = await world.bob.click(board_posts(thread)[-1], label="My view")
        posts = [(re.sub(r"#\d+", "#N", text_of(m)), [await a.read() for a in m.attachments])
                 for m in thread.history()]
        seen.append((posts, await mine.response.attachments[0].read()))
    assert seen[0] == seen[1]


async def test_finished_match_explores_from_any_move_of_its_record(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS, [world.alice, world.bob])
    result = await world.carol.slash(thread, "explore", match=match_id, move=3)
    panel = result.response
    assert "from move 3, as the public view" in text_of(panel) and "Move for **bob**" in text_of(panel)
    # the exact position after three moves of the record
    sandbox = sandbox_of(world, panel)
    game = sandbox.game
    state = game.new_state(2, (await world.bot.matches.get_match(match_id)).seed)
    for i, text in enumerate(EPAMINONDAS_LIGHT_WINS[:3]):
        state, _ = game.apply(state, i % 2, text)
    assert game.dump(sandbox.state) == game.dump(state)
    await explore_move(world, world.carol, panel, EPAMINONDAS_LIGHT_WINS[3])
    assert f"4. bob `{EPAMINONDAS_LIGHT_WINS[3]}`" in text_of(stored(world, panel))
    too_far = await world.carol.slash(thread, "explore", match=match_id, move=99)
    assert too_far.ephemeral and "has moves 0 to 12" in too_far.response.content


async def test_bad_explore_requests_get_one_clear_private_answer(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    early = await world.alice.slash(thread, "explore", match=match_id, move=0)
    assert early.ephemeral and "`move:` works once the match is over" in early.response.content
    unknown = await world.alice.slash(thread, "explore", match=999)
    assert unknown.ephemeral and "can't find that match" in unknown.response.content
    panel = (await world.alice.click(board_posts(thread)[-1], label="Explore")).response
    await explore_move(world, world.alice, panel, "a1-d4")
    await world.env.advance_time(SANDBOX_TTL + 60)
    before = len(thread.history())
    expired = await world.alice.click(panel, label="Share line")
    assert expired.ephemeral and "This Explore board has expired" in expired.response.content
    assert len(thread.history()) == before and len(board_posts(thread)) == 1


async def test_explore_steps_are_acknowledged_before_their_pictures_are_drawn(world, monkeypatch):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    panel = (await world.alice.click(board_posts(thread)[-1], label="Explore")).response
    gate = hold_renders(world, monkeypatch)
    result = await choose(world, world.alice, panel, "a1")
    assert result.acknowledged and result.deferred  # Discord heard back while the picture waits
    assert "chosen: nothing yet" in text_of(stored(world, panel))
    gate.set()
    await world.env.settle()
    assert "chosen: a1" in text_of(stored(world, panel))
    gate.clear()
    opened = await world.bob.click(board_posts(thread)[-1], label="Explore")
    assert opened.acknowledged and opened.deferred
    gate.set()
    await world.env.settle()


async def test_reset_draws_what_the_explorer_cant_see_again(world):
    thread, match_id = await start_deployed_match(world)
    panel = (await world.alice.click(board_posts(thread)[-1], label="Explore")).response
    sandbox = sandbox_of(world, panel)
    game, view = sandbox.game, sandbox.game.view(sandbox.state, 0)
    drawn = set()
    for _ in range(8):
        await explore_move(world, world.alice, panel, game.legal_moves(sandbox.state, 1)[0])  # Reset needs a line
        await world.alice.click(panel, label="⟲ Reset")
        assert game.view(sandbox.state, 0) == view  # all she may know, unchanged
        drawn.add(str(game.dump(sandbox.state)["pieces"]))  # which value each piece has
    assert len(drawn) > 1  # bob's hidden values were drawn again


async def _screen(world, panel):
    """Everything an Explore board shows its explorer: words, menus and buttons (without their ids), picture."""
    now = stored(world, panel)
    parts = [(getattr(c, "placeholder", None), getattr(c, "label", None),
              [(o.label, o.description) for o in getattr(c, "options", [])]) for c in components(now)]
    return text_of(now), parts, [await a.read() for a in now.attachments]


async def test_twin_sandboxes_show_the_explorer_nothing_that_was_drawn(world, monkeypatch):
    """Two sandboxes of one match in which bob's face-down values were drawn differently: alice is shown the same
    words, menus and pictures in both, move after move, her moves and bob's, until she assumes a fight's result,
    which is then marked as assumed."""
    thread, match_id = await start_deployed_match(world)  # North (bob) moves first
    seen, drawn = [], []
    for seed in (1, 2):
        monkeypatch.setattr(explore_module.secrets, "randbits", lambda bits, seed=seed: seed)
        panel = (await world.alice.click(board_posts(thread)[-1], label="Explore")).response
        sandbox = sandbox_of(world, panel)
        drawn.append(sandbox.game.dump(sandbox.state)["pieces"])
        screens = [await _screen(world, panel)]
        for token in ("b7", "b4", "b1", "b2"):  # bob's b7-b4 (as far as his piece there might go), alice's b1-b2
            await choose(world, world.alice, panel, token)
            screens.append(await _screen(world, panel))
        assert "hidden myrmidon" in str(screens[0][1])
        await choose(world, world.alice, panel, "b4")  # bob's b4 attacks b2: the fight turns on his unseen values
        await choose(world, world.alice, panel, "b2")
        assert "depends on what you can't see" in text_of(stored(world, panel))
        await world.alice.select(panel, ["0"], custom_id=next(
            c.custom_id for c in components(stored(world, panel))
            if getattr(c, "custom_id", "").startswith(f"sg:e:{sandbox.id}:sr")))
        assert "`b4-b2` [assumed: " in text_of(stored(world, panel)) and sandbox.assumed  # its picture goes amber
        seen.append(screens)
    assert drawn[0] != drawn[1]  # the twins' hidden values differ...
    assert seen[0] == seen[1]  # ...and nothing alice was shown does


async def test_twin_mycenae_sandboxes_unload_cargo_the_explorer_cant_see_alike(world, monkeypatch):
    """bob explores alice's turn: her knights are offered as holding any of her unseen pieces, whichever knight
    the draw put them in, and her King unloaded from c1 is played in a draw where c1 holds it."""
    thread, match_id = await open_match(world, "mycenae", [world.alice, world.bob])
    await move(world.alice, thread, match_id, "cargo b2:K,R,B,B,P,P,P")  # all in b2: c1 is empty, really
    seen, drawn = [], []
    for seed in (1, 2):
        monkeypatch.setattr(explore_module.secrets, "randbits", lambda bits, seed=seed: seed)
        panel = (await world.bob.click(board_posts(thread)[-1], label="Explore")).response
        sandbox = sandbox_of(world, panel)
        drawn.append(sandbox.state.cargo)
        screens = [await _screen(world, panel)]
        for token in ("c1", "unload", "K"):
            await choose(world, world.bob, panel, token)
            screens.append(await _screen(world, panel))
        square = next(o.value for c in components(stored(world, panel))
                      for o in getattr(c, "options", []))
        await choose(world, world.bob, panel, square)
        await world.bob.click(panel, label="Play it")
        screens.append(await _screen(world, panel))
        assert f"2. alice `unload c1 K@{square}`" in text_of(stored(world, panel))
        seen.append(screens)
    assert drawn[0] != drawn[1]
    assert seen[0] == seen[1]
