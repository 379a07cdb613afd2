"""Presenters receive what they present: each event carries the match (or league) as it was committed, the
server's language and what its board shows, so a handler reads at most once per event, never the match it was
given, and computes no view, no seats to act and no clock of its own.

The presenters' services are wrapped in a counting proxy while the simulated Discord plays matches and leagues."""

from __future__ import annotations

import contextvars
import inspect
from typing import Any

import pytest

import bot.app
from bot.matches import events
from bot.presenters import Presenter
from bot.presenters.leagues import LeaguePresenter
from bot_helpers import text_of, board_posts, move, start_match
from test_bot_leagues import announcement, four_players, open_league, organiser

# Calls a handler makes to write what it posted; everything else awaited on the service is a read.
WRITES = frozenset({"record_board", "mark_announced", "set_thread", "set_posts"})
# What an event carries: a handler that computes one of these again pulls back what it was given.
CARRIED = frozenset({"view", "state_of", "to_act", "users_to_act", "in_secret_setup", "pending_request", "in_play"})
MATCH_READS = frozenset({"get_match", "load", "match_for", "playable_match", "finished_match"})

HANDLING: contextvars.ContextVar[Any] = contextvars.ContextVar("handling", default=None)


class Pulls:
    """What the presenter's handlers asked of the service, per event."""

    def __init__(self) -> None:
        self.reads: dict[int, list[str]] = {}  # id(event) → the reads its handler made
        self.events: dict[int, Any] = {}
        self.computed: list[tuple[str, str]] = []  # (event type, call)
        self.rereads: list[tuple[str, str]] = []  # (event type, call) reading the event's own match
        self.handled: set[str] = set()

    def note(self, path: str, args: tuple, result: Any) -> None:
        event = HANDLING.get()
        if event is None:
            return
        name = path.rsplit(".", 1)[-1]
        if inspect.isawaitable(result):
            if name not in WRITES:
                self.reads.setdefault(id(event), []).append(path)
                self.events[id(event)] = event
            match = getattr(event, "match", None)
            if name in MATCH_READS and match is not None and match.id in args:
                self.rereads.append((type(event).__name__, path))
        elif name in CARRIED:
            self.computed.append((type(event).__name__, path))


class Counting:
    """Stands in for an object (the service, or any part reached through it), noting every call."""

    def __init__(self, target: Any, pulls: Pulls, path: str) -> None:
        self._target, self._pulls, self._path = target, pulls, path

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        path = f"{self._path}.{name}"
        if callable(value):
            def call(*args, **kwargs):
                result = value(*args, **kwargs)
                self._pulls.note(path, args, result)
                return result
            return call
        if isinstance(value, (int, float, str, bool, type(None), tuple, frozenset)):
            return value
        return Counting(value, self._pulls, path)


@pytest.fixture
def pulls(monkeypatch) -> Pulls:
    pulls = Pulls()
    monkeypatch.setattr(bot.app, "Presenter", counting(Presenter, pulls, "service"))
    monkeypatch.setattr(bot.app, "LeaguePresenter", counting(LeaguePresenter, pulls, "leagues"))
    return pulls


def counting(presenter: type, pulls: Pulls, name: str) -> type:
    """`presenter` with its service (its second argument) behind the proxy, each event's calls noted as its own."""

    class CountingPresenter(presenter):
        def __init__(self, client, service, *args, **kwargs):
            super().__init__(client, Counting(service, pulls, name), *args, **kwargs)

        async def __call__(self, event):
            token = HANDLING.set(event)
            pulls.handled.add(type(event).__name__)
            try:
                return await super().__call__(event)
            finally:
                HANDLING.reset(token)

    return CountingPresenter


@pytest.fixture
def counted_world(pulls, request):
    return request.getfixturevalue("world")


@pytest.mark.replays  # the end of the match posts its replay: the one read its event needs (the move log)
async def test_handlers_read_at_most_once_and_never_the_events_match(pulls, counted_world):
    world = counted_world
    declined = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.carol)
    await world.carol.click(world.channel.last_message, label="Decline")
    assert declined.followups
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    service = world.bot.matches
    await move(world.alice, thread, match_id, "a1-a3")
    asked = await service.ask_takeback(match_id, world.alice.id)
    await service.answer_takeback(match_id, world.bob.id, asked.match.version, True)
    await move(world.alice, thread, match_id, "a1-d4")
    await world.bob.click(board_posts(thread)[-1], label="Offer draw")
    await world.alice.click(thread.last_message, label="Decline draw")
    await world.carol.slash(world.channel, "board", match=match_id)
    await move(world.bob, thread, match_id, "f12-f9")
    asked = await world.alice.click(board_posts(thread)[-1], label="Resign")
    await world.alice.click(asked.response, label="Yes, resign")
    await world.bot.matches.bus.idle()

    assert pulls.handled == {"ChallengeEnded", "MatchStarted", "MovePlayed", "TakebackAsked", "DrawOffered",
                             "DrawDeclined", "BoardRequested", "MatchEnded"}
    assert pulls.rereads == []
    assert pulls.computed == []
    assert {type(pulls.events[key]).__name__: reads for key, reads in pulls.reads.items()} \
        == {"MatchEnded": ["service.moves_of"]}  # the replay's moves: nothing else is read


async def test_a_board_repaired_at_start_up_is_shown_from_its_event(pulls, counted_world):
    world = counted_world
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=500)  # the post dies with the bot
    await move(world.alice, world.channel, match_id, "a1-a3")  # typed outside the thread: posted as a message
    await world.restart()
    await world.bot.matches.bus.idle()
    assert "**bob** (Dark) to move" in text_of(board_posts(thread)[-1])
    assert "BoardRepaired" in pulls.handled
    assert (pulls.reads, pulls.rereads, pulls.computed) == ({}, [], [])


async def test_the_proxy_sees_a_handler_that_reads_its_events_match(pulls, counted_world, monkeypatch):
    """The test above can fail: a move handler that looks its match up again is caught."""
    world = counted_world
    presenter = world.bot.presenter
    original = presenter._handlers[events.MovePlayed]

    async def rereading(event):
        await presenter.service.get_match(event.match.id)
        presenter.service.view(event.match, None)
        return await original(event)

    monkeypatch.setitem(presenter._handlers, events.MovePlayed, rereading)
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, "a1-d4")
    await world.bot.matches.bus.idle()
    assert pulls.rereads == [("MovePlayed", "service.get_match")]
    assert pulls.computed == [("MovePlayed", "service.view")]


async def test_league_handlers_read_nothing_back(pulls, counted_world):
    """A league's events carry its players and the server's language: showing them reads nothing but a round's
    tables (their match threads appear as the matches are announced)."""
    world = counted_world
    olga = organiser(world)
    await open_league(world, olga, four_players(world), name="Counted")
    await world.alice.click(announcement(world), label="Leave")
    await olga.slash(world.channel, "league start", league="Counted")
    await world.bot.leagues.idle()
    await world.bot.matches.bus.idle()
    assert {"LeagueOpened", "RosterChanged", "RoundStarted"} <= pulls.handled
    league_reads = {type(pulls.events[key]).__name__: reads for key, reads in pulls.reads.items()
                    if reads[0].startswith("leagues.")}
    assert league_reads == {"RoundStarted": ["leagues.round_tables"]}
