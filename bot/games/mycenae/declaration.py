"""Mycenae as the rest of Strategos sees it: its engine, pictures, computer policy and /rules guides."""

from __future__ import annotations

from pathlib import Path

from bot.games.declaration import GameDeclaration
from renderers.rules_examples import RulesExample

from . import renderer
from .game import GAME
from .policy import MycenaePolicy

DECLARATION = GameDeclaration(
    game=GAME,
    renderer=renderer,
    policy=MycenaePolicy,
    guides=Path(__file__).parent / "guide",
    # A Mycenae army's secret cargo, then a loaded knight jumps and unloads a bishop beside it; its owner's view
    # shows what each knight still carries.
    rules_example=RulesExample(2, 1, {"armies": ["mycenae", "plain"]},
                               ("cargo b2:K,P d2:R,B c1:B,P,P", "d2-e4", "g7-g6", "unload e4 B@f5"), 0),
    # A burn, an unload or a takeover shows cargo; so does cargo destroyed with its knight.
    revealing_events=frozenset({"burn", "unload", "cargo_destroyed", "destroyed", "takeover", "removed"}),
    confirmations={
        "burn": "Burn this knight? It destroys the knight, all it carries, and every piece on the four squares "
                "next to it (yours too). This can't be undone.",
    },
)
