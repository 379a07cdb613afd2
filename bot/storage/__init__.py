"""Storage: the only layer that writes SQL (aiosqlite, WAL, numbered migrations)."""

from .clocks import ClockStore, SeatDeadline
from .database import DatabaseError, NewerDatabase, migrate, open_database, open_reader
from .rating_rows import RatingsMoved
from .repository import Repository, VersionConflict

__all__ = [
    "open_database", "open_reader", "migrate", "DatabaseError", "NewerDatabase", "Repository", "VersionConflict", "RatingsMoved",
    "ClockStore", "SeatDeadline",
]
