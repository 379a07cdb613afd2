"""Storage: the only layer that writes SQL. A driver (driver.py: connections, units of work, group commit, the two
dialects) under one store per aggregate; `Repository` gives the match service its stores (repository.py)."""

from .clocks import ClockStore, SeatDeadline, VacationExhausted
from .database import DatabaseError, NewerDatabase, UnwritableDatabase, migrate, open_database, open_reader
from .rating_rows import RatingsMoved
from .driver import Driver
from .matches import VersionConflict
from .repository import Repository

__all__ = [
    "open_database", "open_reader", "migrate", "DatabaseError", "NewerDatabase", "UnwritableDatabase", "Repository", "VersionConflict", "VacationExhausted", "RatingsMoved",
    "ClockStore", "SeatDeadline", "Driver",
]
