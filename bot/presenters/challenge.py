"""The challenge post (who is invited, which seats are open) and what follows its end: a declined, cancelled or
expired note, or the match's thread, first board and a private word to each player."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord

from bot.i18n import ENGLISH, N_, t
from bot.matches import MatchService, PrivateChannel, catalogue
from bot.matches.events import Board, MatchClock, MatchStarted
from bot.matches.places import in_conversation
from bot.domain import Challenge, Match

from .board import BoardPresenter
from .channels import messageable
from .clock_text import clock_kind, clock_name, plain, start_note

from .controls import Controls
from .describe import side_of
from .layout import card
from .pacing import Urgency, urgency
from .text import fit, mentions, message_link

log = logging.getLogger(__name__)

STATUS_LINES = {
    "declined": N_("❌ Declined."), "cancelled": N_("🚫 Cancelled by the challenger."),
    "expired": N_("⌛ This challenge expired unanswered."), "started": N_("✅ Accepted — the match has started."),
}


def challenge_text(challenge: Challenge, lang: str = ENGLISH) -> str:
    """The challenge post, in the server's language `lang`."""
    title = catalogue.info(challenge.game).title
    challenger = next(s.user_name for s in challenge.seats if s.user_id == challenge.challenger_id)
    # Whom the challenge is to: the members invited and the computer's seats by name; "anyone" only when no one
    # is named, which leaves every other seat open.
    named = [f"<@{s.invited_id}>" for s in challenge.seats
             if s.invited_id and s.invited_id != challenge.challenger_id]
    named += [f"**{s.user_name}**" for s in challenge.seats if s.kind == "computer"]
    target = t(lang, " and ").join(named) if named else t(lang, "anyone")
    lines = [t(lang, "⚔️ **{challenger}** challenges {target} to **{game}**!", challenger=challenger, target=target,
               game=title)]
    seats = []
    for s in challenge.seats:
        if s.kind == "computer":
            seats.append(f"{s.user_name} 🤖")
        elif s.user_id is not None:
            seats.append(f"{s.user_name} ✓")
        elif s.invited_id is not None:
            seats.append(t(lang, "{player} (invited)", player=f"<@{s.invited_id}>"))
        else:
            seats.append(t(lang, "open seat"))
    lines.append(t(lang, "Seats: {seats}", seats=" · ".join(seats)))
    if not challenge.rated:
        lines.append(t(lang, "Unrated: the result does not count for ratings."))
    if challenge.options:
        lines.append(t(lang, "Options: {options}",
                       options=", ".join(f"{k}: {_option_text(v)}" for k, v in challenge.options.items())))
    if challenge.clock_seconds and not plain(challenge.clock_rules):
        lines.append(t(lang, "Clock: {clock}.", clock=clock_kind(challenge.clock_seconds, challenge.clock_rules, lang)))
    elif challenge.clock_seconds:  # the clock's label as the /play choice shows it
        clock = clock_name(challenge.clock_seconds, lang)
        lines.append(t(lang, "Clock: {clock} a move.", clock=clock))
    else:
        lines.append(t(lang, "No clock."))
    if challenge.status == "open":
        lines.append(t(lang, "Expires {when}.", when=f"<t:{int(challenge.expires_at)}:R>"))
    else:
        lines.append(t(lang, STATUS_LINES[challenge.status]))
    return fit("\n".join(lines))


def challenge_post(challenge: Challenge, buttons: discord.ui.View | None, lang: str = ENGLISH,
                   extra: str = "") -> discord.ui.LayoutView:
    """The challenge post as one container: its words (and `extra`, a line added below them) and its buttons."""
    return card(fit(challenge_text(challenge, lang) + extra), buttons=buttons)


def _option_text(value: Any) -> str:
    return " / ".join(map(str, value)) if isinstance(value, list) else str(value)


def _thread_name(match: Match) -> str:
    return (f"{catalogue.info(match.game).title} #{match.id}: " + " vs ".join(match.names))[:100]


def challenge_mentions(challenge: Challenge) -> discord.AllowedMentions:
    return mentions([s.invited_id for s in challenge.seats
                     if s.invited_id and s.invited_id != challenge.challenger_id])[1]


class ChallengePresenter:
    def __init__(self, client: discord.Client, service: MatchService, private: PrivateChannel,
                 boards: BoardPresenter, controls: Controls):
        self.client = client
        self.service = service
        self.private = private
        self.boards = boards
        self.conversations = boards.conversations  # where a match in a conversation starts
        self.controls = controls

    async def refresh(self, challenge: Challenge, extra: str = "", *, lang: str | None = None) -> None:
        """Show a challenge's status on its post, in the server's language `lang` (None: looked up). Best effort:
        a click on a leftover button is refused anyway."""
        if challenge.message_id is None:
            return
        channel = messageable(self.client, challenge.channel_id, challenge.guild_id)  # it may be another shard's
        if lang is None:
            lang = await self.service.language(challenge.guild_id)
        try:
            with urgency(Urgency.COSMETIC):  # the post's status: it waits behind boards and answers
                # ignore: the abc lacks it, but every channel messageable() gives (text, thread, partial) has it
                await channel.get_partial_message(challenge.message_id).edit(  # type: ignore[attr-defined]
                    content=None, view=challenge_post(challenge, self.controls.challenge(challenge, lang), lang,
                                                      extra),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        except discord.HTTPException:
            log.info("challenge=%s could not update its post", challenge.id)

    async def match_started(self, event: MatchStarted) -> bool:
        """Every seat is taken: the match's thread, the challenge post pointing to it, the first board, and a
        private word to each player (with her secret setup button when she has one).

        Recovered (a stopped process may have begun this): a thread it opened is adopted, recorded or found by its
        name in the channel, and then so is a first board it posted (as a repair does), and the players, whom it
        may have told already, are not told again."""
        match, challenge, lang = event.match, event.challenge, event.lang
        if in_conversation(match.guild_id):
            return await self._started_in_conversation(event)
        channel = await self._channel(match, challenge)
        if channel is None:
            return False
        thread = await self._thread_left(match, channel) if event.recovered else None
        opened = thread is None
        if thread is None:
            thread = await self._open_thread(match, channel)
            if thread is None:
                return False
        if match.thread_id != thread.id:
            await self.service.set_thread(match.id, thread.id)
        match = replace(match, thread_id=thread.id)
        await self.refresh(challenge, "\n" + t(lang, "Match #{match} is on in {thread}.", match=match.id,
                                                 thread=f"<#{thread.id}>"), lang=lang)
        if not opened:
            return await self.boards.repair(match, event.board, lang)
        posted = await self.boards.post(match, event.board, lang) is not None
        await self._tell_players(match, event.board, lang, message_link(match.guild_id, thread.id))
        return posted

    async def _started_in_conversation(self, event: MatchStarted) -> bool:
        """A match in a conversation is played where it was made: the Accept that started it shows the challenge
        accepted and answers with the first board."""
        match, challenge, lang = event.match, event.challenge, event.lang
        place = await self.conversations.place(challenge.channel_id)
        if match.thread_id != challenge.channel_id:
            await self.service.set_thread(match.id, challenge.channel_id)
        match = replace(match, thread_id=challenge.channel_id)
        if place is None:
            return False  # no one to answer: the next action there shows the board
        if challenge.message_id is not None:
            try:
                await place.get_partial_message(challenge.message_id).edit(
                    content=None, view=challenge_post(challenge, None, lang),
                    allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("challenge=%s could not update its post", challenge.id)
        posted = await self.boards.post(match, event.board, lang) is not None
        await self._tell_players(match, event.board, lang, message_link(match.guild_id, challenge.channel_id))
        return posted

    async def _channel(self, match: Match, challenge: Challenge) -> Any:
        """The channel the match's thread opens in (beside the challenge's, when that is a thread); None if gone."""
        channel = self.client.get_channel(challenge.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(challenge.channel_id)
            except discord.HTTPException:
                log.warning("match=%s guild=%s its channel is gone", match.id, match.guild_id)
                return None
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent  # a thread cannot hold threads: open the match beside it
        return channel

    async def _thread_left(self, match: Match, channel: Any) -> Any:
        """The thread a stopped process opened for `match`: the one it recorded, else one of the channel's active
        threads with the match's name (opened, not recorded: the name carries the match's number; asked of
        Discord, as a restarted process's cache may not hold it yet); None if none."""
        if match.thread_id is not None:
            return messageable(self.client, match.thread_id, match.guild_id)
        name = _thread_name(match)
        try:
            threads = await channel.guild.active_threads()
        except discord.HTTPException:
            log.warning("match=%s guild=%s could not list its threads; opening one", match.id, match.guild_id)
            return None
        return next((thread for thread in threads if thread.parent_id == channel.id and thread.name == name), None)

    async def _open_thread(self, match: Match, channel: Any) -> Any:
        try:
            return await channel.create_thread(
                name=_thread_name(match), type=discord.ChannelType.public_thread, auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:
            # Most often a missing "Create Public Threads" permission: the match is on, so play it in the channel.
            log.warning("match=%s guild=%s could not create a thread (%s); playing in the channel", match.id,
                        match.guild_id, exc)
            try:
                await channel.send(
                    f"I couldn't open a thread for match #{match.id} (I need the *Create Public Threads* "
                    "permission), so it is played right here.", allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException:
                return None
            return channel

    async def _tell_players(self, match: Match, board: Board, lang: str, link: str | None) -> None:
        """A DM to each player, in the server's language `lang` (the match's, like its thread)."""
        title = catalogue.info(match.game).title
        secret, setting_up = board.secret_setup, board.to_act
        clock = board.clock or MatchClock(match.clock_seconds)
        for seat in match.seats:
            if not seat.is_member:
                continue
            side = side_of(board.view, seat.seat, lang)  # the sides' names are public
            text = t(lang, "Your {game} match #{match} has started: you play **{side}**. Thread: {link}", game=title,
                     match=match.id, side=side, link=link)
            prompt = secret and seat.seat in setting_up
            if prompt:
                text += "\n" + t(lang, "Your setup is secret: press **Set up in private** to make it. Nobody else "
                                       "sees it.")
            text += start_note(clock, seat.seat, lang)
            await self.private.send(match, seat.seat, text,
                                    buttons=self.controls.setup_prompt(match.id, lang) if prompt else None)
