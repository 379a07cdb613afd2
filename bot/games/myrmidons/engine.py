"""Myrmidons as the match layer sees it: the engine, and the fights that reveal a piece's values."""

from __future__ import annotations

from bot.games.engine_declaration import EngineDeclaration

from .game import GAME

ENGINE = EngineDeclaration(
    game=GAME,
    # A fight names both pieces' values.
    revealing_events=frozenset({"fight"}),
    # A player's legal moves depend on her pieces' hidden values (how far each may go): never counted.
    legal_moves_public=False,
)
