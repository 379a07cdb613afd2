"""Challenges: asking others to play, taking seats, declining, cancelling, expiring, and the match a full challenge
starts."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any, Callable, Sequence

from bot.domain import Challenge, Match, OutboxEntry, Seat, Timer
from bot.games import Game
from bot.games.engines import get_game
from bot.i18n import N_
from bot.storage import VersionConflict

from . import errors
from .actions import MatchActions
from .catalogue import COMPUTER_LEVELS, checked_options, default_options, is_offered
from .events import ChallengeEnded, MatchEvent, MatchStarted

log = logging.getLogger(__name__)

DEFAULT_CHALLENGE_TTL = 24 * 3600.0
MAX_OPEN_CHALLENGES = 10  # per challenger
CHALLENGE_EXPIRY = "challenge_expiry"



def computer_names(game: Game, options: dict[str, Any], invited: Sequence[int | None], challenger_position: int,
                   level: str | None) -> dict[int, str]:
    """The computer's name at each of its seats (by position, which is the match's seat): "Strategos (easy)", and
    when it holds two seats or more each carries its side, "Strategos (easy, Yellow)", so the players, the
    pictures and the history can tell them apart. Sides are named in English, as the name is shown everywhere."""
    if level is None:
        return {}
    others = [p for p in range(len(invited) + 1) if p != challenger_position]
    seats = [position for position, invited_id in zip(others, invited) if invited_id is None]
    if len(seats) < 2:
        return {position: f"Strategos ({level})" for position in seats}
    sides = game.view(game.new_state(len(invited) + 1, 0, options or None), None).get("seat_names") \
        or game.info.seat_names
    return {position: f"Strategos ({level}, {sides[position]})" if position < len(sides) else
            f"Strategos ({level}, {position + 1})" for position in seats}

class Challenges:
    def __init__(self, actions: MatchActions, *, seed_source: Callable[[], int], ttl: float = DEFAULT_CHALLENGE_TTL):
        self.actions = actions
        self.repo = actions.repo
        self.seed_source = seed_source
        self.ttl = ttl
        actions.timers.on(CHALLENGE_EXPIRY, self._expire_challenge)

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
        weekends: bool | None = None,
    ) -> Challenge:
        """`invited` has one entry per other seat: a member id, or None for a seat anyone may take (or, with
        `computer_level`, the computer's seat). Matches with a computer seat are never rated. The challenger sits
        at `challenger_position` (0 unless a rematch rotates the seats); the invited take the others in order.
        `clock` is a label of CLOCK_CHOICES or a Fischer clock (bot/matches/clock_kinds.py); None: the server's
        default; `weekends`: quiet weekends (None: the server's default)."""
        actions = self.actions
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
        clock_seconds, clock_rules = await actions.server_settings.clock_for(guild_id, clock, weekends)
        ttl = await actions.server_settings.get(guild_id, "challenge_expiry") or self.ttl
        async with actions.operation(lock_key=None):
            if await self.repo.count_open_challenges(challenger_id) >= MAX_OPEN_CHALLENGES:
                raise errors.UserError(
                    N_("You already have {count} open challenges. Cancel one, or wait for answers."),
                    count=MAX_OPEN_CHALLENGES
                )
            actions.limiter.check("challenge", challenger_id)
            now = actions.clock()
            challenge = await self.repo.create_challenge(
                guild_id=guild_id, channel_id=channel_id, game=game_key, options=options,
                challenger_id=challenger_id, challenger_name=challenger_name, invited=list(invited),
                now=now, expires_at=now + ttl, computer_level=computer_level, rated=rated,
                challenger_position=challenger_position, clock_seconds=clock_seconds, clock_rules=clock_rules,
                computer_names=computer_names(game, options, invited, challenger_position, computer_level),
            )
        actions.timers.wake(challenge.expires_at)
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
        if challenge.is_open and challenge.expires_at <= self.actions.clock():
            await self._close(challenge, "expired", None)
            challenge = await self.get_challenge(challenge_id)
        if not challenge.is_open:
            raise errors.ChallengeClosed(challenge.status)
        return challenge

    async def accept_challenge(self, challenge_id: int, user_id: int, user_name: str) -> Challenge:
        """Seat the user: her invited seat if she has one, else the first open seat. When that fills the last
        seat the match starts (MatchStarted). Returns the challenge as it is now."""
        async with self.actions.operation(lock_key=-challenge_id):
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
        async with self.actions.operation(lock_key=-challenge_id):
            challenge = await self._open_challenge(challenge_id)
            if not challenge.invited(user_id):
                if user_id == challenge.challenger_id:
                    raise errors.NotYourChallenge(N_("That's your own challenge: use **Cancel** to withdraw it."))
                raise errors.NotYourChallenge(N_("Only an invited player can decline this challenge."))
            return await self._close(challenge, "declined", user_id)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        async with self.actions.operation(lock_key=-challenge_id):
            challenge = await self._open_challenge(challenge_id)
            if user_id != challenge.challenger_id:
                raise errors.NotYourChallenge(N_("Only the challenger can cancel this challenge."))
            return await self._close(challenge, "cancelled", user_id)

    async def _close(self, challenge: Challenge, status: str, user_id: int | None) -> Challenge:
        """Close `challenge` (as just read) with `status`; its end is announced from the outbox (written with the
        close: a command cancelled once it may be written still gets its post updated)."""
        actions, outbox = self.actions, self.actions.outbox
        closed = replace(challenge, status=status)
        ended = [ChallengeEnded(closed, user_id, lang=await actions.language(closed.guild_id))]
        token = outbox.token()
        try:
            written = await self.repo.close_challenge(challenge.id, status,
                                                      outbox=outbox.entry(token, ended, actions.clock()))
        except asyncio.CancelledError:
            outbox.adopt(token)
            raise
        if not written:
            raise errors.ChallengeClosed((await self.get_challenge(challenge.id)).status)
        log.info("challenge=%s guild=%s user=%s %s", challenge.id, challenge.guild_id, user_id, status)
        outbox.deliver(token, ended)
        return closed

    async def _expire_challenge(self, timer: Timer) -> None:
        async with self.actions.operation(lock_key=-timer.ref_id):
            challenge = await self.repo.get_challenge(timer.ref_id)
            if challenge is not None and challenge.is_open:
                await self._close(challenge, "expired", None)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self.repo.set_challenge_message(challenge_id, message_id)

    # --- the match a full challenge starts ---------------------------------------------------------------------

    async def _start_match(self, challenge: Challenge) -> Match:
        """Turn a full challenge into a match (seats in challenge order). Starts at most once per challenge."""
        actions = self.actions
        game = get_game(challenge.game)
        seed = self.seed_source()
        state = game.new_state(len(challenge.seats), seed, challenge.options or None)
        acting = game.to_act(state)
        starting = Match(  # the match as it will be written, for its first clocks (its id comes with the write)
            id=0, guild_id=challenge.guild_id, channel_id=challenge.channel_id, thread_id=None, game=challenge.game,
            options=challenge.options, seed=seed, status="active", state={}, version=0, board_message_id=None,
            draw_agreed=None, result=None, created_at=0.0, updated_at=0.0, clock_seconds=challenge.clock_seconds,
            clock_rules=challenge.clock_rules,
            seats=[Seat(i, s.user_id, s.user_name or "", s.kind, s.level) for i, s in enumerate(challenge.seats)],
        )
        prefs = await actions.clocks.prefs(starting.member_ids) if challenge.clock_seconds is not None else {}
        server_zone = await actions.clocks.server_zone(starting)
        timers = actions.clocks.plan(starting, [], acting, None, prefs, server_zone=server_zone)
        lang, outbox, token = await actions.language(challenge.guild_id), actions.outbox, actions.outbox.token()
        now = actions.clock()
        started: list[MatchEvent] = []

        def announce(match: Match) -> OutboxEntry:  # the match as the unit writes it: its thread and first board
            clock = actions.clocks.after_commit(match, {}, timers, prefs, server_zone)
            started[:] = [MatchStarted(match, replace(challenge, status="started", match_id=match.id),
                                       board=actions.first_board(match, state, clock), lang=lang)]
            return outbox.entry(token, started, now)

        try:
            match = await self.repo.start_match(
                challenge, thread_id=None, seed=seed, state=game.dump(state), seats=challenge.seats,
                now=now, timers=timers, announce=announce,
            )
        except VersionConflict:
            raise errors.ChallengeClosed((await self.get_challenge(challenge.id)).status) from None
        except asyncio.CancelledError:  # the unit may have been written: the outbox presents what it recorded
            outbox.adopt(token)
            raise
        actions.clocks.armed(timers)
        log.info("match=%s guild=%s challenge=%s started game=%s users=%s", match.id, match.guild_id,
                 challenge.id, match.game, [s.user_id for s in match.seats])
        outbox.deliver(token, started)
        return match

    async def start_prepared_challenge(self, challenge_id: int) -> int | None:
        """Start the match of a challenge whose seats were all taken when it was written (a league table's), once:
        the match id, also when an earlier call started it; None if the challenge is gone or closed."""
        async with self.actions.operation(lock_key=-challenge_id):
            challenge = await self.repo.get_challenge(challenge_id)
            if challenge is None:
                return None
            if challenge.is_open and challenge.is_full:
                match = await self._start_match(challenge)
                return match.id
            return challenge.match_id
