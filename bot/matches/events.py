"""What happened, as the match service reports it. Presenters turn these into posts, pictures, pings and DMs.

Events carry records (`Match`, `Challenge`) as they are after the change, and only public facts about moves:
the text of a secret setup move never appears here (`move=None`), and engine events are filtered to the public
ones, so a presenter cannot leak what it was never given.

They also carry everything their presenter shows, computed once by the service: the language of the server's
public posts (`lang`), and for a board post its `Board` (public view, seats to act, clock). A presenter reads
nothing back about the match an event carries.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from bot.games import Event, Outcome
from bot.ratings import RatingChange
from bot.domain import Challenge, ClockRules, Match, MemberPrefs


@dataclass(frozen=True)
class MatchClock:
    """What a board post or /games shows about a match's clock."""

    clock_seconds: int | None  # time per move, or a Fischer clock's starting bank
    deadlines: dict[int, float] = field(default_factory=dict)  # seat → when her move is due
    away: dict[int, float] = field(default_factory=dict)  # seat → until when its player is away
    rules: ClockRules = ClockRules()
    banks: dict[int, float] = field(default_factory=dict)  # a Fischer clock's: seat → seconds in her bank then



@dataclass(frozen=True)
class Request:
    """Another player's request that only `asked` may answer (a Mycenae load of her pieces)."""

    requester: int
    asked: int
    move: str


@dataclass(frozen=True)
class Board:
    """What a board post of a match shows, from the match as committed: built once by the service."""

    view: dict[str, Any]  # the public view
    to_act: tuple[int, ...]  # the seats to act (none once the match is over)
    in_play: tuple[int, ...]  # the seats still in the game
    secret_setup: bool
    request: Request | None  # a request waiting for its answer, which a private message asks for
    clock: MatchClock | None  # None when the match is over

    def users_to_act(self, match: Match) -> list[int]:
        return users_of(match, self.to_act)


def users_of(match: Match, seats: tuple[int, ...]) -> list[int]:
    """The members who hold `seats` (a computer's seat has none)."""
    return [uid for uid in (match.user_of(s) for s in seats) if uid is not None]


class Played(enum.Enum):
    """What changed the position, as a MovePlayed's caption tells it."""

    MOVE = "move"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    DRAW = "draw"
    TAKEBACK = "takeback"  # `move` is then the move taken back


@dataclass(frozen=True)
class ChallengeEnded:
    """A challenge was declined, cancelled or expired (see `challenge.status`)."""

    challenge: Challenge
    by_user: int | None = None
    lang: str = field(kw_only=True)
    # Presented by a process recovering what a cancelled command or a stopped process left: the click's own answer
    # may be missing, so the post is shown again.
    recovered: bool = field(default=False, kw_only=True)


@dataclass(frozen=True)
class MatchStarted:
    match: Match
    challenge: Challenge
    board: Board = field(kw_only=True)
    lang: str = field(kw_only=True)
    # Presented by a process recovering what a cancelled command or a stopped process left: the thread and the
    # first board may be out already (`match` as it is now: with its thread, if that was recorded), so they are
    # adopted rather than made again.
    recovered: bool = field(default=False, kw_only=True)


@dataclass(frozen=True)
class SetupProgress:
    """A player made a secret setup move; the rest are still setting up. Says nothing about the move."""

    match: Match
    seat: int
    board: Board = field(kw_only=True)  # redrawn in place: its `to_act` are the seats still setting up
    lang: str = field(kw_only=True)


@dataclass(frozen=True)
class ForcedMove:
    seat: int
    move: str
    events: list[Event] = field(default_factory=list)
    chosen: bool = False  # her only legal move, played at once as she asked (else: she had no choice at all)


@dataclass(frozen=True)
class MovePlayed:
    """A move changed the position (the board must be posted again); `kind` says how. `move` is None for a secret
    move; `events` are public; `forced` are the moves the match then played for players who had no choice
    (Myriath's passes)."""

    match: Match
    kind: Played
    seat: int
    move: str | None
    events: list[Event] = field(default_factory=list)
    forced: list[ForcedMove] = field(default_factory=list)
    ratings: list[RatingChange] = field(default_factory=list)  # how a rated match's end moved each rating
    board: Board = field(kw_only=True)
    prefs: dict[int, MemberPrefs] = field(kw_only=True)  # the members' choices as the move left them (turn DMs)
    lang: str = field(kw_only=True)


@dataclass(frozen=True)
class BoardRepaired:
    """A change whose board a stop cut off before it was shown (found at start-up): show the board now, once."""

    match: Match
    board: Board = field(kw_only=True)
    lang: str = field(kw_only=True)


@dataclass(frozen=True)
class DrawOffered:
    match: Match
    seat: int
    in_play: tuple[int, ...] = field(kw_only=True)  # the seats asked to answer are among these
    lang: str = field(kw_only=True)


@dataclass(frozen=True)
class DrawDeclined:
    match: Match
    seat: int


@dataclass(frozen=True)
class BoardRequested:
    """Someone asked for the board again (/board); only a player's request pings whoever must act."""

    match: Match
    ping: bool
    board: Board = field(kw_only=True)
    lang: str = field(kw_only=True)


@dataclass(frozen=True)
class TurnReminder:
    """The player of `seat` is running short of time: her move is due at `deadline` (a Unix time)."""

    match: Match
    seat: int
    deadline: float
    lang: str = field(kw_only=True)
    bank: float | None = field(default=None, kw_only=True)  # a Fischer clock's: what is left in her bank



@dataclass(frozen=True)
class MatchEnded:
    """Follows the MovePlayed that ended the match: once per match."""

    match: Match
    outcome: Outcome
    view: dict[str, Any] = field(kw_only=True)  # the final public view
    lang: str = field(kw_only=True)


@dataclass(frozen=True)
class TakebackAsked:
    """The player of `seat` asks to take back her last move (`move`, public: secret moves are never taken back)."""

    match: Match
    seat: int
    move: str
    in_play: tuple[int, ...] = field(kw_only=True)
    lang: str = field(kw_only=True)


@dataclass(frozen=True)
class TakebackAnswered:
    """A player answered a take-back request without settling it all (an agreement others must join), or
    declined it. An accepted take-back is a MovePlayed of kind TAKEBACK."""

    match: Match
    seat: int
    accepted: bool


@dataclass(frozen=True)
class AnalysisReady:
    """The analysis a player of a finished match asked for (analysis.py): each player's worst moves as the hard
    computer judged them from her own view, in move order per seat (bot.matches.analysis.Mistake)."""

    match: Match
    mistakes: tuple[Any, ...]
    view: dict[str, Any] = field(kw_only=True)  # the final public view
    lang: str = field(kw_only=True)


@dataclass(frozen=True)
class VacationDaySpent:
    """The player of `seat` ran out of time in `match` and one of her vacation days was spent instead: every
    running clock of hers in `extended` (match ids) got a day more; `left`: seconds of vacation left this year."""

    match: Match
    seat: int
    extended: tuple[int, ...]
    left: float
    lang: str = field(kw_only=True)


MatchEvent = (ChallengeEnded | MatchStarted | SetupProgress | MovePlayed | BoardRepaired | DrawOffered | DrawDeclined
              | BoardRequested | MatchEnded | TakebackAsked | TakebackAnswered | TurnReminder | AnalysisReady
              | VacationDaySpent)


def match_id_of(event: MatchEvent) -> int:
    """The key that orders delivery: events of one match (or one challenge) are presented in order."""
    if isinstance(event, ChallengeEnded):
        return -event.challenge.id
    return event.match.id
