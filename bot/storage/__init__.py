"""Storage: the only layer that writes SQL (aiosqlite, WAL, numbered migrations)."""

from .clocks import ClockStore, MemberPrefs, SeatDeadline
from .database import DatabaseError, NewerDatabase, migrate, open_database
from .records import Challenge, ChallengeSeat, LoggedMove, Match, PrivateMessage, Seat, Timer
from .repository import Repository, VersionConflict

__all__ = [
    "open_database", "migrate", "DatabaseError", "NewerDatabase", "Repository", "VersionConflict",
    "Challenge", "ChallengeSeat", "Match", "Seat", "LoggedMove", "PrivateMessage", "Timer",
    "ClockStore", "MemberPrefs", "SeatDeadline",
]
