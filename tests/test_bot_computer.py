"""Playing the computer on Discord: it takes its seat at once, thinks off the event loop, moves once per turn
(also across a restart), and is named with its level wherever players look."""

from __future__ import annotations

import random
import sys

import pytest

from bot.games.registry import choose_move, get_game
from bot.workers import computer_pool
from bot_helpers import text_of, board_posts, buttons, match_id_of, move, thread_of


async def computer_match(world, game, level="easy", **options):
    result = await world.alice.slash(world.channel, "play", game=game, computer=level, **options)
    if result.ephemeral and result.response.components:  # an options panel: post it with the defaults
        await world.alice.click(result.response, label="Post challenge")
    thread = thread_of(world)
    return thread, match_id_of(thread)


async def play_against_the_computer(world, thread, match_id, members, patience=25):
    """The members play random legal moves; the computer answers (without its pause in the tests). A member who
    has moved `patience` times without an end in sight resigns, which ends the match too."""
    rng = random.Random(1)
    service = world.bot.matches
    for _ in range(patience):
        match = await service.get_match(match_id)
        if not match.active:
            return match
        acting = [s for s in service.to_act(match) if match.seats[s].is_member]
        if not acting:
            await world.env.advance_time(1)
            continue
        seat = acting[0]
        game, state = service.game_of(match), service.state_of(match)
        text = rng.choice([m for m in game.legal_moves(state, seat) if not m.startswith("burn")]
                          or game.legal_moves(state, seat))
        result = await move(members[seat], thread, match_id, text)
        assert result.response.content.startswith("✅"), result.response.content
    asked = await members[0].click(board_posts(thread)[-1], label="Resign")
    await members[0].click(asked.response, label="Yes, resign")
    return await service.get_match(match_id)


@pytest.mark.parametrize("game", ["epaminondas", "archimedes", "myrmidons", "mycenae", "myriath"])
async def test_a_whole_match_against_the_computer(world, game):
    thread, match_id = await computer_match(world, game)
    # The challenge names its opponent: the computer, not "anyone".
    challenge = next(m for m in world.channel.history() if text_of(m).startswith("⚔️"))
    assert text_of(challenge).startswith("⚔️ **alice** challenges **Strategos (easy)** to **"), text_of(challenge)
    first = board_posts(thread)[0]
    assert "Strategos (easy)" in text_of(first) or "Strategos (easy)" in thread.name
    members = {0: world.alice}
    final = await play_against_the_computer(world, thread, match_id, members)
    assert final.result is not None and not final.rated  # never rated: the computer has no rating
    last = board_posts(thread)[-1]
    assert ("🏆" in text_of(last) or "🤝" in text_of(last)) and set(buttons(last)) <= {"Rematch"}
    games = await world.alice.slash(world.channel, "games")
    assert "You have no active matches" in games.response.content


async def test_the_computer_moves_once_after_a_restart_mid_think(world):
    world.bot.computers.pause = 3600.0  # its turn is pending when the bot stops
    thread, match_id = await computer_match(world, "epaminondas")
    service = world.bot.matches
    match = await service.get_match(match_id)
    human = next(s.seat for s in match.seats if s.is_member)
    if service.to_act(match) == [human]:
        game, state = service.game_of(match), service.state_of(match)
        await move(world.alice, thread, match_id, game.legal_moves(state, human)[0])
    before = (await service.get_match(match_id)).version
    assert service.to_act(await service.get_match(match_id)) != [human]
    await world.restart()
    await world.env.advance_time(5)
    after = await world.bot.matches.get_match(match_id)
    assert after.version == before + 1  # exactly one computer move
    assert world.bot.matches.to_act(after) == [human]


async def test_bad_computer_requests_are_refused(world):
    full = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob, computer="hard")
    assert full.ephemeral and "leave a seat open" in full.response.content
    thread, match_id = await computer_match(world, "epaminondas")
    offer = await world.alice.click(board_posts(thread)[-1], label="Offer draw")
    assert offer.ephemeral and "no draws" in offer.response.content


def test_the_computer_thinks_in_a_worker_process_not_forked_from_the_bot():
    """Production runs choose_move in another process (the bot's own pool): it must pickle and give the same move
    as in-process. That process must not be a fork of the bot, whose threads' locks a fork would copy mid-use:
    a fork would inherit this process's recursion limit, set here as a marker; a fresh interpreter has its own."""
    game = get_game("epaminondas")
    view = game.view(game.new_state(2, 3, None), 0)
    default = sys.getrecursionlimit()
    marker = default + 4321
    pool = computer_pool()
    try:
        sys.setrecursionlimit(marker)  # while the worker starts
        inherited = pool.submit(sys.getrecursionlimit).result(timeout=120)
        sys.setrecursionlimit(default)
        remote = pool.submit(choose_move, view, level="easy", seed=9).result(timeout=120)
    finally:
        sys.setrecursionlimit(default)
        pool.shutdown()
    assert inherited != marker, "the worker is a fork of the bot"
    assert remote == choose_move(view, level="easy", seed=9) and remote in game.legal_moves(
        game.new_state(2, 3, None), 0)


def _closer_safely(game, state, moves):
    """Alice's way to bring an empty knight next to the computer's pieces: the knight leap that ends nearest to
    them on a square the computer cannot take at once (everything she has rides in b2, which stays home)."""
    board = game.view(state, 0)["board"]
    theirs = [p["square"] for p in board if p["owner"] == 1]
    empty = {sq for sq, cargo in game.view(state, 0)["cargo"].items() if not cargo}

    def distance(square):
        return min(max(abs(ord(square[0]) - ord(t[0])), abs(int(square[1:]) - int(t[1:]))) for t in theirs)

    def safe(move):
        after, _ = game.apply(state, 0, move)
        return not any(m.endswith("x" + move[3:]) for m in game.legal_moves(after, 1))

    leaps = sorted((m for m in moves if m[:2] in empty and m[2] == "-"), key=lambda m: (distance(m[3:]), m))
    return next((m for m in leaps if safe(m)), None)


async def test_the_computer_answers_a_load_request_in_a_two_player_mycenae(world):
    """Alice (a1, Mycenae army) brings a knight next to the computer's pieces and asks to load one; the computer,
    the only other player, answers from its own seat's view like any move."""
    thread, match_id = await computer_match(world, "mycenae")
    service = world.bot.matches
    for _ in range(40):
        match = await service.get_match(match_id)
        assert match.active
        if 0 not in service.to_act(match):
            await world.env.advance_time(1)
            continue
        game, state = service.game_of(match), service.state_of(match)
        moves = game.legal_moves(state, 0)
        theirs = {p["square"] for p in game.view(state, 0)["board"] if p["owner"] == 1}
        requests = [m for m in moves if m.startswith("load") and theirs & set(m.split()[2:])]
        if requests:
            break
        text = "cargo b2:K,R,B,B,P,P,P" if moves[0].startswith("cargo") else _closer_safely(game, state, moves)
        assert text, "no safe knight leap"
        result = await move(world.alice, thread, match_id, text)
        assert result.response.content.startswith("✅"), result.response.content
    else:
        raise AssertionError("no request became possible")
    before = (await service.get_match(match_id)).version
    result = await move(world.alice, thread, match_id, requests[0])
    assert result.response.content.startswith("✅"), result.response.content
    for _ in range(10):  # the computer answers (at once here: its pause is off in the tests)
        logged = [(m.seat, m.move) for m in await service.repo.moves(match_id) if m.version > before]
        if len(logged) >= 2:
            break
        await world.env.advance_time(1)
    assert logged[0] == (0, requests[0]) and logged[1] in ((1, "consent"), (1, "refuse"))
