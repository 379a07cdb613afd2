"""Channels by id, from any bot process. A process holds in its cache only the servers of its own shards, but a
timer it fires, or a /move sent in DMs (which come to shard 0), may be about a match of any server: the post then
goes through Discord's REST API by the channel's id, which needs no cache and no lookup first."""

from __future__ import annotations

import logging

import discord

from bot.domain import Match

log = logging.getLogger(__name__)


def messageable(client: discord.Client, channel_id: int, guild_id: int | None) -> discord.abc.Messageable:
    """The channel (or thread) from this process's cache, else a partial one that posts by id."""
    channel = client.get_channel(channel_id)
    if channel is not None:
        return channel  # type: ignore[return-value]  # a channel of a challenge or match: one that takes posts
    return client.get_partial_messageable(channel_id, guild_id=guild_id)


async def archive(client: discord.Client, thread: discord.abc.Messageable, match: Match) -> None:
    """Archive a finished match's thread (anyone posting in it reopens it). A partial channel is fetched first:
    only a thread can be archived, and only a fetched one says whether it is one. Best effort."""
    try:
        if isinstance(thread, discord.PartialMessageable):
            thread = await client.fetch_channel(thread.id)  # type: ignore[assignment]  # a thread, or the channel
        if isinstance(thread, discord.Thread):
            await thread.edit(archived=True)
    except discord.HTTPException:
        log.info("match=%s could not archive thread %s", match.id, getattr(thread, "id", None))
