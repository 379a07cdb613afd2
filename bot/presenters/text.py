"""Text that goes to Discord: mentions that ping exactly who they name, links, and Discord's length limits."""

from __future__ import annotations

from typing import Sequence

import discord

MESSAGE_LIMIT = 2000  # characters of a message's content
EMBED_DESCRIPTION_LIMIT = 4096


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut to `limit` (Discord's message limit unless told), with an ellipsis where it was cut: a reply must
    never fail for its length. Spaces before the ellipsis go, so it follows the last word."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def mentions(user_ids: Sequence[int | None]) -> tuple[str, discord.AllowedMentions]:
    """Mention text plus an AllowedMentions that pings exactly these users and nobody else."""
    ids = [uid for uid in user_ids if uid is not None]
    text = " ".join(f"<@{uid}>" for uid in ids)
    allowed = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(uid) for uid in ids])
    return text, allowed


def message_link(guild_id: int | None, channel_id: int | None, message_id: int | None = None) -> str | None:
    if guild_id is None or channel_id is None:
        return None
    link = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"  # server 0: a conversation
    return f"{link}/{message_id}" if message_id else link
