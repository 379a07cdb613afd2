"""Myrmidons with drafted armies on Discord: each player drafts and deploys in private, in any order."""

from __future__ import annotations

import re

import discord

from bot_helpers import text_of, board_posts, choose, components, stored, thread_of


async def pick_through(world, member, thread) -> str:
    """Open the picker from the current board and take the first option at every step, then Confirm."""
    opened = await member.click(board_posts(thread)[-1], label="Move")
    picker = opened.response
    for _ in range(20):
        now = stored(world, picker)
        menus = [c for c in components(now) if isinstance(c, discord.SelectMenu)]
        if not menus:
            played = re.search(r"Ready to play \*\*`([^`]+)`\*\*", text_of(now)).group(1)
            await member.click(picker, label="Confirm")
            assert text_of(stored(world, picker)) == f"✅ You played `{played}`."
            return played
        await choose(world, member, picker, menus[0].options[0].value)
    raise AssertionError("the picker never completed a move")


async def test_draft_then_deploy_in_private_in_any_order(world):
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob)
    await choose(world, world.alice, panel.response, "draft")
    await world.alice.click(panel.response, label="Post challenge")
    challenge = world.channel.last_message
    assert "army: draft" in text_of(challenge)
    await world.bob.click(challenge, label="Accept")
    thread = thread_of(world)
    setup_board = board_posts(thread)[-1]
    assert "Secret setup" in text_of(setup_board)

    secrets = []
    secrets.append(await pick_through(world, world.alice, thread))  # alice drafts
    assert secrets[0].startswith("army ")
    secrets.append(await pick_through(world, world.bob, thread))    # bob drafts: alice's draft did not stale his board
    secrets.append(await pick_through(world, world.bob, thread))    # bob deploys first
    assert secrets[2].startswith("deploy ")
    assert len(board_posts(thread)) == 1  # still the setup board
    secrets.append(await pick_through(world, world.alice, thread))  # alice deploys: the match begins

    first = board_posts(thread)[-1]
    assert len(board_posts(thread)) == 2 and "to move" in text_of(first)
    progress = [m for m in thread.history() if "secret setup move" in text_of(m)]
    assert len(progress) == 3  # one line per setup move but the last, which starts the match
    for message in thread.history() + world.channel.history():
        for secret in secrets:
            body = secret.split(" ", 1)[1]
            assert body not in text_of(message), f"a secret choice was posted publicly: {text_of(message)!r}"
