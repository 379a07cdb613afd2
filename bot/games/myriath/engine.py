"""Myriath as the match layer sees it: the engine alone (no hidden information, no move asked about first)."""

from __future__ import annotations

from bot.games.engine_declaration import EngineDeclaration

from .game import GAME

# Everything is on the board: anyone can count a seat's legal moves.
ENGINE = EngineDeclaration(game=GAME, legal_moves_public=True)
