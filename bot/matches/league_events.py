"""What leagues report, and the names the league modules share: the events the league presenter shows (each
carries the league as it is after the change, its players and the server's language, `lang`, so the presenter
reads nothing back to show it), their bus, and the timers' kinds. Sign-up and organisers' decisions
(leagues.py) and the rounds (league_rounds.py) both build on this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.leagues import Standing
from bot.domain import League, LeaguePlayer, LeagueTable

from .bus import EventBus

SIGNUP_TIMER = "league_signup"
STEP_TIMER = "league_step"
SEASON_SECONDS = 30 * 24 * 3600.0  # "monthly": the next season starts a month after this one started
UNRATED = 1500  # the displayed rating of a member without one: the model's starting point


def player_names(players: list[LeaguePlayer]) -> dict[int, str]:
    return {p.user_id: p.user_name for p in players}


# --- events: what the league presenter shows -------------------------------------------------------------------
# Each carries the league as it is after the change, its players and the server's language (`lang`), so the
# presenter reads nothing back to show it.

@dataclass(frozen=True)
class Announced:
    """What every league event carries besides the league: the server's language, and whether a process that
    recovers it from the outbox presents it (bot/presenters/leagues.py then adopts a post already out)."""

    lang: str = field(kw_only=True)
    recovered: bool = field(default=False, kw_only=True)


@dataclass(frozen=True)
class DivisionTable:
    division: int
    rows: list[Standing]


@dataclass(frozen=True)
class LeagueOpened(Announced):
    """A league (or its next season) opened for sign-up: post the announcement and open its thread."""

    league: League
    players: list[LeaguePlayer] = field(default_factory=list)


@dataclass(frozen=True)
class RosterChanged(Announced):
    league: League
    players: list[LeaguePlayer]


@dataclass(frozen=True)
class RoundStarted(Announced):
    league: League
    round: int
    tables: list[LeagueTable]
    names: dict[int, str]
    players: list[LeaguePlayer] = field(kw_only=True)


@dataclass(frozen=True)
class StandingsChanged(Announced):
    league: League
    divisions: list[DivisionTable]
    names: dict[int, str]
    players: list[LeaguePlayer] = field(kw_only=True)


@dataclass(frozen=True)
class LeagueFinished(Announced):
    league: League
    divisions: list[DivisionTable]
    names: dict[int, str]
    next_season: League | None
    players: list[LeaguePlayer] = field(kw_only=True)


@dataclass(frozen=True)
class LeagueCancelled(Announced):
    league: League
    reason: str  # English, with {placeholders} filled from reason_params when shown
    reason_params: dict[str, Any] = field(default_factory=dict)
    players: list[LeaguePlayer] = field(kw_only=True)


LeagueEvent = LeagueOpened | RosterChanged | RoundStarted | StandingsChanged | LeagueFinished | LeagueCancelled


def league_bus() -> EventBus[LeagueEvent]:
    """League events are delivered like match events, in order per league."""
    return EventBus(key=lambda event: event.league.id)
