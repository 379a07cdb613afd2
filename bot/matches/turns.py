"""Turns: moves and secret setups, typed, picked step by step or played by the computer, and every check a board's
buttons make before a player acts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from bot.domain import DamagedMatch, Match, MatchLoad
from bot.games import Choices
from bot.i18n import N_

from . import errors
from .actions import Action, MatchActions, TurnReport
from .catalogue import confirmation_for
from .places import ConversationRecord, conversation_record

MAX_MOVE_LENGTH = 300  # far above any real move; longer input is refused before the engine sees it


def _typed(move: str) -> str:
    """What the user typed, trimmed; refused before any engine sees it when it cannot be a move at all."""
    move = move.strip()
    if len(move) > MAX_MOVE_LENGTH:
        raise errors.BadMove(N_("That is far too long to be a move ({length} characters)."), length=len(move))
    return move


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
class MoveConfirmation:
    """A typed move that asks to be confirmed before it is played (a Mycenae burn)."""

    match: Match
    move: str  # canonical
    question: str


class Turns:
    def __init__(self, actions: MatchActions):
        self.actions = actions

    # --- playing a move --------------------------------------------------------------------------------------

    async def submit_move(
        self, match_id: int, user_id: int, move: str, *, expected_version: int | None = None
    ) -> TurnReport:
        """Apply a move for the user. `expected_version` (from a button or picker) makes a stale one fail."""
        actions = self.actions
        move = _typed(move)
        async with actions.operation(lock_key=match_id):
            load = await actions.load(match_id)
            match = actions.check_playable(load.match, user_id, expected_version)
            return await self._play(match, actions.seat_to_act(match, user_id), move, user_id=user_id, load=load)

    async def move_command(self, match_id: int, user_id: int, guild_id: int | None,
                           move: str) -> TurnReport | MoveConfirmation:
        """/move: the match as the user may look it up from `guild_id` (see match_for), then the move played at
        once, or the question it must be confirmed with (a burn). One load, one unit of work."""
        actions = self.actions
        move = _typed(move)
        async with actions.operation(lock_key=match_id):
            load = await actions.load(match_id)
            match = load.match
            if match.seat_of(user_id) is None and match.guild_id != guild_id:
                raise errors.UnknownMatch(match_id)
            actions.check_playable(match, user_id, None)
            seat = actions.seat_to_act(match, user_id)
            canonical = actions.canonical(match, seat, move)
            question = confirmation_for(match.game, canonical)
            if question:
                return MoveConfirmation(match, canonical, question)
            return await self._play(match, seat, canonical, user_id=user_id, load=load)

    async def submit_seat_move(self, match_id: int, seat: int, move: str, *, expected_version: int) -> TurnReport:
        """A move of a seat that is not a member's (the computer opponent), under the same versioned write."""
        actions = self.actions
        async with actions.operation(lock_key=match_id):
            match = await actions.get_match(match_id)
            if not match.active:
                raise errors.MatchOver()
            if match.version != expected_version:
                raise errors.StaleBoard()
            if match.seats[seat].is_member or seat not in actions.to_act(match):
                raise errors.NotYourTurn()
            return await self._play(match, seat, move)

    async def _play(self, match: Match, seat: int, move: str, *, user_id: int | None = None,
                    load: MatchLoad | None = None) -> TurnReport:
        """Play `seat`'s move: a member's (`user_id`) or the computer's. `load`: what the action read (else the
        clocks and choices are read as needed)."""
        actions = self.actions
        await actions.clocks.check_in_time(match, seat, load.deadlines if load else None)
        game = actions.game_of(match)
        state = actions.state_of(match)
        canonical = actions.canonical(match, seat, move)
        new_state, events = game.apply(state, seat, canonical)
        private = game.is_private_move(canonical)
        who = f"user={user_id}" if user_id is not None else f"computer={match.seats[seat].level}"
        return await actions.conclude(match, Action(
            "move", seat, logged=canonical, shown=None if private else canonical,
            said=f"{who} seat={seat} move={'<secret>' if private else canonical}", events=events,
            new_state=new_state, private=private, by_user=user_id, setup=game.in_secret_setup(state),
        ), load=load)

    # --- what a player may do now (every check the buttons need) -------------------------------------------

    async def playable_match(
        self, match_id: int, user_id: int, *, version: int | None = None, board_message_id: int | None = None,
        need_turn: bool = False,
    ) -> Match:
        """The match if `user_id` may act on it from a board post (`board_message_id`) or a versioned button;
        raises the error to show otherwise. Only the newest board post acts (during a secret setup the position
        changes without a new post, so the post, not the version, makes a board current)."""
        actions = self.actions
        match = await actions.playable(match_id, user_id, None)
        if board_message_id is not None and match.board_message_id is not None:
            stale = board_message_id != match.board_message_id
        else:
            stale = version is not None and version != match.version
        if stale:
            raise errors.StaleBoard(actions.board_link(match))
        if need_turn:
            actions.seat_to_act(match, user_id)
        return match

    async def picker_step(
        self, match_id: int, user_id: int, path: Sequence[str], *, version: int | None = None,
        simultaneous: bool = False, loaded: Match | None = None,
    ) -> PickerStep:
        """The next step of the user's move picker after `path` (its version guards against a moved-on match,
        except during a secret setup, where other players' moves change nothing of hers). `loaded`: the match as
        playable_match just gave it, for the picker's first step (the Move click has read it once already)."""
        actions = self.actions
        if loaded is not None and loaded.id == match_id:
            match = actions.check_playable(loaded, user_id, None if simultaneous else version)
        else:
            match = await actions.playable(match_id, user_id, None if simultaneous else version)
        seat = actions.seat_to_act(match, user_id)
        game, state = actions.game_of(match), actions.state_of(match)
        choices = game.choices(state, seat, list(path))
        preview = game.preview(state, seat, choices.move) if choices.move else None
        return PickerStep(match, seat, game.info.title, choices, preview,
                          simultaneous or actions.in_secret_setup(match))

    async def matching_moves(self, match_id: int, user_id: int, typed: str, limit: int = 25) -> list[str]:
        """Autocomplete: the user's legal moves that match what she typed; [] when she may not move."""
        actions = self.actions
        try:
            match = await actions.repo.get_match(match_id)
            if match is None or not match.active:
                return []
            seat = match.seat_of(user_id)
            if seat is None or seat not in actions.to_act(match):
                return []
            state = actions.state_of(match)
        except DamagedMatch:  # no moves to offer: /move itself says why
            return []
        return actions.game_of(match).matching_moves(state, seat, typed[:MAX_MOVE_LENGTH], limit)

    async def private_view(self, match_id: int, user_id: int) -> PrivateView:
        match = await self.actions.get_match(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise errors.NotInMatch()
        return self._private_view(match, seat)

    async def longest_waiting(self, user_id: int) -> PrivateView | None:
        """/next: her view of the match that has waited longest for her (None: none waits). A match waits from
        its last change, which for a match where she must act is the move that began her turn."""
        actions = self.actions
        healthy, _ = await self.games_of(user_id)  # a damaged match waits for the operator, not for her
        waiting = [m for m in healthy if m.seat_of(user_id) in actions.to_act(m)]
        if not waiting:
            return None
        match = min(waiting, key=lambda m: (m.updated_at, m.id))
        return self._private_view(match, match.player_seat(user_id))

    def _private_view(self, match: Match, seat: int) -> PrivateView:
        actions = self.actions
        setup_open = actions.in_secret_setup(match) and seat in actions.to_act(match)
        request = self.actions.pending_request(match)
        return PrivateView(match, seat, actions.view(match, seat), setup_open,
                           request is not None and request.asked == seat)

    async def secret_setup_for(self, match_id: int, user_id: int) -> Match:
        """The match if the user still has a secret setup to make (the DM's "Set up in private" button)."""
        actions = self.actions
        match = await actions.playable(match_id, user_id, None)
        if not actions.in_secret_setup(match) or match.seat_of(user_id) not in actions.to_act(match):
            raise errors.UserError(N_("Your setup is done — nothing more to set up here."))
        return match

    async def autoplay(self, user_id: int, on: bool | None = None) -> bool:
        """Whether a turn of hers with a single legal move is played for her at once (games whose number of legal
        moves is public only: actions.played_for); `on` changes it first."""
        store = self.actions.repo.clocks
        if on is not None:
            await store.set_autoplay(user_id, on)
        return (await store.prefs([user_id]))[user_id].autoplay

    async def matches_of(self, user_id: int) -> list[Match]:
        """The user's active matches, those waiting for her first (the damaged ones left out: see games_of)."""
        return (await self.games_of(user_id))[0]

    async def conversation_record(self, user_id: int) -> ConversationRecord:
        """Her results in conversations (DMs, group DMs, servers without the bot), which no rating counts."""
        found = await self.actions.repo.matches_of_user(user_id, active_only=False)
        return conversation_record((m for m in found if isinstance(m, Match)), user_id)

    async def games_of(self, user_id: int) -> tuple[list[Match], list[DamagedMatch]]:
        """The user's active matches, those waiting for her first, and apart those that are damaged (set aside
        now if they were not yet): one damaged match hides none of the others."""
        actions = self.actions
        matches, damaged = [], []
        for found in await actions.repo.matches_of_user(user_id):
            if isinstance(found, Match):
                try:
                    actions.to_act(found)  # loads its state: a state its engine refuses damages it
                except DamagedMatch as damage:
                    found = damage
                else:
                    matches.append(found)
                    continue
            await actions.set_aside(found)
            damaged.append(found)
        matches.sort(key=lambda m: (m.seat_of(user_id) not in actions.to_act(m), -m.updated_at))
        return matches, damaged
