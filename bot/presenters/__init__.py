"""Presenters: what the match service reports (bot.matches.events) becomes thread posts, board pictures, pings,
DMs and retired buttons. Subscribed to the service's bus by bot/app.py; events of one match arrive in order.

An event carries what its handler shows (the match as committed, the server's language, the board's view and
clock): a handler writes what it posted (the board's message id, the version shown) and reads nothing back about
the match it was given."""

from __future__ import annotations

import io
import logging
from typing import Any, Awaitable, Callable, get_args

import discord

from bot.i18n import t
from bot.matches import EventBus, MatchService, PrivateChannel, errors
from bot.matches.events import (
    AnalysisReady,
    Board,
    BoardRepaired,
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
    VacationDaySpent,

)
from bot.domain import Match
from bot.matches.places import in_conversation
from bot.domain.conversations import WaitingPost

from .analysis import AnalysisPresenter
from .answers import Answers as ThreadAnswers
from .board import BoardPresenter
from .challenge import ChallengePresenter, challenge_mentions, challenge_post, challenge_text
from .clocks import ClockPresenter
from .controls import Controls
from .conversation import Answers, ConversationStore, FollowUpsSpent, InteractionPlace
from .layout import card
from .pacing import Urgency, urgency
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

    def __init__(self, client: discord.Client, service: MatchService, bus: EventBus[MatchEvent], private: PrivateChannel,
                 dms: DirectMessages, controls: Controls, *, replay_at_end: bool = True,
                 conversations: ConversationStore | None = None):
        """`bus`: the bus that delivers to this presenter (it tells whether a newer move waits behind an event);
        `private`: the private channel to players (for hidden information), `dms`: plain DMs; `conversations`:
        where what answers conversations outlives the process."""
        self.client = client
        self.service = service
        self.bus = bus
        self.controls = controls
        self.private = private
        # the interactions that answer in conversations, where the bot is no member
        self.conversations = Answers(dms, conversations, client)
        self.conversations.show_waiting = self._show_waiting
        self.boards = BoardPresenter(client, service, controls, self.conversations)
        self.answers = ThreadAnswers()  # interactions in flight that may carry their move's post in the thread
        self.challenges = ChallengePresenter(client, service, self.private, self.boards, controls)
        self.replays = ReplayPresenter(client, service, self.boards, post_at_end=replay_at_end)
        self.clocks = ClockPresenter(self.boards, dms)
        self.analyses = AnalysisPresenter(client, self.boards)
        # What the views ask of the presenters: a player's messages kept for her My view, a challenge post shown again,
        # an interaction held to answer a conversation's next posts.
        self.take_pending, self.refresh_challenge = private.take_pending, self.challenges.refresh
        self.hold_conversation = self.conversations.hold
        self._handlers: dict[type, Handler] = {
            ChallengeEnded: self._challenge_ended,
            MatchStarted: self._match_started,
            SetupProgress: self._setup_progressed,
            MovePlayed: self._move_played,
            BoardRepaired: self._board_repaired,
            BoardRequested: self._board_requested,
            DrawOffered: self._draw_offered,
            DrawDeclined: self._answered_in_place,
            MatchEnded: self._match_ended,
            TakebackAsked: self._takeback_asked,
            TakebackAnswered: self._answered_in_place,
            TurnReminder: self.clocks.remind,
            AnalysisReady: self.analyses.post,
            VacationDaySpent: self.clocks.vacation_day_spent,
        }
        check_every_event_handled(self._handlers)

    async def __call__(self, event: MatchEvent) -> bool:
        try:
            with urgency(Urgency.BOARD):  # behind what players wait for, ahead of what only tidies up
                return await self._present(event)
        except discord.HTTPException as exc:
            log.warning("presenting %s failed: %s", type(event).__name__, exc)
            return False

    async def idle(self) -> None:
        """Wait until the edits left to do after the posts (old boards greyed) are done (shutdown, tests)."""
        await self.boards.idle()
        await self.conversations.idle()

    async def _present(self, event: MatchEvent) -> bool:
        handler = self._handlers.get(type(event))
        if handler is None:  # not a MatchEvent (every one has a handler): another subscriber's, a planned reply's
            return True
        return await handler(event)

    async def _challenge_ended(self, event: ChallengeEnded) -> bool:
        if event.by_user is None or event.recovered:
            # Expired, or recovered (the click's answer may be lost); a click that closed it showed its answer.
            await self.challenges.refresh(event.challenge, lang=event.lang)
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
        if self.bus.superseded(event):
            return True  # a later move waits behind it: its board shows this one's result too
        # The version is recorded as shown with its board post, unless a request must be asked first: a stop
        # in between then repairs the board and asks again.
        match, board = event.match, event.board
        asks = board.request is not None
        offer = self.answers.take(match, match.user_of(event.seat))
        done = await self.boards.post(match, board, event.lang, played=event, announce=not asks,
                                      offer=offer) is not None
        await self.clocks.turn_began(event)
        await self._asked_for_answer(match, board, event.lang, done)
        return done

    async def _board_repaired(self, event: BoardRepaired) -> bool:
        if self.bus.superseded(event):
            return True
        match, board = event.match, event.board
        done = await self.boards.repair(match, board, event.lang, announce=board.request is None)
        await self._asked_for_answer(match, board, event.lang, done)
        return done

    async def _asked_for_answer(self, match: Match, board: Board, lang: str, done: bool) -> None:
        """A load request of her pieces waits for one player: ask her in private (her answer is her move); the
        version counts as shown once she was asked."""
        request = board.request
        if request is None:
            return
        text = t(lang, "Match #{match}: **{player}** asks to load your pieces: `{move}`. Your answer is your move — "
                       "Consent or Refuse?", match=match.id, player=match.names[request.requester], move=request.move)
        await self.private.send(match, request.asked, text, buttons=self.controls.consent(match, lang))
        await self._announced(match.id, match.version, done)

    async def _board_requested(self, event: BoardRequested) -> bool:
        if self.bus.superseded(event):
            return True  # the later move's board is on its way
        match = event.match
        # a finished match's board asked for again: its final post (already announced) keeps its Rematch
        return await self.boards.post(match, event.board, event.lang, ping=event.ping,
                                      keep_previous=not match.active) is not None

    async def _match_ended(self, event: MatchEnded) -> bool:
        return await self.replays.match_ended(event)

    async def _answered_in_place(self, event: DrawDeclined | TakebackAnswered) -> bool:
        return True  # the answer is shown on the request's own message

    async def _announced(self, match_id: int, version: int, done: bool) -> None:
        if done:
            await self.service.mark_announced(match_id, version)

    async def _setup_progress(self, event: SetupProgress) -> bool:
        """One player finished a secret setup step: say so, remind whoever is still at it, and redraw the board in
        place so that it no longer says she is setting up."""
        match = event.match
        thread = await self.boards.thread_of(match)
        if thread is None:
            return False
        if not self.bus.superseded(event):  # else a later step or move shows it already
            await self.boards.redraw(match, event.board, event.lang)
        ping, allowed = mentions(event.board.users_to_act(match))
        lang = event.lang
        await self.boards.send(
            thread, self.answers.take(match, match.user_of(event.seat)),
            fit(t(lang, "🔒 **{player}** has made a secret setup move. Still setting up: {players} — press **Move** "
                        "on the board to continue in private.", player=match.seats[event.seat].user_name,
                  players=ping)),
            allowed_mentions=allowed,
        )
        return True

    async def _draw_offered(self, event: DrawOffered) -> bool:
        match, lang = event.match, event.lang
        return await self._ask_in_thread(
            match, event.in_play, lambda seat: seat not in (match.draw_agreed or []),
            t(lang, "🤝 **{player}** offers a draw.", player=match.seats[event.seat].user_name), "draw", lang)

    async def _takeback_asked(self, event: TakebackAsked) -> bool:
        match, lang = event.match, event.lang
        return await self._ask_in_thread(
            match, event.in_play, lambda seat: seat != event.seat,
            t(lang, "↩️ **{player}** asks to take back `{move}`.", player=match.seats[event.seat].user_name,
              move=event.move), "takeback", lang)

    def _answers(self, kind: str, match: Match, lang: str) -> discord.ui.View:
        """The buttons that answer a question ("draw", "takeback")."""
        if kind == "draw":
            return self.controls.draw_answers(match, lang=lang)
        return self.controls.takeback_answers(match, lang=lang)

    async def _ask_in_thread(self, match: Match, in_play: tuple[int, ...], asked: Callable[[int], bool],
                             question: str, kind: str, lang: str) -> bool:
        """Post a question with its answer buttons in the match's thread, pinging the seats in play it asks. In a
        conversation with nothing to answer there: by DM to whoever it asks, else it waits for the next action."""
        thread = await self.boards.thread_of(match)
        users = [user for user in (match.user_of(s) for s in in_play if asked(s)) if user is not None]
        ping, allowed = mentions(users)
        content = fit(f"{question} {ping}")
        if thread is None:
            if not in_conversation(match.guild_id):
                return False
            dms = self.conversations.dms
            reached = [dms is not None and await dms(user, content, None, self._answers(kind, match, lang))
                       for user in users]
            if not all(reached):
                await self.conversations.keep(match.thread_id or match.channel_id, match_id=match.id,
                                              version=match.version, kind=kind, lang=lang, content=content)
            return True
        await thread.send(content, view=self._answers(kind, match, lang), allowed_mentions=allowed)
        return True

    async def _show_waiting(self, place: InteractionPlace, waiting: list[WaitingPost]) -> None:
        """The questions that waited in a conversation, shown after its next post: those whose match is still as it
        was asked (else answered, or moved on: its buttons would refuse)."""
        for i, post in enumerate(waiting):
            try:
                match = await self.service.get_match(post.match_id)
            except errors.UnknownMatch:
                continue
            if not match.active or match.version != post.version:
                continue
            try:
                await place.send(post.content, view=self._answers(post.kind, match, post.lang),
                                 allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True))
            except (FollowUpsSpent, discord.HTTPException) as exc:
                log.info("conversation %s: a question waits again (%s)", place.id, exc)
                for left in waiting[i:]:
                    await self.conversations.keep(left.channel_id, match_id=left.match_id, version=left.version,
                                                  kind=left.kind, lang=left.lang, content=left.content)
                return


class DirectMessages:
    """Sends a DM through Discord: the private channel's and the reminders' way to a member."""

    def __init__(self, client: discord.Client):
        self.client = client

    async def __call__(self, user_id: int, content: str, image: bytes | None,
                       buttons: discord.ui.View | None) -> bool:
        """Deliver a private message; False when Discord refuses (DMs closed), so it waits for her My view."""
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            file = discord.File(io.BytesIO(image), filename="your-view.png") if image else None
            await user.send(view=card(fit(content), picture=file, buttons=buttons), file=file or discord.utils.MISSING)
            return True
        except discord.Forbidden:  # 50007: the user does not accept DMs from this server's members
            return False
        except discord.HTTPException:
            log.warning("DM to user=%s failed; keeping the message for their next My view", user_id)
            return False


__all__ = ["EVENT_TYPES", "DirectMessages", "Presenter", "UnhandledEventError", "check_every_event_handled", "Controls",
           "challenge_text", "challenge_mentions", "challenge_post"]
