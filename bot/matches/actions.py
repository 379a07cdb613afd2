"""What every use case of the match service shares, and the one sequence that ends every action.

An action takes its match's lock (`operation`), reads what it needs once (`load`: the match, its deadlines, its
members' choices), checks, decides, and hands what it decided to `conclude`: the end-of-action sequence, written
only here. It commits one unit of work (state, log entry, the seats' clock timers and, when a rated match ends, the
ratings), guarded by the match version, so a double click or two racing clicks change the match once; then plays
the moves nobody has a choice about, and announces what happened: written with the last unit (the outbox) and
presented on the bus, even when the command is cancelled. No transaction is ever held across an await of the
service's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any, AsyncIterator, Awaitable, Callable, Mapping, NamedTuple

from bot import answers_first
from bot.domain import (DamagedMatch, LoggedMove, Match, MatchLoad, MemberPrefs, MoveWrite, OutboxEntry, RatingWrite,
                        SeatTimers)
from bot.games import Event, IllegalMoveError, MoveSyntaxError, Outcome, is_visible
from bot.games.engines import get_game, legal_moves_public
from bot.i18n import N_
from bot.ratings import RatingChange
from bot.storage import RatingsMoved, Repository, VersionConflict

from . import damage, errors
from .bus import Delivery, EventBus
from .clocks import ClockKeeper
from .events import Board, ForcedMove, MatchClock, MatchEnded, MatchEvent, MovePlayed, Played, SetupProgress
from .locks import KeyedLocks
from .movelog import effective_moves
from .outbox import Outbox
from .ratelimit import RateLimiter
from .rating_service import ATTEMPTS as RATING_ATTEMPTS
from .rating_service import Ratings
from .server_settings import ServerSettings
from .states import MatchStates
from .timers import TimerDispatcher

log = logging.getLogger(__name__)

ANSWER_ATTEMPTS = 5  # each retry follows another answer that really landed


class FollowingMove(NamedTuple):
    """A move the match plays right after an action (MatchActions.forced_moves)."""

    seat: int
    move: str
    events: list[Event]
    state: Any  # the engine state after it
    chosen: bool  # her only legal move, played as she asked (played_for); else she had no choice at all


def played_for(game_key: str, state: Any, seat: int, member: MemberPrefs | None) -> str | None:
    """The move played at once for a member who asked for it: her only legal move. Only in a game that declares
    the number of legal moves public (EngineDeclaration.legal_moves_public): elsewhere her single legal move, played
    at once, would tell the others something of her secrets (tests/test_autoplay.py plays twin worlds)."""
    if member is None or not member.autoplay or not legal_moves_public(game_key):
        return None
    moves = get_game(game_key).legal_moves(state, seat)
    return moves[0] if len(moves) == 1 else None


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


@dataclass
class Announcing:
    """What the last unit of an action announces, under `token`: `build` makes the events from what that unit
    writes (see MatchActions._announcement); `events` holds what it made."""

    build: Callable[..., Awaitable[list[MatchEvent]]]
    token: str
    events: list[MatchEvent] = field(default_factory=list)


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
                 server_settings: ServerSettings, outbox: Outbox):
        self.repo, self.states, self.clock, self.bus, self.limiter = repo, states, clock, bus, limiter
        self.outbox = outbox
        self.timers, self.ratings, self.server_settings, self.clocks = timers, ratings, server_settings, clocks
        self.game_of, self.state_of, self.view = states.game_of, states.state_of, states.view
        self.in_secret_setup, self.to_act, self.in_play = states.in_secret_setup, states.to_act, states.in_play
        self.users_to_act, self.pending_request = states.users_to_act, states.pending_request
        self.on_commit: Callable[[float], None] | None = None  # told each unit's seconds (bot/metrics.py)
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
        await answers_first.turn()  # an interaction waiting for its answer goes first
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
        return _board(self.states, match, clock)

    def first_board(self, match: Match, state: Any, clock: MatchClock | None) -> Board:
        """The board of a match a unit not yet written starts (`state`: its engine state), kept out of the shared
        cache until it is written."""
        states = MatchStates()
        states.keep(match, state)
        return _board(states, match, clock)

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
        exactly as a number that does not exist, so no one learns of another server's matches (damaged ones
        included)."""
        try:
            match = await self.repo.get_match(match_id)
        except DamagedMatch as damaged:
            if user_id not in damaged.players and damaged.guild_id != guild_id:
                raise errors.UnknownMatch(match_id) from None
            raise
        if match is None or (match.seat_of(user_id) is None and match.guild_id != guild_id):
            raise errors.UnknownMatch(match_id)
        return match

    async def set_aside(self, damaged: DamagedMatch) -> None:
        """A damaged match met by an action: set aside, the operator told once (damage.py)."""
        await damage.set_aside(self.repo, damaged, self.clock())

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

    async def answer_announced(self, match: Match, event: MatchEvent,
                               write: Callable[[OutboxEntry], Awaitable[None]]) -> Delivery | None:
        """An answer's `write` (see answer_guarded) with `event` recorded in its unit, then presented from the
        outbox as `conclude` presents a move: a command cancelled once it may be written leaves it to the outbox."""
        token = self.outbox.token()
        try:
            await self.answer_guarded(match, lambda: write(self.outbox.entry(token, [event], self.clock())))
        except asyncio.CancelledError:
            self.outbox.adopt(token)
            raise
        return self.outbox.deliver(token, [event])

    # --- the end of every action -----------------------------------------------------------------------------

    async def conclude(self, match: Match, action: Action, *, load: MatchLoad | None = None) -> TurnReport:
        """Write `action` as one unit, log it, play the moves that follow it without a choice, end the mover's
        time away, and announce what happened (the end of the match too, when it ended). `load`: what the action
        read (else the clocks and choices are read as needed).

        The announcement is written with the last unit (the outbox, bot/matches/outbox.py) and presented from
        there: a command cancelled once its unit may be written leaves it to the outbox, which presents it."""
        forced = self.forced_moves(match, action, await self._autoplay_prefs(match, load))
        public = [] if action.rewinds else [e for e in action.events if is_visible(e, None)]
        shown = [ForcedMove(f.seat, f.move, [e for e in f.events if is_visible(e, None)], chosen=f.chosen)
                 for f in forced]
        lang = await self.language(match.guild_id)
        announcing = Announcing(functools.partial(self._announcement, action, public, shown, lang, load),
                                self.outbox.token())
        try:
            match = await self.commit(match, seat=action.seat, move=action.logged, private=action.private,
                                      events=action.events, new_state=action.new_state, outcome=action.outcome,
                                      load=load, announcing=None if forced else announcing, rewinds=action.rewinds)
        except asyncio.CancelledError:  # the unit may have been written: the outbox presents what it recorded
            after = asyncio.ensure_future(self._forced_after_cancel(match, action, forced, announcing)) if forced \
                else None
            self.outbox.adopt(announcing.token, after=after)
            raise
        log.info("match=%s guild=%s %s version=%s%s", match.id, match.guild_id, action.said, match.version,
                 f" finished={match.result}" if match.result else "")
        if forced:  # the action counts: the moves that follow it are played even if its command is cancelled
            chain = asyncio.ensure_future(self._play_forced(match, forced, announcing))
            try:
                match = await asyncio.shield(chain)
            except asyncio.CancelledError:
                self.outbox.adopt(announcing.token, after=chain)
                raise
        presented = self.outbox.deliver(announcing.token, announcing.events)
        if action.by_user is not None:
            await self.clocks.player_acted(action.by_user, load.prefs if load else None)
        return TurnReport(match, action.kind, action.seat, action.shown, public + [e for f in shown for e in f.events],
                          Outcome.from_json(match.result), presented)

    async def _announcement(self, action: Action, public: list[Event], forced: list[ForcedMove], lang: str,
                            load: MatchLoad | None, match: Match, state: Any, timers: SeatTimers,
                            ratings: list[RatingChange]) -> list[MatchEvent]:
        """What `action` announces (its public events, the forced moves after it, in `lang`), once `match` is
        as its last unit writes it: `state` its engine state, `timers` the clock timers and `ratings` the
        ratings that unit writes. `load`: what the action read (else the clock and choices are read here)."""
        states = MatchStates()  # the unit is not written yet: its state stays out of the shared cache until it is
        states.keep(match, state)
        prefs = load.prefs if load is not None else await self.clocks.prefs(match.member_ids)
        clock = None
        if match.active:
            deadlines = load.deadlines if load is not None and not forced else (await self.clocks.of(match)).deadlines
            clock = self.clocks.after_commit(match, deadlines, timers, prefs, await self.clocks.server_zone(match))
        board = _board(states, match, clock)
        if action.setup and states.in_secret_setup(match):
            return [SetupProgress(match, action.seat, board=board, lang=lang)]
        events: list[MatchEvent] = [MovePlayed(match, Played(action.announced_as or action.kind), action.seat,
                                               action.shown, public, forced, ratings, board=board, prefs=dict(prefs),
                                               lang=lang)]
        if not match.active and (outcome := Outcome.from_json(match.result)) is not None:
            events.append(MatchEnded(match, outcome, view=board.view, lang=lang))
        return events

    def forced_moves(self, match: Match, action: Action,
                     prefs: Mapping[int, MemberPrefs] | None = None) -> list[FollowingMove]:
        """The moves nobody has a choice about (a pass with nothing to place) that follow `action`, and the single
        legal moves of members who asked for those to be played at once (`prefs`, see `played_for`). Ends because
        games end."""
        if action.new_state is None or action.rewinds:
            return []
        game, state = self.game_of(match), action.new_state
        forced: list[FollowingMove] = []
        while game.outcome(state) is None:
            acting = game.to_act(state)
            if len(acting) != 1:
                break
            seat = acting[0]
            move = game.forced_move(state, seat)
            chosen = move is None
            if chosen:
                user_id = match.seats[seat].user_id
                move = played_for(match.game, state, seat, (prefs or {}).get(user_id) if user_id is not None else None)
            if move is None:
                break
            state, events = game.apply(state, seat, move)
            forced.append(FollowingMove(seat, move, events, state, chosen))
        return forced

    async def _autoplay_prefs(self, match: Match, load: MatchLoad | None) -> Mapping[int, MemberPrefs]:
        """The members' choices `forced_moves` needs: the action's, else read, where anything may be played."""
        if load is not None:
            return load.prefs
        return await self.clocks.prefs(match.member_ids) if legal_moves_public(match.game) else {}

    async def _forced_after_cancel(self, before: Match, action: Action,
                                   forced: list[FollowingMove], announcing: Announcing) -> None:
        """The command was cancelled as the unit of `action` was written, or before: if it was written (the log's
        newest move is that action, right after `before`), play the forced moves after it all the same."""
        async with self._locks.hold(before.id):
            now = await self.get_match(before.id)
            moves = await self.repo.moves(before.id) if now.version == before.version + 1 else []
            if moves and (moves[-1].seat, moves[-1].move) == (action.seat, action.logged):
                await self._play_forced(now, forced, announcing)

    async def _play_forced(self, match: Match, forced: list[FollowingMove],
                           announcing: Announcing) -> Match:
        """Write the forced moves, each logged as that seat's move (so the thread can say what happened); the
        last one carries the action's announcement."""
        for i, (seat, move, events, state, _) in enumerate(forced):
            match = await self.commit(match, seat=seat, move=move, private=False, events=events, new_state=state,
                                      announcing=announcing if i == len(forced) - 1 else None)
            log.info("match=%s guild=%s seat=%s forced move=%s version=%s", match.id, match.guild_id, seat, move,
                     match.version)
        return match

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
        announcing: Announcing | None = None,
        rewinds: bool = False,
    ) -> Match:
        """Write the new state (None: unchanged) and its log entry, if the match is still at `match.version`,
        with the clocks of the seats whose turn began or ended, when a rated match ends its ratings and, with
        `announcing`, what it announces (the outbox): one unit of work. `load`: what the action read (the
        members' choices and running deadlines the clocks need; else read here). `rewinds`: a take-back, which
        gives the Fischer banks back as they were. Returns the match as written."""
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
        deadlines = load.deadlines if load is not None else None
        if deadlines is None and after.active and after.clock_rules.fischer:
            deadlines = await self.clocks.running(match)
        server_zone = await self.clocks.server_zone(after)
        timers = self.clocks.plan(after, acting_before, acting_after, seat, prefs, deadlines, rewinds=rewinds,
                                  server_zone=server_zone)
        if timers.banks is not None:
            after = replace(after, clock_banks=timers.banks, clock_prior=timers.prior)

        for _ in range(RATING_ATTEMPTS):
            rating: RatingWrite | None = await self.ratings.plan(after)
            if rating is not None and rating.follows is not None and rating.follows >= now:
                # Its ratings follow a finish written, meanwhile, with a later time (its process read the clock
                # after this one did): finish after it, as a rebuild rates in order of finish.
                now = max(self.clock(), rating.follows + 0.001)
                after = replace(after, updated_at=now, finished_at=now)
                continue
            outbox = None
            if announcing is not None:
                announcing.events = await announcing.build(
                    after, new_state if new_state is not None else self.state_of(match), timers,
                    sorted(rating.changes, key=lambda c: c.seat) if rating else [])
                outbox = self.outbox.entry(announcing.token, announcing.events, now)
            unit = MoveWrite(match.id, match.version, seat, move, private, events, state_json, result, standings,
                             now, timers, rating, outbox, clock_used(match, seat, load, now))
            started = time.perf_counter()
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
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - started)
        if new_state is not None:
            self.states.keep(after, new_state)
        self.clocks.armed(timers)
        return after


def clock_used(match: Match, seat: int, load: MatchLoad | None, now: float) -> float | None:
    """The seconds `seat`'s action at `now` charged to her clock: what her turn's limit (her bank, on a Fischer
    clock) had run down by (time away and quiet weekends pushed her deadline on, so they are not charged). None when no clock of hers ran: no clock, a move nobody
    chose (no load), or no deadline of hers."""
    deadline = load.deadlines.get(seat) if load is not None else None
    if match.clock_seconds is None or deadline is None:
        return None
    limit = float(match.clock_seconds)  # the turn's time; a Fischer clock's turn ran on her bank as it started
    if match.clock_rules.fischer and match.clock_banks is not None:
        limit = float(match.clock_banks.get(seat, match.clock_seconds))
    return min(limit, max(0.0, limit - (deadline - now)))


def _board(states: MatchStates, match: Match, clock: MatchClock | None) -> Board:
    return Board(states.view(match, None), tuple(states.to_act(match)), states.in_play(match),
                 states.in_secret_setup(match), states.pending_request(match), clock if match.active else None)
