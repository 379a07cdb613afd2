"""Storage: the only layer that writes SQL (aiosqlite, WAL, numbered migrations)."""

from .clocks import ClockStore, SeatDeadline
from .database import DatabaseError, NewerDatabase, migrate, open_database, open_reader
from .rating_rows import RatingsMoved
from .records import (
    Challenge,
    ChallengeSeat,
    LoggedMove,
    Match,
    MatchLoad,
    MemberPrefs,
    MoveWrite,
    PrivateMessage,
    RatingWrite,
    Seat,
    SeatTimers,
    Timer,
)
from .repository import Repository, VersionConflict

__all__ = [
    "open_database", "open_reader", "migrate", "DatabaseError", "NewerDatabase", "Repository", "VersionConflict", "RatingsMoved",
    "Challenge", "ChallengeSeat", "Match", "Seat", "LoggedMove", "PrivateMessage", "Timer",
    "ClockStore", "MemberPrefs", "SeatDeadline", "MatchLoad", "MoveWrite", "RatingWrite", "SeatTimers",
]
