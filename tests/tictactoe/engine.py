"""Tic-tac-toe as the match layer sees it: the engine, the guess that shows the coin and the guess asked first."""

from __future__ import annotations

from bot.games.engine_declaration import EngineDeclaration

from .game import GAME

ENGINE = EngineDeclaration(
    game=GAME,
    # The guess shows where the coin was: taking it back would let the guesser guess again knowing.
    revealing_events=frozenset({"coin"}),
    # A guess is asked about first when typed.
    confirmations={"guess": "Guess this hand? Where the coin is decides who moves first."},
)
