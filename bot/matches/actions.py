"""What every use case of the match service shares, and the one sequence that ends every action.

An action takes its match's lock (`operation`), reads what it needs once (`load`: the match, its deadlines, its
members' choices), checks, decides, and hands what it decided to `conclude`: the end-of-action sequence, written
only here. It commits one unit of work (state, log entry, the seats' clock timers and, when a rated match ends, the
ratings), guarded by the match version, so a double click or two racing clicks change the match once; then plays
the moves nobody has a choice about, and publishes what happened on the bus. No transaction is ever held across an
await of the service's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field, replace
from typing import Any, AsyncIterator, Callable, Mapping

from bot.domain import LoggedMove, Match, MatchLoad, MemberPrefs, MoveWrite, RatingWrite
from bot.games import Event, IllegalMoveError, MoveSyntaxError, Outcome, is_visible
from bot.i18n import N_
from bot.storage import RatingsMoved, Repository, VersionConflict

from . import errors
from .bus import Delivery, EventBus
from .clocks import ClockKeeper
from .events import Board, ForcedMove, MatchClock, MatchEnded, MatchEvent, MovePlayed, Played, SetupProgress
from .locks import KeyedLocks
from .movelog import effective_moves
from .ratelimit import RateLimiter
from .rating_service import ATTEMPTS as RATING_ATTEMPTS
from .rating_service import Ratings
from .server_settings import ServerSettings
from .states import MatchStates
from .timers import TimerDispatcher

log = logging.getLogger(__name__)

ANSWER_ATTEMPTS = 5  # each retry follows another answer that really landed


class AnswerRaced(Exception):
    """Another answer to the same question landed between this one's read and its write: read again."""


@dataclass
class TurnReport:
    """What one accepted action changed. `presented` resolves once the presenters showed it (False: a post
    failed, so the player can be told that her move counts although the board did not appear)."""

    match: Match  # as it is now
    kind: str  # "move", "resign", "draw", "draw_offer", "draw_declined"
    seat: int
    move: str | None = None  # None for private moves: their text never leaves the engine's owner
    events: list[Event] = field(default_factory=list)
    outcome: Outcome | None = None
    presented: Delivery | None = None


@dataclass(frozen=True)
class Action:
    """A change a use case decided, as `conclude` writes and announces it."""

    kind: str  # what the report calls it: "move", "resign", "timeout", "draw", "takeback"
    seat: int  # whose action it is
    logged: str  # the move log's text: the canonical move, or "resign", "draw", "timeout", the take-back mark
    shown: str | None  # the move as posts may show it (None: a secret move, or nothing to show)
    said: str  # what the log line says about it, after the match's ids (never a secret move's text)
    events: list[Event] = field(default_factory=list)
    new_state: Any | None = None  # None: the position stays (an agreed draw, everyone out of time)
    outcome: Outcome | None = None  # how a match whose position stays ends
    private: bool = False  # a secret setup move
    announced_as: str | None = None  # the MovePlayed kind when it differs from `kind` (everyone out of time: a draw)
    rewinds: bool = False  # a take-back: back to a position once left, so nothing follows it and nothing is news
    by_user: int | None = None  # the member who acted: her time away ends
    setup: bool = False  # made during a secret setup: while others still set up, only the progress is told


class MatchActions:
    """The parts every use case works with (store, clock, bus, clocks, ratings, timers, the engines' states of the
    matches), the checks the use cases share, each match's lock, and `conclude`."""

    def __init__(self, repo: Repository, states: MatchStates, *, clock: Callable[[], float], bus: EventBus[MatchEvent],
                 limiter: RateLimiter, timers: TimerDispatcher, ratings: Ratings, clocks: ClockKeeper,
                 server_settings: ServerSettings):
        self.repo, self.states, self.clock, self.bus, self.limiter = repo, states, clock, bus, limiter
        self.timers, self.ratings, self.server_settings, self.clocks = timers, ratings, server_settings, clocks
        self.game_of, self.state_of, self.view = states.game_of, states.state_of, states.view
        self.in_secret_setup, self.to_act, self.in_play = states.in_secret_setup, states.to_act, states.in_play
        self.users_to_act, self.pending_request = states.users_to_act, states.pending_request
        self._locks = KeyedLocks()
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False

    # --- one action at a time per match ----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def operation(self, lock_key: int | None = None) -> AsyncIterator[None]:
        """An action in flight (refused once the service is closing), under the lock of `lock_key` (a match id;
        a challenge's negated id), so actions on one match never interleave."""
        if self.closing:
            raise errors.ShuttingDown()
        self._inflight += 1
        self._idle.clear()
        try:
            if lock_key is None:
                yield
            else:
                async with self._locks.hold(lock_key):
                    yield
        finally:
            self._inflight -= 1
            if self._inflight == 0:
                self._idle.set()

    async def idle(self) -> None:
        """Wait until no action is in flight."""
        await self._idle.wait()

    # --- what an event carries for its presenter -------------------------------------------------------------

    async def language(self, guild_id: int | None) -> str:
        """The language of a server's public posts."""
        return await self.server_settings.language(guild_id)

    async def board(self, match: Match, clock: MatchClock | None = None) -> Board:
        """What a board post of `match` shows, computed once; `clock`: the running match's clock when the action
        knows it (else it is read)."""
        if match.active and clock is None:
            clock = await self.clocks.of(match)
        return Board(self.view(match, None), tuple(self.to_act(match)), self.in_play(match),
                     self.in_secret_setup(match), self.pending_request(match), clock if match.active else None)

    # --- reading a match and the checks every use case makes -------------------------------------------------

    async def get_match(self, match_id: int) -> Match:
        match = await self.repo.get_match(match_id)
        if match is None:
            raise errors.UnknownMatch(match_id)
        return match

    async def load(self, match_id: int) -> MatchLoad:
        load = await self.repo.load_match(match_id)
        if load is None:
            raise errors.UnknownMatch(match_id)
        return load

    async def match_for(self, match_id: int, user_id: int, guild_id: int | None) -> Match:
        """The match as `user_id` may look it up from `guild_id` (None: a DM). Players find their matches from
        anywhere (also after leaving the server); others only from the match's own server. Anything else answers
        exactly as a number that does not exist, so no one learns of another server's matches."""
        match = await self.repo.get_match(match_id)
        if match is None or (match.seat_of(user_id) is None and match.guild_id != guild_id):
            raise errors.UnknownMatch(match_id)
        return match

    async def moves_of(self, match: Match) -> list[LoggedMove]:
        """The match's effective moves (taken-back ones left out), oldest first."""
        return effective_moves(await self.repo.moves(match.id))

    @staticmethod
    def board_link(match: Match) -> str | None:
        if match.thread_id is None:
            return None
        tail = f"/{match.board_message_id}" if match.board_message_id else ""
        return f"https://discord.com/channels/{match.guild_id}/{match.thread_id}{tail}"

    async def playable(self, match_id: int, user_id: int, expected_version: int | None) -> Match:
        return self.check_playable(await self.get_match(match_id), user_id, expected_version)

    def check_playable(self, match: Match, user_id: int, expected_version: int | None) -> Match:
        if match.seat_of(user_id) is None:
            raise errors.NotInMatch()
        if not match.active:
            raise errors.MatchOver()
        if expected_version is not None and expected_version != match.version:
            raise errors.StaleBoard(self.board_link(match))
        return match

    def seat_to_act(self, match: Match, user_id: int) -> int:
        seat = match.seat_of(user_id)
        acting = self.to_act(match)
        if seat not in acting:
            raise errors.NotYourTurn(", ".join(match.seats[s].user_name for s in acting))
        return seat

    def canonical(self, match: Match, seat: int, move: str) -> str:
        """The move's canonical text; a move that is not legal now is the user's mistake, told as the engine says."""
        try:
            return self.game_of(match).canonical(self.state_of(match), seat, move)
        except (MoveSyntaxError, IllegalMoveError) as exc:
            raise errors.BadMove(errors.engine_message(exc)) from None

    # --- answers to a question (a draw offer, a take-back request) -------------------------------------------

    async def answering(self, match_id: int, answer: Callable[[], Any]) -> Any:
        """Run `answer` (read, decide, write guarded by what it read) again when another answer to the same
        question landed between its read and its write (another process: this one holds the match's lock), so
        both count; a move meanwhile makes the question stale."""
        for _ in range(ANSWER_ATTEMPTS):
            try:
                return await answer()
            except AnswerRaced:
                continue
        raise errors.UserError(N_("Several answers arrived at once; please try again."))

    async def answer_guarded(self, match: Match, write: Callable[[], Any]) -> None:
        """`write` (guarded by the match's version and the answers read): AnswerRaced when only the answers
        changed meanwhile, StaleBoard when the match moved on."""
        try:
            await write()
        except VersionConflict:
            now = await self.repo.get_match(match.id)
            if now is not None and now.version == match.version and now.active:
                raise AnswerRaced() from None
            raise errors.StaleBoard(self.board_link(match)) from None

    # --- the end of every action -----------------------------------------------------------------------------

    async def conclude(self, match: Match, action: Action, *, load: MatchLoad | None = None) -> TurnReport:
        """Write `action` as one unit, log it, play the moves that follow it without a choice, end the mover's
        time away, and publish what happened (the end of the match too, when it ended). `load`: what the action
        read (else the clocks and choices are read as needed)."""
        match, clock, prefs = await self.commit(match, seat=action.seat, move=action.logged, private=action.private,
                                                events=action.events, new_state=action.new_state,
                                                outcome=action.outcome, load=load)
        log.info("match=%s guild=%s %s version=%s%s", match.id, match.guild_id, action.said, match.version,
                 f" finished={match.result}" if match.result else "")
        forced: list[ForcedMove] = []
        if action.new_state is not None and not action.rewinds:
            match, forced = await self.play_forced_moves(match, action.new_state)
        if action.by_user is not None:
            await self.clocks.player_acted(action.by_user, load.prefs if load else None)
        public = [] if action.rewinds else [e for e in action.events if is_visible(e, None)]
        lang = await self.language(match.guild_id)
        board = await self.board(match, None if forced else clock)  # forced moves moved the clock on
        if action.setup and self.in_secret_setup(match):
            presented = self.bus.publish(SetupProgress(match, action.seat, board=board, lang=lang))
        else:
            rated = await self.ratings.changes_of(match)
            if prefs is None:
                prefs = await self.clocks.prefs(match.member_ids)
            presented = self.bus.publish(MovePlayed(match, Played(action.announced_as or action.kind), action.seat,
                                                    action.shown, public, forced, rated, board=board,
                                                    prefs=dict(prefs), lang=lang))
        if not match.active and (outcome := Outcome.from_json(match.result)) is not None:
            self.bus.publish(MatchEnded(match, outcome, view=board.view, lang=lang))
        forced_events = [e for f in forced for e in f.events]
        return TurnReport(match, action.kind, action.seat, action.shown, public + forced_events,
                          Outcome.from_json(match.result), presented)

    async def play_forced_moves(self, match: Match, state: Any) -> tuple[Match, list[ForcedMove]]:
        """Play the moves nobody has a choice about (a pass with nothing to place), each logged as that seat's
        move, so the thread can say what happened. Ends because games end."""
        game = self.game_of(match)
        forced: list[ForcedMove] = []
        while game.outcome(state) is None:
            acting = game.to_act(state)
            move = game.forced_move(state, acting[0]) if len(acting) == 1 else None
            if move is None:
                break
            state, events = game.apply(state, acting[0], move)
            match, _, _ = await self.commit(match, seat=acting[0], move=move, private=False, events=events,
                                            new_state=state)
            forced.append(ForcedMove(acting[0], move, [e for e in events if is_visible(e, None)]))
            log.info("match=%s guild=%s seat=%s forced move=%s version=%s", match.id, match.guild_id, acting[0],
                     move, match.version)
        return match, forced

    async def commit(
        self,
        match: Match,
        *,
        seat: int,
        move: str,
        private: bool,
        events: list[Event],
        new_state: Any | None,
        outcome: Outcome | None = None,
        load: MatchLoad | None = None,
    ) -> tuple[Match, MatchClock | None, Mapping[int, MemberPrefs] | None]:
        """Write the new state (None: unchanged) and its log entry, if the match is still at `match.version`,
        with the clocks of the seats whose turn began or ended and, when a rated match ends, its ratings: one
        unit of work. `load`: what the action read (the members' choices the clocks need; else read here).
        Returns the match as written and, when `load` was given, its clock and members' choices after it."""
        game = self.game_of(match)
        acting_before = self.to_act(match)
        if new_state is not None:
            outcome = game.outcome(new_state)
            state_json = game.dump(new_state)
            standings = game.standings(new_state) if outcome else None
        else:
            state_json = match.state
            standings = None
            if outcome:  # a draw by agreement: everyone still in shares the first place, those out follow
                still_in = game.in_play(self.state_of(match))
                out = [s.seat for s in match.seats if s.seat not in still_in]
                standings = [still_in] + ([out] if out else [])
        now = self.clock()
        result = outcome.to_json() if outcome else None
        # The row as the unit writes it, without reading it back.
        after = replace(match, state=state_json, version=match.version + 1, status="finished" if result else "active",
                        result=result, draw_agreed=None, updated_at=now, standings=standings if result else None,
                        finished_at=now if result else None)
        acting_after = game.to_act(new_state) if new_state is not None and not result else []
        if load is not None:
            prefs = load.prefs
        elif after.active and after.clock_seconds is not None:
            prefs = await self.clocks.prefs(after.member_ids)
        else:
            prefs = {}
        timers = self.clocks.plan(after, acting_before, acting_after, seat, prefs)
        for _ in range(RATING_ATTEMPTS):
            rating: RatingWrite | None = await self.ratings.plan(after)
            unit = MoveWrite(match.id, match.version, seat, move, private, events, state_json, result, standings,
                             now, timers, rating)
            try:
                await self.repo.commit_move(unit)
                break
            except VersionConflict:
                # Another process or click got there first; our change was not written.
                raise errors.StaleBoard(self.board_link(match)) from None
            except RatingsMoved:
                # Another finish moved a shared player's rating first: rate again from it, finishing after it
                # (a rebuild rates in order of finish; on PostgreSQL the other may have been decided later).
                now = self.clock()
                after = replace(after, updated_at=now, finished_at=now)
                continue
        else:
            raise errors.UserError(N_("Too many matches are finishing at once; please try that again."))
        if new_state is not None:
            self.states.keep(after, new_state)
        self.clocks.armed(timers)
        if load is None:
            return after, None, None
        return after, self.clocks.after_commit(after, load.deadlines, timers, prefs), prefs
