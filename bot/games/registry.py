"""The games Strategos hosts, whole: one declaration per game package (declaration.py), registered here, and every
lookup by key derived from them: pictures, the computer's policies, /rules guides, the words for the alt text and
the side names. The engine parts (engines, revealing events, confirmations) are the engines' catalogue's
(bot/games/engines.py), which lists the packages: adding a game is one line in its PACKAGES.

    from bot.games.registry import get_game, render
    game = get_game("epaminondas")
    png = render(game.view(game.new_state(2, 0, None), None), player_names=["Alice", "Bob"])
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import renderers
from bot.ai import decide, judge
from bot.ai.policy import Policy
from bot.engine.base import JSON
from renderers import BoardRenderer

from . import engines
from .declaration import DeclarationError, GameDeclaration
from .engines import GAMES, PACKAGES, confirmation_for, get_game, revealing_events

_DECLARATIONS: dict[str, GameDeclaration] = {}
_POLICIES: dict[str, Policy] = {}


def register(declaration: GameDeclaration) -> None:
    """Check a game's declaration (DeclarationError says what is missing) and offer the game from now on. Its
    engine part joins the engines' catalogue unless it is there already (the packages' engines load with it)."""
    declaration.check()
    key = declaration.key
    if key in _DECLARATIONS or (key in GAMES and engines.engine_of(key) is not declaration.engine):
        raise DeclarationError(f"a game {key!r} is registered already")
    if key not in GAMES:
        engines.register(declaration.engine)
    _DECLARATIONS[key] = declaration


def unregister(key: str) -> None:
    """Forget a game registered by `register` (tests register games of their own and take them away again)."""
    del _DECLARATIONS[key]
    engines.unregister(key)
    _POLICIES.pop(key, None)
    rules_diagram.cache_clear()


def declaration_of(key: str) -> GameDeclaration:
    return engines.by_key(_DECLARATIONS, key)


def renderer_of(key: str) -> BoardRenderer:
    return declaration_of(key).renderer


def can_render(key: str) -> bool:
    return key in _DECLARATIONS


def render(view: JSON, *, player_names: Sequence[str] | None = None) -> bytes:
    """The PNG of any game's view, chosen by view["game"]. player_names: display names per seat for the caption
    (default: the view's seat names such as "Light"/"Dark")."""
    try:
        renderer = _DECLARATIONS[view["game"]].renderer
    except KeyError:
        raise KeyError(f"no renderer for game {view.get('game')!r}; known: {', '.join(_DECLARATIONS)}") from None
    return renderer.render(view, player_names=player_names)


@lru_cache(maxsize=None)
def rules_diagram(key: str, language: str = "en") -> bytes:
    """The /rules picture of a game: its example position, or its start position. `language` names the language
    its caption is drawn in (renderers.common.in_language), so each language's picture is cached apart."""
    declaration = declaration_of(key)
    return renderers.rules_diagram(declaration.game, declaration.renderer, declaration.rules_example)


def policy_for(key: str) -> Policy:
    """The computer's policy for a game, made once per process."""
    if key not in _POLICIES:
        declaration = declaration_of(key)
        _POLICIES[key] = declaration.policy(declaration.game)
    return _POLICIES[key]


def prepare_games() -> None:
    """Every engine's and policy's first-use tables, built now: what a computer worker does before its first
    think (bot/games/warm.py), so that no move of the computer pays for them."""
    for key, game in GAMES.items():
        game.prepare()
        policy_for(key).prepare()


def prepare_pictures() -> None:
    """Each game's first board layer, palette, sprites and fonts, built now by rendering its start position for
    every player count: what a picture worker inherits from the forkserver (bot/workers.py), so that the first
    board of each kind does not wait 50-400 ms for its palette."""
    for key, game in GAMES.items():
        if not can_render(key):
            continue
        for players in range(game.info.min_players, game.info.max_players + 1):
            render(game.view(game.new_state(players, 0, None), None))


def choose_move(view: JSON, *, level: str = "normal", seed: int = 0) -> str:
    """The computer's move for the seat whose view it is, in the view's game (bot.ai.decide says how). Top level
    and JSON-safe arguments only, so that it runs in a worker process."""
    return decide(policy_for(view["game"]), view, level=level, seed=seed)


def judge_move(view: JSON, played: str, *, level: str = "hard", seed: int = 0) -> tuple[str, float, float] | None:
    """A level's judgement of a move played from `view` (bot.ai.judge): for the analysis of a finished match, in a
    worker process like choose_move."""
    return judge(policy_for(view["game"]), view, played, level=level, seed=seed)


REGISTERED: tuple[GameDeclaration, ...] = tuple(
    engines.declared(package, "declaration", "DECLARATION") for package in PACKAGES)  # /play's order
for _declaration in REGISTERED:
    register(_declaration)


__all__ = [
    "GAMES", "PACKAGES", "REGISTERED", "can_render", "choose_move", "confirmation_for", "judge_move", "declaration_of", "get_game",
    "policy_for", "register", "render", "renderer_of", "revealing_events", "rules_diagram", "unregister",
]
