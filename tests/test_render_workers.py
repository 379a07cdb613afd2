"""The picture workers: each board is drawn in a worker process (bot/workers.py), with its words in the asked
language, from a forkserver that built every game's first board palette once; a worker that dies is replaced. And
a palette is still built once when two threads of one process meet it at the same moment (the replay builds its
GIFs in a thread of the bot's process)."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import ThreadPoolExecutor

from bot.games import registry
from bot.games.registry import get_game
from bot.presenters.pictures import RenderQueue, render_in
from bot.workers import picture_job, picture_words
from renderers.common import in_language

PALETTE_GAMES = ("epaminondas", "archimedes", "myrmidons", "mycenae", "myriath")


def palette_caches():
    return [registry.renderer_of(game).board_palette for game in PALETTE_GAMES]


def start_views() -> list[dict]:
    """One board per game and player count: each needs a palette of its own."""
    views = []
    for key in PALETTE_GAMES:
        game = get_game(key)
        for players in sorted({game.info.min_players, game.info.max_players}):
            views.append(game.view(game.new_state(players, 1, None), None))
    return views


def _palettes_built() -> int:
    return sum(cache.cache_info().currsize for cache in palette_caches())


async def test_a_board_is_drawn_in_a_worker_process_in_the_asked_language():
    game = get_game("epaminondas")
    view = game.view(game.new_state(2, 1, None), 1)
    queue = RenderQueue(workers=2)
    try:
        assert await queue.run(os.getpid) != os.getpid()
        for lang in ("en", "de"):
            png = await queue.run(*_job(lang, view))
            assert png == in_language(picture_words(lang), registry.render, view, player_names=["Ann", "Bo"])
        assert await queue.run(*_job("de", view)) != await queue.run(*_job("en", view))
    finally:
        queue.close()


def _job(lang: str, view: dict) -> tuple:
    return picture_job, lang, registry.render, (view,), {"player_names": ["Ann", "Bo"]}


async def test_the_workers_start_with_every_games_first_palette_built():
    """The forkserver drew each game's start position for every player count before forking the workers, so the
    first board of each kind does not wait for its palette, and it is built once for all workers."""
    queue = RenderQueue(workers=2)
    try:
        await asyncio.gather(*map(asyncio.wrap_future, queue.start()))
        assert await queue.run(_palettes_built) >= len(start_views())
    finally:
        queue.close()


async def test_a_worker_that_dies_is_replaced_and_the_picture_still_comes():
    queue = RenderQueue(workers=1)
    view = start_views()[0]
    try:
        first = await queue.run(os.getpid)
        os.kill(first, signal.SIGKILL)  # as the kernel's out-of-memory killer would
        await asyncio.sleep(0.5)  # the pool notices its worker is gone
        assert await render_in_queue(queue, view) == registry.render(view)
        assert await queue.run(os.getpid) != first
    finally:
        queue.close()


async def render_in_queue(queue: RenderQueue, view: dict) -> bytes:
    return await queue.run(picture_job, "en", registry.render, (view,), {})


async def test_render_in_goes_through_the_queue():
    view = start_views()[1]
    assert await render_in("en", registry.render, view) == registry.render(view)


async def test_each_board_palette_is_built_once_when_two_threads_meet_it_at_once(monkeypatch):
    built = []  # every palette built: each board palette chooses its colours once (lru_cache's own count of
    # misses can't tell, it does not count a build that another thread finished first)
    for game in PALETTE_GAMES:
        module = registry.renderer_of(game)
        choose = module.palette_colours
        monkeypatch.setattr(module, "palette_colours", lambda *args, _choose=choose, _game=game: (
            built.append(_game), _choose(*args))[1])
    for cache in palette_caches():
        cache.cache_clear()  # as in a process just started
    views = start_views()
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(2) as threads:
        # Two of each kind of board come in together: both threads take one of them at the same moment.
        pictures = await asyncio.gather(*(loop.run_in_executor(threads, registry.render, view)
                                          for view in views for _ in range(2)))
    assert all(pictures[i] == pictures[i + 1] for i in range(0, len(pictures), 2))
    assert sorted(built) == sorted(view["game"] for view in views), f"{len(built)} palettes for {len(views)} boards"


async def test_explore_pictures_and_shared_lines_reach_a_worker_process(monkeypatch):
    # What a job carries must pickle: a renderer module does not, so Explore's pictures name the game instead.
    from types import SimpleNamespace

    from bot.presenters import explore as explore_presenter, pictures

    queue = RenderQueue(workers=1)
    monkeypatch.setattr(pictures, "QUEUE", queue)
    game = get_game("myrmidons")
    view = game.view(game.new_state(2, 1, None), 0)
    sandbox = SimpleNamespace(names=["Ann", "Bo"], assumed=False, line=[], match_id=7, planning=False)
    try:
        picture = await explore_presenter.explore_file(SimpleNamespace(sandbox=sandbox, view=view))
        assert picture.fp.read().startswith(b"\x89PNG")
        gif = await render_in("en", explore_presenter.line_gif, [view, view], player_names=["Ann", "Bo"])
        assert gif.startswith(b"GIF8")
    finally:
        queue.close()
