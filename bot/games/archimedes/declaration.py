"""Archimedes as the rest of Strategos sees it: its engine, pictures, computer policy and /rules guides."""

from __future__ import annotations

from pathlib import Path

from bot.games.declaration import GameDeclaration

from . import renderer
from .game import GAME
from .policy import ArchimedesPolicy

DECLARATION = GameDeclaration(
    game=GAME,
    renderer=renderer,
    policy=ArchimedesPolicy,
    guides=Path(__file__).parent / "guide",
)
