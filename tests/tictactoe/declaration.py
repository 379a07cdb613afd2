"""Tic-tac-toe as the rest of Strategos sees it: what the tests register, one line, and nothing else."""

from __future__ import annotations

from pathlib import Path

from bot.games.declaration import GameDeclaration

from . import renderer
from .game import GAME
from .policy import TicTacToePolicy

DECLARATION = GameDeclaration(
    game=GAME,
    renderer=renderer,
    policy=TicTacToePolicy,
    guides=Path(__file__).parent / "guide",
    # The guess shows where the coin was: taking it back would let the guesser guess again knowing.
    revealing_events=frozenset({"coin"}),
    # A guess is asked about first when typed.
    confirmations={"guess": "Guess this hand? Where the coin is decides who moves first."},
)
