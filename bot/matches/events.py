"""What happened, as the match service reports it. Presenters turn these into posts, pictures, pings and DMs.

Events carry records (`Match`, `Challenge`) as they are after the change, and only public facts about moves:
the text of a secret setup move never appears here (`move=None`), and engine events are filtered to the public
ones, so a presenter cannot leak what it was never given.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games import Event, Outcome
from bot.ratings import RatingChange
from bot.domain import Challenge, Match


@dataclass(frozen=True)
class ChallengeEnded:
    """A challenge was declined, cancelled or expired (see `challenge.status`)."""

    challenge: Challenge
    by_user: int | None = None


@dataclass(frozen=True)
class MatchStarted:
    match: Match
    challenge: Challenge


@dataclass(frozen=True)
class SetupProgress:
    """A player made a secret setup move; the rest are still setting up. Says nothing about the move."""

    match: Match
    seat: int


@dataclass(frozen=True)
class ForcedMove:
    seat: int
    move: str
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class MovePlayed:
    """A move changed the position (the board must be posted again). `kind`: "move", "resign", "timeout",
    "draw" or "takeback" (`move` is then the move taken back); `move` is None for a secret move; `events` are public; `forced` are the moves the match then played
    for players who had no choice (Myriath's passes)."""

    match: Match
    kind: str
    seat: int
    move: str | None
    events: list[Event] = field(default_factory=list)
    forced: list[ForcedMove] = field(default_factory=list)
    ratings: list[RatingChange] = field(default_factory=list)  # how a rated match's end moved each rating


@dataclass(frozen=True)
class DrawOffered:
    match: Match
    seat: int


@dataclass(frozen=True)
class DrawDeclined:
    match: Match
    seat: int


@dataclass(frozen=True)
class BoardRequested:
    """Someone asked for the board again (/board); only a player's request pings whoever must act."""

    match: Match
    ping: bool


@dataclass(frozen=True)
class TurnReminder:
    """The player of `seat` is running short of time: her move is due at `deadline` (a Unix time)."""

    match: Match
    seat: int
    deadline: float


@dataclass(frozen=True)
class MatchEnded:
    """Follows the MovePlayed that ended the match: once per match."""

    match: Match
    outcome: Outcome


@dataclass(frozen=True)
class TakebackAsked:
    """The player of `seat` asks to take back her last move (`move`, public: secret moves are never taken back)."""

    match: Match
    seat: int
    move: str


@dataclass(frozen=True)
class TakebackAnswered:
    """A player answered a take-back request without settling it all (an agreement others must join), or
    declined it. An accepted take-back is a MovePlayed of kind "takeback"."""

    match: Match
    seat: int
    accepted: bool


MatchEvent = (ChallengeEnded | MatchStarted | SetupProgress | MovePlayed | DrawOffered | DrawDeclined | BoardRequested
              | MatchEnded | TakebackAsked | TakebackAnswered | TurnReminder)


def match_id_of(event: MatchEvent) -> int:
    """The key that orders delivery: events of one match (or one challenge) are presented in order."""
    if isinstance(event, ChallengeEnded):
        return -event.challenge.id
    return event.match.id
