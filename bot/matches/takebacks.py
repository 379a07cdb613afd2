"""Take-backs: undoing a player's last move when every other player still in agrees.

A take-back changes a match, so it follows the service's rules for changes: under the match's lock, ended by the
one end-of-action sequence (`MatchActions.conclude`: version-guarded, announced on the bus). The earlier state is
rebuilt from the seed and the effective moves (movelog.py), so the taken-back move is gone for every reader alike.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Sequence

from bot.games import Event, Game, is_visible
from bot.games.record import MATCH_ACTIONS, rebuild_state, replay_moves
from bot.games.engines import revealing_events
from bot.i18n import N_
from bot.domain import LoggedMove, Match

from . import errors
from .actions import Action, MatchActions, TurnReport
from .bus import Delivery
from .events import MatchEvent, TakebackAnswered, TakebackAsked
from .movelog import TAKEBACK, takeback_event

log = logging.getLogger(__name__)


class Takebacks:
    def __init__(self, actions: MatchActions):
        self.actions = actions
        self.repo = actions.repo

    # --- take-backs ------------------------------------------------------------------------------------------

    def pending_takeback(self, match: Match) -> dict[str, Any] | None:
        """The open take-back request: one asked at the match's current version (a move since retired it)."""
        request = match.takeback
        if not match.active or not request or request.get("version") != match.version:
            return None
        return request

    def takeback_offered(self, report: TurnReport) -> bool:
        """Whether the mover's answer should offer a Take back button: a public move of a running match, which
        showed nothing hidden and after which the next player, not she, must act. `ask_takeback` decides for
        good; this only spares her a button that would be refused."""
        match = report.match
        if report.kind != "move" or report.move is None or not match.active:
            return False
        game = self.actions.game_of(match)
        if self._revealing(game, report.events) or report.seat in self.actions.to_act(match):
            return False
        return True

    async def ask_takeback(self, match_id: int, user_id: int, *, expected_version: int | None = None) -> TurnReport:
        """Ask the other players to let the user take back her last move. Only until the next player acts, and
        never for a move that showed something hidden, a secret setup move, or one a forced move followed.
        `expected_version`: the version her move made (from a button), so a button after later moves refuses."""
        async with self.actions.operation(lock_key=match_id):
            return await self.actions.answering(match_id, lambda: self._ask_takeback(match_id, user_id,
                                                                                     expected_version))

    async def _ask_takeback(self, match_id: int, user_id: int, expected_version: int | None) -> TurnReport:
        actions = self.actions
        match = await actions.playable(match_id, user_id, None)
        seat = match.player_seat(user_id)
        request = self.pending_takeback(match)
        if request is not None:
            if request["seat"] == seat:
                raise errors.UserError(N_("You have already asked to take that move back; waiting for an answer."))
            raise errors.UserError(N_("**{player}** has asked to take a move back; that request is answered first."),
                                   player=match.seats[request["seat"]].user_name)
        moves = await self.actions.moves_of(match)
        refusal = self._refusal(match, seat, moves)
        if refusal is None and expected_version is not None and expected_version != match.version:
            refusal = errors.UserError(N_("That move is no longer the last one, so it can't be taken back."))
        if refusal is not None:
            raise refusal
        last = moves[-1]
        request = {"seat": seat, "version": match.version, "agreed": [seat], "undone": last.version,
                   "move": last.move}
        asked = replace(match, takeback=request)
        presented = await self._store(match, request, TakebackAsked(
            asked, seat, last.move, in_play=actions.in_play(match), lang=await actions.language(match.guild_id)))
        log.info("match=%s guild=%s user=%s seat=%s asked to take back %s", match.id, match.guild_id, user_id,
                 seat, last.move)
        return TurnReport(asked, "takeback_asked", seat, last.move, presented=presented)

    async def answer_takeback(self, match_id: int, user_id: int, version: int, accept: bool) -> TurnReport:
        """Accept or decline the open take-back request asked at `version`. Once every other player still in
        has accepted, the move is taken back: the exact earlier state, rebuilt from the seed and the moves."""
        async with self.actions.operation(lock_key=match_id):
            return await self.actions.answering(match_id, lambda: self._answer_takeback(match_id, user_id, version,
                                                                                        accept))

    async def _answer_takeback(self, match_id: int, user_id: int, version: int, accept: bool) -> TurnReport:
        actions = self.actions
        match = await actions.playable(match_id, user_id, None)
        seat = match.seat_of(user_id)
        request = self.pending_takeback(match)
        if request is None or match.version != version:
            raise errors.UserError(N_("This take-back request is no longer open: it was answered, or the match "
                                      "has moved on since."))
        if seat == request["seat"]:
            raise errors.UserError(N_("That's your own request — waiting for the others."))
        in_play = actions.game_of(match).in_play(actions.state_of(match))
        if seat not in in_play:
            raise errors.UserError(N_("You are out of this match, so the others decide."))
        if seat in request["agreed"]:
            raise errors.UserError(N_("You have already accepted; waiting for the others."))
        asker = request["seat"]
        if not accept:
            declined = replace(match, takeback=None)
            presented = await self._store(match, None, TakebackAnswered(declined, seat, False))
            log.info("match=%s guild=%s user=%s declined the take-back", match.id, match.guild_id, user_id)
            return TurnReport(declined, "takeback_declined", asker, request["move"], presented=presented)
        agreed = sorted(set(request["agreed"]) | {seat})
        if not set(in_play) <= set(agreed):
            joined = replace(match, takeback={**request, "agreed": agreed})
            presented = await self._store(match, joined.takeback, TakebackAnswered(joined, seat, True))
            return TurnReport(joined, "takeback_agreed", asker, request["move"], presented=presented)
        return await self._take_back(match, asker, request)

    async def _take_back(self, match: Match, asker: int, request: dict[str, Any]) -> TurnReport:
        moves = await self.actions.moves_of(match)
        if not moves or moves[-1].version != request["undone"]:  # the version guard makes this unreachable
            raise errors.UserError(N_("That move is no longer the last one, so it can't be taken back."))
        undone = moves[-1]
        state = rebuild_state(match.game, len(match.seats), match.seed, match.options, moves[:-1],
                              names=match.names)
        return await self.actions.conclude(match, Action(
            "takeback", asker, logged=TAKEBACK, shown=undone.move, said=f"seat={asker} took back {undone.move}",
            events=[takeback_event(undone.version)], new_state=state, rewinds=True,
        ))

    async def _store(self, match: Match, request: dict[str, Any] | None, event: MatchEvent) -> Delivery | None:
        """Write the request (or its answers) guarded by the version and the request read, with `event` that
        announces it: another answer that landed meanwhile makes this one read again (AnswerRaced), a move makes
        it stale."""
        return await self.actions.answer_announced(match, event, lambda outbox: self.repo.set_takeback(
            match.id, match.version, request, previous=match.takeback, outbox=outbox))

    def _refusal(self, match: Match, seat: int, moves: Sequence[LoggedMove]) -> errors.UserError | None:
        """Why the player of `seat` may not take back her last move now (None: she may ask)."""
        game = self.actions.game_of(match)
        mine = [i for i, entry in enumerate(moves) if entry.seat == seat]
        if not mine:
            return errors.UserError(N_("You have no move to take back in this match."))
        last = moves[mine[-1]]
        if last.move in MATCH_ACTIONS:
            return errors.UserError(N_("Only a move can be taken back."))
        later = moves[mine[-1] + 1:]
        if later:
            if self._forced(match, moves, mine[-1] + 1):
                return errors.UserError(N_("A forced move followed yours, so it can't be taken back."))
            who = match.seats[later[0].seat].user_name
            return errors.UserError(N_("Too late: **{player}** has acted since. A move can only be taken back "
                                       "until the next player acts."), player=who)
        if last.private or game.is_private_move(last.move):
            return errors.UserError(N_("A secret setup move can't be taken back."))
        revealed = self._revealing(game, last.events)
        if revealed:
            return errors.UserError(N_("That move revealed hidden information ({revealed}), so it can't be taken "
                                       "back: you would play it again knowing more."), revealed=revealed)
        return None

    @staticmethod
    def _revealing(game: Game, events: Sequence[Event]) -> str | None:
        """What a move's events showed that was hidden before (an event type, or "a secret"), None if nothing."""
        kinds = revealing_events(game.info.key)  # also any event private to some seats: below
        for ev in events:
            if ev.get("type") in kinds:
                return f"a {ev['type'].replace('_', ' ')}"
            if not is_visible(ev, None):
                return "something private"
        return None

    def _forced(self, match: Match, moves: Sequence[LoggedMove], start: int) -> bool:
        """True when the entries from `start` on are all moves the match played for players without a choice."""
        game = self.actions.game_of(match)
        run = replay_moves(game, len(match.seats), match.seed, match.options, moves, names=match.names)
        return all(game.forced_move(run.states[i], moves[i].seat) == moves[i].move
                   for i in range(start, len(moves)))


__all__ = ["Takebacks"]
