"""Mycenae as the rest of Strategos sees it: its engine part, pictures, computer policy,
words for the alt text, side names, /rules guides and rules page."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from bot.games.declaration import GameDeclaration
from renderers.rules_examples import RulesExample

from . import renderer
from .describe import DESCRIBER
from .engine import ENGINE
from .policy import MycenaePolicy

DECLARATION = GameDeclaration(
    engine=ENGINE,
    renderer=renderer,
    policy=MycenaePolicy,
    guides=Path(__file__).parent / "guide",
    describer=DESCRIBER,
    side_names=frozenset(),  # its sides are named by their corner squares ("a1", "h8"): not words
    rules_page="docs/rules/mycenae.md",
    # each corner's king, in its army's colour and with its emblem
    side_emojis={side: partial(renderer.piece_sprite, letter="K", mycenaean=False, corner=corner)
                 for corner, side in enumerate(renderer.CORNER_NAMES)},
    # A Mycenae army's secret cargo, then a loaded knight jumps and unloads a bishop beside it; its owner's view
    # shows what each knight still carries.
    rules_example=RulesExample(2, 1, {"armies": ["mycenae", "plain"]},
                               ("cargo b2:K,P d2:R,B c1:B,P,P", "d2-e4", "g7-g6", "unload e4 B@f5"), 0),
)
