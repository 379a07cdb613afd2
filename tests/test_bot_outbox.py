"""Announcements follow commits: what a unit commits is shown although the command that wrote it was cancelled
or its process died before presenting it, and shown once."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import typing

import discord
import pytest

from bot.domain import Challenge, ChallengeSeat, Match, MemberPrefs, Seat
from bot.games import Outcome, Text
from bot.composition import build_match_service
from bot.matches import MatchService, events
from bot.matches.outbox import dump_events, load_events
from bot.matches.scope import REPAIR_AFTER
from bot.ratings import RatingChange
from bot.storage import Repository, open_database
from bot.matches.challenges import DEFAULT_CHALLENGE_TTL
from bot_helpers import (text_of, Clock, board_posts, buttons, match_id_of, move, moves_stored, posted_challenge, start_match,
                         stored_match)
from conftest import ON_BOTH

EVENT_TYPES = typing.get_args(events.MatchEvent)


async def outbox_rows(world) -> int:
    return await world.bot.repo.driver.fetchvalue("SELECT COUNT(*) FROM outbox")


async def presented(world) -> None:
    """Wait until everything handed to the outbox and the bus was shown."""
    await world.bot.matches.outbox.idle()
    await world.bot.matches.bus.idle()


async def restart_and_repair(world) -> None:
    """Restart; on a database other processes may share, a board written a moment ago is left to its writer for
    REPAIR_AFTER seconds before this process repairs it."""
    await world.restart()
    if world.bot.matches.timers.claims.shared:
        await world.env.advance_time(REPAIR_AFTER + 1)
    await presented(world)


@ON_BOTH
async def test_a_move_cancelled_right_after_its_commit_shows_its_board_without_another_move(world, monkeypatch):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    repo = world.bot.repo
    real = repo.commit_move

    async def cancelled_once_written(unit):  # the command's task is cancelled the moment its unit is written
        version = await real(unit)
        asyncio.current_task().cancel()
        await asyncio.sleep(0)
        return version

    monkeypatch.setattr(repo, "commit_move", cancelled_once_written)
    await move(world.alice, thread, match_id, "a1-a3")
    monkeypatch.setattr(repo, "commit_move", real)
    await presented(world)

    assert await moves_stored(world, match_id) == 1
    posts = board_posts(thread)
    assert len(posts) == 2
    assert "**alice** (Light) played `a1-a3`" in text_of(posts[-1]) and "**bob** (Dark) to move" in text_of(posts[-1])
    stored = await stored_match(world, match_id)
    assert stored.announced_version == stored.version
    assert await outbox_rows(world) == 0


@ON_BOTH
async def test_a_move_whose_process_died_before_presenting_it_is_posted_once_after_a_restart(world, monkeypatch):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    # The process dies between the commit and the presentation: nothing of the in-memory hand-over happens.
    monkeypatch.setattr(world.bot.matches.outbox, "deliver", lambda token, events: None)
    await move(world.alice, thread, match_id, "a1-a3")
    await presented(world)
    assert len(board_posts(thread)) == 1 and await outbox_rows(world) == 1

    await restart_and_repair(world)

    posts = board_posts(thread)
    assert len(posts) == 2 and "**bob** (Dark) to move" in text_of(posts[-1])
    assert await outbox_rows(world) == 0
    await restart_and_repair(world)  # announced and forgotten: a second start posts nothing
    assert len(board_posts(thread)) == 2
    assert (await move(world.bob, thread, match_id, "a12-a10")).response.content.startswith("✅")
    await presented(world)
    assert len(board_posts(thread)) == 3 and await outbox_rows(world) == 0


async def test_rows_of_a_board_already_out_are_forgotten_at_start_up_not_shown_again(world, monkeypatch):
    """The process died after the board post was recorded, before forgetting its row: nothing is posted twice."""
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    outbox = world.bot.matches.outbox
    monkeypatch.setattr(outbox.store, "done", lambda token: asyncio.sleep(0))  # dies before the delete
    await move(world.alice, thread, match_id, "a1-a3")
    await presented(world)
    assert len(board_posts(thread)) == 2 and await outbox_rows(world) == 1

    await restart_and_repair(world)

    assert len(board_posts(thread)) == 2 and await outbox_rows(world) == 0


def sample_match() -> Match:
    return Match(id=3, guild_id=11, channel_id=12, thread_id=None, game="myriath", options={"size": 5}, seed=7,
                 status="finished", state={"board": [[0, 1], [None, 2]], "turn": 4}, version=9,
                 board_message_id=5, draw_agreed=[0, 1], result={"winners": [1]}, created_at=1.5, updated_at=2.5,
                 seats=[Seat(0, 21, "alice"), Seat(1, None, "Computer", "computer", "strong")],
                 announced_version=8, standings=[[1], [0]], takeback={"move": "a1", "agreed": [0]},
                 clock_seconds=600)


def sample(cls: type) -> object:
    """One event of each type, every field set to something a default would not give."""
    match = sample_match()
    values = {
        Match: match,
        Challenge: Challenge(id=4, guild_id=11, channel_id=12, message_id=None, game="archimedes",
                             options={}, challenger_id=21, status="open", created_at=1.0, expires_at=2.0, match_id=3,
                             seats=[ChallengeSeat(0, 21, 21, "alice")]),
        Outcome: Outcome((1,), Text("{player} ran out of moves", player="alice")),
        events.Played: events.Played.TAKEBACK,
        events.Board: events.Board({"cells": [[1, None]], "turn": 3}, (1,), (0, 1), False,
                                   events.Request(0, 1, "load a2"),
                                   events.MatchClock(600, {1: 1234.5}, {0: 99.0})),
        dict[int, MemberPrefs]: {21: MemberPrefs(21, True, False, 55.0)},
        tuple[int, ...]: (0, 2),
        dict[str, typing.Any]: {"cells": [[0, 1]], "pending": None},
    }
    fields = {}
    for field in dataclasses.fields(cls):
        hint = typing.get_type_hints(cls)[field.name]
        if hint in values:
            fields[field.name] = values[hint]
        elif field.name == "events":
            fields[field.name] = [{"type": "capture", "at": "c3", "pieces": [1, 2]}]
        elif field.name == "forced":
            fields[field.name] = [events.ForcedMove(1, "pass", [{"type": "pass"}])]
        elif field.name == "ratings":
            fields[field.name] = [RatingChange(3, 11, "myriath", 21, 0, 2, "L", 25.0, 8.3, 23.1, 7.9, 1, 99.5)]
        elif hint is int or field.name in ("seat", "by_user"):
            fields[field.name] = 2
        elif hint is float:
            fields[field.name] = 123.25
        elif hint is bool:
            fields[field.name] = True
        else:
            fields[field.name] = "a1-a3"
    return cls(**fields)


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda cls: cls.__name__)
def test_every_event_comes_back_from_the_outbox_equal(cls):
    event = sample(cls)
    (back,) = load_events(dump_events([event]))
    assert back == event and type(back) is cls


def test_a_translatable_text_keeps_its_template_through_the_outbox():
    ended = sample(events.MatchEnded)
    (back,) = load_events(dump_events([ended]))
    assert isinstance(back.outcome.reason, Text)
    assert back.outcome.reason.template == "{player} ran out of moves" and back.outcome.reason.params == {
        "player": "alice"}


class Boards:
    """A presenter that records which boards it was asked to show, (kind, match id), and shows them."""

    def __init__(self, service: MatchService):
        self.service = service
        self.shown: list[tuple[str, int]] = []

    async def __call__(self, event) -> bool:
        if isinstance(event, (events.MovePlayed, events.BoardRepaired)):
            self.shown.append((type(event).__name__, event.match.id))
            await self.service.mark_announced(event.match.id, event.match.version)
        return True


async def test_a_live_process_announces_what_another_process_left_when_it_died(tmp_path):
    """Two processes share a database: one writes a move and dies before presenting it. The process serving that
    server announces it once a minute has passed, without a restart, and forgets the row."""
    clock = Clock()
    live, dying = [build_match_service(Repository(await open_database(tmp_path / "s.db")), clock=clock,
                                       seed_source=lambda: 7) for _ in range(2)]
    for service in (live, dying):
        service.timers.claims.shared = True
    shown = Boards(live)
    live.bus.subscribe(shown)
    try:
        await live.start()
        challenge = await dying.create_challenge(guild_id=5, channel_id=2, challenger_id=100, challenger_name="u100",
                                                 game_key="epaminondas", invited=[101])
        match_id = (await dying.accept_challenge(challenge.id, 101, "u101")).match_id
        await dying.repo.set_thread(match_id, 555)
        dying.outbox.deliver = lambda token, events: None  # it dies between its commit and presenting
        await dying.submit_move(match_id, 100, "a1-a3")

        await live.boards.sweep_outbox()
        assert shown.shown == []  # a moment ago: the writer may still be presenting it
        clock.now += REPAIR_AFTER + 1
        assert live.boards.sweep_outbox in live.timers.sweeps  # run at each periodic look of the timers
        await live.boards.sweep_outbox()
        await live.outbox.idle()
        await live.boards.sweep_outbox()  # once announced and forgotten, a second sweep does nothing
        await live.outbox.idle()
        assert shown.shown == [("BoardRepaired", match_id)]
        assert await live.repo.driver.fetchvalue("SELECT COUNT(*) FROM outbox") == 0
    finally:
        for service in (live, dying):
            await service.drain()
            await service.repo.close()


@pytest.fixture
def service_seeds():
    """The `service` fixture (tests/conftest.py: on SQLite and PostgreSQL) seeds its matches with 11 here: with
    moves drawn by random.Random(1), a Myriath game whose 36th move is followed by a forced pass."""
    return lambda: 11


@pytest.mark.parametrize("cancelled_after", ["her move", "the forced pass"])
async def test_a_move_cancelled_after_a_commit_still_plays_the_forced_pass_after_it_and_shows_both(
        service, monkeypatch, cancelled_after):
    challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                               game_key="myriath", invited=[2])
    match_id = (await service.accept_challenge(challenge.id, 2, "u2")).match_id
    seen: list = []
    service.bus.subscribe(lambda event: asyncio.sleep(0, seen.append(event)))
    rng = random.Random(1)
    for _ in range(200):
        match = await service.get_match(match_id)
        game, state = service.game_of(match), service.state_of(match)
        (seat,) = game.to_act(state)
        chosen = rng.choice(game.legal_moves(state, seat))
        after, _ = game.apply(state, seat, chosen)
        (next_seat,) = game.to_act(after) or (None,)
        if next_seat is not None and game.forced_move(after, next_seat) is not None:
            break
        await service.submit_move(match_id, match.user_of(seat), chosen)
    else:
        pytest.fail("no forced pass in 200 moves")
    await service.outbox.idle()
    seen.clear()
    real, units = service.repo.commit_move, []

    async def cancelling(unit):  # the command is cancelled the moment the chosen unit is written
        version = await real(unit)
        units.append(unit.move)
        if units == {"her move": [chosen], "the forced pass": [chosen, "pass"]}[cancelled_after]:
            command.cancel()
            await asyncio.sleep(0)
        return version

    monkeypatch.setattr(service.repo, "commit_move", cancelling)
    command = asyncio.ensure_future(service.submit_move(match_id, match.user_of(seat), chosen))
    with pytest.raises(asyncio.CancelledError):
        await command
    await service.outbox.idle()
    await service.bus.idle()

    now = await service.get_match(match_id)
    assert now.version == match.version + 2  # her move, then the pass the match played for the other seat
    (played,) = [e for e in seen if isinstance(e, events.MovePlayed)]
    assert played.match.version == now.version and played.move == chosen
    assert [(f.seat, f.move) for f in played.forced] == [(next_seat, "pass")]
    assert await service.repo.driver.fetchvalue("SELECT COUNT(*) FROM outbox") == 0


@pytest.mark.parametrize("answer", ["draw offer", "take-back request"])
async def test_an_answer_cancelled_right_after_its_commit_is_still_announced(service, monkeypatch, answer):
    challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="u1",
                                               game_key="epaminondas", invited=[2])
    match_id = (await service.accept_challenge(challenge.id, 2, "u2")).match_id
    await service.submit_move(match_id, 1, "a1-a3")
    await service.outbox.idle()
    seen: list = []
    service.bus.subscribe(lambda event: asyncio.sleep(0, seen.append(event)))
    name = {"draw offer": "set_draw_agreed", "take-back request": "set_takeback"}[answer]
    real = getattr(service.repo, name)

    async def cancelled_once_written(*args, **kwargs):
        await real(*args, **kwargs)
        asyncio.current_task().cancel()
        await asyncio.sleep(0)

    monkeypatch.setattr(service.repo, name, cancelled_once_written)
    with pytest.raises(asyncio.CancelledError):
        if answer == "draw offer":
            await service.offer_draw(match_id, 2)
        else:
            await service.ask_takeback(match_id, 1)
    await service.outbox.idle()
    await service.bus.idle()

    (event,) = seen
    expected = {"draw offer": (events.DrawOffered, 1), "take-back request": (events.TakebackAsked, 0)}[answer]
    assert (type(event), event.seat) == expected
    assert event.match == await service.get_match(match_id)  # as the unit wrote it
    assert await service.repo.driver.fetchvalue("SELECT COUNT(*) FROM outbox") == 0


# --- a match's start and a challenge's end --------------------------------------------------------------------


async def challenge_posted(world, challenger, opponent, game: str = "epaminondas"):
    result = await challenger.slash(world.channel, "play", game=game, opponent=opponent)
    assert posted_challenge(result), result.response.content
    return world.channel.last_message


def current(world, message):
    """`message` as the channel shows it now."""
    return next(m for m in world.channel.history() if m.id == message.id)


def cancelled_once_written(real):
    """A store write whose command's task is cancelled the moment its unit is written."""
    async def write(*args, **kwargs):
        done = await real(*args, **kwargs)
        asyncio.current_task().cancel()
        await asyncio.sleep(0)
        return done
    return write


async def assert_started_once(world, post) -> None:
    """The match of `post` has one thread, recorded, showing one board, and the post points to it."""
    (thread,) = world.channel.threads
    match_id = match_id_of(thread)
    assert len(board_posts(thread)) == 1
    assert (await stored_match(world, match_id)).thread_id == thread.id
    assert f"Match #{match_id} is on in <#{thread.id}>" in text_of(current(world, post))
    assert await outbox_rows(world) == 0


@ON_BOTH
async def test_an_accept_cancelled_right_after_the_match_is_written_still_opens_its_thread(world, monkeypatch):
    post = await challenge_posted(world, world.alice, world.bob)
    repo = world.bot.repo
    monkeypatch.setattr(repo, "start_match", cancelled_once_written(repo.start_match))
    await world.bob.click(post, label="Accept")
    monkeypatch.undo()
    await presented(world)

    await assert_started_once(world, post)
    (thread,) = world.channel.threads
    assert "**alice** (Light) to move" in text_of(board_posts(thread)[0])


@ON_BOTH
async def test_a_match_whose_process_died_before_its_thread_gets_it_once_after_a_restart(world, monkeypatch):
    post = await challenge_posted(world, world.alice, world.bob)
    monkeypatch.setattr(world.bot.matches.outbox, "deliver", lambda token, events: None)  # dies after the unit
    await world.bob.click(post, label="Accept")
    await presented(world)
    assert world.channel.threads == [] and await outbox_rows(world) == 1

    await restart_and_repair(world)
    await assert_started_once(world, post)
    await restart_and_repair(world)  # presented and forgotten: a second start opens nothing
    await assert_started_once(world, post)
    (thread,) = world.channel.threads
    assert (await move(world.alice, thread, match_id_of(thread), "a1-a3")).response.content.startswith("✅")


async def test_a_thread_opened_but_not_recorded_before_a_crash_is_adopted_not_opened_again(world, monkeypatch):
    post = await challenge_posted(world, world.alice, world.bob)
    matches = world.bot.matches

    async def dies(match_id, thread_id):  # the process dies once the thread is open, before it is recorded
        raise RuntimeError("the process died")

    monkeypatch.setattr(matches, "set_thread", dies)
    monkeypatch.setattr(matches.outbox.store, "done", lambda token: asyncio.sleep(0))
    await world.bob.click(post, label="Accept")
    await presented(world)
    world.expect_errors()
    (thread,) = world.channel.threads
    assert board_posts(thread) == [] and await outbox_rows(world) == 1
    monkeypatch.undo()

    await restart_and_repair(world)

    assert world.channel.threads[0].id == thread.id
    await assert_started_once(world, post)


@ON_BOTH
@pytest.mark.parametrize("answer", ["Decline", "Cancel"])
async def test_a_challenge_answer_cancelled_right_after_its_write_still_updates_the_post(world, monkeypatch, answer):
    post = await challenge_posted(world, world.alice, world.bob)
    repo = world.bot.repo
    monkeypatch.setattr(repo, "close_challenge", cancelled_once_written(repo.close_challenge))
    await {"Decline": world.bob, "Cancel": world.alice}[answer].click(post, label=answer)
    monkeypatch.undo()
    await presented(world)

    said = {"Decline": "❌ Declined.", "Cancel": "🚫 Cancelled by the challenger."}[answer]
    assert said in text_of(current(world, post)) and not buttons(current(world, post))
    assert await outbox_rows(world) == 0


@ON_BOTH
async def test_a_challenge_that_expired_as_its_process_died_shows_it_after_a_restart(world, monkeypatch):
    post = await challenge_posted(world, world.alice, world.bob)
    monkeypatch.setattr(world.bot.matches.outbox, "deliver", lambda token, events: None)  # dies after the unit
    await world.env.advance_time(DEFAULT_CHALLENGE_TTL + 60)
    await presented(world)
    assert "Expires" in text_of(current(world, post)) and await outbox_rows(world) == 1

    await restart_and_repair(world)

    assert "⌛ This challenge expired unanswered." in text_of(current(world, post))
    assert await outbox_rows(world) == 0


async def test_a_live_process_presents_a_start_and_a_challenge_end_another_process_left_when_it_died(tmp_path):
    """Two processes share a database; one starts a match and closes a challenge and dies before presenting
    either. The process serving that server presents both, as recovered, once a minute has passed, once."""
    clock = Clock()
    live, dying = [build_match_service(Repository(await open_database(tmp_path / "s.db")), clock=clock,
                                       seed_source=lambda: 7) for _ in range(2)]
    for service in (live, dying):
        service.timers.claims.shared = True
    shown: list = []
    live.bus.subscribe(lambda event: asyncio.sleep(0, shown.append(event)))
    try:
        await live.start()
        dying.outbox.deliver = lambda token, events: None  # it dies between its commits and presenting them
        started = await dying.create_challenge(guild_id=5, channel_id=2, challenger_id=100, challenger_name="u100",
                                               game_key="epaminondas", invited=[101])
        match_id = (await dying.accept_challenge(started.id, 101, "u101")).match_id
        declined = await dying.create_challenge(guild_id=5, channel_id=2, challenger_id=100,
                                                challenger_name="u100", game_key="epaminondas", invited=[102])
        await dying.decline_challenge(declined.id, 102)

        await live.boards.sweep_outbox()
        assert shown == []  # a moment ago: the writer may still be presenting them
        clock.now += REPAIR_AFTER + 1
        for _ in range(2):  # once presented and forgotten, a second sweep does nothing
            await live.boards.sweep_outbox()
            await live.outbox.idle()
            await live.bus.idle()
        assert sorted((type(e).__name__, e.recovered) for e in shown) == [("ChallengeEnded", True),
                                                                         ("MatchStarted", True)]
        (start,) = [e for e in shown if isinstance(e, events.MatchStarted)]
        (end,) = [e for e in shown if isinstance(e, events.ChallengeEnded)]
        assert start.match == await live.get_match(match_id) and start.challenge.status == "started"
        assert (end.challenge.id, end.challenge.status, end.by_user) == (declined.id, "declined", 102)
        assert await live.repo.driver.fetchvalue("SELECT COUNT(*) FROM outbox") == 0
    finally:
        for service in (live, dying):
            await service.drain()
            await service.repo.close()


# --- leagues: their announcements follow their commits too -------------------------------------------------------

def league_organiser(world):
    role = world.guild.create_role("league mods", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("olga"), roles=[role])


def league_announcement(world):
    return next(m for m in reversed(list(world.channel.history())) if text_of(m).startswith("🏆"))


def league_thread_posts(world, text):
    thread = next(t for t in world.channel.threads if t.name.startswith("League:"))
    return [m for m in thread.history() if text in text_of(m)]


async def open_league(world, name="Autumn"):
    olga = league_organiser(world)
    created = await olga.slash(world.channel, "league create", name=name, game="epaminondas", format="round_robin")
    assert created.response.content.startswith("✅"), created.response.content
    await presented_leagues(world)
    return olga, league_announcement(world)


async def presented_leagues(world) -> None:
    await world.bot.leagues.idle()


@ON_BOTH
async def test_a_league_join_cancelled_right_after_its_unit_still_updates_the_announcement(world, monkeypatch):
    await open_league(world)
    store = world.bot.leagues.store
    real = store.add_player

    async def cancelled_once_written(*args, **kwargs):  # the command's task is cancelled the moment its unit is written
        joined = await real(*args, **kwargs)
        asyncio.current_task().cancel()
        await asyncio.sleep(0)
        return joined

    monkeypatch.setattr(store, "add_player", cancelled_once_written)
    await world.alice.slash(world.channel, "league join", league="Autumn")
    monkeypatch.setattr(store, "add_player", real)
    await presented_leagues(world)

    assert "Players (1): alice" in text_of(league_announcement(world))
    assert await outbox_rows(world) == 0


@ON_BOTH
async def test_a_league_join_whose_process_died_before_presenting_it_is_shown_after_a_restart(world, monkeypatch):
    await open_league(world)
    monkeypatch.setattr(world.bot.leagues.outbox, "deliver", lambda token, events: None)  # dies after the commit
    joined = await world.alice.slash(world.channel, "league join", league="Autumn")
    assert "You are in" in joined.response.content
    await presented_leagues(world)
    assert "Players (0)" in text_of(league_announcement(world)) and await outbox_rows(world) == 1

    await restart_and_repair(world)
    await presented_leagues(world)

    assert "Players (1): alice" in text_of(league_announcement(world))
    assert await outbox_rows(world) == 0


@ON_BOTH
async def test_a_cancellation_posted_but_not_forgotten_is_not_posted_again_after_a_restart(world, monkeypatch):
    olga, _ = await open_league(world)
    outbox = world.bot.leagues.outbox
    monkeypatch.setattr(outbox.store, "done", lambda token: asyncio.sleep(0))  # dies after the post, before the delete
    await olga.slash(world.channel, "league cancel", league="Autumn")
    await presented_leagues(world)
    assert len(league_thread_posts(world, "was cancelled")) == 1 and await outbox_rows(world) == 1

    await restart_and_repair(world)
    await presented_leagues(world)

    assert len(league_thread_posts(world, "was cancelled")) == 1
    assert await outbox_rows(world) == 0


async def test_an_announcement_posted_but_not_recorded_is_adopted_after_a_restart(world, monkeypatch):
    """The process died between posting a league's announcement and recording it: the restart adopts the post."""
    monkeypatch.setattr(world.bot.leagues.store, "set_posts", lambda *args: asyncio.sleep(0))
    monkeypatch.setattr(world.bot.repo.outbox, "done", lambda token: asyncio.sleep(0))
    post = (await open_league(world))[1]
    assert await outbox_rows(world) == 1

    await restart_and_repair(world)
    await presented_leagues(world)

    assert [m.id for m in world.channel.history() if text_of(m).startswith("🏆")] == [post.id]
    league = await world.bot.leagues.named(world.guild.id, "Autumn")
    assert league.message_id == post.id and await outbox_rows(world) == 0


async def league_of_two(world):
    olga, post = await open_league(world)
    for member in (world.alice, world.bob):
        joined = await member.click(post, label="Join")
        assert "You are in" in joined.response.content, joined.response.content
    await presented_leagues(world)
    return olga


@ON_BOTH
async def test_a_league_start_cancelled_right_after_its_round_is_written_still_posts_the_pairings(world, monkeypatch):
    olga = await league_of_two(world)
    store = world.bot.leagues.store
    real = store.set_round_announced

    async def cancelled_once_written(*args, **kwargs):
        done = await real(*args, **kwargs)
        asyncio.current_task().cancel()
        await asyncio.sleep(0)
        return done

    monkeypatch.setattr(store, "set_round_announced", cancelled_once_written)
    await olga.slash(world.channel, "league start", league="Autumn")
    monkeypatch.setattr(store, "set_round_announced", real)
    await presented_leagues(world)
    await presented(world)

    assert len(league_thread_posts(world, "Every match starts now")) == 1
    assert await outbox_rows(world) == 0


@ON_BOTH
async def test_a_round_whose_process_died_before_posting_its_pairings_is_posted_once_after_a_restart(world,
                                                                                                     monkeypatch):
    olga = await league_of_two(world)
    monkeypatch.setattr(world.bot.leagues.outbox, "deliver", lambda token, events: None)  # dies after the commit
    await olga.slash(world.channel, "league start", league="Autumn")
    await presented_leagues(world)
    await presented(world)
    assert league_thread_posts(world, "Every match starts now") == [] and await outbox_rows(world) == 1

    await restart_and_repair(world)
    await presented_leagues(world)
    await restart_and_repair(world)  # presented and forgotten: a second start posts nothing
    await presented_leagues(world)

    assert len(league_thread_posts(world, "Every match starts now")) == 1
    assert await outbox_rows(world) == 0


async def test_a_round_whose_matches_started_before_a_crash_is_announced_once_after_a_restart(world, monkeypatch):
    """The process died after the round's matches started, before the unit that announces the round."""
    olga = await league_of_two(world)
    monkeypatch.setattr(world.bot.leagues.rounds, "_announce_round", lambda *args: asyncio.sleep(0))
    await olga.slash(world.channel, "league start", league="Autumn")
    await presented_leagues(world)
    await presented(world)
    assert league_thread_posts(world, "Every match starts now") == []

    await restart_and_repair(world)
    await presented_leagues(world)

    assert len(league_thread_posts(world, "Every match starts now")) == 1
    assert len(await world.bot.leagues.store.tables((await world.bot.leagues.named(world.guild.id, "Autumn")).id)) == 1
    assert await outbox_rows(world) == 0
