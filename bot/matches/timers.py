"""One dispatcher for every deadline. Deadlines are rows of the `timers` table, so they survive restarts; the
dispatcher sleeps until the earliest, fires what is due (each row once: it is claimed before its handler runs) and
sleeps again. A thousand running clocks cost one task, not a thousand.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from bot.domain import Timer
from bot.storage import Repository

log = logging.getLogger(__name__)

Handler = Callable[[Timer], Awaitable[None]]
RETRY_AFTER_FAILURE = 60.0


class TimerDispatcher:
    def __init__(self, repo: Repository, clock: Callable[[], float]):
        self.repo = repo
        self.clock = clock
        self._handlers: dict[str, Handler] = {}
        self._task: asyncio.Task | None = None
        self._sleeping = False  # only a sleeping dispatcher may be restarted: a handler is never interrupted
        self._wake_at: float | None = None  # when the sleeping dispatcher will look again
        self._dirty = False  # a timer was written while the dispatcher was busy: look again before sleeping
        self._stopped = False

    def on(self, kind: str, handler: Handler) -> None:
        self._handlers[kind] = handler

    def start(self) -> None:
        self._stopped = False
        self.wake()

    def wake(self, due_at: float | None = None) -> None:
        """Re-read the earliest deadline (call after adding or moving a timer; `due_at`: the earliest time just
        written, when the caller knows it). Never interrupts a handler.

        A timer due no earlier than the sleeping dispatcher's next look needs no wake-up: it will be found then.
        That is the common case (a move starts the next player's days-long clock), and it saves two queries a
        move; a timer moved later or deleted costs at most one needless look when its old time comes."""
        if self._stopped:
            return
        if self._task is not None and not self._task.done():
            if not self._sleeping:
                self._dirty = True
                return
            if due_at is not None and self._wake_at is not None and due_at >= self._wake_at:
                return
            self._task.cancel()
        self._task = asyncio.create_task(self._run(), name="timer-dispatcher")

    async def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    async def fire_due(self) -> int:
        """Fire every timer that is due now; returns how many fired."""
        fired = 0
        while True:
            due = await self.repo.due_timers(self.clock())
            if not due:
                return fired
            for timer in due:
                if not await self.repo.claim_timer(timer, self.clock()):
                    continue
                handler = self._handlers.get(timer.kind)
                if handler is None:
                    log.warning("timer %s of unknown kind %s dropped", timer.id, timer.kind)
                    continue
                fired += 1
                try:
                    await handler(timer)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("timer kind=%s ref=%s seat=%s failed", timer.kind, timer.ref_id, timer.seat)

    async def _look(self) -> float | None:
        """Fire what is due; the time of the next timer, if any."""
        await self.fire_due()
        return await self.repo.next_timer_due()

    async def _run(self) -> None:
        while not self._stopped:
            self._dirty = False
            try:
                # Each look is a task of its own that ends when it is done, so whoever waits for the bot to be
                # idle (SimCord's settle, in the tests) sees it finish, where the dispatcher itself never ends.
                due = await asyncio.create_task(self._look(), name="timer-look")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer dispatcher failed; retrying in a minute")
                due = self.clock() + RETRY_AFTER_FAILURE
            if self._dirty:
                continue  # a timer was written while we looked
            if due is None:
                return  # nothing pending: the task ends, and the next timer written starts it again
            self._sleeping = True
            self._wake_at = max(due, self.clock())  # the sleep below ends half a second after this
            try:
                await asyncio.sleep(max(0.0, due - self.clock()) + 0.5)
            finally:
                self._sleeping = False
                self._wake_at = None
