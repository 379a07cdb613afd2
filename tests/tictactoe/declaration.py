"""Tic-tac-toe as the rest of Strategos sees it: what the tests register, one line, and nothing else."""

from __future__ import annotations

from pathlib import Path

from bot.games.declaration import GameDeclaration

from . import renderer
from .describe import DESCRIBER
from .engine import ENGINE
from .policy import TicTacToePolicy

DECLARATION = GameDeclaration(
    engine=ENGINE,
    renderer=renderer,
    policy=TicTacToePolicy,
    guides=Path(__file__).parent / "guide",
    describer=DESCRIBER,
    side_names=frozenset(),  # English only: a game of the tests
    rules_page="tests/tictactoe/guide/en.md",  # a game of the tests has no page in docs/rules/
)
