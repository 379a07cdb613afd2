"""Pictures for Discord, rendered off the event loop through one bounded, fair queue.

At most one render per core runs at a time (Pillow releases the interpreter lock while it draws and encodes, so
worker threads keep both cores busy); everyone else waits in arrival order, so a burst of a thousand moves is
served first come, first served and no match starves. A match's superseded board is never rendered: the
presenters skip a board whose match has moved on before its turn came (bot/presenters/__init__.py).
"""

from __future__ import annotations

import asyncio
import functools
import io
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence

import discord

from bot.games import registry
from bot.matches import errors
from renderers.rating_chart import rating_chart

MAX_WAITING = 5000  # renders waiting for a worker; beyond this the bot is overloaded and says so


class RenderBusy(errors.UserError):
    """More renders are waiting than the queue holds: say so rather than queue without end."""

    def __init__(self) -> None:
        super().__init__("Strategos is very busy right now. Nothing was changed — please try again in a minute.")


class RenderQueue:
    def __init__(self, workers: int | None = None, max_waiting: int = MAX_WAITING):
        self.workers = workers or os.cpu_count() or 2
        self.max_waiting = max_waiting
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="render")
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.waiting = 0

    async def run(self, func: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # made on first use in each event loop (tests run many loops in turn)
            self._slots, self._loop, self.waiting = asyncio.Semaphore(self.workers), loop, 0
        if self.waiting >= self.max_waiting:
            raise RenderBusy()
        self.waiting += 1
        entered = False
        try:
            async with self._slots:
                entered = True
                self.waiting -= 1
                return await loop.run_in_executor(self._executor, functools.partial(func, *args, **kwargs))
        finally:
            if not entered:  # cancelled while waiting for a worker
                self.waiting -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


QUEUE = RenderQueue()


async def render_png(view: dict[str, Any], names: Sequence[str]) -> bytes:
    return await QUEUE.run(registry.render, view, player_names=list(names))


async def render_file(view: dict[str, Any], names: Sequence[str], filename: str = "board.png", *,
                      description: str | None = None) -> discord.File:
    """The picture of a view; `description` is its alt text (bot/presenters/describe.py), read by screen readers."""
    return discord.File(io.BytesIO(await render_png(view, names)), filename=filename, description=description)


async def rules_file(game_key: str, description: str | None = None) -> discord.File | None:
    if not registry.can_render(game_key):
        return None
    png = await QUEUE.run(registry.rules_diagram, game_key)
    return discord.File(io.BytesIO(png), filename="rules.png", description=description)


async def rating_chart_file(points: Sequence[tuple[float, int]], title: str,
                            description: str | None = None) -> discord.File:
    png = await QUEUE.run(rating_chart, list(points), title=title)
    return discord.File(io.BytesIO(png), filename="rating.png", description=description)
