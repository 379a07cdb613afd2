"""Nim as the match layer sees it: the engine alone."""

from __future__ import annotations

from bot.games.engine_declaration import EngineDeclaration

from .game import GAME

ENGINE = EngineDeclaration(game=GAME)
