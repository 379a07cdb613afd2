"""Worker processes for the bot's CPU-bound work: the computer's thinks (bot/matches/computer.py) and the pictures
(bot/presenters/pictures.py).

Python runs one thread's Python code at a time, so work done in threads of the bot's own process shares one core
with the event loop: with 1,000 moves at once, two render threads did 1.4 times the work of one, and each small
step a picture takes without the interpreter lock (a paste, a map) then waited up to 5 ms to get it back from the
busy event loop. In processes of their own, the pictures use the second core fully and leave the event loop alone.

Workers are not forked from the bot, which runs threads (the database's): a fork copies their locks in whatever
state they are in and can deadlock (Python 3.12+ warns of it). They come from a forkserver, a clean process that
imported the games, their first-use tables, the renderers with each game's first board layer and palette, and
every language's catalogue (bot/games/warm.py and this module), so a worker starts in milliseconds with all of
it, and a palette (50-400 ms) is built once, not once per worker. Where there is no forkserver they are spawned,
and each builds those in its initializer.
"""

from __future__ import annotations

import importlib
import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable

from bot.i18n import t, tn
from renderers.common import Translate, in_language

# Imported once in the forkserver and inherited by every worker: the games and their pictures, the catalogues,
# and the jobs themselves.
PRELOAD = ["bot.games.warm", "bot.i18n.preloaded", "bot.workers"]


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` processes from the forkserver (spawned where there is none)."""
    context: multiprocessing.context.BaseContext
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker)


def computer_pool() -> ProcessPoolExecutor:
    """The computer's worker (bot/matches/computer.py): one process, since a think holds a core for up to two
    seconds, never the event loop."""
    return process_pool(1)


def _start_worker() -> None:
    # Ctrl+C in a terminal reaches every process of the group, but stopping is the bot's to do (it shuts the pools
    # down), so a worker must not die on it with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for module in PRELOAD:  # imported already where the forkserver preloaded them; with spawn, here
        importlib.import_module(module)


def picture_words(lang: str) -> Translate:
    """How a renderer's words (an English template and its params) read in `lang`."""
    return lambda template, params, plural=None: tn(lang, template, plural, params.get("count"), **params)


def picture_job(lang: str, draw: Callable[..., bytes], args: tuple, kwargs: dict[str, Any]) -> bytes:
    """In a worker: `draw(*args, **kwargs)`, its words in `lang`. `draw` is a module-level function, so that it
    reaches the worker by name."""
    return in_language(picture_words(lang), draw, *args, **kwargs)
