"""Pictures for Discord, rendered in worker processes through one bounded, fair queue.

A picture is drawn in a worker process of its own (bot/workers.py: Python runs one thread's code at a time, so
render threads shared one core with the event loop); at most one render per core runs at a time, and everyone else
waits in arrival order, so a burst of a thousand moves is served first come, first served and no match starves. A
match's superseded board is never rendered: the presenters skip a board whose match has moved on before its turn
came (bot/presenters/__init__.py).
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import os
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Sequence

import discord

from bot import answers_first
from bot.workers import picture_job, process_pool
from bot.games import registry
from bot.i18n import ENGLISH
from bot.matches import errors
from renderers.rating_chart import rating_chart

log = logging.getLogger(__name__)

MAX_WAITING = 5000  # renders waiting for a worker; beyond this the bot is overloaded and says so
# Renders handed to the workers at once, per worker: one being drawn and the next one waiting in the pool, so that
# a worker that finishes starts its next picture at once instead of waiting for the busy event loop to hand it one.
IN_FLIGHT = 2


class RenderBusy(errors.UserError):
    """More renders are waiting than the queue holds: say so rather than queue without end."""

    def __init__(self) -> None:
        super().__init__("Strategos is very busy right now. Nothing was changed — please try again in a minute.")


class RenderQueue:
    """`workers` worker processes (one per core by default), started on first use or by start()."""

    def __init__(self, workers: int | None = None, max_waiting: int = MAX_WAITING,
                 executor_factory: Callable[[int], Executor] = process_pool):
        self.workers = workers or os.cpu_count() or 2
        self.max_waiting = max_waiting
        self._factory = executor_factory
        self._executor: Executor | None = None
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.waiting = 0
        self.on_drawn: list[Callable[[float], None]] = []  # told each picture's seconds (bot/metrics.py)

    def start(self) -> list:
        """Start every worker now (at the bot's start), so that the first pictures do not wait for a process to
        start; returns the futures of that start, done when every worker is up."""
        pool = self._pool()
        return [pool.submit(int) for _ in range(self.workers)]  # no work: each one takes a worker of its own

    async def run(self, func: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        """`func(*args, **kwargs)` in a worker: `func` a module-level function and the arguments plain data, so
        that they reach the worker process."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # made on first use in each event loop (tests run many loops in turn)
            self._slots, self._loop, self.waiting = asyncio.Semaphore(IN_FLIGHT * self.workers), loop, 0
        if self.waiting >= self.max_waiting:
            raise RenderBusy()
        self.waiting += 1
        entered = False
        job = functools.partial(func, *args, **kwargs)
        assert self._slots is not None  # made above for this loop
        try:
            async with self._slots:
                entered = True
                self.waiting -= 1
                started = time.perf_counter()
                try:
                    picture = await loop.run_in_executor(self._pool(), job)
                except BrokenProcessPool:
                    # A worker died (killed, out of memory): the pool is unusable from then on. A new one draws
                    # this picture once more; a picture that kills its worker again fails here.
                    log.warning("a picture worker died; starting new ones")
                    self._discard()
                    picture = await loop.run_in_executor(self._pool(), job)
                for drawn in self.on_drawn:
                    drawn(time.perf_counter() - started)
        finally:
            if not entered:  # cancelled while waiting for a worker
                self.waiting -= 1
        await answers_first.turn()  # what follows a picture (its post) can wait for an interaction's answer
        return picture

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = self._factory(self.workers)
        return self._executor

    def _discard(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def close(self) -> None:
        self._discard()


QUEUE = RenderQueue()


def draw_in_threads() -> None:
    """Draw the pictures in threads of this process from now on. For the bot inside a simulated Discord (the
    tests, the demo): under its virtual clock, starting a second worker process never returns (multiprocessing
    polls its children against the clock), and a simulated Discord serves a handful of players, not a burst."""
    global QUEUE
    QUEUE = RenderQueue(executor_factory=ThreadPoolExecutor)


async def render_in(lang: str, draw: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> bytes:
    """`draw(*args, **kwargs)` in the render queue, its words in `lang`."""
    return await QUEUE.run(picture_job, lang, draw, args, kwargs)


async def render_png(view: dict[str, Any], names: Sequence[str], lang: str = ENGLISH) -> bytes:
    return await render_in(lang, registry.render, view, player_names=list(names))


async def render_file(view: dict[str, Any], names: Sequence[str], filename: str = "board.png", *,
                      description: str | None = None, lang: str = ENGLISH) -> discord.File:
    """The picture of a view, its words in `lang`; `description` is its alt text (bot/presenters/describe.py),
    read by screen readers."""
    return discord.File(io.BytesIO(await render_png(view, names, lang)), filename=filename, description=description)


async def rules_file(game_key: str, description: str | None = None, lang: str = ENGLISH) -> discord.File | None:
    if not registry.can_render(game_key):
        return None
    png = await render_in(lang, registry.rules_diagram, game_key, lang)
    return discord.File(io.BytesIO(png), filename="rules.png", description=description)


async def rating_chart_file(points: Sequence[tuple[float, int]], title: str,
                            description: str | None = None, lang: str = ENGLISH) -> discord.File:
    png = await render_in(lang, rating_chart, list(points), title=title)
    return discord.File(io.BytesIO(png), filename="rating.png", description=description)
