"""The match service: the whole life of a match, challenge → setup → turns → end. No Discord here.

Every rule check lives here; cogs and views turn a click into one call and show its answer. What happened is
published as typed events (events.py) on the bus, in order per match, for the presenters to show. An action
reads what it needs once (`_load`: the match, its deadlines, its members' choices), decides, and every state
change goes through `_commit`: one unit of work that writes state, log entry, the seats' clock timers and, when a
rated match ends, the ratings, guarded by the match version, so a double click or two racing clicks change the
match once. No transaction is ever held across an await of the service's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from bot.games import Choices, Event, Game, IllegalMoveError, MoveSyntaxError, Outcome, is_visible
from bot.games.registry import get_game
from bot.i18n import N_
from bot.storage import (
    Challenge,
    ClockStore,
    Match,
    MatchLoad,
    MoveWrite,
    RatingsMoved,
    RatingWrite,
    Repository,
    Seat,
    Timer,
    VersionConflict,
)
from bot.storage.clocks import DEADLINE

from . import errors
from .bus import Delivery, EventBus
from .catalogue import COMPUTER_LEVELS, checked_options, confirmation_for, default_options, is_offered
from .clocks import ClockKeeper
from .events import (
    BoardRequested,
    ChallengeEnded,
    DrawDeclined,
    DrawOffered,
    ForcedMove,
    MatchEnded,
    MatchStarted,
    MovePlayed,
    SetupProgress,
)
from .locks import KeyedLocks
from .movelog import effective_moves
from .ratelimit import RateLimiter
from .ratings import ATTEMPTS as RATING_ATTEMPTS
from .ratings import Ratings
from .scope import REPAIR_AFTER, ProcessScope
from .server_settings import ServerSettings
from .timers import TimerDispatcher

log = logging.getLogger(__name__)

DEFAULT_CHALLENGE_TTL = 24 * 3600.0
MAX_MOVE_LENGTH = 300  # far above any real move; longer input is refused before the engine sees it
MAX_OPEN_CHALLENGES = 10  # per challenger
STATE_CACHE_SIZE = 4096
ANSWER_ATTEMPTS = 5  # each retry follows another answer that really landed
CHALLENGE_EXPIRY = "challenge_expiry"
BOARD_REPAIR = "board_repair"  # a board a stopped process left unposted, repaired once nobody can be posting it


class AnswerRaced(Exception):
    """Another answer to the same question landed between this one's read and its write: read again."""


def _typed(move: str) -> str:
    """What the user typed, trimmed; refused before any engine sees it when it cannot be a move at all."""
    move = move.strip()
    if len(move) > MAX_MOVE_LENGTH:
        raise errors.BadMove(N_("That is far too long to be a move ({length} characters)."), length=len(move))
    return move


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
class PickerStep:
    """One step of a player's move picker: the engine's choices and, for a complete move, a safe preview."""

    match: Match
    seat: int
    title: str
    choices: Choices
    preview: dict[str, Any] | None
    simultaneous: bool  # a secret setup: other players' moves do not make this picker stale


@dataclass(frozen=True)
class PrivateView:
    match: Match
    seat: int
    view: dict[str, Any]
    setup_open: bool  # she still has a secret setup to make
    consent_open: bool  # a load request waits for her answer


@dataclass(frozen=True)
class Request:
    """Another player's request that only `asked` may answer (a Mycenae load of her pieces)."""

    requester: int
    asked: int
    move: str


@dataclass(frozen=True)
class MoveConfirmation:
    """A typed move that asks to be confirmed before it is played (a Mycenae burn)."""

    match: Match
    move: str  # canonical
    question: str


class MatchService:
    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        challenge_ttl: float = DEFAULT_CHALLENGE_TTL,
        bus: EventBus | None = None,
        limiter: RateLimiter | None = None,
        scope: ProcessScope = ProcessScope(),
    ):
        self.repo = repo
        self.clock = clock
        self.seed_source = seed_source
        self.challenge_ttl = challenge_ttl
        self.bus = bus or EventBus()
        self.limiter = limiter or RateLimiter(clock)
        self.timers = TimerDispatcher(repo, clock)
        self.ratings = Ratings(repo)
        self.timers.on(CHALLENGE_EXPIRY, self._expire_challenge)
        clock_store = ClockStore(repo)
        self.server_settings = ServerSettings(clock_store)
        self.clocks = ClockKeeper(clock_store, self.timers, self.bus, clock, self.to_act)
        self.timers.on(DEADLINE, self._deadline_passed)
        self.scope = scope
        self.timers.on(BOARD_REPAIR, self._repair_board)
        self._locks = KeyedLocks()
        self._states: OrderedDict[tuple[int, int], Any] = OrderedDict()
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False

    # --- life cycle ------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Fire what fell due while the bot was down, then keep the deadlines; re-announce what a crash cut off."""
        await self.timers.release_stale()
        await self.clocks.recover()
        self.timers.start()
        for match in await self.repo.unannounced_matches():
            if not self.scope.owns(match.guild_id):
                continue  # the process running that server's shard repairs it
            if self.timers.claims.shared and match.updated_at > self.clock() - REPAIR_AFTER:
                # Another process may be posting this board right now: look again once that would be done.
                await self.repo.set_timer(BOARD_REPAIR, match.id, match.updated_at + REPAIR_AFTER)
                self.timers.wake(match.updated_at + REPAIR_AFTER)
                continue
            self._repair(match)

    def _repair(self, match: Match) -> None:
        log.info("match=%s guild=%s version %s was not announced; announcing it now", match.id, match.guild_id,
                 match.version)
        self.bus.publish(MovePlayed(match, "repair", -1, None))

    async def _repair_board(self, timer: Timer) -> None:
        match = await self.repo.get_match(timer.ref_id)
        if match is not None and match.announced_version < match.version and match.thread_id is not None:
            self._repair(match)

    @contextlib.asynccontextmanager
    async def _operation(self, lock_key: int | None = None):
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

    async def drain(self) -> None:
        """Stop taking new actions and wait until every action in flight has been written and shown."""
        self.closing = True
        await self._idle.wait()
        await self.timers.stop()
        await self.bus.idle()

    # --- engines and views -----------------------------------------------------------------------------------

    @staticmethod
    def game_of(match: Match) -> Game:
        return get_game(match.game)

    def state_of(self, match: Match) -> Any:
        """Engine states are immutable, so one loaded state serves every reader of the same match version."""
        key = (match.id, match.version)
        state = self._states.get(key)
        if state is None:
            state = self.game_of(match).load(match.state)
            self._states[key] = state
            while len(self._states) > STATE_CACHE_SIZE:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(key)
        return state

    def view(self, match: Match, viewer: int | None) -> dict[str, Any]:
        return self.game_of(match).view(self.state_of(match), viewer)

    def in_secret_setup(self, match: Match) -> bool:
        return match.active and self.game_of(match).in_secret_setup(self.state_of(match))

    def to_act(self, match: Match) -> list[int]:
        if not match.active:
            return []
        return self.game_of(match).to_act(self.state_of(match))

    def users_to_act(self, match: Match) -> list[int]:
        return [uid for uid in (match.user_of(s) for s in self.to_act(match)) if uid is not None]

    # --- challenges ------------------------------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        challenger_name: str,
        game_key: str,
        invited: Sequence[int | None],
        options: dict[str, Any] | None = None,
        computer_level: str | None = None,
        rated: bool = True,
        challenger_position: int = 0,
        clock: str | None = None,
    ) -> Challenge:
        """`invited` has one entry per other seat: a member id, or None for a seat anyone may take (or, with
        `computer_level`, the computer's seat). Matches with a computer seat are never rated. The challenger sits
        at `challenger_position` (0 unless a rematch rotates the seats); the invited take the others in order.
        `clock` is a label of CLOCK_CHOICES; None: the server's default."""
        if not is_offered(game_key):
            raise errors.UserError(N_("That game can't be played here yet."))
        if computer_level is not None and computer_level not in COMPUTER_LEVELS:
            raise errors.UserError(N_("The computer plays at these levels: {levels}."),
                                   levels=", ".join(COMPUTER_LEVELS))
        game = get_game(game_key)
        players = len(invited) + 1
        if not game.info.min_players <= players <= game.info.max_players:
            raise errors.UserError(N_("{game} is for {low}–{high} players, not {players}."), game=game.info.title,
                                   low=game.info.min_players, high=game.info.max_players, players=players)
        named = [i for i in invited if i is not None]
        if challenger_id in named:
            raise errors.UserError(N_("You can't challenge yourself. Leave `opponent` empty for an open challenge."))
        if len(set(named)) != len(named):
            raise errors.UserError(N_("Each opponent can take only one seat."))
        if not 0 <= challenger_position < players:
            raise ValueError(f"no seat {challenger_position} in a {players}-player challenge")
        options = checked_options(game, {**default_options(game_key, players), **(options or {})}, players)
        clock_seconds = await self.server_settings.clock_for(guild_id, clock)
        ttl = await self.server_settings.get(guild_id, "challenge_expiry") or self.challenge_ttl
        async with self._operation(lock_key=None):
            if await self.repo.count_open_challenges(challenger_id) >= MAX_OPEN_CHALLENGES:
                raise errors.UserError(
                    N_("You already have {count} open challenges. Cancel one, or wait for answers."),
                    count=MAX_OPEN_CHALLENGES
                )
            self.limiter.check("challenge", challenger_id)
            now = self.clock()
            challenge = await self.repo.create_challenge(
                guild_id=guild_id, channel_id=channel_id, game=game_key, options=options,
                challenger_id=challenger_id, challenger_name=challenger_name, invited=list(invited),
                now=now, expires_at=now + ttl, computer_level=computer_level, rated=rated,
                challenger_position=challenger_position, clock_seconds=clock_seconds,
            )
        self.timers.wake(challenge.expires_at)
        log.info("challenge=%s guild=%s user=%s created game=%s seats=%s", challenge.id, guild_id, challenger_id,
                 game_key, players)
        if challenge.is_full:  # every other seat is the computer's: the match starts at once
            await self._start_match(challenge)
            challenge = await self.get_challenge(challenge.id)
        return challenge

    async def get_challenge(self, challenge_id: int) -> Challenge:
        challenge = await self.repo.get_challenge(challenge_id)
        if challenge is None:
            raise errors.UnknownChallenge()
        return challenge

    async def _open_challenge(self, challenge_id: int) -> Challenge:
        challenge = await self.get_challenge(challenge_id)
        if challenge.is_open and challenge.expires_at <= self.clock():
            await self._close(challenge, "expired", None)
            challenge = await self.get_challenge(challenge_id)
        if not challenge.is_open:
            raise errors.ChallengeClosed(challenge.status)
        return challenge

    async def accept_challenge(self, challenge_id: int, user_id: int, user_name: str) -> Challenge:
        """Seat the user: her invited seat if she has one, else the first open seat. When that fills the last
        seat the match starts (MatchStarted). Returns the challenge as it is now."""
        async with self._operation(lock_key=-challenge_id):
            challenge = await self._open_challenge(challenge_id)
            if challenge.holds(user_id):
                raise errors.UserError(N_("You already have a seat in this challenge."))
            position = next((s.position for s in challenge.seats
                             if not s.taken and s.invited_id == user_id), None)
            if position is None:
                position = next((s.position for s in challenge.seats
                                 if not s.taken and s.invited_id is None), None)
            if position is None:
                raise errors.NotYourChallenge(N_("This challenge is for someone else."))
            if not await self.repo.take_challenge_seat(challenge.id, position, user_id, user_name):
                now = await self.get_challenge(challenge.id)
                if not now.is_open:  # closed under us (cancelled, expired): say what really happened
                    raise errors.ChallengeClosed(now.status)
                raise errors.UserError(N_("Someone else just took that seat."))
            log.info("challenge=%s guild=%s user=%s accepted seat=%s", challenge.id, challenge.guild_id, user_id,
                     position)
            challenge = await self.get_challenge(challenge.id)
            if challenge.is_full:
                await self._start_match(challenge)
                challenge = await self.get_challenge(challenge.id)
            return challenge

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        async with self._operation(lock_key=-challenge_id):
            challenge = await self._open_challenge(challenge_id)
            if not challenge.invited(user_id):
                if user_id == challenge.challenger_id:
                    raise errors.NotYourChallenge(N_("That's your own challenge: use **Cancel** to withdraw it."))
                raise errors.NotYourChallenge(N_("Only an invited player can decline this challenge."))
            return await self._close(challenge, "declined", user_id)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        async with self._operation(lock_key=-challenge_id):
            challenge = await self._open_challenge(challenge_id)
            if user_id != challenge.challenger_id:
                raise errors.NotYourChallenge(N_("Only the challenger can cancel this challenge."))
            return await self._close(challenge, "cancelled", user_id)

    async def _close(self, challenge: Challenge, status: str, user_id: int | None) -> Challenge:
        if not await self.repo.close_challenge(challenge.id, status):
            raise errors.ChallengeClosed((await self.get_challenge(challenge.id)).status)
        await self.repo.cancel_timers(challenge.id, [CHALLENGE_EXPIRY])
        log.info("challenge=%s guild=%s user=%s %s", challenge.id, challenge.guild_id, user_id, status)
        closed = await self.get_challenge(challenge.id)
        self.bus.publish(ChallengeEnded(closed, user_id))
        return closed

    async def _expire_challenge(self, timer: Timer) -> None:
        async with self._operation(lock_key=-timer.ref_id):
            challenge = await self.repo.get_challenge(timer.ref_id)
            if challenge is not None and challenge.is_open:
                await self._close(challenge, "expired", None)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self.repo.set_challenge_message(challenge_id, message_id)

    # --- matches ---------------------------------------------------------------------------------------------

    async def _start_match(self, challenge: Challenge) -> Match:
        """Turn a full challenge into a match (seats in challenge order). Starts at most once per challenge."""
        game = get_game(challenge.game)
        seed = self.seed_source()
        state = game.new_state(len(challenge.seats), seed, challenge.options or None)
        acting = game.to_act(state)
        starting = Match(  # the match as it will be written, for its first clocks (its id comes with the write)
            id=0, guild_id=challenge.guild_id, channel_id=challenge.channel_id, thread_id=None, game=challenge.game,
            options=challenge.options, seed=seed, status="active", state={}, version=0, board_message_id=None,
            draw_agreed=None, result=None, created_at=0.0, updated_at=0.0, clock_seconds=challenge.clock_seconds,
            seats=[Seat(i, s.user_id, s.user_name or "", s.kind, s.level) for i, s in enumerate(challenge.seats)],
        )
        prefs = await self.clocks.prefs(starting.member_ids) if challenge.clock_seconds is not None else {}
        timers = self.clocks.plan(starting, [], acting, None, prefs)
        try:
            match = await self.repo.start_match(
                challenge, thread_id=None, seed=seed, state=game.dump(state), seats=challenge.seats,
                now=self.clock(), timers=timers,
            )
        except VersionConflict:
            raise errors.ChallengeClosed((await self.get_challenge(challenge.id)).status) from None
        self.clocks.armed(timers)
        log.info("match=%s guild=%s challenge=%s started game=%s users=%s", match.id, match.guild_id,
                 challenge.id, match.game, [s.user_id for s in match.seats])
        self.bus.publish(MatchStarted(match, await self.get_challenge(challenge.id)))
        return match

    async def start_prepared_challenge(self, challenge_id: int) -> int | None:
        """Start the match of a challenge whose seats were all taken when it was written (a league table's), once:
        the match id, also when an earlier call started it; None if the challenge is gone or closed."""
        async with self._operation(lock_key=-challenge_id):
            challenge = await self.repo.get_challenge(challenge_id)
            if challenge is None:
                return None
            if challenge.is_open and challenge.is_full:
                match = await self._start_match(challenge)
                return match.id
            return challenge.match_id

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        await self.repo.set_thread(match_id, thread_id)

    async def record_board(self, match: Match, message_id: int, *, announced: bool) -> bool:
        """Record a board post of `match.version` as its current board (with `announced`: that version is shown).
        False when a newer version's board is out already: this post is then an old one and must not act."""
        return await self.repo.record_board(match.id, match.version, message_id, announced=announced)

    async def mark_announced(self, match_id: int, version: int) -> None:
        await self.repo.mark_announced(match_id, version)

    async def get_match(self, match_id: int) -> Match:
        match = await self.repo.get_match(match_id)
        if match is None:
            raise errors.UnknownMatch(match_id)
        return match

    async def _load(self, match_id: int) -> MatchLoad:
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

    async def repost_board(self, match_id: int, user_id: int, guild_id: int | None) -> TurnReport:
        """Post a match's board again. Rate-limited per member; a player's request pings whoever must act, anyone
        else's pings nobody."""
        match = await self.match_for(match_id, user_id, guild_id)
        if match.thread_id is None:
            raise errors.UserError(N_("That match's thread is gone, so I can't post its board."))
        self.limiter.check("board", user_id)
        player = match.seat_of(user_id) is not None
        presented = self.bus.publish(BoardRequested(match, ping=player))
        return TurnReport(match, "board", match.seat_of(user_id) or -1, presented=presented)

    async def matches_of(self, user_id: int) -> list[Match]:
        """The user's active matches, those waiting for her first."""
        matches = await self.repo.matches_of_user(user_id)
        return sorted(matches, key=lambda m: (m.seat_of(user_id) not in self.to_act(m), -m.updated_at))

    # --- what a player may do now (every check the buttons need) -------------------------------------------

    async def playable_match(
        self, match_id: int, user_id: int, *, version: int | None = None, board_message_id: int | None = None,
        need_turn: bool = False,
    ) -> Match:
        """The match if `user_id` may act on it from a board post (`board_message_id`) or a versioned button;
        raises the error to show otherwise. Only the newest board post acts (during a secret setup the position
        changes without a new post, so the post, not the version, makes a board current)."""
        match = await self._playable(match_id, user_id, None)
        if board_message_id is not None and match.board_message_id is not None:
            stale = board_message_id != match.board_message_id
        else:
            stale = version is not None and version != match.version
        if stale:
            raise errors.StaleBoard(self.board_link(match))
        if need_turn:
            self._seat_to_act(match, user_id)
        return match

    @staticmethod
    def board_link(match: Match) -> str | None:
        if match.thread_id is None:
            return None
        tail = f"/{match.board_message_id}" if match.board_message_id else ""
        return f"https://discord.com/channels/{match.guild_id}/{match.thread_id}{tail}"

    def _seat_to_act(self, match: Match, user_id: int) -> int:
        seat = match.seat_of(user_id)
        acting = self.to_act(match)
        if seat not in acting:
            raise errors.NotYourTurn(", ".join(match.seats[s].user_name for s in acting))
        return seat

    async def picker_step(
        self, match_id: int, user_id: int, path: Sequence[str], *, version: int | None = None,
        simultaneous: bool = False,
    ) -> PickerStep:
        """The next step of the user's move picker after `path` (its version guards against a moved-on match,
        except during a secret setup, where other players' moves change nothing of hers)."""
        match = await self._playable(match_id, user_id, None if simultaneous else version)
        seat = self._seat_to_act(match, user_id)
        game, state = self.game_of(match), self.state_of(match)
        choices = game.choices(state, seat, list(path))
        preview = game.preview(state, seat, choices.move) if choices.move else None
        return PickerStep(match, seat, game.info.title, choices, preview,
                          simultaneous or self.in_secret_setup(match))

    async def matching_moves(self, match_id: int, user_id: int, typed: str, limit: int = 25) -> list[str]:
        """Autocomplete: the user's legal moves that match what she typed; [] when she may not move."""
        match = await self.repo.get_match(match_id)
        if match is None or not match.active:
            return []
        seat = match.seat_of(user_id)
        if seat is None or seat not in self.to_act(match):
            return []
        return self.game_of(match).matching_moves(self.state_of(match), seat, typed[:MAX_MOVE_LENGTH], limit)

    async def private_view(self, match_id: int, user_id: int) -> PrivateView:
        match = await self.get_match(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise errors.NotInMatch()
        setup_open = self.in_secret_setup(match) and seat in self.to_act(match)
        request = self.pending_request(match)
        return PrivateView(match, seat, self.view(match, seat), setup_open,
                           request is not None and request.asked == seat)

    def pending_request(self, match: Match) -> Request | None:
        """The request waiting for an answer, as every player may see it (loading is public)."""
        pending = self.view(match, None).get("pending") if match.active else None
        if not pending or pending.get("asked") not in self.to_act(match):
            return None
        return Request(pending["requester"], pending["asked"], pending["move"])

    async def secret_setup_for(self, match_id: int, user_id: int) -> Match:
        """The match if the user still has a secret setup to make (the DM's "Set up in private" button)."""
        match = await self._playable(match_id, user_id, None)
        if not self.in_secret_setup(match) or match.seat_of(user_id) not in self.to_act(match):
            raise errors.UserError(N_("Your setup is done — nothing more to set up here."))
        return match

    # --- turns -----------------------------------------------------------------------------------------------

    async def submit_move(
        self, match_id: int, user_id: int, move: str, *, expected_version: int | None = None
    ) -> TurnReport:
        """Apply a move for the user. `expected_version` (from a button or picker) makes a stale one fail."""
        move = _typed(move)
        async with self._operation(lock_key=match_id):
            load = await self._load(match_id)
            match = self._check_playable(load.match, user_id, expected_version)
            return await self._play(match, self._seat_to_act(match, user_id), move, user_id=user_id, load=load)

    async def move_command(self, match_id: int, user_id: int, guild_id: int | None,
                           move: str) -> TurnReport | MoveConfirmation:
        """/move: the match as the user may look it up from `guild_id` (see match_for), then the move played at
        once, or the question it must be confirmed with (a burn). One load, one unit of work."""
        move = _typed(move)
        async with self._operation(lock_key=match_id):
            load = await self._load(match_id)
            match = load.match
            if match.seat_of(user_id) is None and match.guild_id != guild_id:
                raise errors.UnknownMatch(match_id)
            self._check_playable(match, user_id, None)
            seat = self._seat_to_act(match, user_id)
            canonical = self._canonical(match, seat, move)
            question = confirmation_for(match.game, canonical)
            if question:
                return MoveConfirmation(match, canonical, question)
            return await self._play(match, seat, canonical, user_id=user_id, load=load)

    def _canonical(self, match: Match, seat: int, move: str) -> str:
        """The move's canonical text; a move that is not legal now is the user's mistake, told as the engine says."""
        try:
            return self.game_of(match).canonical(self.state_of(match), seat, move)
        except (MoveSyntaxError, IllegalMoveError) as exc:
            raise errors.BadMove(str(exc)) from None

    async def submit_seat_move(self, match_id: int, seat: int, move: str, *, expected_version: int) -> TurnReport:
        """A move of a seat that is not a member's (the computer opponent), under the same versioned write."""
        async with self._operation(lock_key=match_id):
            match = await self.get_match(match_id)
            if not match.active:
                raise errors.MatchOver()
            if match.version != expected_version:
                raise errors.StaleBoard()
            if match.seats[seat].is_member or seat not in self.to_act(match):
                raise errors.NotYourTurn()
            return await self._play(match, seat, move)

    async def _play(self, match: Match, seat: int, move: str, *, user_id: int | None = None,
                    load: MatchLoad | None = None) -> TurnReport:
        """Play `seat`'s move: a member's (`user_id`) or the computer's. `load`: what the action read (else the
        clocks and choices are read as needed)."""
        await self.clocks.check_in_time(match, seat, load.deadlines if load else None)
        game = self.game_of(match)
        state = self.state_of(match)
        secret_setup = game.in_secret_setup(state)
        canonical = self._canonical(match, seat, move)
        new_state, events = game.apply(state, seat, canonical)
        private = game.is_private_move(canonical)
        match = await self._commit(match, seat=seat, move=canonical, private=private, events=events,
                                   new_state=new_state, load=load)
        who = f"user={user_id}" if user_id is not None else f"computer={match.seats[seat].level}"
        log.info("match=%s guild=%s %s seat=%s move=%s version=%s%s", match.id, match.guild_id, who,
                 seat, "<secret>" if private else canonical, match.version,
                 f" finished={match.result}" if match.result else "")
        match, forced = await self._play_forced_moves(match, new_state)
        if user_id is not None:
            await self.clocks.player_acted(user_id, load.prefs if load else None)  # a move ends her time away
        public = [e for e in events if is_visible(e, None)]
        shown = None if private else canonical
        if secret_setup and self.in_secret_setup(match):
            presented = self.bus.publish(SetupProgress(match, seat))
        else:
            rated = await self.ratings.changes_of(match)
            presented = self.bus.publish(MovePlayed(match, "move", seat, shown, public, forced, rated))
        self._publish_end(match)
        return TurnReport(match, "move", seat, shown, public + [e for f in forced for e in f.events],
                          Outcome.from_json(match.result), presented)

    async def _play_forced_moves(self, match: Match, state: Any) -> tuple[Match, list[ForcedMove]]:
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
            match = await self._commit(match, seat=acting[0], move=move, private=False, events=events,
                                       new_state=state)
            forced.append(ForcedMove(acting[0], move, [e for e in events if is_visible(e, None)]))
            log.info("match=%s guild=%s seat=%s forced move=%s version=%s", match.id, match.guild_id, acting[0],
                     move, match.version)
        return match, forced

    async def resign(self, match_id: int, user_id: int) -> TurnReport:
        """Resigning does not depend on the position, so it needs no version: it works from any board. With two
        players the other wins; with more, she is out as her game's rules say and the match goes on."""
        async with self._operation(lock_key=match_id):
            match = await self._playable(match_id, user_id, None)
            seat = match.seat_of(user_id)
            return await self._eliminate(match, seat, "resign", f"{match.seats[seat].user_name} resigned")

    async def time_out(self, match_id: int, seat: int, *, due_at: float | None = None) -> TurnReport | None:
        """The seat's time ran out: with two players the other wins on time; with more, she is out as if she had
        resigned and the match goes on. With `due_at` (a fired deadline) only if that deadline still stands, so a
        move made in time, or a deadline settled before a restart, is never timed out. None when nothing happened."""
        async with self._operation(lock_key=match_id):
            match = await self.repo.get_match(match_id)
            if match is None or not match.active or seat not in self.to_act(match):
                return None
            if due_at is not None and not await self.clocks.is_current(match, seat, due_at):
                return None
            if await self.clocks.all_late(match, self.game_of(match).in_play(self.state_of(match))):
                # Nobody still in moved in time (a simultaneous setup nobody made): no one deserves a win on time.
                outcome = Outcome((), "every player ran out of time")
                match = await self._commit(match, seat=seat, move="timeout", private=False, events=[],
                                           new_state=None, outcome=outcome)
                log.info("match=%s guild=%s every player ran out of time version=%s", match.id, match.guild_id,
                         match.version)
                rated = await self.ratings.changes_of(match)
                presented = self.bus.publish(MovePlayed(match, "draw", seat, None, ratings=rated))
                self._publish_end(match)
                return TurnReport(match, "timeout", seat, None, [], outcome, presented)
            return await self._eliminate(match, seat, "timeout", f"{match.seats[seat].user_name} ran out of time")

    async def _deadline_passed(self, timer: Timer) -> None:
        # Stopped before it was settled (ShuttingDown): its claim is given back, and it fires again.
        await self.time_out(timer.ref_id, timer.seat, due_at=timer.due_at)

    async def _eliminate(self, match: Match, seat: int, kind: str, reason: str) -> TurnReport:
        game = self.game_of(match)
        try:
            new_state, events = game.eliminate(self.state_of(match), seat, reason)
        except IllegalMoveError as exc:
            raise errors.UserError(str(exc)) from None
        match = await self._commit(match, seat=seat, move=kind, private=False, events=events, new_state=new_state)
        log.info("match=%s guild=%s seat=%s %s version=%s%s", match.id, match.guild_id, seat, kind, match.version,
                 f" finished={match.result}" if match.result else "")
        match, forced = await self._play_forced_moves(match, new_state)
        public = [e for e in events if is_visible(e, None)]
        rated = await self.ratings.changes_of(match)
        presented = self.bus.publish(MovePlayed(match, kind, seat, kind, public, forced, rated))
        self._publish_end(match)
        return TurnReport(match, kind, seat, kind, public, Outcome.from_json(match.result), presented)

    def _publish_end(self, match: Match) -> None:
        if not match.active and match.result:
            self.bus.publish(MatchEnded(match, Outcome.from_json(match.result)))

    async def offer_draw(self, match_id: int, user_id: int, *, expected_version: int | None = None) -> TurnReport:
        """Offer a draw, or accept the pending offer. The match is drawn once every player still in agreed.

        An offer is not a move: it does not change the position, so the board and its buttons stay current. Any
        move clears it."""
        async with self._operation(lock_key=match_id):
            return await self.answering(match_id, lambda: self._offer_draw(match_id, user_id, expected_version))

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

    async def _offer_draw(self, match_id: int, user_id: int, expected_version: int | None) -> TurnReport:
        match = await self._playable(match_id, user_id, expected_version)
        seat = match.seat_of(user_id)
        in_play = self.game_of(match).in_play(self.state_of(match))
        if seat not in in_play:
            raise errors.UserError(N_("You are out of this match, so you can't offer or accept a draw."))
        if any(not match.seats[s].is_member for s in in_play):
            raise errors.UserError(N_("The computer plays every match to its end: no draws. Play on, or resign."))
        if match.draw_agreed and seat in match.draw_agreed:
            raise errors.UserError(N_("You have already offered a draw; waiting for an answer."))
        agreed = sorted(set(match.draw_agreed or []) | {seat})
        if not set(in_play) <= set(agreed):
            await self.answer_guarded(match, lambda: self.repo.set_draw_agreed(
                match.id, match.version, agreed, previous=match.draw_agreed))
            log.info("match=%s guild=%s user=%s seat=%s offered a draw", match.id, match.guild_id, user_id, seat)
            match = await self.get_match(match.id)
            presented = self.bus.publish(DrawOffered(match, seat))
            return TurnReport(match, "draw_offer", seat, presented=presented)
        outcome = Outcome(tuple(), "draw by agreement")
        match = await self._commit(match, seat=seat, move="draw", private=False, events=[], new_state=None,
                                   outcome=outcome)
        log.info("match=%s guild=%s user=%s seat=%s accepted the draw", match.id, match.guild_id, user_id, seat)
        rated = await self.ratings.changes_of(match)
        presented = self.bus.publish(MovePlayed(match, "draw", seat, None, ratings=rated))
        self._publish_end(match)
        return TurnReport(match, "draw", seat, None, [], outcome, presented)

    async def decline_draw(self, match_id: int, user_id: int, *, expected_version: int | None = None) -> TurnReport:
        async with self._operation(lock_key=match_id):
            return await self.answering(match_id, lambda: self._decline_draw(match_id, user_id, expected_version))

    async def _decline_draw(self, match_id: int, user_id: int, expected_version: int | None) -> TurnReport:
        match = await self._playable(match_id, user_id, None)
        seat = match.seat_of(user_id)
        if not match.draw_agreed or (expected_version is not None and expected_version != match.version):
            raise errors.UserError(N_("There is no draw offer to answer (a move since has withdrawn it)."))
        if seat in match.draw_agreed:
            raise errors.UserError(N_("You can't decline your own offer — just play on."))
        await self.answer_guarded(match, lambda: self.repo.set_draw_agreed(
            match.id, match.version, None, previous=match.draw_agreed))
        log.info("match=%s guild=%s user=%s seat=%s declined the draw", match.id, match.guild_id, user_id, seat)
        match = await self.get_match(match.id)
        presented = self.bus.publish(DrawDeclined(match, seat))
        return TurnReport(match, "draw_declined", seat, presented=presented)

    async def check_draw_answer(self, match_id: int, user_id: int, version: int) -> Match:
        """The checks of a draw offer's Accept / Decline buttons, before anything changes."""
        match = await self._playable(match_id, user_id, None)
        if match.version != version or not match.draw_agreed:
            raise errors.UserError(N_("This draw offer was withdrawn by a move since."))
        if match.seat_of(user_id) in match.draw_agreed:
            raise errors.UserError(N_("That's your own offer — waiting for the others."))
        return match

    async def _playable(self, match_id: int, user_id: int, expected_version: int | None) -> Match:
        return self._check_playable(await self.get_match(match_id), user_id, expected_version)

    def _check_playable(self, match: Match, user_id: int, expected_version: int | None) -> Match:
        if match.seat_of(user_id) is None:
            raise errors.NotInMatch()
        if not match.active:
            raise errors.MatchOver()
        if expected_version is not None and expected_version != match.version:
            raise errors.StaleBoard(self.board_link(match))
        return match

    async def _commit(
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
    ) -> Match:
        """Write the new state (None: unchanged) and its log entry, if the match is still at `match.version`,
        with the clocks of the seats whose turn began or ended and, when a rated match ends, its ratings: one
        unit of work. `load`: what the action read (the members' choices the clocks need; else read here)."""
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
            self._states[(match.id, after.version)] = new_state
        self.clocks.armed(timers)
        if load is not None:
            self.clocks.remember(after, self.clocks.after_commit(after, load.deadlines, timers, prefs), prefs)
        return after

    async def move_log(self, match_id: int, viewer_seat: int | None) -> list[str]:
        """The move list as `viewer_seat` may read it: secret moves of others are shown as such."""
        lines = []
        for entry in effective_moves(await self.repo.moves(match_id)):
            text = entry.move if not entry.private or entry.seat == viewer_seat else "(secret setup)"
            lines.append(text)
        return lines
