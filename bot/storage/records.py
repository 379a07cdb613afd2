"""Plain records the repository returns. No behaviour beyond small lookups."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ChallengeSeat:
    position: int
    invited_id: int | None
    user_id: int | None
    user_name: str | None
    kind: str = "member"  # or "computer": a seat the computer opponent fills (no user id)
    level: str | None = None

    @property
    def taken(self) -> bool:
        return self.user_id is not None or self.kind == "computer"


@dataclass
class Challenge:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    game: str
    options: dict[str, Any]
    challenger_id: int
    status: str
    created_at: float
    expires_at: float
    match_id: int | None
    seats: list[ChallengeSeat] = field(default_factory=list)
    rated: bool = True
    rematch_of: int | None = None  # the finished match this challenge replays, seats rotated

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    @property
    def is_full(self) -> bool:
        return all(s.taken for s in self.seats)

    def holds(self, user_id: int) -> bool:
        return any(s.user_id == user_id for s in self.seats)

    def invited(self, user_id: int) -> bool:
        return any(s.invited_id == user_id and s.user_id is None for s in self.seats)


@dataclass
class Seat:
    seat: int
    user_id: int | None  # None for a seat that is not a Discord member (the computer opponent)
    user_name: str
    kind: str = "member"
    level: str | None = None

    @property
    def is_member(self) -> bool:
        return self.kind == "member"


@dataclass
class Match:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    state: dict[str, Any]  # the engine's dump
    version: int
    board_message_id: int | None
    draw_agreed: list[int] | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    seats: list[Seat] = field(default_factory=list)
    announced_version: int = 0  # the version whose board post (or setup notice) is out
    rated: bool = True
    standings: list[list[int]] | None = None
    finished_at: float | None = None
    takeback: dict[str, Any] | None = None  # a pending take-back request (bot/matches/records.py)

    @property
    def active(self) -> bool:
        return self.status == "active"

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def user_of(self, seat: int) -> int | None:
        return self.seats[seat].user_id

    @property
    def member_ids(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]

    @property
    def names(self) -> list[str]:
        return [s.user_name for s in self.seats]


@dataclass
class LoggedMove:
    version: int
    seat: int
    move: str
    private: bool
    events: list[dict[str, Any]]
    created_at: float


@dataclass
class PrivateMessage:
    id: int
    match_id: int
    seat: int
    user_id: int
    content: str
    with_view: bool
    channel: str
    created_at: float
    delivered_at: float | None


@dataclass
class Timer:
    id: int
    kind: str
    ref_id: int
    seat: int
    due_at: float
