"""Mycenae as the match layer sees it: the engine, the events that show cargo and the burn asked about first."""

from __future__ import annotations

from bot.engine.text import Text
from bot.games.engine_declaration import EngineDeclaration

from .game import GAME

ENGINE = EngineDeclaration(
    game=GAME,
    # A burn, an unload or a takeover shows cargo; so does cargo destroyed with its knight.
    revealing_events=frozenset({"burn", "unload", "cargo_destroyed", "destroyed", "takeover", "removed"}),
    # A player's legal moves depend on the cargo only she knows (what she may unload or burn): never counted.
    legal_moves_public=False,
    confirmations={
        "burn": Text("Burn this knight? It destroys the knight, all it carries, and every piece on the four "
                     "squares next to it (yours too). This can't be undone."),
    },
)
