"""Myriath as the match layer sees it: the engine alone (no hidden information, no move asked about first)."""

from __future__ import annotations

from bot.games.engine_declaration import EngineDeclaration

from .game import GAME

ENGINE = EngineDeclaration(game=GAME)
