"""Board pictures: pure functions from an engine's view (bot.engine, view()) to PNG bytes. No Discord, no storage.

Each game draws its own boards (bot/games/<game>/renderer.py, a `BoardRenderer`) with the shared drawing here:
common.py (shapes and text in any script), png.py (palettes and the PNG writer), tiles.py (a board of squares
drawn and composed from square tiles), explore.py (Explore's banner), replay.py (replay GIFs), league.py and
rating_chart.py. Which game a view belongs to is the registry's to know
(bot/games/registry.py), so nothing here knows any game by name.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from PIL import Image

from .png import encode_png
from .rules_examples import RulesExample

RULES_DIAGRAM_SCALE = 0.7  # a smaller picture for /rules, still readable on a phone


class BoardRenderer(Protocol):
    """What a game's renderer module offers. `compose`, where a game has it, is `draw` on its palette (Explore
    adds its banner to that)."""

    def render(self, view: dict, *, player_names: Sequence[str] | None = None) -> bytes: ...

    def draw(self, view: dict, player_names: Sequence[str] | None = None, *, board_only: bool = False
             ) -> Image.Image: ...


def rules_diagram(game, renderer: BoardRenderer, example: RulesExample | None) -> bytes:
    """A smaller picture for /rules: the game's example position with its caption, or the start position without
    one. `game` is the engine the example's moves are played through."""
    if example is None:
        view = game.view(game.new_state(game.info.min_players, 0, None), None)
        img = renderer.draw(view, board_only=True)
    else:
        img = renderer.draw(rules_example_view(game, example))
    size = (round(img.width * RULES_DIAGRAM_SCALE), round(img.height * RULES_DIAGRAM_SCALE))
    return encode_png(img.resize(size, resample=Image.Resampling.BICUBIC))


def rules_example_view(game, example: RulesExample) -> dict:
    """The view of an example position, its moves played through the engine."""
    state = game.new_state(example.players, example.seed, example.options)
    for move in example.moves:
        state, _ = game.apply(state, game.to_act(state)[0], move)
    return game.view(state, example.viewer)


__all__ = ["BoardRenderer", "rules_diagram", "rules_example_view"]
