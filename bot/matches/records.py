"""What a match leaves behind and what can be undone: history, records, replays, rematches and take-backs.

Everything here reads the move log through `effective_moves` (movelog.py), so a taken-back move is gone from the
history, the exported record, the replay and every rebuilt state alike. Each reader gets only what she may know:
a player's own secret setup moves are hers, nobody else's, until the match is over (history.py, record.py).

Take-backs change a match, so they follow the service's rules for changes: under the match's lock, written by
`MatchService._commit` (version-guarded), announced on the bus. The rest only reads.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Sequence

from bot.games import Event, Game, is_visible
from bot.games.record import MATCH_ACTIONS, format_record, rebuild_state, replay_moves
from bot.games.registry import revealing_events
from bot.i18n import N_
from bot.storage import Challenge, LoggedMove, Match
from bot.storage.plans import PlanStore

from . import errors
from .events import MovePlayed, TakebackAnswered, TakebackAsked
from .history import history_lines, mark_planned, paginate
from .movelog import TAKEBACK, effective_moves, takeback_event
from .service import MatchService, TurnReport

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class HistoryPage:
    match: Match
    title: str
    text: str
    page: int  # 0-based, clamped to the pages there are
    pages: int


@dataclass(frozen=True)
class Rematch:
    challenge: Challenge  # as it is now
    opened: bool  # True: a new challenge, to be posted; False: the user took her seat in the open one


@dataclass(frozen=True)
class Export:
    match: Match
    filename: str
    text: str


class MatchRecords:
    def __init__(self, service: MatchService):
        self.service = service
        self.repo = service.repo

    async def moves(self, match: Match) -> list[LoggedMove]:
        """The match's effective moves, oldest first."""
        return effective_moves(await self.repo.moves(match.id))

    # --- reading ---------------------------------------------------------------------------------------------

    async def history(self, match_id: int, user_id: int, guild_id: int | None, page: int = 0) -> HistoryPage:
        """A page of the match's history as `user_id` may read it (a player sees her own secret moves)."""
        match = await self.service.match_for(match_id, user_id, guild_id)
        game = self.service.game_of(match)
        sides = self.service.view(match, None).get("seat_names")
        entries = await self.moves(match)
        lines = history_lines(game, entries, match.names, match.seat_of(user_id), finished=not match.active,
                              sides=sides)
        if not match.active:  # which moves were planned replies stays with their player until the end
            lines = mark_planned(lines, entries, await PlanStore(self.repo).planned_versions(match.id))
        pages = paginate(lines)
        page = min(max(page, 0), len(pages) - 1)
        title = f"{game.info.title} · match #{match.id} — history"
        return HistoryPage(match, title, pages[page], page, len(pages))

    async def export(self, match_id: int, user_id: int, guild_id: int | None) -> Export:
        """The match record as `user_id` may read it: her own secrets, nobody else's, while the match runs."""
        match = await self.service.match_for(match_id, user_id, guild_id)
        text = format_record(
            game=match.game, num_players=len(match.seats), seed=match.seed, options=match.options,
            entries=await self.moves(match), names=match.names, viewer=match.seat_of(user_id),
            result=match.result, date=match.created_at, match_id=match.id,
        )
        return Export(match, f"match-{match.id}.txt", text)

    async def finished_match(self, match_id: int, user_id: int, guild_id: int | None) -> Match:
        """A finished match of the server, for /replay: a running one would show moves in the making."""
        match = await self.service.match_for(match_id, user_id, guild_id)
        if match.active:
            raise errors.UserError(N_("Match #{match} is still being played, so it has no replay yet: the thread "
                                      "gets one when it ends. `/history` shows its moves so far."), match=match.id)
        return match

    def public_views(self, match: Match, moves: Sequence[LoggedMove]) -> list[dict[str, Any]]:
        """The public view of every position of the match, start to end. Pure and slow for long matches: run it
        off the event loop."""
        run = replay_moves(match.game, len(match.seats), match.seed, match.options, moves, names=match.names)
        return run.views(None)

    # --- rematch ---------------------------------------------------------------------------------------------

    async def rematch(self, match_id: int, user_id: int, user_name: str) -> Rematch:
        """A challenge to the same players with the same options, seats rotated (the old seat 1 becomes seat 0,
        and so on, so everyone gets another side); the asking player's seat is taken, the others accept. A player
        who presses Rematch while another's rematch is open accepts that one: both pressing it is the usual way."""
        match = await self.service.get_match(match_id)
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
        async with self.service._operation(lock_key=match.id):
            existing = await self.repo.open_rematch(match.id, self.service.clock())
            if existing is not None:
                if existing.holds(user_id):
                    raise errors.UserError(N_("You have already asked for this rematch; waiting for the others."))
                return Rematch(await self.service.accept_challenge(existing.id, user_id, user_name), opened=False)
            challenge = await self.service.create_challenge(
                guild_id=match.guild_id, channel_id=match.channel_id, challenger_id=user_id,
                challenger_name=user_name, game_key=match.game, invited=invited, options=match.options,
                computer_level=computer_level, rated=match.rated, challenger_position=position,
            )
            await self.repo.set_rematch_of(challenge.id, match.id)
        log.info("match=%s guild=%s user=%s rematch challenge=%s", match.id, match.guild_id, user_id, challenge.id)
        return Rematch(challenge, opened=True)

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
        game = self.service.game_of(match)
        if self._revealing(game, report.events) or report.seat in self.service.to_act(match):
            return False
        return True

    async def ask_takeback(self, match_id: int, user_id: int, *, expected_version: int | None = None) -> TurnReport:
        """Ask the other players to let the user take back her last move. Only until the next player acts, and
        never for a move that showed something hidden, a secret setup move, or one a forced move followed.
        `expected_version`: the version her move made (from a button), so a button after later moves refuses."""
        async with self.service._operation(lock_key=match_id):
            return await self.service.answering(match_id, lambda: self._ask_takeback(match_id, user_id,
                                                                                     expected_version))

    async def _ask_takeback(self, match_id: int, user_id: int, expected_version: int | None) -> TurnReport:
        service = self.service
        match = await service._playable(match_id, user_id, None)
        seat = match.seat_of(user_id)
        request = self.pending_takeback(match)
        if request is not None:
            if request["seat"] == seat:
                raise errors.UserError(N_("You have already asked to take that move back; waiting for an answer."))
            raise errors.UserError(N_("**{player}** has asked to take a move back; that request is answered first."),
                                   player=match.seats[request["seat"]].user_name)
        moves = await self.moves(match)
        refusal = self._refusal(match, seat, moves)
        if refusal is None and expected_version is not None and expected_version != match.version:
            refusal = errors.UserError(N_("That move is no longer the last one, so it can't be taken back."))
        if refusal is not None:
            raise refusal
        last = moves[-1]
        request = {"seat": seat, "version": match.version, "agreed": [seat], "undone": last.version,
                   "move": last.move}
        await self._store(match, request)
        match = await service.get_match(match.id)
        log.info("match=%s guild=%s user=%s seat=%s asked to take back %s", match.id, match.guild_id, user_id,
                 seat, last.move)
        presented = service.bus.publish(TakebackAsked(match, seat, last.move))
        return TurnReport(match, "takeback_asked", seat, last.move, presented=presented)

    async def answer_takeback(self, match_id: int, user_id: int, version: int, accept: bool) -> TurnReport:
        """Accept or decline the open take-back request asked at `version`. Once every other player still in
        has accepted, the move is taken back: the exact earlier state, rebuilt from the seed and the moves."""
        async with self.service._operation(lock_key=match_id):
            return await self.service.answering(match_id, lambda: self._answer_takeback(match_id, user_id, version,
                                                                                        accept))

    async def _answer_takeback(self, match_id: int, user_id: int, version: int, accept: bool) -> TurnReport:
        service = self.service
        match = await service._playable(match_id, user_id, None)
        seat = match.seat_of(user_id)
        request = self.pending_takeback(match)
        if request is None or match.version != version:
            raise errors.UserError(N_("This take-back request is no longer open: it was answered, or the match "
                                      "has moved on since."))
        if seat == request["seat"]:
            raise errors.UserError(N_("That's your own request — waiting for the others."))
        in_play = service.game_of(match).in_play(service.state_of(match))
        if seat not in in_play:
            raise errors.UserError(N_("You are out of this match, so the others decide."))
        if seat in request["agreed"]:
            raise errors.UserError(N_("You have already accepted; waiting for the others."))
        asker = request["seat"]
        if not accept:
            await self._store(match, None)
            match = await service.get_match(match.id)
            log.info("match=%s guild=%s user=%s declined the take-back", match.id, match.guild_id, user_id)
            presented = service.bus.publish(TakebackAnswered(match, seat, False))
            return TurnReport(match, "takeback_declined", asker, request["move"], presented=presented)
        agreed = sorted(set(request["agreed"]) | {seat})
        if not set(in_play) <= set(agreed):
            await self._store(match, {**request, "agreed": agreed})
            match = await service.get_match(match.id)
            presented = service.bus.publish(TakebackAnswered(match, seat, True))
            return TurnReport(match, "takeback_agreed", asker, request["move"], presented=presented)
        return await self._take_back(match, asker, request)

    async def _take_back(self, match: Match, asker: int, request: dict[str, Any]) -> TurnReport:
        service = self.service
        moves = await self.moves(match)
        if not moves or moves[-1].version != request["undone"]:  # the version guard makes this unreachable
            raise errors.UserError(N_("That move is no longer the last one, so it can't be taken back."))
        undone = moves[-1]
        state = rebuild_state(match.game, len(match.seats), match.seed, match.options, moves[:-1],
                              names=match.names)
        match = await service._commit(match, seat=asker, move=TAKEBACK, private=False,
                                      events=[takeback_event(undone.version)], new_state=state)
        log.info("match=%s guild=%s seat=%s took back %s version=%s", match.id, match.guild_id, asker, undone.move,
                 match.version)
        presented = service.bus.publish(MovePlayed(match, "takeback", asker, undone.move))
        return TurnReport(match, "takeback", asker, undone.move, presented=presented)

    async def _store(self, match: Match, request: dict[str, Any] | None) -> None:
        """Write the request (or its answers) guarded by the version and the request read: another answer
        that landed meanwhile makes this one read again (AnswerRaced), a move makes it stale."""
        await self.service.answer_guarded(match, lambda: self.repo.set_takeback(
            match.id, match.version, request, previous=match.takeback))

    def _refusal(self, match: Match, seat: int, moves: Sequence[LoggedMove]) -> errors.UserError | None:
        """Why the player of `seat` may not take back her last move now (None: she may ask)."""
        game = self.service.game_of(match)
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
        game = self.service.game_of(match)
        run = replay_moves(game, len(match.seats), match.seed, match.options, moves, names=match.names)
        return all(game.forced_move(run.states[i], moves[i].seat) == moves[i].move
                   for i in range(start, len(moves)))


__all__ = ["Export", "HistoryPage", "MatchRecords", "Rematch"]
