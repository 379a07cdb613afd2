"""The engines' catalogue: what the match layer, the ratings and the store know of the games, and nothing more.

Each game package declares its engine part in `engine.py` (`ENGINE = EngineDeclaration(game=GAME, ...)`, see
engine_declaration.py): the engine, the events that reveal hidden information and the typed moves that need a
confirmation. This module loads the engine part of every package in PACKAGES and nothing else: no picture, no
computer, no Pillow. The pictures, the computer and the /rules texts are the registry's (bot/games/registry.py),
which the layers above import and the composition root (bot/app.py) hands down.

    from bot.games.engines import get_game
    game = get_game("epaminondas")
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping, TypeVar

from bot.engine.base import Game

from .engine_declaration import DeclarationError, EngineDeclaration

# The game packages, in the order /play offers them. Adding a game is one line here.
PACKAGES: tuple[str, ...] = (
    "bot.games.myrmidons",
    "bot.games.myriath",
    "bot.games.mycenae",
    "bot.games.epaminondas",
    "bot.games.archimedes",
)

T = TypeVar("T")

_ENGINES: dict[str, EngineDeclaration] = {}
GAMES: dict[str, Game] = {}  # the engines by key, in registration order


def register(engine: EngineDeclaration) -> None:
    """Check a game's engine part (DeclarationError says what is missing) and know the game from now on."""
    engine.check()
    if engine.key in _ENGINES:
        raise DeclarationError(f"a game {engine.key!r} is registered already")
    _ENGINES[engine.key] = engine
    GAMES[engine.key] = engine.game


def unregister(key: str) -> None:
    del _ENGINES[key]
    del GAMES[key]


def by_key(table: Mapping[str, T], key: str) -> T:
    """`table[key]`, or a KeyError naming the games the table knows."""
    try:
        return table[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}; known: {', '.join(table)}") from None


def engine_of(key: str) -> EngineDeclaration:
    return by_key(_ENGINES, key)


def get_game(key: str) -> Game:
    return engine_of(key).game


def revealing_events(key: str) -> frozenset[str]:
    return engine_of(key).revealing_events


def legal_moves_public(key: str) -> bool:
    """Whether anyone may know how many legal moves a seat of that game has (EngineDeclaration)."""
    return engine_of(key).legal_moves_public


def confirmation_for(key: str, move: str) -> str | None:
    """The question asked before a typed `move` of that game is played, or None."""
    return engine_of(key).confirmations.get(move.split(" ", 1)[0])


def declared(package: str, module: str, name: str) -> Any:
    """`package.module.name`, what a game package declares; DeclarationError, in one line, when it lacks it or
    leaves out a part the declaration's class requires."""
    try:
        found = importlib.import_module(f"{package}.{module}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.{module}":
            raise
        raise DeclarationError(f"{package} has no {module}.py") from None
    except TypeError as exc:
        if "Declaration.__init__()" not in str(exc):
            raise
        raise DeclarationError(f"{package}.{module}: {exc}") from None
    if not hasattr(found, name):
        raise DeclarationError(f"{package}.{module} declares no {name}")
    return getattr(found, name)


REGISTERED: tuple[EngineDeclaration, ...] = tuple(declared(package, "engine", "ENGINE") for package in PACKAGES)
for _engine in REGISTERED:
    register(_engine)


__all__ = [
    "DeclarationError", "EngineDeclaration", "GAMES", "PACKAGES", "REGISTERED", "by_key", "confirmation_for",
    "declared", "engine_of", "get_game", "legal_moves_public", "register", "revealing_events", "unregister",
]
