"""Match records on Discord: /history, the replay GIF and /replay, /export, Rematch and take-backs by consent —
through the real bot, with what each person may know checked for players and outsiders alike."""

from __future__ import annotations

import io
import random

import discord
import pytest
from PIL import Image

from bot.games.registry import get_game, renderer_of
from bot.games.myrmidons import GAME as MYRMIDONS
from bot.games.record import parse_record, replay
from bot.matches import errors
from bot_helpers import (text_of,
    ARCHIMEDES_BLACK_WINS, EPAMINONDAS_LIGHT_WINS, board_posts, buttons, is_disabled, match_id_of, move, play_moves,
    posted_challenge, private_answer, start_match, stored, stored_match, thread_of,
)
from renderers.replay import replay_gif
from test_bot_myrmidons import SOUTH_WINS, Wiretap, deploy_text, start_deployed_match
from conftest import ON_BOTH

UNKNOWN = "I can't find that match. Pick one from the list, or see `/games`."


async def stored_state(world, match_id: int) -> dict:
    return (await stored_match(world, match_id)).state


async def version_of(world, match_id: int) -> int:
    return (await stored_match(world, match_id)).version


async def exported(member, channel, match_id: int) -> str:
    result = await member.slash(channel, "export", match=match_id)
    assert result.ephemeral, result.response.content
    (attachment,) = result.response.attachments
    assert attachment.filename == f"match-{match_id}.txt"
    return (await attachment.read()).decode("utf-8")


def history_text(result) -> str:
    return result.response.embeds[0].description


async def play_first_moves(world, match_id: int, count: int) -> None:
    """`count` moves through the service (fast), each the engine's first legal move; the match goes on."""
    service = world.bot.matches
    with world.env.time_context():  # the bot's clock is the simulated one, also for calls made from the test
        for _ in range(count):
            match = await service.get_match(match_id)
            (seat,) = service.to_act(match)
            legal = service.game_of(match).legal_moves(service.state_of(match), seat)
            report = await service.submit_move(match_id, match.user_of(seat), legal[0])
            assert await report.presented
    assert (await service.get_match(match_id)).active


# --- /history ----------------------------------------------------------------------------------------------


async def test_history_pages_with_buttons_for_players_and_onlookers(world):
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    await play_first_moves(world, match_id, 20)
    first = await world.carol.slash(world.channel, "history", match=match_id)  # an onlooker of this server
    assert first.ephemeral
    embed = first.response.embeds[0]
    assert f"match #{match_id}" in embed.title and embed.footer.text.startswith("Page 1 of 2")
    assert embed.description.startswith("**1.** alice (White): `") and "**18.**" in embed.description
    assert "**19.**" not in embed.description
    assert is_disabled(buttons(first.response)["◀ Previous"]) and not is_disabled(buttons(first.response)["Next ▶"])

    await world.carol.click(first.response, label="Next ▶")
    second = stored(world, first.response)
    assert second.embeds[0].description.startswith("**19.** alice (White): `")
    assert "**20.** bob (Black)" in second.embeds[0].description
    assert second.embeds[0].footer.text.startswith("Page 2 of 2")
    assert is_disabled(buttons(second)["Next ▶"])
    await world.carol.click(second, label="◀ Previous")
    assert stored(world, first.response).embeds[0].description == embed.description

    unknown = await world.carol.slash(world.channel, "history", match=9999)
    assert unknown.ephemeral and unknown.response.content == UNKNOWN


# --- whole matches replayed from their records; the replay GIF; rematch ------------------------------------


@pytest.mark.replays
@pytest.mark.parametrize("game, moves", [("epaminondas", EPAMINONDAS_LIGHT_WINS),
                                         ("archimedes", ARCHIMEDES_BLACK_WINS)])
async def test_finished_match_replays_from_its_record_and_posts_its_gif(world, game, moves):
    tap = Wiretap(world)
    thread, match_id = await start_match(world, game, world.alice, world.bob)
    await play_moves(world, thread, match_id, moves, [world.alice, world.bob])

    text = await exported(world.carol, world.channel, match_id)  # finished: the same for everybody
    assert text == await exported(world.alice, world.channel, match_id)
    run = replay(text)
    assert run.complete and run.replayed == len(moves)
    assert get_game(game).dump(run.final_state) == await stored_state(world, match_id)

    # the thread's last post: the replay, right after the final board, one frame per position
    final, gif_post = board_posts(thread)[-1], thread.last_message
    assert "🏆" in text_of(final) and gif_post.id > final.id
    (gif,) = gif_post.attachments
    assert gif.filename == "replay.gif" and f"match #{match_id}" in text_of(gif_post)
    data = await gif.read()
    assert data == replay_gif(run.views(None), player_names=["alice", "bob"], renderer=renderer_of(game))
    assert Image.open(io.BytesIO(data)).n_frames == len(moves) + 1

    # /replay makes it again for anyone of the server: first a word, then the file in the same answer
    again = await world.carol.slash(world.channel, "replay", match=match_id)
    assert again.ephemeral
    said = [text_of(s) for s in tap.sent if s.message_id == again.response.id and text_of(s)]  # after "thinking…"
    assert said[0] == f"🎞️ Making the replay of match #{match_id}…"
    shown = stored(world, again.response)
    assert [a.filename for a in shown.attachments] == ["replay.gif"]
    assert await shown.attachments[0].read() == data


async def test_rematch_rotates_the_seats_and_is_accepted_as_usual(world):
    result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob, rated=False)
    assert posted_challenge(result), result.response.content
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    first_id = match_id_of(thread)
    await play_moves(world, thread, first_id, EPAMINONDAS_LIGHT_WINS, [world.alice, world.bob])
    final = board_posts(thread)[-1]

    outsider = await world.carol.click(final, label="Rematch")
    assert outsider.ephemeral and outsider.response.content == f"Only the players of match #{first_id} can ask for a rematch."
    asked = await world.alice.click(final, label="Rematch")
    assert asked.ephemeral and asked.response.content.startswith("Rematch offered: https://discord.com/channels/")
    post = world.channel.last_message
    # alice played seat 0 (Light); the seats rotate, so bob now starts and alice's seat is already taken
    assert text_of(post).startswith(f"⚔️ **alice** challenges {world.bob.mention} to **Epaminondas**!")
    assert f"Seats: {world.bob.mention} (invited) · alice ✓" in text_of(post)
    assert "Unrated" in text_of(post)  # the same options and rated flag
    assert {u.id for u in post.mentions} == {world.bob.id}
    twice = await world.alice.click(final, label="Rematch")
    assert twice.ephemeral and "already asked for this rematch" in twice.response.content
    assert world.channel.last_message.id == post.id  # no second challenge
    await world.bob.click(post, label="Accept")
    rematch = thread_of(world)
    board = board_posts(rematch)[-1]
    assert rematch.name.endswith("bob vs alice") and "**bob** (Light) to move" in text_of(board)


async def test_the_board_of_a_finished_match_shown_again_leaves_rematch_on_the_final_post(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS, [world.alice, world.bob])
    final = board_posts(thread)[-1]
    await world.carol.slash(thread, "board", match=match_id)
    again = board_posts(thread)[-1]
    assert again.id != final.id
    for post in (stored(world, final), again):
        labels = list(buttons(post))
        assert labels == ["Rematch"], labels
    asked = await world.bob.click(stored(world, final), label="Rematch")
    assert asked.ephemeral and asked.response.content.startswith("Rematch offered: ")


async def test_both_pressing_rematch_make_one_match(world):
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    await play_moves(world, thread, match_id, ARCHIMEDES_BLACK_WINS, [world.alice, world.bob])
    final = board_posts(thread)[-1]
    await world.bob.click(final, label="Rematch")  # bob was seat 1: he starts the rematch at seat 0
    post = world.channel.last_message
    assert f"Seats: bob ✓ · {world.alice.mention} (invited)" in text_of(post)
    joined = await world.alice.click(final, label="Rematch")
    assert joined.ephemeral and joined.response.content.startswith("You accepted the rematch: https://")
    assert [m.id for m in world.channel.history() if "challenges" in text_of(m)][-1] == post.id  # one challenge
    rematch = thread_of(world)
    assert rematch is not thread and rematch.name.endswith("bob vs alice")
    assert "has started" in text_of(stored(world, post))


@pytest.mark.replays
async def test_myrmidons_record_and_history_tell_each_person_only_what_she_may_know(world):
    thread, match_id = await start_deployed_match(world)
    await move(world.bob, thread, match_id, SOUTH_WINS[0])
    alice_deploy, bob_deploy = deploy_text(0), deploy_text(1)

    # history while the match runs: her own deployment to each player, neither to an onlooker
    seen = {who.name: history_text(await who.slash(world.channel, "history", match=match_id))
            for who in (world.alice, world.bob, world.carol)}
    assert f"alice (South): `{alice_deploy}`" in seen["alice"] and bob_deploy not in seen["alice"]
    assert f"bob (North): `{bob_deploy}`" in seen["bob"] and alice_deploy not in seen["bob"]
    assert "alice (South) made a secret setup move" in seen["bob"]
    assert alice_deploy not in seen["carol"] and bob_deploy not in seen["carol"]
    assert seen["carol"].count("made a secret setup move") == 2
    assert f"`{SOUTH_WINS[0]}`" in seen["carol"]

    # records likewise; the seed is withheld while the match runs (it draws what is still to come)
    records = {who.name: await exported(who, world.channel, match_id) for who in (world.alice, world.bob, world.carol)}
    assert f"1. 0 {alice_deploy}" in records["alice"] and "2. 1 <secret>" in records["alice"]
    assert "1. 0 <secret>" in records["bob"] and f"2. 1 {bob_deploy}" in records["bob"]
    assert "1. 0 <secret>" in records["carol"] and "2. 1 <secret>" in records["carol"]
    assert all("Seed: withheld" in text for text in records.values())
    assert "Viewer: public" in records["carol"] and "Viewer: 0" in records["alice"]
    assert not replay(records["carol"]).complete

    # no replay while it runs
    early = await world.carol.slash(world.channel, "replay", match=match_id)
    assert early.ephemeral and "still being played" in early.response.content

    # to the end: then everything is public and the same for all, and the record replays to the stored state
    players = [world.alice, world.bob]
    for ply, text in enumerate(SOUTH_WINS[1:], 1):
        result = await move(players[1 - ply % 2], thread, match_id, text)
        assert result.response.content.startswith("✅"), result.response.content
    final = {who.name: await exported(who, world.channel, match_id) for who in (world.alice, world.bob, world.carol)}
    assert final["alice"] == final["bob"] == final["carol"] and bob_deploy in final["carol"]
    run = replay(final["carol"])
    assert MYRMIDONS.dump(run.final_state) == await stored_state(world, match_id)
    assert bob_deploy in history_text(await world.carol.slash(world.channel, "history", match=match_id))
    # the replay shows the whole match with every army revealed (it is over), the same for everyone
    gifs = []
    for who in (world.alice, world.carol):
        made = await who.slash(world.channel, "replay", match=match_id)
        gifs.append(await stored(world, made.response).attachments[0].read())
    assert gifs[0] == gifs[1] == replay_gif(run.revealed_views(), player_names=["alice", "bob"],
                                            renderer=renderer_of("myrmidons"))
    assert run.revealed_views() != run.views(None)


@pytest.fixture
def service_seeds():
    """The `service` fixture (tests/conftest.py: on SQLite and PostgreSQL) seeds its matches with 11 here."""
    return lambda: 11


async def service_match(service, game: str, players: int) -> int:
    """A started match of users 1..players (guild 9), seats in that order."""
    challenge = await service.create_challenge(
        guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1", game_key=game,
        invited=list(range(2, players + 1)))
    for user in range(2, players + 1):
        challenge = await service.accept_challenge(challenge.id, user, f"u{user}")
    return challenge.match_id


@pytest.mark.parametrize("game, players", [("myriath", 3), ("mycenae", 2), ("mycenae", 4)])
async def test_service_level_matches_replay_from_their_records(service, game, players):
    """Mycenae and Myriath: seeded random moves, then resignations to the end."""
    records = service
    match_id = await service_match(service, game, players)
    rng = random.Random(5)
    for _ in range(40):
        match = await service.get_match(match_id)
        acting = service.to_act(match)
        if not acting:
            break
        seat = acting[0]
        legal = service.game_of(match).legal_moves(service.state_of(match), seat)
        await service.submit_move(match_id, match.user_of(seat), rng.choice(legal))
    match = await service.get_match(match_id)
    while match.active:
        seat = service.game_of(match).in_play(service.state_of(match))[0]
        await service.resign(match_id, match.user_of(seat))
        match = await service.get_match(match_id)
    text = (await records.export(match_id, 1, 9)).text
    assert text == (await records.export(match_id, 99, 9)).text  # finished: an onlooker reads the same
    run = replay(text)
    assert run.complete and get_game(game).dump(run.final_state) == match.state
    with pytest.raises(errors.UnknownMatch):
        await records.export(match_id, 99, 10)  # an onlooker of another server


async def test_three_players_must_all_accept_a_takeback(service):
    records = service
    match_id = await service_match(service, "myriath", 3)
    match = await service.get_match(match_id)
    start = match.state
    (seat,) = service.to_act(match)
    mover = match.user_of(seat)
    others = [match.user_of(s) for s in range(3) if s != seat]
    legal = service.game_of(match).legal_moves(service.state_of(match), seat)
    await service.submit_move(match_id, mover, legal[0])
    asked = await records.ask_takeback(match_id, mover)
    assert asked.kind == "takeback_asked" and asked.move == legal[0]
    first = await records.answer_takeback(match_id, others[0], asked.match.version, True)
    assert first.kind == "takeback_agreed" and first.match.version == asked.match.version
    with pytest.raises(errors.UserError, match="already accepted"):
        await records.answer_takeback(match_id, others[0], asked.match.version, True)
    done = await records.answer_takeback(match_id, others[1], asked.match.version, True)
    assert done.kind == "takeback" and done.match.version == asked.match.version + 1
    assert done.match.state == start and service.to_act(done.match) == [seat]
    assert [e.move for e in await service.repo.moves(match_id)] == [legal[0], "takeback"]  # the log keeps both
    assert await records.moves_of(done.match) == []
    with pytest.raises(errors.UserError, match="no move to take back"):
        await records.ask_takeback(match_id, mover)


async def test_no_takeback_once_a_forced_pass_followed(service):
    """Seeded so that a random Myriath game reaches a move after which the next player must pass."""
    records = service
    match_id = await service_match(service, "myriath", 2)
    rng = random.Random(1)  # with the match seed 11: a single pass after the 35th move, and the game goes on
    for _ in range(200):
        match = await service.get_match(match_id)
        (seat,) = service.to_act(match)
        legal = service.game_of(match).legal_moves(service.state_of(match), seat)
        report = await service.submit_move(match_id, match.user_of(seat), rng.choice(legal))
        if report.match.version == match.version + 2:  # her move, then the pass the match played
            break
    else:
        pytest.fail("no forced pass in 200 moves")
    with pytest.raises(errors.UserError, match="A forced move followed yours"):
        await records.ask_takeback(match_id, match.user_of(seat))
    assert (await service.get_match(match_id)).version == report.match.version


# --- take-backs ----------------------------------------------------------------------------------------------


@ON_BOTH
async def test_takeback_accepted_restores_the_earlier_position(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    before = await stored_state(world, match_id)
    await move(world.alice, thread, match_id, "a1-a3")
    played = await move(world.bob, thread, match_id, "f12-f9")
    assert "Take back" in buttons(played.response)
    moved_board = board_posts(thread)[-1]

    asked = await world.bob.click(played.response, label="Take back")
    assert asked.ephemeral and "You asked to take back `f12-f9`" in asked.response.content
    request = thread.last_message
    assert text_of(request) == f"↩️ **bob** asks to take back `f12-f9`. {world.alice.mention}"
    assert [u.id for u in request.mentions] == [world.alice.id]
    twice = await world.bob.click(played.response, label="Take back")
    assert twice.ephemeral and "already asked" in twice.response.content
    own = await world.bob.click(request, label="Accept take-back")
    said = private_answer(own)
    assert said.ephemeral and "your own request" in said.content

    await world.alice.click(request, label="Accept take-back")
    assert "was taken back" in text_of(stored(world, request))
    assert all(is_disabled(b) for b in buttons(stored(world, request)).values())
    board = board_posts(thread)[-1]
    assert "↩️ **bob** (Dark) took back `f12-f9`" in text_of(board) and "**bob** (Dark) to move" in text_of(board)
    assert all(is_disabled(b) for b in buttons(stored(world, moved_board)).values())  # the undone board is retired

    # the exact earlier position; the log keeps the take-back, every reader skips the undone move
    expected = get_game("epaminondas").apply(get_game("epaminondas").load(before), 0, "a1-a3")[0]
    assert await stored_state(world, match_id) == get_game("epaminondas").dump(expected)
    history = history_text(await world.carol.slash(world.channel, "history", match=match_id))
    assert "f12-f9" not in history and "**1.** alice (Light): `a1-a3`" in history
    text = await exported(world.alice, world.channel, match_id)
    assert "1. 0 a1-a3" in text and "f12-f9" not in text and "2. " not in text

    # a request the other player answers by moving on is dead: its buttons refuse
    await move(world.bob, thread, match_id, "f12-f9")
    await world.bob.slash(thread, "takeback", match=match_id)
    unanswered = thread.last_message
    assert "asks to take back `f12-f9`" in text_of(unanswered)
    await move(world.alice, thread, match_id, "b1-b3")
    late = await world.alice.click(unanswered, label="Accept take-back")
    said = private_answer(late)
    assert said.ephemeral and "no longer open" in said.content


async def test_takeback_declined_changes_nothing_and_comes_too_late_after_a_reply(world):
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    played = await move(world.alice, thread, match_id, "d1-g1")
    await world.alice.slash(thread, "takeback", match=match_id)
    request, boards, version = thread.last_message, len(board_posts(thread)), await version_of(world, match_id)
    await world.bob.click(request, label="Decline take-back")
    assert "**bob** declined to take back `d1-g1`" in text_of(stored(world, request))
    assert len(board_posts(thread)) == boards and await version_of(world, match_id) == version
    assert all(is_disabled(b) for b in buttons(stored(world, request)).values())

    await move(world.bob, thread, match_id, "h5-h1")
    late = await world.alice.click(played.response, label="Take back")
    assert late.ephemeral and late.response.content == (
        "Too late: **bob** has acted since. A move can only be taken back until the next player acts.")
    typed = await world.alice.slash(thread, "takeback", match=match_id)
    assert typed.ephemeral and typed.response.content.startswith("Too late")
    outsider = await world.carol.slash(thread, "takeback", match=match_id)
    assert outsider.ephemeral and outsider.response.content == "You are not playing in this match."
    assert await version_of(world, match_id) == version + 1 and len(board_posts(thread)) == boards + 1


async def test_no_takeback_of_a_secret_setup_or_of_a_fight(world):
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob)
    await world.alice.click(panel.response, label="Post challenge")
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    match_id = match_id_of(thread)
    deployed = await move(world.alice, thread, match_id, deploy_text(0))
    assert "Take back" not in buttons(deployed.response)
    secret = await world.alice.slash(thread, "takeback", match=match_id)
    assert secret.ephemeral and secret.response.content == "A secret setup move can't be taken back."
    await move(world.bob, thread, match_id, deploy_text(1))

    await move(world.bob, thread, match_id, SOUTH_WINS[0])
    await move(world.alice, thread, match_id, SOUTH_WINS[1])
    fight = await move(world.bob, thread, match_id, SOUTH_WINS[2])  # b4-d4: a fight shows both values
    assert fight.response.content.startswith("✅") and "Take back" not in buttons(fight.response)
    version = await version_of(world, match_id)
    refused = await world.bob.slash(thread, "takeback", match=match_id)
    assert refused.ephemeral and refused.response.content.startswith(
        "That move revealed hidden information (a fight), so it can't be taken back")
    assert await version_of(world, match_id) == version


# --- bad input -----------------------------------------------------------------------------------------------


async def test_replay_of_a_running_match_and_another_servers_match(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    running = await world.bob.slash(world.channel, "replay", match=match_id)
    assert running.ephemeral and running.response.content.startswith(f"Match #{match_id} is still being played")

    other = world.env.create_guild("Elsewhere")
    channel = other.create_text_channel("games")
    carol_there = other.add_member(world.carol.user)
    world.bot.tree.copy_global_to(guild=discord.Object(other.id))
    await world.bot.tree.sync(guild=discord.Object(other.id))
    for command in ("export", "history", "replay"):
        theirs = await carol_there.slash(channel, command, match=match_id)
        unknown = await carol_there.slash(channel, command, match=9999)
        assert theirs.ephemeral and theirs.response.content == unknown.response.content == UNKNOWN
        assert not theirs.response.attachments and not theirs.response.embeds
