"""The match service: the whole life of a match, challenge → setup → turns → end. No Discord here.

Every rule check lives in the service; cogs and views turn a click into one call and show its answer. What happened
is published as typed events (events.py) on the bus, in order per match, for the presenters to show.

`MatchService` is its one face, and holds no logic of its own: each call is answered by the module of its use case,
and every one of them ends an action the same way (actions.py: one unit of work, the forced moves, the bus). It
builds none of them: bot/composition.py composes the service (`build_match_graph`).

    challenges.py   challenges, seats, the match a full challenge starts
    turns.py        moves and secret setups, and every check a board's buttons make
    endings.py      resigning, running out of time, draws
    takebacks.py    undoing a move by consent
    rematches.py    the same players again, seats rotated
    boards.py       a match's thread and board posts
    archive.py      history pages, exported records, replays
"""

from __future__ import annotations

from typing import Callable

from .actions import MatchActions
from .archive import MatchArchive
from .boards import Boards
from .challenges import Challenges
from .endings import Endings
from .rematches import Rematches
from .states import MatchStates
from .takebacks import Takebacks
from .turns import Turns


class MatchService:
    game_of = staticmethod(MatchStates.game_of)
    board_link = staticmethod(MatchActions.board_link)

    def __init__(self, actions: MatchActions, *, challenges: Challenges, turns: Turns, endings: Endings,
                 takebacks: Takebacks, rematches: Rematches, boards: Boards, archive: MatchArchive):
        self.actions = actions
        # The parts, for the tests and tools that drive them; the bot's callers are handed what they use.
        self.repo, self.clock, self.bus, self.limiter = actions.repo, actions.clock, actions.bus, actions.limiter
        self.timers, self.ratings, self.clocks = actions.timers, actions.ratings, actions.clocks
        self.server_settings, self.outbox = actions.server_settings, actions.outbox
        self.challenges, self.turns, self.endings = challenges, turns, endings
        self.takebacks, self.rematches, self.boards, self.archive = takebacks, rematches, boards, archive

        # Every call the cogs, views, presenters and the other services make, by the part that answers it.
        self.state_of, self.view, self.to_act = actions.state_of, actions.view, actions.to_act
        self.in_secret_setup, self.users_to_act = actions.in_secret_setup, actions.users_to_act
        self.get_match, self.match_for, self.moves_of = actions.get_match, actions.match_for, actions.moves_of
        self.answering, self.answer_guarded = actions.answering, actions.answer_guarded
        self.language, self.set_aside = actions.language, actions.set_aside

        clocks, settings, ratings = actions.clocks, actions.server_settings, actions.ratings
        self.clock_of, self.clock_status = clocks.of_running, clocks.status
        self.go_away, self.come_back, self.notifications = clocks.go_away, clocks.come_back, clocks.notifications
        self.vacation_left, self.member_zone = clocks.vacation_left, clocks.member_zone
        self.settings_for, self.change_setting = settings.for_manager, settings.change
        self.saw_language, self.server_time_zone = settings.saw_language, settings.time_zone
        self.leaderboard, self.rating_profile = ratings.leaderboard, ratings.profile

        self.create_challenge, self.get_challenge = challenges.create_challenge, challenges.get_challenge
        self.accept_challenge, self.decline_challenge = challenges.accept_challenge, challenges.decline_challenge
        self.cancel_challenge = challenges.cancel_challenge
        self.set_challenge_message = challenges.set_challenge_message
        self.start_prepared_challenge = challenges.start_prepared_challenge

        self.submit_move, self.move_command = turns.submit_move, turns.move_command
        self.submit_seat_move, self.picker_step = turns.submit_seat_move, turns.picker_step
        self.playable_match, self.matching_moves = turns.playable_match, turns.matching_moves
        self.private_view, self.pending_request = turns.private_view, actions.pending_request
        self.secret_setup_for, self.matches_of = turns.secret_setup_for, turns.matches_of
        self.games_of, self.conversation_record = turns.games_of, turns.conversation_record
        self.longest_waiting, self.autoplay = turns.longest_waiting, turns.autoplay

        self.resign, self.time_out = endings.resign, endings.time_out
        self.offer_draw, self.decline_draw = endings.offer_draw, endings.decline_draw
        self.check_draw_answer = endings.check_draw_answer

        self.ask_takeback, self.answer_takeback = takebacks.ask_takeback, takebacks.answer_takeback
        self.pending_takeback, self.takeback_offered = takebacks.pending_takeback, takebacks.takeback_offered
        self.rematch = rematches.rematch

        self.set_thread, self.record_board = boards.set_thread, boards.record_board
        self.mark_announced, self.repost_board = boards.mark_announced, boards.repost_board

        self.history, self.export, self.finished_match = archive.history, archive.export, archive.finished_match
        self.replay_views, self.move_log = archive.replay_views, archive.move_log

    # Settings the bot and the tests may change on a running service, kept where they are used.

    @property
    def seed_source(self) -> Callable[[], int]:
        return self.challenges.seed_source

    @seed_source.setter
    def seed_source(self, source: Callable[[], int]) -> None:
        self.challenges.seed_source = source

    @property
    def challenge_ttl(self) -> float:
        return self.challenges.ttl

    @property
    def closing(self) -> bool:
        return self.actions.closing

    @closing.setter
    def closing(self, closing: bool) -> None:
        self.actions.closing = closing

    # --- life cycle ------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Fire what fell due while the bot was down, then keep the deadlines; re-announce what a crash cut off."""
        await self.timers.release_stale()
        await self.clocks.recover()
        self.timers.start()
        await self.boards.announce_unannounced()

    async def drain(self) -> None:
        """Stop taking new actions and wait until every action in flight has been written and shown."""
        self.closing = True
        await self.actions.idle()
        await self.timers.stop()
        await self.outbox.idle()
        await self.bus.idle()
