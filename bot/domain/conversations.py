"""A conversation's records (bot/presenters/conversation.py): what answers it, and what waits to be shown there.
The store keeps them (bot/storage/conversations.py); the presenters read them through its face."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HeldToken:
    """The latest interaction of a conversation: enough to rebuild its webhook and to know what it may still do."""

    channel_id: int
    application_id: int
    token: str
    created_at: float  # seconds since the epoch: the token lasts 15 minutes from then
    followups: int  # follow-ups it has sent (Discord allows five)


@dataclass(frozen=True)
class WaitingPost:
    """A question asked in a conversation while nothing could carry it there."""

    id: int
    channel_id: int
    match_id: int
    version: int  # the match's version when it was asked: shown later only if the match is still there
    kind: str  # which answers it offers ("draw", "takeback")
    lang: str
    content: str
