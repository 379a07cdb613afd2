"""Mistakes a user can make. Each message is shown to that user as it is (ephemerally) and nothing changes."""

from __future__ import annotations


class UserError(Exception):
    """Base of every error caused by what a user did; the message is user-facing."""


class UnknownMatch(UserError):
    def __init__(self, match_id: object = None):
        super().__init__("I can't find that match. Pick one from the list, or see `/games`.")


class UnknownChallenge(UserError):
    def __init__(self) -> None:
        super().__init__("That challenge no longer exists.")


class NotInMatch(UserError):
    def __init__(self) -> None:
        super().__init__("You are not playing in this match.")


class NotYourTurn(UserError):
    def __init__(self, waiting_for: str = "") -> None:
        tail = f" — waiting for {waiting_for}" if waiting_for else ""
        super().__init__(f"It is not your turn{tail}.")


class MatchOver(UserError):
    def __init__(self) -> None:
        super().__init__("This match is already over.")


class StaleBoard(UserError):
    def __init__(self, link: str | None = None) -> None:
        where = f" The current board is here: {link}" if link else ""
        super().__init__(f"This board is out of date: the match has moved on since.{where}")


class ChallengeClosed(UserError):
    def __init__(self, status: str) -> None:
        words = {
            "started": "has already been accepted",
            "declined": "was declined",
            "cancelled": "was cancelled",
            "expired": "has expired",
        }
        super().__init__(f"This challenge {words.get(status, 'is closed')}.")


class NotYourChallenge(UserError):
    pass


class BadMove(UserError):
    """An unparsable or illegal move; wraps the engine's message (which may quote what the user typed)."""

    def __init__(self, message: str) -> None:
        super().__init__(shorten(message, 400))


class RateLimited(UserError):
    def __init__(self, retry_after: float) -> None:
        super().__init__(f"Slow down a little: try again in {max(1, round(retry_after))} seconds.")


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ShuttingDown(UserError):
    def __init__(self) -> None:
        super().__init__("Strategos is restarting. Nothing was changed — please try again in a minute.")
