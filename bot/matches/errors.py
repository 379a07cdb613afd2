"""Mistakes a user can make. Each message is shown to that user (ephemerally) and nothing changes.

An error carries its English text with `{placeholders}` and their values, so the answer can be given in the
user's language (bot/i18n); its str() is the English sentence.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, Text
from bot.storage.postgres_pool import DatabaseUnavailable as DatabaseUnavailable  # answered "try again" by the adapters
from bot.storage.database import is_storage_full as is_storage_full  # answered "storage is full" by the adapters
from bot.domain import DamagedMatch as DamagedMatch  # set aside (damage.py), its players told by the adapters


class UserError(Exception):
    """Base of every error caused by what a user did; the message is user-facing."""

    def __init__(self, text: str = "", **params: Any) -> None:
        self.text, self.params = text, params
        super().__init__(text.format(**params) if params else text)


class UnknownMatch(UserError):
    def __init__(self, match_id: object = None):
        super().__init__(N_("I can't find that match. Pick one from the list, or see `/games`."))


class UnknownChallenge(UserError):
    def __init__(self) -> None:
        super().__init__(N_("That challenge no longer exists."))


class NotInMatch(UserError):
    def __init__(self) -> None:
        super().__init__(N_("You are not playing in this match."))


class NotYourTurn(UserError):
    def __init__(self, waiting_for: str = "") -> None:
        if waiting_for:
            super().__init__(N_("It is not your turn — waiting for {players}."), players=waiting_for)
        else:
            super().__init__(N_("It is not your turn."))


class MatchOver(UserError):
    def __init__(self) -> None:
        super().__init__(N_("This match is already over."))


class StaleBoard(UserError):
    def __init__(self, link: str | None = None) -> None:
        if link:
            super().__init__(N_("This board is out of date: the match has moved on since. The current board is "
                                "here: {link}"), link=link)
        else:
            super().__init__(N_("This board is out of date: the match has moved on since."))


class ChallengeClosed(UserError):
    def __init__(self, status: str) -> None:
        texts = {
            "started": N_("This challenge has already been accepted."),
            "declined": N_("This challenge was declined."),
            "cancelled": N_("This challenge was cancelled."),
            "expired": N_("This challenge has expired."),
        }
        super().__init__(texts.get(status, N_("This challenge is closed.")))


class NotYourChallenge(UserError):
    pass


class BadMove(UserError):
    """An unparsable or illegal move; wraps the engine's message (which may quote what the user typed)."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(shorten(message, 400), **params)


class RateLimited(UserError):
    def __init__(self, retry_after: float) -> None:
        super().__init__(Text("Slow down a little: try again in {count} second.",
                              plural="Slow down a little: try again in {count} seconds.",
                              count=max(1, round(retry_after))))


def engine_message(exc: Exception) -> str:
    """An engine's refusal as it raised it: its `Text` (translated where it is shown), not just the English."""
    message = exc.args[0] if exc.args else ""
    return message if isinstance(message, str) else str(exc)


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ShuttingDown(UserError):
    def __init__(self) -> None:
        super().__init__(N_("Strategos is restarting. Nothing was changed — please try again in a minute."))
