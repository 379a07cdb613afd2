"""Boards posted as the public answer to the interaction that made them.

A move made from the match's own thread (`/move` typed there, the picker's Confirm under a board) can have its
new board, or its secret setup line, posted as a followup of that interaction: it lands in the thread as any post
does, and interaction webhooks count against none of Discord's limits, where a new channel message counts against
both the global and the channel's. The view offers its interaction before the move, tells it ready once the
player's own answer is out (after a deferred "thinking…" answer, Discord turns the first followup into that answer,
so the board must come second), and withdraws it when it is done; the presenter takes the offer of the player who
moved, if any. An interaction's token lasts 15 minutes, so a board posted through one can later be greyed
through it too (`Answered`), until then.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field

import discord

from bot.domain import Match

TOKEN_LIFE = 14 * 60.0  # Discord's interaction tokens last 15 minutes; a minute kept in hand
REMEMBERED = 20_000  # board posts whose interaction is remembered, newest kept


@dataclass(eq=False)
class Offer:
    """One interaction's offer to carry its match's next public post."""

    followup: discord.Webhook
    channel_id: int
    expires: float
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _withdrawn: bool = False

    def ready(self) -> None:
        """The player's own answer is out: the next followup is a message of its own."""
        self._ready.set()

    async def usable(self) -> bool:
        """Wait until the view says the offer is ready (or withdraws it); whether it may carry a post now."""
        await self._ready.wait()
        return not self._withdrawn and asyncio.get_running_loop().time() < self.expires


class Answers:
    """The offers of interactions in flight, by match and player."""

    def __init__(self) -> None:
        self._offers: dict[tuple[int, int], Offer] = {}

    def offer(self, interaction: discord.Interaction, match_id: int, *, ready: bool = False) -> Offer | None:
        """Offer `interaction` to carry `match_id`'s next post of this player; None if it came from no channel."""
        if interaction.channel_id is None:
            return None
        offer = Offer(interaction.followup, interaction.channel_id,
                      asyncio.get_running_loop().time() + TOKEN_LIFE)
        if ready:
            offer.ready()
        self._offers[(match_id, interaction.user.id)] = offer
        return offer

    def withdraw(self, match_id: int, offer: Offer | None) -> None:
        """The interaction is done: whoever still waits on its offer posts in the thread instead."""
        if offer is None:
            return
        offer._withdrawn = True
        offer.ready()
        for key, held in list(self._offers.items()):
            if held is offer and key[0] == match_id:
                del self._offers[key]

    def take(self, match: Match, user_id: int | None) -> Offer | None:
        """The offer of `user_id`'s interaction for `match`, if it came from the match's thread."""
        if user_id is None:
            return None
        offer = self._offers.pop((match.id, user_id), None)
        if offer is None or offer.channel_id != match.thread_id:
            return None
        return offer


class Answered:
    """Board posts made as an interaction's answer, with the webhook that may still edit them (exempt)."""

    def __init__(self) -> None:
        self._posts: OrderedDict[int, Offer] = OrderedDict()

    def add(self, message_id: int, offer: Offer) -> None:
        self._posts[message_id] = offer
        while len(self._posts) > REMEMBERED:
            self._posts.popitem(last=False)

    def webhook(self, message_id: int) -> discord.Webhook | None:
        offer = self._posts.get(message_id)
        if offer is None or asyncio.get_running_loop().time() >= offer.expires:
            self._posts.pop(message_id, None)
            return None
        return offer.followup
