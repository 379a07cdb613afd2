"""The games: one package per game (bot/games/<game>/: its engine `game.py` and engine part `engine.py`,
`renderer.py`, `policy.py`, `describe.py`, `guide/` and the `declaration.py` tying them together), the engines'
catalogue that lists them (engines.py), the registry of their whole declarations (registry.py), match records
(record.py) and the terminal tool (`python -m bot.games`).

Importing a game's engine imports nothing but the engine contract: this face only hands on the contract's names
(bot/engine/base.py); the registry, which also brings pictures and policies, is imported where it is needed.

    from bot.games.engines import get_game
    game = get_game("epaminondas")
"""

from __future__ import annotations

from bot.engine.base import (
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
from bot.engine.text import Text

__all__ = [
    "Game", "GameInfo", "OptionSpec", "Outcome", "Event", "event", "is_visible", "narrate", "MoveSyntaxError",
    "IllegalMoveError", "Choices", "PickerOption", "Text",
]
