"""The match service on its own: whole matches driven and observed through its events alone, no Discord."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.games.registry import get_game
from bot.composition import build_match_service
from bot.matches import events
from bot.storage.opening import open_repository


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Recorder:
    """A subscriber that keeps every event, as a presenter would receive them."""

    def __init__(self):
        self.seen: list = []

    async def __call__(self, event) -> bool:
        self.seen.append(event)
        return True

    def kinds(self) -> list[str]:
        return [type(e).__name__ for e in self.seen]


async def open_service(database, clock, seed=7):
    service = build_match_service(await open_repository(database), clock=clock, seed_source=lambda: seed)
    recorder = Recorder()
    service.bus.subscribe(recorder)
    await service.start()
    return service, recorder


@pytest.mark.parametrize("game_key,players", [("epaminondas", 2), ("archimedes", 2), ("myrmidons", 2),
                                              ("mycenae", 3), ("myriath", 4)])
async def test_a_whole_match_told_by_events(store_database, game_key, players):
    clock = Clock()
    service, recorder = await open_service(store_database, clock)
    try:
        challenge = await service.create_challenge(
            guild_id=1, channel_id=2, challenger_id=100, challenger_name="u100", game_key=game_key,
            invited=[101 + i for i in range(players - 1)])
        for i in range(players - 1):
            challenge = await service.accept_challenge(challenge.id, 101 + i, f"u{101 + i}")
        await service.bus.idle()
        started = [e for e in recorder.seen if isinstance(e, events.MatchStarted)]
        assert len(started) == 1 and challenge.status == "started"
        match_id = started[0].match.id
        rng = random.Random(3)
        for _ in range(3000):
            match = await service.get_match(match_id)
            if not match.active:
                break
            game, state = service.game_of(match), service.state_of(match)
            seat = rng.choice(game.to_act(state))
            await service.submit_move(match_id, match.user_of(seat), rng.choice(game.legal_moves(state, seat)))
        await service.bus.idle()
        match = await service.get_match(match_id)
        assert not match.active
        ended = [e for e in recorder.seen if isinstance(e, events.MatchEnded)]
        assert len(ended) == 1 and ended[0].outcome.to_json() == match.result  # ended exactly once
        played = [e for e in recorder.seen if isinstance(e, (events.MovePlayed, events.SetupProgress))]
        assert played and played[-1].match.version == match.version
        assert recorder.kinds().index("MatchStarted") < recorder.kinds().index("MatchEnded")
        if get_game(game_key).info.hidden_information:  # secret moves are never handed to presenters
            assert all(e.move is None for e in recorder.seen
                       if isinstance(e, events.MovePlayed) and e.kind is events.Played.MOVE
                       and "deploy" in str(e.events))
    finally:
        await service.repo.close()


async def test_challenge_expiry_survives_a_restart(store_database):
    clock = Clock()
    service, _ = await open_service(store_database, clock)
    challenge = await service.create_challenge(guild_id=1, channel_id=2, challenger_id=100, challenger_name="u",
                                               game_key="epaminondas", invited=[101])
    await service.drain()
    await service.repo.close()  # the bot stops before the challenge is due

    clock.now += service.challenge_ttl + 60  # ... and comes back after it was due
    again, recorder = await open_service(store_database, clock)  # start() fires what fell due meanwhile
    try:
        for _ in range(200):  # the dispatcher runs in its own task: wait for it to report
            await again.bus.idle()
            if recorder.seen:
                break
            await asyncio.sleep(0.01)
        closed = [e for e in recorder.seen if isinstance(e, events.ChallengeEnded)]
        assert len(closed) == 1 and closed[0].challenge.id == challenge.id
        assert closed[0].challenge.status == "expired" and closed[0].by_user is None
        assert await again.timers.fire_due() == 0  # fired once, never again
    finally:
        await again.drain()
        await again.repo.close()


async def test_resign_and_draw_are_events_too(store_database):
    service, recorder = await open_service(store_database, Clock())
    try:
        challenge = await service.create_challenge(guild_id=1, channel_id=2, challenger_id=1, challenger_name="a",
                                                   game_key="myriath", invited=[2, 3])
        for user in (2, 3):
            challenge = await service.accept_challenge(challenge.id, user, f"u{user}")
        match_id = challenge.match_id
        report = await service.resign(match_id, 3)
        assert report.match.active  # three players: the others play on
        offer = await service.offer_draw(match_id, 1)
        await service.offer_draw(match_id, 2)
        await service.bus.idle()
        kinds = recorder.kinds()
        assert kinds.count("MatchStarted") == 1 and "DrawOffered" in kinds and kinds[-1] == "MatchEnded"
        resigned = next(e for e in recorder.seen if isinstance(e, events.MovePlayed) and e.kind is events.Played.RESIGN)
        assert resigned.seat == 2 and offer.kind == "draw_offer"
        final = await service.get_match(match_id)
        assert final.result["winners"] == [] and final.standings[-1] == [2]  # the resigned player last
    finally:
        await service.repo.close()
