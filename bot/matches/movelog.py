"""The effective moves of a match: its append-only log with taken-back moves left out.

The log is never rewritten. A take-back is an entry of its own (move "takeback", one event naming the version of
the entry it undid), so the log still tells everything that happened. Whatever reads the log as the match's
course — history, records, replays, rebuilding a state — reads it through `effective_moves`, so a taken-back move
is gone for all of them alike.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, TypeVar

from bot.games import Event, event

TAKEBACK = "takeback"


class _Logged(Protocol):
    """What effective_moves reads of a log row (a LoggedMove, or a test's stand-in)."""

    @property
    def version(self) -> int: ...
    @property
    def move(self) -> str: ...
    @property
    def events(self) -> Sequence[Event] | None: ...


Entry = TypeVar("Entry", bound=_Logged)


def takeback_event(undone_version: int) -> Event:
    """The one event of a take-back entry: which logged entry (by its version) it took back."""
    return event(TAKEBACK, None, undone=undone_version)


def effective_moves(entries: Sequence[Entry]) -> list[Entry]:
    """The logged entries that still count, in order: take-back entries and the entries they undid left out.

    `entries` are the log's rows (.version, .move, .events), oldest first."""
    kept: list[Any] = []
    for entry in entries:
        if entry.move != TAKEBACK:
            kept.append(entry)
            continue
        undone = next((ev.get("undone") for ev in entry.events or [] if ev.get("type") == TAKEBACK), None)
        kept = [e for e in kept if e.version != undone]
    return kept


__all__ = ["TAKEBACK", "effective_moves", "takeback_event"]
