"""The computer opponent's seats: when one is to act, it thinks in a worker process and plays like anyone else.

Each turn of a computer seat is a timer row ("computer_move", due after a short pause so its moves read
naturally), claimed like every timer: of several bot processes, the one whose dispatcher claims the row thinks,
and a turn survives a restart (a think cut off fires again when its claim runs out). At start-up every computer
seat that is to act gets its turn, unless a dispatcher holds it. Its move goes through the same versioned write as a
person's, so a move is made once even if a think is repeated.
The computer decides from its seat's view alone (bot.ai), never from the full state.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import Executor
from typing import Callable

from bot.domain import DamagedMatch, Match, Timer
from bot.engine.base import seeded_rng

from bot.storage import Repository

from . import errors
from .bus import EventBus
from .damage import alone
from .events import BoardRepaired, MatchEvent, MatchStarted, MovePlayed, SetupProgress
from .service import MatchService
from .timers import TimerDispatcher

log = logging.getLogger(__name__)

COMPUTER_MOVE = "computer_move"
PAUSE_SECONDS = 2.0  # a move that lands the instant the player moved reads like a glitch, not a reply

# The computer's decision, handed in by the composition root (bot/app.py: bot.games.registry.choose_move):
# choose(view, *, level, seed) -> move. A module-level function, so that it reaches the worker process by name,
# which the executor factory makes (bot/app.py: bot.workers.computer_pool).
ChooseMove = Callable[..., str]


class ComputerPlayers:
    def __init__(self, service: MatchService, repo: Repository, timers: TimerDispatcher, bus: EventBus[MatchEvent],
                 choose: ChooseMove, executor_factory: Callable[[], Executor], pause: float = PAUSE_SECONDS):
        self.service = service
        self.repo = repo
        self.timers = timers
        self._choose = choose
        self.pause = pause
        self._executor_factory = executor_factory
        self._executor: Executor | None = None
        self._thinking = 0
        self._idle = asyncio.Event()
        self._idle.set()
        timers.on(COMPUTER_MOVE, self._think)
        bus.subscribe(self._on_event)

    async def resume(self) -> None:
        """At start-up: every computer seat that is to act gets its turn, unless it is being thought about (by
        another process; or by this one before a stop, and then its claim runs out and it fires again)."""
        for match in await self.repo.active_matches_with_computers():
            if isinstance(match, DamagedMatch):  # set aside: it fails alone, the others get their turns
                await self.service.set_aside(match)
                continue
            async with alone(self.repo, self.service.clock):  # its state may be one its engine refuses
                await self._schedule(match, unless_claimed=True)

    async def _on_event(self, event: MatchEvent) -> bool:
        # a match's seats never change: most have no computer
        if isinstance(event, (MatchStarted, MovePlayed, BoardRepaired, SetupProgress)) and any(
                not seat.is_member for seat in event.match.seats):
            match = await self.service.get_match(event.match.id)
            await self._schedule(match)
        return True

    async def _schedule(self, match: Match, *, unless_claimed: bool = False) -> None:
        if not match.active:
            return
        due_at = self.service.clock() + self.pause
        computer_seats = [seat for seat in self.service.to_act(match) if not match.seats[seat].is_member]
        for seat in computer_seats:
            if unless_claimed:
                await self.timers.arm_unless_claimed(COMPUTER_MOVE, match.id, due_at, seat)
            else:
                await self.repo.set_timer(COMPUTER_MOVE, match.id, due_at, seat)
        if computer_seats:
            self.timers.wake(due_at)
            self._worker()  # a first worker starts during the pause, not when the first think needs it

    async def _think(self, timer: Timer) -> None:
        match = await self.repo.get_match(timer.ref_id)
        if match is None or not match.active or timer.seat not in self.service.to_act(match):
            return
        seat = match.seats[timer.seat]
        view = self.service.view(match, timer.seat)
        seed = seeded_rng(match.seed, "computer", match.version, timer.seat).randrange(2**31)
        loop = asyncio.get_running_loop()
        self._thinking += 1
        self._idle.clear()
        try:
            move = await loop.run_in_executor(
                self._worker(), functools.partial(self._choose, view, level=seat.level or "normal", seed=seed))
        finally:
            self._thinking -= 1
            if not self._thinking:
                self._idle.set()
        try:
            await self.service.submit_seat_move(match.id, timer.seat, move, expected_version=match.version)
        except errors.UserError as exc:  # the match moved on meanwhile (a resignation, a draw): nothing to do
            log.info("match=%s computer seat=%s move dropped: %s", match.id, timer.seat, exc)

    async def idle(self) -> None:
        """Returns once no think is in flight here: work that can wait (an analysis) goes after live matches."""
        await self._idle.wait()

    def _worker(self) -> Executor:
        if self._executor is None:
            self._executor = self._executor_factory()
            self._executor.submit(int)  # no work: it only starts the worker process now
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
