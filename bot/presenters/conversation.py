"""A match that lives in a conversation, not a thread: a DM, a group DM or a server without the bot, where
Strategos (installed to a member's account) is not a member and can only answer the interactions it is sent.

Every action there reaches the bot as an interaction; the views hold the latest one of each conversation
(`Answers.hold`) and the presenters post through it (`InteractionPlace`): the first board answers the Accept that
started the match, each later board the /move or Confirm that made it. An interaction's token lasts 15 minutes
and allows 5 follow-ups (one kept for the action's own answer): what is held is also written to the database
(bot/storage/conversations.py), so that a restart within the token's life still answers through it. A post with
no live interaction to carry it (a timer's, the follow-ups spent) goes by DM to whoever must act, if the bot can
reach her; a question that reaches no one waits in the database for the conversation's next action, and the next
action's answer shows the board as it is then."""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import Any, AsyncIterator, Awaitable, Callable, Protocol

import discord

from bot.domain.conversations import HeldToken, WaitingPost

from .answers import FOLLOWUPS, TOKEN_LIFETIME, Held

log = logging.getLogger(__name__)

DmSender = Callable[[int, str, bytes | None, discord.ui.View | None], Awaitable[bool]]  # DirectMessages
# In an interaction's extras: it was deferred with a public "thinking…" that no answer has replaced yet.
PUBLIC_ANSWER = "strategos_public_answer"
# In an interaction's extras: an event set once the command has given its own answer (a follow-up before it would
# replace its private "thinking…").
OWN_ANSWER_FIRST = "strategos_own_answer_first"
OWN_FOLLOWUPS = 1  # kept for the action's own answer (a command's private word is a follow-up)
PRUNE_ABOVE = 1000  # conversations held before the spent ones are forgotten


class ConversationStore(Protocol):
    """What is held, kept across restarts (bot/storage/conversations.py)."""

    async def hold(self, held: HeldToken) -> None: ...

    async def held(self, channel_id: int) -> HeldToken | None: ...

    async def keep_post(self, *, channel_id: int, match_id: int, version: int, kind: str, lang: str,
                        content: str) -> None: ...

    async def has_posts(self, channel_id: int) -> bool: ...

    async def forget_before(self, created_before: float) -> None: ...

    async def take_posts(self, channel_id: int) -> list[WaitingPost]: ...


def bot_absent(interaction: discord.Interaction) -> bool:
    """The interaction comes from a conversation (a DM, a group DM, a server that did not add the bot): there the
    answers to interactions are the bot's voice (in its own DM too, where that is simplest)."""
    if interaction.guild_id is None:
        return True
    return interaction.client.get_guild(interaction.guild_id) is None


class FollowUpsSpent(discord.DiscordException):
    """Every follow-up of the interaction is used: Discord would refuse another (and the presenters go another
    way)."""


Showing = Callable[["InteractionPlace", list[WaitingPost]], Awaitable[None]]


class Answers:
    """The interaction that answers each conversation's next post, by the conversation's channel."""

    def __init__(self, dms: DmSender | None = None, store: ConversationStore | None = None,
                 client: discord.Client | None = None) -> None:
        """`store`: where what is held outlives the process (with `client`, whose connection rebuilds a stored
        interaction's webhook)."""
        self._by_channel: dict[int, Held] = {}
        self.dms = dms  # the way to a player when no interaction is there to answer (a timer's post)
        self.store, self.client = store, client
        self.show_waiting: Showing | None = None  # shows the questions that waited, through the next action
        self._writes: set[asyncio.Task] = set()
        self._written: asyncio.Task | None = None  # the last write: each waits for the one before, in order
        self._showing: set[int] = set()  # conversations whose waiting questions are being shown

    def hold(self, interaction: discord.Interaction, *, after: asyncio.Event | None = None) -> None:
        """Answer the conversation's next posts through `interaction`; `after`: once it is set (the command
        answers first itself)."""
        if interaction.channel_id is None or not bot_absent(interaction):
            return
        if after is not None:
            interaction.extras[OWN_ANSWER_FIRST] = after
        held = Held.of(interaction, interaction.channel_id, own_answer=after, followups=OWN_FOLLOWUPS)
        self._by_channel[interaction.channel_id] = held
        self._write(held)
        if len(self._by_channel) > PRUNE_ABOVE:  # forget the conversations whose tokens are spent
            self._by_channel = {channel: kept for channel, kept in self._by_channel.items() if kept.live()}
            if self.store is not None:
                self._later(self.store.forget_before((discord.utils.utcnow() - TOKEN_LIFETIME).timestamp()))

    async def place(self, channel_id: int | None) -> InteractionPlace | None:
        """Where a post in the conversation goes: an answer to its latest interaction, while its token lasts and
        it may still post (after a restart, the one the database kept)."""
        if channel_id is None:
            return None
        held = self._by_channel.get(channel_id)
        if held is None and self.store is not None and self.client is not None:
            held = self._rebuilt(await self.store.held(channel_id))
            if held is not None:
                self._by_channel.setdefault(channel_id, held)
                held = self._by_channel[channel_id]
        if held is None:
            return None
        if not held.live():
            del self._by_channel[channel_id]
            return None
        place = InteractionPlace(held, self)
        return place if place.can_post() else None

    def _rebuilt(self, record: HeldToken | None) -> Held | None:
        if record is None or self.client is None:
            return None
        # The webhook the interaction's own `followup` is, from what was stored (its connection: the client's).
        followup = discord.Webhook.from_state({"id": record.application_id, "type": 3, "token": record.token},
                                              state=self.client._connection)
        created = datetime.datetime.fromtimestamp(record.created_at, tz=datetime.timezone.utc)
        return Held(followup, record.channel_id, created, record.token, record.application_id, record.followups)

    def followed_up(self, held: Held) -> None:
        """One more follow-up went out through `held` (counted before it is sent: never one too many)."""
        held.followups += 1
        self._write(held)

    async def keep(self, channel_id: int, *, match_id: int, version: int, kind: str, lang: str,
                   content: str) -> bool:
        """Keep a question that could go nowhere until the conversation's next action; False if nowhere to keep
        it."""
        if self.store is None:
            return False
        await self.store.keep_post(channel_id=channel_id, match_id=match_id, version=version, kind=kind, lang=lang,
                                   content=content)
        return True

    async def posted(self, place: InteractionPlace) -> None:
        """A post went out in the conversation: the questions that waited there follow it."""
        channel = place.id
        if self.store is None or self.show_waiting is None or channel in self._showing:
            return
        self._showing.add(channel)
        try:
            if await self.store.has_posts(channel):
                waiting = await self.store.take_posts(channel)
                if waiting:
                    await self.show_waiting(place, waiting)
        finally:
            self._showing.discard(channel)

    def _write(self, held: Held) -> None:
        """Write what `held` is now, after the writes before it."""
        if self.store is None:
            return
        store, before = self.store, self._written
        record = HeldToken(held.channel_id, held.application_id, held.token, held.created_at.timestamp(),
                           held.followups)

        async def write() -> None:
            if before is not None:
                await asyncio.wait([before])
            await store.hold(record)

        self._written = self._later(write())

    def _later(self, work: Awaitable[None]) -> asyncio.Task:
        task = asyncio.ensure_future(work)
        self._writes.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task) -> None:
        self._writes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a conversation's answer could not be kept: %s", task.exception())

    async def idle(self) -> None:
        """Wait until what is held is written."""
        while self._writes:
            await asyncio.wait(set(self._writes))


class InteractionPlace:
    """A conversation's channel as the presenters post in it (`send`, `get_partial_message`, `fetch_message`,
    `history`): each post an answer to one interaction. A command deferred in public has its first post as its
    answer; anything else is a public follow-up (never the answer to a command deferred in private, which stays
    hers), while the interaction has follow-ups left (else FollowUpsSpent)."""

    def __init__(self, held: Held, answers: Answers):
        self.held, self.answers = held, answers
        self.id = held.channel_id

    def can_post(self) -> bool:
        """A post would go out: as the public answer still to give, or as a follow-up left."""
        interaction = self.held.interaction
        if interaction is not None and (not interaction.response.is_done() or interaction.extras.get(PUBLIC_ANSWER)):
            return True
        return self.held.can_follow_up()

    async def send(self, content: str | None = None, *, file: discord.File = discord.utils.MISSING,
                   files: list[discord.File] = discord.utils.MISSING, **fields: Any) -> discord.Message:
        """Post as `discord.abc.Messageable.send` does (`view`, `allowed_mentions`, `embed` pass on as they are)."""
        held, interaction = self.held, self.held.interaction
        await held.own_answer.wait()
        if interaction is not None:
            if not interaction.response.is_done():
                await interaction.response.defer(thinking=True)
                interaction.extras[PUBLIC_ANSWER] = True
            if interaction.extras.get(PUBLIC_ANSWER):  # its public "thinking…" becomes the post, once
                interaction.extras[PUBLIC_ANSWER] = False
                attachments = [file] if file else files
                answer = await interaction.edit_original_response(content=content, attachments=attachments,
                                                                  **fields)
                await self.answers.posted(self)
                return answer
        if not held.can_follow_up():
            raise FollowUpsSpent(f"the interaction answering conversation {held.channel_id} has no follow-up left")
        self.answers.followed_up(held)
        message = await held.followup.send(content or discord.utils.MISSING, file=file, files=files, wait=True,
                                           **fields)
        await self.answers.posted(self)
        return message

    def get_partial_message(self, message_id: int) -> _AnsweredMessage:
        return _AnsweredMessage(self.held, message_id)

    async def fetch_message(self, message_id: int) -> discord.Message:
        """An earlier post as it is now, to edit it whole (a layout): the clicked one comes with the click; any
        other is readable only through the interaction that posted it (else discord.NotFound)."""
        interaction = self.held.interaction
        if interaction is not None and interaction.message is not None and interaction.message.id == message_id:
            return interaction.message
        return await self.held.followup.fetch_message(message_id)

    async def history(self, **_: Any) -> AsyncIterator[discord.Message]:
        """The bot cannot read a conversation: nothing to adopt, so a repair posts the board again."""
        return
        yield  # an async generator that yields nothing


class _AnsweredMessage:
    """An earlier post in a conversation: editable only through the interaction that posted it, so this edit is
    best effort (a stale board's buttons are refused and greyed when clicked instead)."""

    def __init__(self, held: Held, message_id: int):
        self.held, self.id = held, message_id

    async def edit(self, **fields: Any) -> None:
        interaction = self.held.interaction
        if interaction is not None and interaction.message is not None and interaction.message.id == self.id:
            await interaction.edit_original_response(**fields)  # the message the click was on
            return
        await self.held.followup.edit_message(self.id, **fields)
