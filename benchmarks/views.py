"""The positions the picture benchmarks draw: views from seeded random games."""

from __future__ import annotations

from bot.engine.playout import final_state, random_plies
from bot.games.registry import get_game


def sampled_views(key: str, players: int, games: int, every: int, *, finals: bool = False) -> list[dict]:
    """Every `every`-th position of `games` seeded random games, the viewer going round the public view and each
    seat's; with `finals`, each game's final position too (its public view)."""
    game = get_game(key)
    viewers = [None, *range(players)]
    views = []
    for seed in range(games):
        for i, ply in enumerate(random_plies(game, players, seed)):
            if i % every == 0:
                views.append(game.view(ply.state, viewers[len(views) % len(viewers)]))
        if finals:
            views.append(game.view(final_state(game, players, seed), None))
    return views
