"""The board post of a match: picture, caption, mention of exactly whoever must act, and the board's buttons.

Only the newest board post acts; posting a new one greys out the previous one's buttons, later: greying is a
cosmetic edit, which waits behind every board and answer (bot/presenters/pacing.py) and is asked once per post. A
board may go out as the public answer of the interaction that made it (bot/presenters/answers.py); such a post is
then redrawn and greyed through that interaction while its token lasts, outside Discord's limits. After a crash
between saving a move and recording its post, `repair` finds what was posted and posts what was not, once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any, cast

import discord

from bot.matches import MatchService
from bot.matches.events import Board, MovePlayed
from bot.matches.places import in_conversation
from bot.domain import Match

from .answers import Answered, Held
from .captions import turn_caption
from .channels import archive, messageable
from .clock_text import bank_sentence, clock_lines

from .controls import Controls
from .conversation import Answers
from .describe import MAX_ALT_TEXT, alt_text
from .emojis import emojis_of
from .layout import card, custom_ids, greyed
from .pacing import Urgency, urgency

from .pictures import render_file
from .text import fit, mentions

log = logging.getLogger(__name__)
POSTS_KEPT = 5_000  # board posts kept as sent, to grey without reading them back; the newest kept

BOARD_FILENAME = "board.png"
REPAIR_HISTORY = 50  # how far back a repair looks for a board post the crash left unrecorded


class BoardPresenter:
    def __init__(self, client: discord.Client, service: MatchService, controls: Controls,
                 conversations: Answers | None = None):
        self.client = client
        self.service = service
        self.controls = controls
        self.answered = Answered()
        # board posts as last posted or redrawn, by message id: greyed from this copy, without reading them back
        self._posted: OrderedDict[int, discord.Message] = OrderedDict()
        self._greying: dict[int, asyncio.Task] = {}  # board post → its greying, asked and not yet done
        self.conversations = conversations or Answers()

    async def thread_of(self, match: Match) -> discord.abc.Messageable | None:
        """The match's thread, from this process's cache; else (its server is another process's shard: a timer
        fired here, a /move in DMs) a partial channel that posts through the REST API by id, with no lookup. A
        conversation's match: an answer to the interaction of its latest action, if one can still be answered."""
        if in_conversation(match.guild_id):
            # it answers send, get_partial_message, fetch_message and history as the presenters use them
            return cast(discord.abc.Messageable | None,
                        await self.conversations.place(match.thread_id or match.channel_id))
        if match.thread_id is None:
            return None
        return messageable(self.client, match.thread_id, match.guild_id)

    async def post(self, match: Match, board: Board, lang: str, *, played: MovePlayed | None = None,
                   ping: bool = True, retire: tuple[int, ...] = (), keep_previous: bool = False,
                   announce: bool = False, offer: Held | None = None) -> discord.Message | None:
        """Post the board of `match` (as `board` shows it, in the server's language `lang`) in the match thread
        and retire the previous board post's buttons.

        `ping=False` for re-posts asked for by someone else: the board is shown, nobody is pinged.
        `keep_previous`: the previous post keeps its buttons (a finished match's final post shown again keeps
        Rematch on both; a Rematch pressed twice still makes one match). `announce`: record this version as
        shown, with the post. `offer`: the interaction that made the move, from the thread, to post it as its
        answer."""
        thread = await self.thread_of(match)
        if thread is None:
            if in_conversation(match.guild_id):
                await self._tell_by_dm(match, board, lang, played)
            return None
        service = self.service
        buttons = self.controls.board(match, lang=lang) if match.active else self.controls.finished(match, lang)
        layout, file, allowed = await self._board(match, board, lang, buttons, played)
        if not ping:
            allowed = discord.AllowedMentions.none()
        message = self._keep(await self.send(thread, offer, view=layout, file=file, allowed_mentions=allowed))
        previous = match.board_message_id
        if not await service.record_board(match, message.id, announced=announce):
            # A newer version's board was recorded while this one was drawn: this post is the old one.
            self.grey_later(thread, message.id, match, lang)
            return message
        olds = {o for o in (None if keep_previous else previous, *retire) if o is not None} - {message.id}
        if match.active:
            for old in olds:
                self.grey_later(thread, old, match, lang)
        else:  # the match is over: archive its thread (anyone posting in it reopens it), its old boards greyed first
            for old in olds:
                await self.retire(thread, old, match, lang)
            with urgency(Urgency.COSMETIC):
                await archive(self.client, thread, match)
        return message

    async def _tell_by_dm(self, match: Match, board: Board, lang: str, played: MovePlayed | None) -> None:
        """A conversation's board with no action there to answer (a timer's: a time-out, a computer's move): its
        words by DM to whoever must act (everyone, at the end), where the bot can reach them. The next action
        there answers with the board, pinging whoever must act then."""
        dms = self.conversations.dms
        if dms is None:
            return
        caption = self._caption(match, board, lang, played)
        for user_id in (board.users_to_act(match) if match.active else match.member_ids):
            if user_id is not None:
                await dms(user_id, fit(caption), None, None)

    async def send(self, thread: discord.abc.Messageable, offer: Held | None, content: str | None = None, *,
                   file: discord.File | None = None, **kwargs: Any) -> discord.Message:
        """Post in the match's thread (words, or a layout as `view`): as the interaction's answer when `offer` still
        may carry it (a followup carries the Components V2 flag as any message), else as a new message of the
        thread."""
        extra: dict[str, Any] = {"file": file} if file is not None else {}
        if content is not None:
            extra["content"] = content
        if offer is not None and await offer.usable():
            try:
                message = await offer.followup.send(wait=True, **extra, **kwargs)
            except discord.HTTPException as exc:
                log.info("could not answer in thread %s through its interaction (%s); posting there", offer.channel_id,
                         exc)
                if file is not None:
                    file.reset()
            else:
                self.answered.add(message.id, offer)
                return message
        return await thread.send(**extra, **kwargs)

    def _keep(self, message: discord.Message) -> discord.Message:
        """Remember the post as sent, for its greying later."""
        self._posted[message.id] = message
        while len(self._posted) > POSTS_KEPT:
            self._posted.popitem(last=False)
        return message

    async def _fetch(self, thread: discord.abc.Messageable, message_id: int) -> discord.Message:
        """A board post as it is now (a layout is edited whole): as this process last sent it, else read through the
        interaction it answered while that may (exempt), else through its channel."""
        known = self._posted.pop(message_id, None)
        if known is not None:
            return known
        webhook = self.answered.webhook(message_id)
        if webhook is not None:
            try:
                return await webhook.fetch_message(message_id)
            except discord.HTTPException as exc:
                log.info("could not read board message %s through its interaction (%s)", message_id, exc)
        return await thread.fetch_message(message_id)

    async def _edit(self, thread: discord.abc.Messageable, message_id: int,
                    **changes: Any) -> discord.Message | None:
        """Edit a board post: through the interaction it answered while that may, else as the bot's message."""
        webhook = self.answered.webhook(message_id)
        if webhook is not None:
            try:
                return await webhook.edit_message(message_id, **changes)
            except discord.HTTPException as exc:
                log.info("could not edit board message %s through its interaction (%s)", message_id, exc)
                for file in changes.get("attachments", ()):
                    file.reset()
        # ignore: the abc lacks it, but every channel messageable() gives (text, thread, partial) has it
        return await thread.get_partial_message(message_id).edit(**changes)  # type: ignore[attr-defined]

    async def redraw(self, match: Match, board: Board, lang: str) -> bool:
        """Show `board` on the match's current board post, in place: a secret setup step changes only who is
        still setting up, which the board must not keep saying of a player who is done, and earns no new post.
        The public view only, as every board; the edit pings nobody (the step's own line does)."""
        thread = await self.thread_of(match)
        if thread is None or match.board_message_id is None:
            return False
        layout, file, _ = await self._board(match, board, lang, self.controls.board(match, lang=lang))
        try:
            redrawn = await self._edit(thread, match.board_message_id, content=None, attachments=[file], view=layout,
                                       allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("match=%s could not redraw board message %s", match.id, match.board_message_id)
            return False
        self._posted.pop(match.board_message_id, None)
        if redrawn is not None:  # an edit in a conversation answers nothing: read again when greyed
            self._keep(redrawn)
        return await self.service.record_board(match, match.board_message_id, announced=False)

    async def _board(self, match: Match, board: Board, lang: str, buttons: discord.ui.View,
                     played: MovePlayed | None = None
                     ) -> tuple[discord.ui.LayoutView, discord.File, discord.AllowedMentions]:
        """A board post's layout: its words (caption, clock, mentions of whoever must act), its picture of the
        public view with the alt text, and `buttons`, in one container; the picture to attach, and who the
        mentions may ping."""
        game, view = self.service.game_of(match), board.view
        caption = self._caption(match, board, lang, played)
        ping_text, allowed = mentions(board.users_to_act(match) if match.active else match.member_ids)
        description = alt_text(game.info.title, view, match.names, match_id=match.id, lang=lang)
        if match.active and board.clock is not None and board.clock.banks:
            banks = bank_sentence(match, board.clock, lang)  # kept whole: the description gives way
            description = f"{fit(description, MAX_ALT_TEXT - len(banks) - 1)} {banks}"
        file = await render_file(view, match.names, filename=BOARD_FILENAME, description=description, lang=lang)
        return card(fit(f"{caption}\n{ping_text}".strip()), picture=file, buttons=buttons), file, allowed

    def _caption(self, match: Match, board: Board, lang: str, played: MovePlayed | None) -> str:
        """A board's words: whose turn or the result, and the clock while it runs."""
        caption = turn_caption(self.service.game_of(match), match, board.view, played=played,
                               secret_setup=board.secret_setup, lang=lang, emojis=emojis_of(self.client))
        if match.active and board.clock is not None:
            caption = "\n".join([caption, *clock_lines(match, board.clock, lang)])
        return caption

    def grey_later(self, thread: discord.abc.Messageable, message_id: int, match: Match, lang: str) -> None:
        """Grey out an older board post's buttons once the more urgent posts are out; a post whose greying is
        already asked for is not asked again."""
        if message_id in self._greying:
            return
        task = asyncio.create_task(self.retire(thread, message_id, match, lang), name=f"grey-{message_id}")
        self._greying[message_id] = task
        task.add_done_callback(lambda _: self._greying.pop(message_id, None))

    async def idle(self) -> None:
        """Wait until every greying asked for is done (shutdown, tests)."""
        while self._greying:
            await asyncio.gather(*list(self._greying.values()), return_exceptions=True)

    async def retire(self, thread: discord.abc.Messageable, message_id: int, match: Match, lang: str) -> None:
        """Grey out the buttons of an older board post, keeping its words and picture: a layout is edited whole,
        so the post is read first (and edited through the channel: in a conversation, through an interaction). Best
        effort: a stale click is refused anyway."""
        try:
            with urgency(Urgency.COSMETIC):
                old = await self._fetch(thread, message_id)
                await self._edit(thread, message_id, view=greyed(old))
        except discord.HTTPException:
            log.info("match=%s could not disable buttons of message %s", match.id, message_id)

    async def repair(self, match: Match, board: Board, lang: str, *, announce: bool = False) -> bool:
        """The bot stopped after writing a move but before its board post was recorded. Find a post of the
        current version the crash left unrecorded and adopt it, or post the board once; retire every other live
        board post of the match."""
        thread = await self.thread_of(match)
        if thread is None:
            return False
        me = self.client.user
        after = discord.Object(match.board_message_id) if match.board_message_id else None
        found: list[discord.Message] = []
        try:
            async for message in thread.history(limit=REPAIR_HISTORY, after=after):
                if me is not None and message.author.id == me.id and _is_board_of(message, match.id):
                    found.append(message)
        except discord.HTTPException:
            log.warning("match=%s could not read its thread to repair the board", match.id)
        current = next((m for m in reversed(found) if _shows_version(m, match)), None)
        stale = tuple(m.id for m in found if m is not current)
        if current is None:
            return await self.post(match, board, lang, retire=stale, announce=announce) is not None
        previous = match.board_message_id
        await self.service.record_board(match, current.id, announced=announce)
        for old in {o for o in (previous, *stale) if o is not None} - {current.id}:
            self.grey_later(thread, old, match, lang)
        return True


def _is_board_of(message: discord.Message, match_id: int) -> bool:
    """A board post of this match: its picture and its buttons, which carry the match id (never its caption,
    whose wording is free to change)."""
    if not any(a.filename == BOARD_FILENAME for a in message.attachments):
        return False
    return any(cid.startswith(f"sg:b:{match_id}:") or cid == f"sg:rm:{match_id}" for cid in custom_ids(message))


def _shows_version(message: discord.Message, match: Match) -> bool:
    """A live board carries its version in its buttons; a finished match's last post has none of a board's."""
    if not match.active:
        return not any(cid.startswith("sg:b:") for cid in custom_ids(message))
    return any(cid.startswith(f"sg:b:{match.id}:{match.version}:") for cid in custom_ids(message))
