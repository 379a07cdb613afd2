"""Leagues, their players and their tables, as the league service decides with them and the store keeps them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .matches import ClockRules


@dataclass(frozen=True)
class League:
    id: int
    guild_id: int
    channel_id: int
    name: str
    season: int
    previous_id: int | None
    game: str
    format: str  # 'round_robin' or 'swiss'
    rounds: int | None
    total_rounds: int | None
    table_size: int
    clock_seconds: int | None
    rated: bool
    division_size: int
    signup_hours: float
    repeat: str
    organiser_id: int
    status: str  # 'signup', 'running', 'finished', 'cancelled'
    signup_ends_at: float
    created_at: float
    started_at: float | None
    finished_at: float | None
    round: int
    results_shown: int
    message_id: int | None
    thread_id: int | None
    announced_round: int = 0  # the last round whose pairings were announced
    clock_rules: ClockRules = ClockRules()  # how its matches' clocks run besides their time (clock_seconds)
    promotion: int = 2  # a repeating round robin's players going up and down from each division between seasons

    @property
    def promotes(self) -> bool:
        """Whether its next season moves players between divisions (bot/leagues/seasons.py)."""
        return self.format == "round_robin" and self.repeat != "none"

    @property
    def is_open(self) -> bool:
        return self.status in ("signup", "running")


@dataclass(frozen=True)
class LeaguePlayer:
    user_id: int
    user_name: str
    joined_at: float
    rating: float | None
    division: int
    left_at: float | None

    @property
    def active(self) -> bool:
        return self.left_at is None


@dataclass(frozen=True)
class LeagueTable:
    id: int
    round: int
    division: int
    board: int
    players: tuple[int, ...]  # seat order; one player: a bye
    challenge_id: int | None
    challenge_status: str | None
    match_id: int | None
    match_status: str | None
    thread_id: int | None
    standings: list[list[int]] | None  # seat groups, best first, once the match is over
    result: dict[str, Any] | None

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    @property
    def finished(self) -> bool:
        return self.is_bye or self.match_status == "finished"
