"""A match that lives in a conversation, not a thread: a DM, a group DM or a server without the bot, where
Strategos (installed to a member's account) is not a member and can only answer the interactions it is sent.

Every action there reaches the bot as an interaction; the views hold the latest one of each conversation
(`Answers.hold`) and the presenters post through it (`InteractionPlace`): the first board answers the Accept that
started the match, each later board the /move or Confirm that made it. An interaction's token lasts 15 minutes
and allows 5 follow-ups; a board with no live interaction to answer (a timer's) goes by DM to whoever must act,
and the next action's answer shows the board as it is then."""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import Any, AsyncIterator, Awaitable, Callable

import discord

log = logging.getLogger(__name__)

DmSender = Callable[[int, str, bytes | None, discord.ui.View | None], Awaitable[bool]]  # DirectMessages
# In an interaction's extras: it was deferred with a public "thinking…" that no answer has replaced yet.
PUBLIC_ANSWER = "strategos_public_answer"
# In an interaction's extras: an event set once the command has given its own answer (a follow-up before it would
# replace its private "thinking…").
OWN_ANSWER_FIRST = "strategos_own_answer_first"
TOKEN_LIFETIME = datetime.timedelta(minutes=14)  # Discord's 15, with a margin for the post itself
PRUNE_ABOVE = 1000  # conversations held before the spent ones are forgotten


def bot_absent(interaction: discord.Interaction) -> bool:
    """The interaction comes from a conversation (a DM, a group DM, a server that did not add the bot): there the
    answers to interactions are the bot's voice (in its own DM too, where that is simplest)."""
    if interaction.guild_id is None:
        return True
    return interaction.client.get_guild(interaction.guild_id) is None


def _live(interaction: discord.Interaction) -> bool:
    """Its token can still answer."""
    return discord.utils.utcnow() - interaction.created_at <= TOKEN_LIFETIME


class Answers:
    """The interaction that answers each conversation's next post, by the conversation's channel."""

    def __init__(self, dms: DmSender | None = None) -> None:
        self._by_channel: dict[int, discord.Interaction] = {}
        self.dms = dms  # the way to a player when no interaction is there to answer (a timer's post)

    def hold(self, interaction: discord.Interaction, *, after: asyncio.Event | None = None) -> None:
        """Answer the conversation's next posts through `interaction`; `after`: once it is set (the command
        answers first itself)."""
        if interaction.channel_id is not None and bot_absent(interaction):
            if after is not None:
                interaction.extras[OWN_ANSWER_FIRST] = after
            self._by_channel[interaction.channel_id] = interaction
            if len(self._by_channel) > PRUNE_ABOVE:  # forget the conversations whose tokens are spent
                self._by_channel = {channel: held for channel, held in self._by_channel.items() if _live(held)}

    def place(self, channel_id: int | None) -> InteractionPlace | None:
        """Where a post in the conversation goes: an answer to its latest interaction, while its token lasts."""
        interaction = self._by_channel.get(channel_id) if channel_id is not None else None
        if interaction is None:
            return None
        if not _live(interaction):
            del self._by_channel[interaction.channel_id]  # type: ignore[arg-type]  # held only with a channel
            return None
        return InteractionPlace(interaction)


class InteractionPlace:
    """A conversation's channel as the presenters post in it (`send`, `get_partial_message`, `fetch_message`,
    `history`): each post an answer to one interaction. A command deferred in public has its first post as its
    answer; anything else is a public follow-up (never the answer to a command deferred in private, which stays
    hers)."""

    def __init__(self, interaction: discord.Interaction):
        self.interaction = interaction
        self.id = interaction.channel_id

    async def send(self, content: str | None = None, *, file: discord.File = discord.utils.MISSING,
                   files: list[discord.File] = discord.utils.MISSING, **fields: Any) -> discord.Message:
        """Post as `discord.abc.Messageable.send` does (`view`, `allowed_mentions`, `embed` pass on as they are)."""
        interaction = self.interaction
        own = interaction.extras.get(OWN_ANSWER_FIRST)
        if own is not None:
            await own.wait()
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
            interaction.extras[PUBLIC_ANSWER] = True
        if interaction.extras.get(PUBLIC_ANSWER):  # its public "thinking…" becomes the post, once
            interaction.extras[PUBLIC_ANSWER] = False
            attachments = [file] if file else files
            return await interaction.edit_original_response(content=content, attachments=attachments, **fields)
        return await interaction.followup.send(content or discord.utils.MISSING, file=file, files=files, wait=True,
                                               **fields)

    def get_partial_message(self, message_id: int) -> _AnsweredMessage:
        return _AnsweredMessage(self.interaction, message_id)

    async def fetch_message(self, message_id: int) -> discord.Message:
        """An earlier post as it is now, to edit it whole (a layout): the clicked one comes with the click; any
        other is readable only through the interaction that posted it (else discord.NotFound)."""
        interaction = self.interaction
        if interaction.message is not None and interaction.message.id == message_id:
            return interaction.message
        return await interaction.followup.fetch_message(message_id)

    async def history(self, **_: Any) -> AsyncIterator[discord.Message]:
        """The bot cannot read a conversation: nothing to adopt, so a repair posts the board again."""
        return
        yield  # an async generator that yields nothing


class _AnsweredMessage:
    """An earlier post in a conversation: editable only through the interaction that posted it, so this edit is
    best effort (a stale board's buttons are refused and greyed when clicked instead)."""

    def __init__(self, interaction: discord.Interaction, message_id: int):
        self.interaction, self.id = interaction, message_id

    async def edit(self, **fields: Any) -> None:
        interaction = self.interaction
        if interaction.message is not None and interaction.message.id == self.id:
            await interaction.edit_original_response(**fields)  # the message the click was on
            return
        await interaction.followup.edit_message(self.id, **fields)
