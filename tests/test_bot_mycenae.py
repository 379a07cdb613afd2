"""Mycenae on Discord for 2, 3 and 4 players: secret cargo set-up, load requests answered in private, burns
confirmed, take-overs, a restart halfway, and nothing about cargo reaching anyone who may not know it."""

from __future__ import annotations

import logging
import random
import re

import pytest

from bot.games import registry
from bot_helpers import text_of, board_posts, buttons, match_id_of, move, open_match, stored, thread_of
from mycenae_policy import make_policy

# Seeds of make_policy found to give short matches (the first match of a test has seed 1000) that show a burn, and
# with 3-4 players a request asked and refused and a take-over.
POLICY_SEED = {2: 19, 3: 28, 4: 33}


def members_for(world, count):
    extra = [world.guild.add_member(world.env.create_user("dave"))] if count == 4 else []
    return [world.alice, world.bob, world.carol, *extra][:count]


def last_dm(member):
    return member.user.dm_channel.last_message


async def act(world, thread, match_id, member, text):
    """Play `text` as the member would: an answer to a request from her private prompt, a burn after
    confirming it, anything else by /move."""
    if text in ("consent", "refuse"):
        prompt = last_dm(member)
        assert "asks to load your pieces" in text_of(prompt)
        result = await member.user.click(prompt, label=text.capitalize())
        assert result.ephemeral and "✅" in result.response.content, result.response.content
        return
    result = await move(member, thread, match_id, text)
    if text.startswith("burn "):
        assert "Burn this knight?" in result.response.content and not result.response.content.startswith("✅")
        confirm = await member.click(result.response, label=f"Yes, {text}")
        assert "✅ You played" in text_of(stored(world, result.response))
        return
    assert result.response.content.startswith("✅"), (text, result.response.content)


async def play_until_request(world, thread, match_id, members, choose):
    """Play the policy's moves until a load request waits for an answer; returns the match then and the asked
    seat."""
    service = world.bot.matches
    while True:
        match = await service.get_match(match_id)
        game, state = service.game_of(match), service.state_of(match)
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        if moves[0] in ("consent", "refuse"):
            return match, seat
        await act(world, thread, match_id, members[seat], choose(game, state, seat, moves))


async def play_mycenae(world, thread, match_id, members, choose, *, restart_after=None, limit=200):
    events = set()
    for played in range(limit):
        service = world.bot.matches
        match = await service.get_match(match_id)
        if not match.active:
            return events
        game, state = service.game_of(match), service.state_of(match)
        seat = game.to_act(state)[0]
        text = choose(game, state, seat, game.legal_moves(state, seat))
        events.add(text.split(" ")[0])
        await act(world, thread, match_id, members[seat], text)
        if restart_after is not None and played + 1 == restart_after:
            await world.restart()
    raise AssertionError("the match did not end")


# Every player count on SQLite, one on PostgreSQL too.
@pytest.mark.parametrize(("players", "database"), [(2, "sqlite"), (3, "sqlite"), (4, "sqlite"), (2, "postgres")],
                         indirect=["database"])
async def test_whole_mycenae_match(world, players, caplog):
    caplog.set_level(logging.INFO)
    members = members_for(world, players)
    thread, match_id = await open_match(world, "mycenae", members)
    assert "Secret setup" in text_of(board_posts(thread)[-1])
    setup_dm = last_dm(world.alice)
    assert "Set up in private" in buttons(setup_dm)
    played = await play_mycenae(world, thread, match_id, members, make_policy(POLICY_SEED[players]),
                                restart_after=6)
    assert {"cargo", "burn"} <= played
    posts = "\n".join(text_of(m) for m in thread.history())
    final = board_posts(thread)[-1]
    assert "🏆" in text_of(final) and set(buttons(final)) == {"Rematch"}
    if players > 2:
        assert {"load", "refuse"} <= played
        assert "refuse" in posts.lower() and "take" in posts.lower()  # the request's answer and a take-over said
    cargo_moves = [line for line in caplog.text.splitlines() if "move=cargo" in line]
    assert not cargo_moves and "<secret>" in caplog.text  # the set-up never reaches a log line


async def test_two_matches_differing_only_in_secret_cargo_look_the_same_to_others(world):
    """Same seed, same public moves; only alice's hidden cargo differs. Everything public, and bob's private
    pictures, must be byte for byte the same."""
    seen = []
    for cargo_choice in (0, -1):
        world.bot.matches.seed_source = lambda: 1000
        thread, match_id = await open_match(world, "mycenae", [world.alice, world.bob])
        rng = random.Random(5)
        for _ in range(14):
            service = world.bot.matches
            match = await service.get_match(match_id)
            game, state = service.game_of(match), service.state_of(match)
            seat = game.to_act(state)[0]
            moves = game.legal_moves(state, seat)
            if moves[0].startswith("cargo"):
                text = moves[cargo_choice]
            else:  # nothing whose legality depends on the hidden cargo
                text = rng.choice([m for m in moves if not m.startswith(("unload", "burn"))])
            await act(world, thread, match_id, [world.alice, world.bob][seat], text)
        mine = await world.bob.click(board_posts(thread)[-1], label="My view")
        posts = [(re.sub(r"#\d+", "#N", text_of(m)), [await a.read() for a in m.attachments])
                 for m in thread.history()]
        seen.append((posts, await mine.response.attachments[0].read()))
    assert seen[0][0] == seen[1][0]  # every public post, pictures included
    assert seen[0][1] == seen[1][1]  # bob's own view


async def test_request_answers_from_others_or_after_the_fact_are_refused(world):
    members = [world.alice, world.bob, world.carol]
    thread, match_id = await open_match(world, "mycenae", members)
    choose = make_policy(POLICY_SEED[3])
    service = world.bot.matches
    match, seat = await play_until_request(world, thread, match_id, members, choose)
    asked = members[seat]
    prompt = last_dm(asked)
    outsider = next(m for m in members if m is not asked)
    other = await move(outsider, thread, match_id, "consent")  # only the asked player may answer
    assert other.ephemeral and other.response.content.startswith("It is not your turn")
    refused = await move(asked, thread, match_id, "refuse")  # answered by notation instead
    assert refused.response.content.startswith("✅")
    late = await asked.user.click(prompt, label="Consent")
    assert late.ephemeral and late.response.content.startswith("This board is out of date")
    assert (await service.get_match(match_id)).version == match.version + 1  # only the refusal counted


async def test_a_mistyped_full_knight_unload_is_refused_clearly(world):
    thread, match_id = await open_match(world, "mycenae", [world.alice, world.bob])
    service = world.bot.matches
    match = await service.get_match(match_id)
    game, state = service.game_of(match), service.state_of(match)
    full = next(m for m in game.legal_moves(state, 0) if m.count(":") == 1)  # everything in one knight
    knight = full.split()[1].split(":")[0]
    await act(world, thread, match_id, world.alice, full)
    for seat, member in ((0, world.alice), (1, world.bob)):  # a move each that leaves the full knight alone
        state = service.state_of(await service.get_match(match_id))
        await act(world, thread, match_id, member, next(
            m for m in game.legal_moves(state, seat) if not m.startswith(("unload", "burn", "load", knight))))
    typo = f"unload {knight} K@{knight[0]}9"
    result = await move(world.alice, thread, match_id, typo)
    assert result.ephemeral and not result.response.content.startswith("✅")
    assert len(result.response.content) < 500 and result.response.content
    assert (await service.get_match(match_id)).version == 3


async def test_the_setup_board_stops_naming_a_player_once_her_cargo_is_chosen(world):
    """Both armies Mycenae: alice's cargo step posts no new board; the one board is redrawn in place, from the
    public view, and no longer names her as setting up."""
    panel = (await world.alice.slash(world.channel, "play", game="mycenae", opponent=world.bob)).response
    seat_two = next(c.custom_id for row in stored(world, panel).components for c in row.children
                    if c.custom_id.endswith(":0-1"))
    await world.alice.select(panel, ["mycenae"], custom_id=seat_two)
    await world.alice.click(panel, label="Post challenge")
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    match_id = match_id_of(thread)
    [board] = board_posts(thread)
    assert "**alice** (a1), **bob** (h8)" in text_of(board)
    await act(world, thread, match_id, world.alice, "cargo b2:K,R,B,B,P,P,P")
    assert [m.id for m in board_posts(thread)] == [board.id]
    redrawn = stored(world, board)
    assert "Secret setup: **bob** (h8)" in text_of(redrawn) and "**alice**" not in text_of(redrawn).split("\n")[1]
    service = world.bot.matches
    match = await service.get_match(match_id)
    public = service.view(match, None)
    assert public["setup"]["waiting"] == [1] and public["cargo"] == {}
    assert await redrawn.attachments[0].read() == registry.render(public, player_names=match.names)
    assert await redrawn.attachments[0].read() != await board.attachments[0].read()


async def test_two_player_request_is_answered_by_the_opponent_in_private(world):
    """With two players too, a load of the opponent's pieces asks him in private; his Consent is his move."""
    thread, match_id = await open_match(world, "mycenae", [world.alice, world.bob])
    service = world.bot.matches
    await act(world, thread, match_id, world.alice, "cargo b2:K,R,B,B,P,P,P")
    # alice's empty knight leaps next to bob's pawns while bob moves a pawn at the other side
    for member, text in ((world.alice, "d2-e4"), (world.bob, "h7-h6"), (world.alice, "e4-f6"), (world.bob, "h6-h5")):
        await act(world, thread, match_id, member, text)
    version = (await service.get_match(match_id)).version
    await act(world, thread, match_id, world.alice, "load f6 g7")
    match = await service.get_match(match_id)
    game, state = service.game_of(match), service.state_of(match)
    assert game.to_act(state) == [1] and game.legal_moves(state, 1) == ["consent", "refuse"]
    assert "asks to load your pieces" in text_of(last_dm(world.bob)) and "`load f6 g7`" in text_of(last_dm(world.bob))
    early = await move(world.alice, thread, match_id, "f6-g8")  # the asker waits for the answer
    assert early.ephemeral and not early.response.content.startswith("✅")
    await act(world, thread, match_id, world.bob, "consent")
    match = await service.get_match(match_id)
    state = service.state_of(match)
    assert match.version == version + 2 and game.to_act(state) == [1]
    assert [f"{p['owner']}{p['type']}" for p in game.view(state, 0)["cargo"]["f6"]] == ["1P"]
    assert "g7" not in {p["square"] for p in game.view(state, None)["board"]}
    posts = "\n".join(text_of(m) for m in thread.history())
    assert "consent" in posts.lower()
