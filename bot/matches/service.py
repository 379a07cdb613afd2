"""The match service: challenge → match → turns → end. No Discord here: cogs translate clicks into these calls.

Every state change goes through `_commit`, which applies the engine and writes state + log in one transaction
guarded by the match version, so a double click or two racing clicks change the match once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Sequence

from bot.games import Event, Game, IllegalMoveError, MoveSyntaxError, Outcome, get_game
from bot.storage import Challenge, Match, Repository, VersionConflict

from . import errors

log = logging.getLogger(__name__)

DEFAULT_CHALLENGE_TTL = 24 * 3600.0


@dataclass
class TurnReport:
    """What one accepted action changed, for the cogs to announce."""

    match: Match  # as it is now
    kind: str  # "move", "resign" or "draw"
    seat: int
    move: str | None = None  # None for private moves: their text never leaves the engine's owner
    events: list[Event] = field(default_factory=list)
    outcome: Outcome | None = None


@lru_cache(maxsize=512)
def _load_state(game_key: str, dumped: str) -> Any:
    """Engine states are immutable, so one loaded state serves every caller that reads the same dump."""
    return get_game(game_key).load(json.loads(dumped))


class MatchService:
    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        challenge_ttl: float = DEFAULT_CHALLENGE_TTL,
    ):
        self.repo = repo
        self.clock = clock
        self.seed_source = seed_source
        self.challenge_ttl = challenge_ttl
        self._locks: dict[int, asyncio.Lock] = {}
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False

    # --- shutdown: finish what was started, refuse what comes after -----------------------------------------

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
                async with self._locks.setdefault(lock_key, asyncio.Lock()):
                    yield
        finally:
            self._inflight -= 1
            if self._inflight == 0:
                self._idle.set()

    async def drain(self) -> None:
        """Stop taking new actions and wait until every action in flight has been written."""
        self.closing = True
        await self._idle.wait()

    # --- engines and views -----------------------------------------------------------------------------------

    @staticmethod
    def game_of(match: Match) -> Game:
        return get_game(match.game)

    def state_of(self, match: Match) -> Any:
        return _load_state(match.game, json.dumps(match.state, sort_keys=True))

    def view(self, match: Match, viewer: int | None) -> dict[str, Any]:
        return self.game_of(match).view(self.state_of(match), viewer)

    def in_secret_setup(self, match: Match) -> bool:
        """True while the seats to act make secret setup moves (a deployment, a cargo assignment). Those moves are
        independent of each other, so a player's setup never goes stale because another player finished first."""
        if not match.active:
            return False
        game, state = self.game_of(match), self.state_of(match)
        for seat in game.to_act(state):
            moves = game.legal_moves(state, seat)
            if moves and game.is_private_move(moves[0]):
                return True
        return False

    def to_act(self, match: Match) -> list[int]:
        if not match.active:
            return []
        return self.game_of(match).to_act(self.state_of(match))

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
    ) -> Challenge:
        """`invited` has one entry per other seat: a member id, or None for a seat anyone may take."""
        game = get_game(game_key)
        players = len(invited) + 1
        if not game.info.min_players <= players <= game.info.max_players:
            raise errors.UserError(
                f"{game.info.title} is for {game.info.min_players}–{game.info.max_players} players, not {players}."
            )
        named = [i for i in invited if i is not None]
        if challenger_id in named:
            raise errors.UserError("You can't challenge yourself. Leave `opponent` empty for an open challenge.")
        if len(set(named)) != len(named):
            raise errors.UserError("Each opponent can take only one seat.")
        options = self._checked_options(game, options or {})
        now = self.clock()
        challenge = await self.repo.create_challenge(
            guild_id=guild_id, channel_id=channel_id, game=game_key, options=options,
            challenger_id=challenger_id, challenger_name=challenger_name, invited=list(invited),
            now=now, expires_at=now + self.challenge_ttl,
        )
        log.info("challenge=%s guild=%s user=%s created game=%s seats=%s", challenge.id, guild_id, challenger_id,
                 game_key, players)
        return challenge

    @staticmethod
    def _checked_options(game: Game, options: dict[str, Any]) -> dict[str, Any]:
        known = {spec.key: spec for spec in game.info.options}
        for key, value in options.items():
            spec = known.get(key)
            if spec is None:
                raise errors.UserError(f"{game.info.title} has no option `{key}`.")
            values = value if spec.per_seat else [value]
            if spec.choices and any(v not in spec.choices for v in values):
                raise errors.UserError(f"`{key}` must be one of: {', '.join(spec.choices)}.")
        return dict(options)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        challenge = await self.repo.get_challenge(challenge_id)
        if challenge is None:
            raise errors.UnknownChallenge()
        return challenge

    async def _open_challenge(self, challenge_id: int) -> Challenge:
        challenge = await self.get_challenge(challenge_id)
        if challenge.is_open and challenge.expires_at <= self.clock():
            await self.repo.close_challenge(challenge.id, "expired")
            challenge = await self.get_challenge(challenge_id)
        if not challenge.is_open:
            raise errors.ChallengeClosed(challenge.status)
        return challenge

    async def accept_challenge(self, challenge_id: int, user_id: int, user_name: str) -> Challenge:
        """Seat the user: her invited seat if she has one, else the first open seat. Returns the challenge."""
        async with self._operation(lock_key=-challenge_id):
            challenge = await self._open_challenge(challenge_id)
            if challenge.holds(user_id):
                raise errors.UserError("You already have a seat in this challenge.")
            position = next((s.position for s in challenge.seats
                             if s.user_id is None and s.invited_id == user_id), None)
            if position is None:
                position = next((s.position for s in challenge.seats
                                 if s.user_id is None and s.invited_id is None), None)
            if position is None:
                raise errors.NotYourChallenge("This challenge is for someone else.")
            if not await self.repo.take_challenge_seat(challenge.id, position, user_id, user_name):
                raise errors.UserError("Someone else just took that seat.")
            log.info("challenge=%s guild=%s user=%s accepted seat=%s", challenge.id, challenge.guild_id, user_id,
                     position)
            return await self.get_challenge(challenge.id)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        async with self._operation(lock_key=-challenge_id):
            challenge = await self._open_challenge(challenge_id)
            if not challenge.invited(user_id):
                if user_id == challenge.challenger_id:
                    raise errors.NotYourChallenge("That's your own challenge: use **Cancel** to withdraw it.")
                raise errors.NotYourChallenge("Only an invited player can decline this challenge.")
            return await self._close(challenge, "declined", user_id)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        async with self._operation(lock_key=-challenge_id):
            challenge = await self._open_challenge(challenge_id)
            if user_id != challenge.challenger_id:
                raise errors.NotYourChallenge("Only the challenger can cancel this challenge.")
            return await self._close(challenge, "cancelled", user_id)

    async def _close(self, challenge: Challenge, status: str, user_id: int | None) -> Challenge:
        if not await self.repo.close_challenge(challenge.id, status):
            raise errors.ChallengeClosed((await self.get_challenge(challenge.id)).status)
        log.info("challenge=%s guild=%s user=%s %s", challenge.id, challenge.guild_id, user_id, status)
        return await self.get_challenge(challenge.id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self.repo.set_challenge_message(challenge_id, message_id)

    async def expire_due_challenges(self) -> list[Challenge]:
        expired = []
        for challenge in await self.repo.due_challenges(self.clock()):
            if await self.repo.close_challenge(challenge.id, "expired"):
                log.info("challenge=%s guild=%s expired", challenge.id, challenge.guild_id)
                expired.append(await self.get_challenge(challenge.id))
        return expired

    async def next_challenge_expiry(self) -> float | None:
        return await self.repo.next_challenge_expiry()

    # --- matches ---------------------------------------------------------------------------------------------

    async def start_match(self, challenge: Challenge) -> Match:
        """Turn a full challenge into a match (seats in challenge order). Starts at most once per challenge."""
        if not challenge.is_full:
            raise errors.UserError("Not every seat is taken yet.")
        async with self._operation(lock_key=-challenge.id):
            game = get_game(challenge.game)
            seed = self.seed_source()
            state = game.new_state(len(challenge.seats), seed, challenge.options or None)
            try:
                match = await self.repo.start_match(
                    challenge, thread_id=None, seed=seed, state=game.dump(state),
                    seats=[(s.user_id, s.user_name or str(s.user_id)) for s in challenge.seats], now=self.clock(),
                )
            except VersionConflict:
                raise errors.ChallengeClosed("started") from None
            log.info("match=%s guild=%s challenge=%s started game=%s users=%s", match.id, match.guild_id,
                     challenge.id, match.game, [s.user_id for s in match.seats])
            return match

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        await self.repo.set_thread(match_id, thread_id)

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        await self.repo.set_board_message(match_id, message_id)

    async def get_match(self, match_id: int) -> Match:
        match = await self.repo.get_match(match_id)
        if match is None:
            raise errors.UnknownMatch(match_id)
        return match

    async def matches_of(self, user_id: int) -> list[Match]:
        """The user's active matches, those waiting for her first."""
        matches = await self.repo.matches_of_user(user_id)
        return sorted(matches, key=lambda m: (m.seat_of(user_id) not in self.to_act(m), -m.updated_at))

    async def submit_move(
        self, match_id: int, user_id: int, move: str, *, expected_version: int | None = None
    ) -> TurnReport:
        """Apply a move for the user. `expected_version` (from a button or picker) makes a stale one fail."""
        async with self._operation(lock_key=match_id):
            match = await self._playable(match_id, user_id, expected_version)
            seat = match.seat_of(user_id)
            game = self.game_of(match)
            state = self.state_of(match)
            if seat not in game.to_act(state):
                waiting = ", ".join(match.seats[s].user_name for s in game.to_act(state))
                raise errors.NotYourTurn(waiting)
            try:
                new_state, events = game.apply(state, seat, move.strip())
            except (MoveSyntaxError, IllegalMoveError) as exc:
                raise errors.BadMove(str(exc)) from None
            canonical = self._logged_text(game, new_state, move)
            private = game.is_private_move(canonical)
            outcome = game.outcome(new_state)
            match = await self._commit(
                match, seat=seat, move=canonical, private=private, events=events, state=game.dump(new_state),
                outcome=outcome, draw_agreed=None,
            )
            log.info("match=%s guild=%s user=%s seat=%s move=%s version=%s%s", match.id, match.guild_id, user_id,
                     seat, "<secret>" if private else canonical, match.version,
                     f" finished={outcome.to_json()}" if outcome else "")
            match, forced_events, outcome = await self._play_forced_moves(match, new_state, outcome)
            return TurnReport(match, "move", seat, None if private else canonical, events + forced_events, outcome)

    async def _play_forced_moves(self, match: Match, state: Any, outcome: Outcome | None):
        """Play the moves nobody has a choice about (a pass with nothing to place), each logged as that seat's
        move; their events join the report so the thread says what happened. Ends because games end."""
        game = self.game_of(match)
        events: list[Event] = []
        while outcome is None:
            acting = game.to_act(state)
            forced = game.forced_move(state, acting[0]) if len(acting) == 1 else None
            if forced is None:
                break
            state, forced_events = game.apply(state, acting[0], forced)
            outcome = game.outcome(state)
            match = await self._commit(match, seat=acting[0], move=forced, private=False, events=forced_events,
                                       state=game.dump(state), outcome=outcome, draw_agreed=None)
            events += forced_events
            log.info("match=%s guild=%s seat=%s forced move=%s version=%s", match.id, match.guild_id, acting[0],
                     forced, match.version)
        return match, events, outcome

    @staticmethod
    def _logged_text(game: Game, new_state: Any, typed: str) -> str:
        """The canonical text of the move just applied (what the public view calls the last move)."""
        if game.is_private_move(typed.strip()):
            return typed.strip()
        last = game.view(new_state, None).get("last_move")
        return last if last else typed.strip()

    async def resign(self, match_id: int, user_id: int) -> TurnReport:
        """Resigning does not depend on the position, so it needs no version: it works from any board."""
        async with self._operation(lock_key=match_id):
            match = await self._playable(match_id, user_id, None)
            seat = match.seat_of(user_id)
            others = tuple(s.seat for s in match.seats if s.seat != seat)
            outcome = Outcome(others, f"{match.seats[seat].user_name} resigned")
            match = await self._commit(match, seat=seat, move="resign", private=False, events=[],
                                       state=match.state, outcome=outcome, draw_agreed=None)
            log.info("match=%s guild=%s user=%s seat=%s resigned", match.id, match.guild_id, user_id, seat)
            return TurnReport(match, "resign", seat, "resign", [], outcome)

    async def offer_draw(self, match_id: int, user_id: int, *, expected_version: int | None = None) -> TurnReport:
        """Offer a draw, or accept the pending offer. The match is drawn once every player agreed.

        An offer is not a move: it does not change the position, so the board and its buttons stay current. Any
        move clears it."""
        async with self._operation(lock_key=match_id):
            match = await self._playable(match_id, user_id, expected_version)
            seat = match.seat_of(user_id)
            if match.draw_agreed and seat in match.draw_agreed:
                raise errors.UserError("You have already offered a draw; waiting for an answer.")
            agreed = sorted(set(match.draw_agreed or []) | {seat})
            if len(agreed) < len(match.seats):
                await self.repo.set_draw_agreed(match.id, match.version, agreed)
                log.info("match=%s guild=%s user=%s seat=%s offered a draw", match.id, match.guild_id, user_id, seat)
                return TurnReport(await self.get_match(match.id), "draw_offer", seat, None)
            outcome = Outcome((), "draw by agreement")
            match = await self._commit(match, seat=seat, move="draw", private=False, events=[], state=match.state,
                                       outcome=outcome, draw_agreed=None)
            log.info("match=%s guild=%s user=%s seat=%s accepted the draw", match.id, match.guild_id, user_id, seat)
            return TurnReport(match, "draw", seat, None, [], outcome)

    async def decline_draw(self, match_id: int, user_id: int) -> TurnReport:
        async with self._operation(lock_key=match_id):
            match = await self._playable(match_id, user_id, None)
            seat = match.seat_of(user_id)
            if not match.draw_agreed:
                raise errors.UserError("There is no draw offer to answer (a move since has withdrawn it).")
            if seat in match.draw_agreed:
                raise errors.UserError("You can't decline your own offer — just play on.")
            await self.repo.set_draw_agreed(match.id, match.version, None)
            log.info("match=%s guild=%s user=%s seat=%s declined the draw", match.id, match.guild_id, user_id, seat)
            return TurnReport(await self.get_match(match.id), "draw_declined", seat, None)

    async def _playable(self, match_id: int, user_id: int, expected_version: int | None) -> Match:
        match = await self.get_match(match_id)
        if match.seat_of(user_id) is None:
            raise errors.NotInMatch()
        if not match.active:
            raise errors.MatchOver()
        if expected_version is not None and expected_version != match.version:
            raise errors.StaleBoard()
        return match

    async def _commit(
        self,
        match: Match,
        *,
        seat: int,
        move: str,
        private: bool,
        events: list[Event],
        state: dict[str, Any],
        outcome: Outcome | None,
        draw_agreed: list[int] | None,
    ) -> Match:
        try:
            await self.repo.record_move(
                match, seat=seat, move=move, private=private, events=events, state=state,
                result=outcome.to_json() if outcome else None, draw_agreed=draw_agreed, now=self.clock(),
            )
        except VersionConflict:
            # Another process or click got there first; our change was not written.
            raise errors.StaleBoard() from None
        return await self.get_match(match.id)

    async def move_log(self, match_id: int, viewer_seat: int | None) -> list[str]:
        """The move list as `viewer_seat` may read it: secret moves of others are shown as such."""
        lines = []
        for entry in await self.repo.moves(match_id):
            text = entry.move if not entry.private or entry.seat == viewer_seat else "(secret setup)"
            lines.append(text)
        return lines
