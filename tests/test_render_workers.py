"""The render workers after a restart: both meet the same boards at once, and each board palette is still built
once (a palette takes 50-400 ms; building each twice made the first boards after a restart come late)."""

from __future__ import annotations

import asyncio

from bot.games.registry import get_game
from bot.presenters.pictures import RenderQueue
from bot.games import registry

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


async def test_each_board_palette_is_built_once_when_both_workers_meet_it_at_once(monkeypatch):
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
    queue = RenderQueue(workers=2)
    try:
        # Two matches of each kind of board come in together: both workers take one of them at the same moment.
        pictures = await asyncio.gather(*(queue.run(registry.render, view) for view in views for _ in range(2)))
    finally:
        queue.close()
    assert all(pictures[i] == pictures[i + 1] for i in range(0, len(pictures), 2))
    assert sorted(built) == sorted(view["game"] for view in views), f"{len(built)} palettes for {len(views)} boards"
