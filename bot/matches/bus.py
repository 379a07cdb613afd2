"""Delivery of service events to their subscribers (the presenters, ratings), in order per match.

The service publishes and moves on: each match (or challenge) has its own queue, drained by a task that ends when
the queue is empty, so a slow board post of one match never delays another and nothing lingers per idle match.
`publish` returns a Delivery: awaiting it tells the caller whether every subscriber managed (for "your move
counts, but the board could not be posted").
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any, Awaitable, Callable, Generator, Generic, TypeVar

from .events import match_id_of

log = logging.getLogger(__name__)

E = TypeVar("E")  # what one bus carries: MatchEvent, or the league events
# A subscriber returns False when it could not do its part (a refused post); exceptions are logged and count as False.
Subscriber = Callable[[E], Awaitable[bool | None]]


class Delivery:
    """Awaitable: True once the event was presented, False if a subscriber failed or delivery was cancelled.

    It waits on the match's delivery task (shielded, so a caller that gives up cancels nothing), which makes the
    wait visible as what it is to anything that inspects tasks."""

    def __init__(self, task: asyncio.Task, done: asyncio.Future[bool]):
        self._task, self._done = task, done

    def __await__(self) -> Generator[Any, None, bool]:
        return self._result().__await__()

    async def _result(self) -> bool:
        if not self._done.done():
            try:
                await asyncio.shield(self._task)
            except asyncio.CancelledError:
                if not self._task.cancelled():
                    raise  # the caller was cancelled, not the delivery
        if self._done.done() and not self._done.cancelled():
            return self._done.result()
        return False


class EventBus(Generic[E]):
    def __init__(self, key: Callable[[Any], int] = match_id_of) -> None:
        """`key`: what orders delivery (events with one key are delivered in order): the match, by default."""
        self._key = key
        self._subscribers: list[Subscriber[E]] = []
        self._queues: dict[int, deque[tuple[E, asyncio.Future[bool]]]] = {}
        self._drains: dict[int, asyncio.Task] = {}
        self._tasks: set[asyncio.Task] = set()

    def subscribe(self, subscriber: Subscriber[E]) -> None:
        self._subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber[E]) -> None:
        self._subscribers.remove(subscriber)

    def publish(self, event: E) -> Delivery:
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        key = self._key(event)
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
            task = asyncio.create_task(self._drain(key, queue), name=f"present-{key}")
            self._drains[key] = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        queue.append((event, done))
        return Delivery(self._drains[key], done)

    def superseded(self, event: E) -> bool:
        """Whether an event of a newer version of the same match waits behind `event`: a board posted for it
        would be out of date before anyone saw it."""
        match = getattr(event, "match", None)
        if match is None:
            return False
        return any(getattr(later, "match", match).version > match.version
                   for later, _ in self._queues.get(self._key(event), ()))

    async def _drain(self, key: int, queue: deque[tuple[E, asyncio.Future[bool]]]) -> None:
        try:
            while queue:
                event, done = queue.popleft()
                ok = True
                for subscriber in self._subscribers:
                    try:
                        ok = (await subscriber(event)) is not False and ok
                    except asyncio.CancelledError:
                        done.cancel()
                        raise
                    except Exception:
                        log.exception("presenting %s failed", type(event).__name__)
                        ok = False
                if not done.done():
                    done.set_result(ok)
        finally:
            self._queues.pop(key, None)
            self._drains.pop(key, None)
            while queue:  # cancelled mid-way: tell waiting callers rather than hang them
                _, done = queue.popleft()
                done.cancel()

    async def idle(self) -> None:
        """Wait until every published event has been delivered (shutdown, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
