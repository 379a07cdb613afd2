"""Board pictures: pure functions from an engine's view (bot.games, view()) to PNG bytes. No Discord, no storage.

    from renderers import render, can_render
    png = render(game.view(state, viewer), player_names=["Alice", "Bob"])

One module per game exposes `render(view, *, player_names=None) -> bytes`; shared drawing is in common.py.
"""

from __future__ import annotations

from functools import lru_cache
from types import ModuleType
from typing import Sequence

from PIL import Image

from . import archimedes, epaminondas, mycenae, myriath, myrmidons
from .png import encode_png
from .rules_examples import EXAMPLES, RulesExample

RENDERERS: dict[str, ModuleType] = {
    "epaminondas": epaminondas,
    "archimedes": archimedes,
    "myrmidons": myrmidons,
    "myriath": myriath,
    "mycenae": mycenae,
}

RULES_DIAGRAM_SCALE = 0.7  # a smaller picture for /rules, still readable on a phone


def can_render(key: str) -> bool:
    return key in RENDERERS


def render(view: dict, *, player_names: Sequence[str] | None = None) -> bytes:
    """The PNG of any game's view, chosen by view["game"]. player_names: display names per seat for the caption
    (default: the view's seat names such as "Light"/"Dark")."""
    try:
        module = RENDERERS[view["game"]]
    except KeyError:
        raise KeyError(f"no renderer for game {view.get('game')!r}; known: {', '.join(RENDERERS)}") from None
    return module.render(view, player_names=player_names)


@lru_cache(maxsize=None)
def rules_diagram(game_key: str, language: str = "en") -> bytes:
    """A smaller picture for /rules: the game's example position (rules_examples.py) with its caption, or the start
    position without one. Needs the game's engine. `language` names the language its caption is drawn in
    (common.in_language), so each language's picture is cached apart."""
    from bot.games import get_game  # the rules layer, below this one; imported late so `import renderers` stays light

    game = get_game(game_key)
    example = EXAMPLES.get(game_key)
    if example is None:
        view = game.view(game.new_state(game.info.min_players, 0, None), None)
        img = RENDERERS[game_key].draw(view, board_only=True)
    else:
        img = RENDERERS[game_key].draw(rules_example_view(game, example))
    size = (round(img.width * RULES_DIAGRAM_SCALE), round(img.height * RULES_DIAGRAM_SCALE))
    return encode_png(img.resize(size, resample=Image.Resampling.BICUBIC))


def rules_example_view(game, example: RulesExample) -> dict:
    """The view of an example position, its moves played through the engine."""
    state = game.new_state(example.players, example.seed, example.options)
    for move in example.moves:
        state, _ = game.apply(state, game.to_act(state)[0], move)
    return game.view(state, example.viewer)


__all__ = ["RENDERERS", "can_render", "render", "rules_diagram"]
