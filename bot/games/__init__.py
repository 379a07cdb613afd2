"""The rules layer: pure engines behind one contract (see base.py). Imports nothing from discord, PIL or asyncio.

    from bot.games import get_game, GAMES
    game = get_game("epaminondas")
"""

from __future__ import annotations

import importlib

from .base import (
    Choices,
    Event,
    Game,
    GameInfo,
    IllegalMoveError,
    MoveSyntaxError,
    OptionSpec,
    Outcome,
    PickerOption,
    event,
    is_visible,
    narrate,
)
from .text import Text

GAME_KEYS = ("myrmidons", "myriath", "mycenae", "epaminondas", "archimedes")


def _load_games() -> dict[str, Game]:
    """Each game lives in bot/games/<key> and exposes GAME."""
    return {key: importlib.import_module(f"{__name__}.{key}").GAME for key in GAME_KEYS}


GAMES: dict[str, Game] = _load_games()


def get_game(key: str) -> Game:
    try:
        return GAMES[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}; known: {', '.join(GAMES)}") from None


__all__ = [
    "GAMES", "GAME_KEYS", "get_game", "Game", "GameInfo", "OptionSpec", "Outcome", "Event", "event",
    "is_visible", "narrate", "MoveSyntaxError", "IllegalMoveError", "Choices", "PickerOption", "Text",
]
