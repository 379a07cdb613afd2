"""Myrmidons as the rest of Strategos sees it: its engine, pictures, computer policy and /rules guides."""

from __future__ import annotations

from pathlib import Path

from bot.games.declaration import GameDeclaration
from renderers.rules_examples import RulesExample

from . import renderer
from .game import GAME
from .policy import MyrmidonsPolicy

DECLARATION = GameDeclaration(
    game=GAME,
    renderer=renderer,
    policy=MyrmidonsPolicy,
    guides=Path(__file__).parent / "guide",
    # Both armies deployed; South's 3/2/4 attacks North's 4/4/1, which turns both face up, and is repelled:
    # South's own values on its pieces, the revealed defender's values, the fight's mark and the fall-back.
    rules_example=RulesExample(2, 1, None, ("deploy 5/1/3,3/2/4,C,4/4/1,1/3/5,2/5/2",
                                            "deploy 5/1/3,3/2/4,C,4/4/1,1/3/5,2/5/2",
                                            "b1-b4", "d7-d6", "b4-d6"), 0),
    # A fight names both pieces' values.
    revealing_events=frozenset({"fight"}),
)
