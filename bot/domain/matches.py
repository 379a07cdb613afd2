"""Matches, seats, challenges, members' choices, logged moves, timers, and the units of work the service decides
and the store commits. Plain data, no behaviour beyond small lookups."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ClockRules:
    """How a clock runs besides its time (`clock_seconds`), chosen with the challenge (or league) and fixed for
    the match. The default is "days per move": each turn starts with the full time."""

    increment: int | None = None  # Fischer: seconds added to the bank by each move (None: days per move)
    cap: int | None = None  # Fischer: the most a bank may hold after an increment
    vacation: bool = True  # a player out of time spends a vacation day, if she has one, instead of losing
    weekends: bool = False  # quiet weekends: each player's clock stands still from Saturday to Monday, her time

    @property
    def fischer(self) -> bool:
        return self.increment is not None

    def to_json(self) -> dict[str, Any] | None:
        """What the `clock_rules` column holds (None: the default rules, as every match before them)."""
        found: dict[str, Any] = {k: v for k, v in (("increment", self.increment), ("cap", self.cap)) if v is not None}
        if not self.vacation:
            found["vacation"] = False
        if self.weekends:
            found["weekends"] = True
        return found or None

    @classmethod
    def from_json(cls, value: dict[str, Any] | None) -> "ClockRules":
        value = value or {}
        return cls(increment=value.get("increment"), cap=value.get("cap"), vacation=value.get("vacation", True),
                   weekends=value.get("weekends", False))



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
    clock_seconds: int | None = None  # time for each move (a Fischer clock's starting bank); None: no clock
    clock_rules: ClockRules = ClockRules()

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
    takeback: dict[str, Any] | None = None  # a pending take-back request (bot/matches/takebacks.py)
    clock_seconds: int | None = None  # time for each move (a Fischer clock's starting bank); None: no clock
    clock_rules: ClockRules = ClockRules()
    # A Fischer clock's banks, seat → seconds: each seat's bank as her clock last stopped or started (None: every
    # bank still full), and every seat's bank just before the last action, which a take-back gives back.
    clock_banks: dict[int, float] | None = None
    clock_prior: dict[int, float] | None = None

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

    def player_seat(self, user_id: int) -> int:
        """The seat of a user known to play in this match (`seat_of` asks whether she does)."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise ValueError(f"user {user_id} has no seat in match {self.id}")
        return seat

    def member_id(self, seat: int) -> int:
        """The user of a seat known to be a member's (`user_of` also answers for the computer's: None)."""
        user_id = self.seats[seat].user_id
        if user_id is None:
            raise ValueError(f"seat {seat} of match {self.id} is not a member's")
        return user_id

    @property
    def member_ids(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]

    @property
    def names(self) -> list[str]:
        return [s.user_name for s in self.seats]


class DamagedMatch(Exception):
    """A match whose stored record cannot be played from: its state is not valid JSON or its engine refuses it, its
    seats are missing, or it was set aside already (`known`: the operator was told). Found where the match is read
    or loaded, and raised instead of the match: the match is set aside, the rest goes on (bot/matches/damage.py).
    `guild_id` and `players` (the members whose seats were found) say who may hear of it."""

    def __init__(self, match_id: int, reason: str, *, game: str = "", status: str = "active",
                 guild_id: int | None = None, players: tuple[int, ...] = (), known: bool = False):
        super().__init__(f"match {match_id} is damaged: {reason}")
        self.match_id, self.reason, self.game, self.status = match_id, reason, game, status
        self.guild_id, self.players, self.known = guild_id, players, known


@dataclass
class LoggedMove:
    version: int
    seat: int
    move: str
    private: bool
    events: list[dict[str, Any]]
    created_at: float
    clock_used: float | None = None  # seconds the move charged to its mover's clock (None: none, or not known)


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


@dataclass(frozen=True)
class SeatTimers:
    """The clock timers a unit changes: the `cancel` seats lose their deadline and reminder; the `arm` seats get
    the given kinds, unfired ({seat: {kind: due_at}})."""

    cancel: tuple[int, ...] = ()
    arm: dict[int, dict[str, float]] = field(default_factory=dict)
    # A Fischer clock's banks as the unit leaves them, written with the match (Match.clock_banks, clock_prior);
    # None: unchanged (a clock of days per move has none).
    banks: dict[int, float] | None = None
    prior: dict[int, float] | None = None

    @property
    def empty(self) -> bool:
        return not self.cancel and not self.arm and self.banks is None


@dataclass(frozen=True)
class RatingWrite:
    """A rated finish as the rating model computed it, with what it was computed from: `games_before` holds, per
    member, the games of the rating it started from (0: none yet). The store writes it only if those ratings are
    still what the model saw, so two finishes sharing a player can't both start from the same rating."""

    match_id: int
    guild_id: int
    game: str
    games_before: dict[int, int]
    changes: list[Any]  # bot.ratings.RatingChange
    ratings: list[Any]  # bot.ratings.Rating
    # When the latest finish those ratings came from was written (None: no rating yet): a rebuild rates in order of
    # finish, so this finish must be written as finishing after it.
    follows: float | None = None


@dataclass(frozen=True)
class OutboxEntry:
    """What a unit must still announce, written with it: the service's events serialized (bot/matches/outbox.py),
    under `token`, the name of the unit whose writer presents them."""

    token: str
    events: str
    at: float  # when the unit was decided (the row's created_at)


@dataclass(frozen=True)
class MoveWrite:
    """One accepted action as one unit: the new state and log entry (only if the match is still at `version`),
    the seats' clock timers and, when it ends a rated match, the ratings."""

    match_id: int
    version: int  # the version the action was decided on
    seat: int
    move: str
    private: bool
    events: list[dict[str, Any]]
    state: dict[str, Any]
    result: dict[str, Any] | None
    standings: list[list[int]] | None
    now: float
    timers: SeatTimers = SeatTimers()
    ratings: RatingWrite | None = None
    outbox: OutboxEntry | None = None
    clock_used: float | None = None  # seconds the move charged to its mover's clock (None: no clock ran)


@dataclass(frozen=True)
class MemberPrefs:
    user_id: int
    turn_dms: bool = False
    reminders: bool = True
    away_until: float | None = None
    autoplay: bool = False  # a turn with a single legal move is played for her at once (where that is public)
    vacation_year: int | None = None  # the calendar year `vacation_used` counts
    vacation_used: float = 0.0  # seconds of vacation days she used that year
    time_zone: str | None = None  # an IANA name; None: the server's

    def vacation_left(self, year: int, allowance: float) -> float:
        """Seconds of vacation days she has left in `year`, of `allowance` a year."""
        return max(0.0, allowance - (self.vacation_used if self.vacation_year == year else 0.0))

    def away(self, now: float) -> bool:
        return self.away_until is not None and self.away_until > now

    def back_at(self, now: float) -> float:
        """When her clocks run: now, or when her absence ends."""
        return self.away_until if self.away_until is not None and self.away_until > now else now


@dataclass(frozen=True)
class MatchLoad:
    """Everything an action on a match needs, read at once: the match, its seats' running deadlines and its
    members' choices (defaults for members who never chose)."""

    match: Match
    deadlines: dict[int, float]
    prefs: dict[int, MemberPrefs]
