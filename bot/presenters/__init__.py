"""Presenters: what the match service reports (bot.matches.events) becomes thread posts, board pictures, pings,
DMs and retired buttons. Subscribed to the service's bus by bot/app.py; events of one match arrive in order."""

from __future__ import annotations

import io
import logging
from typing import Any, Awaitable, Callable, get_args

import discord

from bot.i18n import t
from bot.matches import MatchService, PrivateChannel
from bot.matches.events import (
    BoardRequested,
    ChallengeEnded,
    DrawDeclined,
    DrawOffered,
    MatchEnded,
    MatchEvent,
    MatchStarted,
    MovePlayed,
    SetupProgress,
    TakebackAnswered,
    TakebackAsked,
    TurnReminder,
)
from bot.domain import Match

from .board import BoardPresenter
from .challenge import ChallengePresenter, challenge_mentions, challenge_text
from .clocks import ClockPresenter
from .controls import Controls
from .replay import ReplayPresenter
from .text import fit, mentions

log = logging.getLogger(__name__)

Handler = Callable[[Any], Awaitable[bool]]  # each takes the event type it is filed under
EVENT_TYPES: tuple[type, ...] = get_args(MatchEvent)  # every event the match service reports


class UnhandledEventError(RuntimeError):
    """An event type the presenter has no handler for: it would be dropped without a word, so the bot won't start."""


def check_every_event_handled(handlers: dict[type, Handler], event_types: tuple[type, ...] | None = None) -> None:
    """Each event type has exactly one handler (a dict allows no second one), and no handler waits for a type the
    service never reports."""
    expected = set(EVENT_TYPES if event_types is None else event_types)
    missing = sorted(t.__name__ for t in expected - handlers.keys())
    unknown = sorted(t.__name__ for t in handlers.keys() - expected)
    if missing or unknown:
        raise UnhandledEventError(f"presenter handlers do not match the event types: no handler for {missing}, "
                                  f"a handler for no event type {unknown}")


class Presenter:
    """One subscriber for every event; each handler returns False when Discord refused its post."""

    def __init__(self, client: discord.Client, service: MatchService, controls: Controls, *,
                 replay_at_end: bool = True):
        self.client = client
        self.service = service
        self.controls = controls
        self.private = PrivateChannel(service.repo, self.send_dm, service.clock)
        self.boards = BoardPresenter(client, service, controls)
        self.challenges = ChallengePresenter(client, service, self.private, self.boards, controls)
        self.replays = ReplayPresenter(client, service, self.boards, post_at_end=replay_at_end)
        self.clocks = ClockPresenter(service, self.boards, self.send_dm)
        self._handlers: dict[type, Handler] = {
            ChallengeEnded: self._challenge_ended,
            MatchStarted: self._match_started,
            SetupProgress: self._setup_progressed,
            MovePlayed: self._move_played,
            BoardRequested: self._board_requested,
            DrawOffered: self._draw_offered,
            DrawDeclined: self._answered_in_place,
            MatchEnded: self._match_ended,
            TakebackAsked: self._takeback_asked,
            TakebackAnswered: self._answered_in_place,
            TurnReminder: self.clocks.remind,
        }
        check_every_event_handled(self._handlers)

    async def __call__(self, event: MatchEvent) -> bool:
        try:
            return await self._present(event)
        except discord.HTTPException as exc:
            log.warning("presenting %s failed: %s", type(event).__name__, exc)
            return False

    async def _present(self, event: MatchEvent) -> bool:
        return await self._handlers[type(event)](event)

    async def _challenge_ended(self, event: ChallengeEnded) -> bool:
        if event.by_user is None:  # expired; a click that closed it already showed its answer on the post
            await self.challenges.refresh(event.challenge)
        return True

    async def _match_started(self, event: MatchStarted) -> bool:
        done = await self.challenges.match_started(event)
        await self._announced(event.match.id, event.match.version, done)
        return done

    async def _setup_progressed(self, event: SetupProgress) -> bool:
        done = await self._setup_progress(event)
        await self._announced(event.match.id, event.match.version, done)
        return done

    async def _move_played(self, event: MovePlayed) -> bool:
        match = await self.service.get_match(event.match.id)  # the newest state: a later move may have followed
        if match.version != event.match.version:
            return True  # superseded: the later move's board shows this one's result too
        # The version is recorded as shown with its board post, unless a request must be asked first: a stop
        # in between then repairs the board and asks again.
        asks = self.service.pending_request(match) is not None
        if event.kind == "repair":
            done = await self.boards.repair(match, announce=not asks)
        else:
            clock, prefs = await self.service.clocks.after_move(match)
            done = await self.boards.post(match, played=event, clock=clock, announce=not asks) is not None
            await self.clocks.turn_began(match, event, clock, prefs)
        await self._ask_for_answer(match)
        if asks:
            await self._announced(match.id, match.version, done)
        return done

    async def _board_requested(self, event: BoardRequested) -> bool:
        match = await self.service.get_match(event.match.id)
        # a finished match's board asked for again: its final post (already announced) keeps its Rematch
        return await self.boards.post(match, ping=event.ping, keep_previous=not match.active) is not None

    async def _match_ended(self, event: MatchEnded) -> bool:
        return await self.replays.match_ended(event.match)

    async def _answered_in_place(self, event: DrawDeclined | TakebackAnswered) -> bool:
        return True  # the answer is shown on the request's own message

    async def _announced(self, match_id: int, version: int, done: bool) -> None:
        if done:
            await self.service.mark_announced(match_id, version)

    async def _ask_for_answer(self, match) -> None:
        """A load request of her pieces waits for one player: ask her in private (her answer is her move)."""
        request = self.service.pending_request(match)
        if request is None:
            return
        names = match.names
        lang = await self.service.server_settings.language(match.guild_id)
        text = t(lang, "Match #{match}: **{player}** asks to load your pieces: `{move}`. Your answer is your move — "
                       "Consent or Refuse?", match=match.id, player=names[request.requester], move=request.move)
        await self.private.send(match, request.asked, text, buttons=self.controls.consent(match, lang))

    async def _setup_progress(self, event: SetupProgress) -> bool:
        """One player finished a secret setup step: say so (nothing more) and remind whoever is still at it."""
        match = event.match
        thread = await self.boards.thread_of(match)
        if thread is None:
            return False
        ping, allowed = mentions(self.service.users_to_act(match))
        lang = await self.service.server_settings.language(match.guild_id)
        await thread.send(
            fit(t(lang, "🔒 **{player}** has made a secret setup move. Still setting up: {players} — press **Move** "
                        "on the board to continue in private.", player=match.seats[event.seat].user_name,
                  players=ping)),
            allowed_mentions=allowed,
        )
        return True

    async def _draw_offered(self, event: DrawOffered) -> bool:
        match = event.match
        lang = await self.service.server_settings.language(match.guild_id)
        return await self._ask_in_thread(
            match, lambda seat: seat not in (match.draw_agreed or []),
            t(lang, "🤝 **{player}** offers a draw.", player=match.seats[event.seat].user_name),
            self.controls.draw_answers(match, lang=lang),
        )

    async def _takeback_asked(self, event: TakebackAsked) -> bool:
        match = event.match
        lang = await self.service.server_settings.language(match.guild_id)
        return await self._ask_in_thread(
            match, lambda seat: seat != event.seat,
            t(lang, "↩️ **{player}** asks to take back `{move}`.", player=match.seats[event.seat].user_name,
              move=event.move),
            self.controls.takeback_answers(match, lang=lang),
        )

    async def _ask_in_thread(self, match: Match, asked: Callable[[int], bool], question: str,
                             answers: discord.ui.View) -> bool:
        """Post a question with its answer buttons in the match's thread, pinging the seats in play it asks."""
        thread = await self.boards.thread_of(match)
        if thread is None:
            return False
        in_play = self.service.game_of(match).in_play(self.service.state_of(match))
        ping, allowed = mentions([match.user_of(s) for s in in_play if asked(s)])
        await thread.send(fit(f"{question} {ping}"), view=answers, allowed_mentions=allowed)
        return True

    async def send_dm(self, user_id: int, content: str, image: bytes | None, buttons: discord.ui.View | None) -> bool:
        """Deliver a private message; False when Discord refuses (DMs closed), so it waits for her My view."""
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            file = discord.File(io.BytesIO(image), filename="your-view.png") if image else discord.utils.MISSING
            await user.send(fit(content), file=file, view=buttons or discord.utils.MISSING)
            return True
        except discord.Forbidden:  # 50007: the user does not accept DMs from this server's members
            return False
        except discord.HTTPException:
            log.warning("DM to user=%s failed; keeping the message for their next My view", user_id)
            return False


__all__ = ["EVENT_TYPES", "Presenter", "UnhandledEventError", "check_every_event_handled", "Controls", "challenge_text", "challenge_mentions"]
