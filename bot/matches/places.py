"""Where a match lives: a server's thread, or a conversation (a DM, a group DM, a server without the bot) where
Strategos, installed to a member's account, can only answer the interactions it is sent.

A conversation's challenge and match are stored with the server id CONVERSATION and the conversation's channel as
their channel and thread: no server owns them, so no server's settings, ratings or shard do (shard 0's process
runs their timers, as `shard_of(0)` is 0), and their players find them from anywhere."""

from __future__ import annotations

CONVERSATION = 0  # the server id of a challenge or match played in a conversation


def in_conversation(guild_id: int | None) -> bool:
    return guild_id == CONVERSATION
