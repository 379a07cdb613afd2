"""Every event the match service reports has exactly one presenter handler, checked when the bot starts: an event
type nobody presents would otherwise be dropped without a word."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import simcord

import bot.presenters
from bot.matches import events
from bot.presenters import EVENT_TYPES, UnhandledEventError, check_every_event_handled
from conftest import GUILD_ID, close_database, make_bot


@dataclass(frozen=True)
class CoinFlipped:
    """An event type the presenter has never heard of."""

    match: object


def test_event_types_are_every_member_of_the_union():
    assert set(EVENT_TYPES) == {events.ChallengeEnded, events.MatchStarted, events.SetupProgress,
                                events.MovePlayed, events.BoardRepaired, events.DrawOffered, events.DrawDeclined,
                                events.BoardRequested,
                                events.MatchEnded, events.TakebackAsked, events.TakebackAnswered,
                                events.TurnReminder, events.AnalysisReady, events.VacationDaySpent}


async def _handled(event) -> bool:
    return True


def test_a_missing_handler_is_named():
    handlers = {kind: _handled for kind in EVENT_TYPES if kind is not events.TurnReminder}
    with pytest.raises(UnhandledEventError, match="no handler for \\['TurnReminder'\\]"):
        check_every_event_handled(handlers)


def test_a_handler_for_no_event_type_is_named():
    handlers = {kind: _handled for kind in EVENT_TYPES} | {CoinFlipped: _handled}
    with pytest.raises(UnhandledEventError, match="a handler for no event type \\['CoinFlipped'\\]"):
        check_every_event_handled(handlers)


async def test_the_bot_does_not_start_with_an_unhandled_event_type(settings, monkeypatch):
    monkeypatch.setattr(bot.presenters, "EVENT_TYPES", (*EVENT_TYPES, CoinFlipped))
    env = simcord.Env(make_bot(settings), settle_timeout=30.0, shard_count=1)
    env.create_guild("Strategos Test", id=GUILD_ID)
    try:
        with pytest.raises(UnhandledEventError, match="CoinFlipped"):
            await env.start()
    finally:
        await env.shutdown()
        await close_database(env.bot)
