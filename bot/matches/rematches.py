"""Rematches: the same players and options again, seats rotated."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.domain import Challenge
from bot.i18n import N_

from . import errors
from .actions import MatchActions
from .challenges import Challenges

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rematch:
    challenge: Challenge  # as it is now
    opened: bool  # True: a new challenge, to be posted; False: the user took her seat in the open one


class Rematches:
    def __init__(self, actions: MatchActions, challenges: Challenges):
        self.actions = actions
        self.challenges = challenges

    async def rematch(self, match_id: int, user_id: int, user_name: str) -> Rematch:
        """A challenge to the same players with the same options, seats rotated (the old seat 1 becomes seat 0,
        and so on, so everyone gets another side); the asking player's seat is taken, the others accept. A player
        who presses Rematch while another's rematch is open accepts that one: both pressing it is the usual way."""
        actions, repo = self.actions, self.actions.repo
        match = await actions.get_match(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise errors.UserError(N_("Only the players of match #{match} can ask for a rematch."), match=match.id)
        if match.active:
            raise errors.UserError(N_("Match #{match} is still being played."), match=match.id)
        count = len(match.seats)
        old_seat_at = [(position + 1) % count for position in range(count)]
        position = old_seat_at.index(seat)
        invited: list[int | None] = []
        computer_level = None
        for new_position, old in enumerate(old_seat_at):
            if new_position == position:
                continue
            player = match.seats[old]
            invited.append(player.user_id if player.is_member else None)
            if not player.is_member:
                computer_level = player.level
        # Under the match's lock, so two players pressing Rematch at once open one challenge, not two.
        async with actions.operation(lock_key=match.id):
            existing = await repo.open_rematch(match.id, actions.clock())
            if existing is not None:
                if existing.holds(user_id):
                    raise errors.UserError(N_("You have already asked for this rematch; waiting for the others."))
                return Rematch(await self.challenges.accept_challenge(existing.id, user_id, user_name), opened=False)
            challenge = await self.challenges.create_challenge(
                guild_id=match.guild_id, channel_id=match.channel_id, challenger_id=user_id,
                challenger_name=user_name, game_key=match.game, invited=invited, options=match.options,
                computer_level=computer_level, rated=match.rated, challenger_position=position,
            )
            await repo.set_rematch_of(challenge.id, match.id)
        log.info("match=%s guild=%s user=%s rematch challenge=%s", match.id, match.guild_id, user_id, challenge.id)
        return Rematch(challenge, opened=True)
