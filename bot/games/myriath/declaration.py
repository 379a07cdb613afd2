"""Myriath as the rest of Strategos sees it: its engine, pictures, computer policy and /rules guides."""

from __future__ import annotations

from pathlib import Path

from bot.games.declaration import GameDeclaration
from renderers.rules_examples import RulesExample

from . import renderer
from .game import GAME
from .policy import MyriathPolicy

DECLARATION = GameDeclaration(
    game=GAME,
    renderer=renderer,
    policy=MyriathPolicy,
    guides=Path(__file__).parent / "guide",
    # Octagons, then tiles laid end to end against the other player's; the last one (Blue's L) scores
    # on both its ends at once, and its score dots show where.
    rules_example=RulesExample(2, 1, None, ("O@d4", "O@f6", "g7N:A.A", "g8E:A.A", "h8N:A.A", "h9E:A.A",
                                            "g7EN:A.Wr"), None),
)
