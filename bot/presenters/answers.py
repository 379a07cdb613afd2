"""Posts made as the public answers of the interactions that caused them: one mechanism, two policies.

An interaction that may carry posts is `Held`: its follow-up webhook, its channel, when it was made (its token
lasts 15 minutes), the follow-ups it sent, and whether the action's own answer is out (after a deferred
"thinking…" answer, Discord turns the first follow-up into that answer, so a post must wait for it).

- In a match's server thread (`Answers` here): a move made from the thread (`/move` typed there, the picker's
  Confirm under a board) can have its new board, or its secret setup line, posted as a follow-up of its
  interaction: it lands in the thread as any post does, and interaction webhooks count against none of Discord's
  limits, where a new channel message counts against both the global and the channel's. The view offers its
  interaction before the move, tells it ready once the player's own answer is out, and withdraws it when it is
  done; the presenter takes the offer of the player who moved, if any, else posts in the thread. A board posted
  through one can later be greyed through it too (`Answered`), while its token lasts.
- In a conversation where the bot is no member (bot/presenters/conversation.py): the latest interaction there
  carries every post, within its follow-ups, and is kept across restarts.
"""

from __future__ import annotations

import asyncio
import datetime
from collections import OrderedDict
from dataclasses import dataclass, field

import discord

from bot.domain import Match

TOKEN_LIFETIME = datetime.timedelta(minutes=14)  # Discord's interaction tokens last 15 minutes; a minute kept in hand
FOLLOWUPS = 5  # Discord's limit of follow-ups per interaction where the bot is no member
REMEMBERED = 20_000  # board posts whose interaction is remembered, newest kept


def _answered_at_once() -> asyncio.Event:
    ready = asyncio.Event()
    ready.set()
    return ready


@dataclass(eq=False)
class Held:
    """An interaction that may carry posts as its answers. `interaction`: the interaction itself, while this
    process has it (a conversation's, rebuilt after a restart from what was stored, has only its webhook)."""

    followup: discord.Webhook
    channel_id: int
    created_at: datetime.datetime
    token: str = ""
    application_id: int = 0
    followups: int = 0  # follow-ups it has sent, or kept for its action's own answer
    interaction: discord.Interaction | None = None
    own_answer: asyncio.Event = field(default_factory=_answered_at_once)  # set once the action's answer is out
    withdrawn: bool = False

    @classmethod
    def of(cls, interaction: discord.Interaction, channel_id: int, *, own_answer: asyncio.Event | None = None,
           followups: int = 0) -> Held:
        return cls(interaction.followup, channel_id, interaction.created_at, interaction.token,
                   interaction.application_id, followups, interaction, own_answer or _answered_at_once())

    def live(self) -> bool:
        """Its token can still answer."""
        return discord.utils.utcnow() - self.created_at <= TOKEN_LIFETIME

    def can_follow_up(self) -> bool:
        return self.followups < FOLLOWUPS

    def ready(self) -> None:
        """The action's own answer is out: the next follow-up is a message of its own."""
        self.own_answer.set()

    async def usable(self) -> bool:
        """Wait until the action's own answer is out (or the offer is withdrawn); whether it may carry a post now."""
        await self.own_answer.wait()
        return not self.withdrawn and self.live()


class Answers:
    """The offers of interactions in flight, by match and player."""

    def __init__(self) -> None:
        self._offers: dict[tuple[int, int], Held] = {}

    def offer(self, interaction: discord.Interaction, match_id: int, *, ready: bool = False) -> Held | None:
        """Offer `interaction` to carry `match_id`'s next post of this player; None if it came from no channel."""
        if interaction.channel_id is None:
            return None
        offer = Held.of(interaction, interaction.channel_id, own_answer=None if ready else asyncio.Event())
        offer.created_at = discord.utils.utcnow()  # its life counted from the offer, a moment after the interaction
        self._offers[(match_id, interaction.user.id)] = offer
        return offer

    def withdraw(self, match_id: int, offer: Held | None) -> None:
        """The interaction is done: whoever still waits on its offer posts in the thread instead."""
        if offer is None:
            return
        offer.withdrawn = True
        offer.ready()
        for key, held in list(self._offers.items()):
            if held is offer and key[0] == match_id:
                del self._offers[key]

    def take(self, match: Match, user_id: int | None) -> Held | None:
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
        self._posts: OrderedDict[int, Held] = OrderedDict()

    def add(self, message_id: int, offer: Held) -> None:
        self._posts[message_id] = offer
        while len(self._posts) > REMEMBERED:
            self._posts.popitem(last=False)

    def webhook(self, message_id: int) -> discord.Webhook | None:
        offer = self._posts.get(message_id)
        if offer is None or not offer.live():
            self._posts.pop(message_id, None)
            return None
        return offer.followup
