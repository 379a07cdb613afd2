"""Where a match lives: a server's thread, or a conversation (a DM, a group DM, a server without the bot) where
Strategos, installed to a member's account, can only answer the interactions it is sent.

A conversation's challenge and match are stored under a server id below any real one (Discord's ids are
snowflakes, far above 2**22), with the conversation's channel as their channel and thread. That number names the
language of their posts, the challenger's; no real server owns them, so no server's settings or ratings apply,
shard 0's process runs their timers (`shard_of` of any such id is 0), and their players find them from
anywhere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from bot.domain import Match

CONVERSATION = 0  # the server id of a conversation's challenge or match in English
# The languages by their conversation server id: append only, as stored ids index it.
CONVERSATION_LANGUAGES = ("en", "es", "fr", "de", "pt_BR")
_CONVERSATION_IDS = 1 << 22  # below the smallest snowflake of a server


def in_conversation(guild_id: int | None) -> bool:
    return guild_id is not None and 0 <= guild_id < _CONVERSATION_IDS


def conversation_in(lang: str) -> int:
    """The server id of a conversation whose posts are in `lang` (English for a language we lack)."""
    return CONVERSATION_LANGUAGES.index(lang) if lang in CONVERSATION_LANGUAGES else CONVERSATION


def language_of_conversation(guild_id: int) -> str:
    return CONVERSATION_LANGUAGES[guild_id] if guild_id < len(CONVERSATION_LANGUAGES) else CONVERSATION_LANGUAGES[0]


@dataclass(frozen=True)
class ConversationRecord:
    """A member's finished matches in conversations: unrated, so counted apart from any server's."""

    won: int = 0
    drawn: int = 0
    lost: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost


def conversation_record(matches: Iterable[Match], user_id: int) -> ConversationRecord:
    """Her record in the finished conversation matches among `matches`: first alone is a win, first with others a
    draw, anything else a loss."""
    won = drawn = lost = 0
    for match in matches:
        seat = match.seat_of(user_id)
        if match.active or not in_conversation(match.guild_id) or seat is None or not match.standings:
            continue
        first = match.standings[0]
        if seat in first:
            won, drawn = (won + 1, drawn) if len(first) == 1 else (won, drawn + 1)
        else:
            lost += 1
    return ConversationRecord(won, drawn, lost)
