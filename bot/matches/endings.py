"""Endings: resigning, running out of time, and draws offered, accepted or declined."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.domain import Match, Timer
from bot.games import IllegalMoveError, Outcome, Text
from bot.i18n import N_
from bot.storage.clocks import DEADLINE

from . import errors
from .actions import Action, MatchActions, TurnReport
from .events import DrawDeclined, DrawOffered

log = logging.getLogger(__name__)


class Endings:
    def __init__(self, actions: MatchActions):
        self.actions = actions
        actions.timers.on(DEADLINE, self._deadline_passed)

    # --- resigning and running out of time ---------------------------------------------------------------------

    async def resign(self, match_id: int, user_id: int) -> TurnReport:
        """Resigning does not depend on the position, so it needs no version: it works from any board. With two
        players the other wins; with more, she is out as her game's rules say and the match goes on."""
        async with self.actions.operation(lock_key=match_id):
            match = await self.actions.playable(match_id, user_id, None)
            seat = match.player_seat(user_id)
            reason = Text("{player} resigned", player=match.seats[seat].user_name)
            return await self._eliminate(match, seat, "resign", reason)

    async def time_out(self, match_id: int, seat: int, *, due_at: float | None = None) -> TurnReport | None:
        """The seat's time ran out: with two players the other wins on time; with more, she is out as if she had
        resigned and the match goes on. With `due_at` (a fired deadline) only if that deadline still stands, so a
        move made in time, or a deadline settled before a restart, is never timed out. None when nothing happened."""
        actions = self.actions
        async with actions.operation(lock_key=match_id):
            match = await actions.repo.get_match(match_id)
            if match is None or not match.active or seat not in actions.to_act(match):
                return None
            if due_at is not None and not await actions.clocks.is_current(match, seat, due_at):
                return None
            if due_at is not None and match.clock_rules.vacation:
                if await actions.clocks.vacation_day(match, seat, due_at):
                    return None  # a vacation day spent instead: her clocks got a day more
                if not await actions.clocks.is_current(match, seat, due_at):
                    return None  # another deadline of hers spent a day at the same moment, and moved this one

            if await actions.clocks.all_late(match, actions.game_of(match).in_play(actions.state_of(match))):
                # Nobody still in moved in time (a simultaneous setup nobody made): no one deserves a win on time.
                return await actions.conclude(match, Action(
                    "timeout", seat, logged="timeout", shown=None, said="every player ran out of time",
                    outcome=Outcome((), Text("every player ran out of time")), announced_as="draw",
                ))
            return await self._eliminate(match, seat, "timeout", Text("{player} ran out of time",
                                                                        player=match.seats[seat].user_name))

    async def _deadline_passed(self, timer: Timer) -> None:
        # Stopped before it was settled (ShuttingDown): its claim is given back, and it fires again.
        await self.time_out(timer.ref_id, timer.seat, due_at=timer.due_at)

    async def _eliminate(self, match: Match, seat: int, kind: str, reason: str) -> TurnReport:
        actions = self.actions
        try:
            new_state, events = actions.game_of(match).eliminate(actions.state_of(match), seat, reason)
        except IllegalMoveError as exc:
            raise errors.UserError(errors.engine_message(exc)) from None
        return await actions.conclude(match, Action(kind, seat, logged=kind, shown=kind, said=f"seat={seat} {kind}",
                                                    events=events, new_state=new_state))

    # --- draws -------------------------------------------------------------------------------------------------

    async def offer_draw(self, match_id: int, user_id: int, *, expected_version: int | None = None) -> TurnReport:
        """Offer a draw, or accept the pending offer. The match is drawn once every player still in agreed.

        An offer is not a move: it does not change the position, so the board and its buttons stay current. Any
        move clears it."""
        async with self.actions.operation(lock_key=match_id):
            return await self.actions.answering(match_id,
                                                lambda: self._offer_draw(match_id, user_id, expected_version))

    async def _offer_draw(self, match_id: int, user_id: int, expected_version: int | None) -> TurnReport:
        actions = self.actions
        match = await actions.playable(match_id, user_id, expected_version)
        seat = match.seat_of(user_id)
        in_play = actions.game_of(match).in_play(actions.state_of(match))
        if seat not in in_play:
            raise errors.UserError(N_("You are out of this match, so you can't offer or accept a draw."))
        if any(not match.seats[s].is_member for s in in_play):
            raise errors.UserError(N_("The computer plays every match to its end: no draws. Play on, or resign."))
        if match.draw_agreed and seat in match.draw_agreed:
            raise errors.UserError(N_("You have already offered a draw; waiting for an answer."))
        agreed = sorted(set(match.draw_agreed or []) | {seat})
        if not set(in_play) <= set(agreed):
            offered = replace(match, draw_agreed=agreed)
            event = DrawOffered(offered, seat, in_play=actions.in_play(match),
                                lang=await actions.language(match.guild_id))
            presented = await actions.answer_announced(match, event, lambda outbox: actions.repo.set_draw_agreed(
                match.id, match.version, agreed, previous=match.draw_agreed, outbox=outbox))
            log.info("match=%s guild=%s user=%s seat=%s offered a draw", match.id, match.guild_id, user_id, seat)
            return TurnReport(offered, "draw_offer", seat, presented=presented)
        return await actions.conclude(match, Action(
            "draw", seat, logged="draw", shown=None, said=f"user={user_id} seat={seat} accepted the draw",
            outcome=Outcome(tuple(), Text("draw by agreement")),
        ))

    async def decline_draw(self, match_id: int, user_id: int, *, expected_version: int | None = None) -> TurnReport:
        async with self.actions.operation(lock_key=match_id):
            return await self.actions.answering(match_id,
                                                lambda: self._decline_draw(match_id, user_id, expected_version))

    async def _decline_draw(self, match_id: int, user_id: int, expected_version: int | None) -> TurnReport:
        actions = self.actions
        match = await actions.playable(match_id, user_id, None)
        seat = match.player_seat(user_id)
        if not match.draw_agreed or (expected_version is not None and expected_version != match.version):
            raise errors.UserError(N_("There is no draw offer to answer (a move since has withdrawn it)."))
        if seat in match.draw_agreed:
            raise errors.UserError(N_("You can't decline your own offer — just play on."))
        declined = replace(match, draw_agreed=None)
        presented = await actions.answer_announced(match, DrawDeclined(declined, seat), lambda outbox: (
            actions.repo.set_draw_agreed(match.id, match.version, None, previous=match.draw_agreed, outbox=outbox)))
        log.info("match=%s guild=%s user=%s seat=%s declined the draw", match.id, match.guild_id, user_id, seat)
        return TurnReport(declined, "draw_declined", seat, presented=presented)

    async def check_draw_answer(self, match_id: int, user_id: int, version: int) -> Match:
        """The checks of a draw offer's Accept / Decline buttons, before anything changes."""
        match = await self.actions.playable(match_id, user_id, None)
        if match.version != version or not match.draw_agreed:
            raise errors.UserError(N_("This draw offer was withdrawn by a move since."))
        if match.seat_of(user_id) in match.draw_agreed:
            raise errors.UserError(N_("That's your own offer — waiting for the others."))
        return match
