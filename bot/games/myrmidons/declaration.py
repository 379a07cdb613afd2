"""Myrmidons as the rest of Strategos sees it: its engine part, pictures, computer policy,
words for the alt text, side names, /rules guides and rules page."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from bot.games.declaration import GameDeclaration
from bot.i18n import N_
from renderers.rules_examples import RulesExample

from . import renderer
from .board import SEAT_NAMES
from .describe import DESCRIBER
from .engine import ENGINE
from .policy import MyrmidonsPolicy

DECLARATION = GameDeclaration(
    engine=ENGINE,
    renderer=renderer,
    policy=MyrmidonsPolicy,
    guides=Path(__file__).parent / "guide",
    describer=DESCRIBER,
    side_names=frozenset({N_("South"), N_("North")}),
    rules_page="docs/rules/myrmidons.md",
    # a side's blank tile, as its opponent sees it
    side_emojis={side: partial(renderer.tile_sprite, seat=seat, values=None) for seat, side in enumerate(SEAT_NAMES)},
    # Both armies deployed; South's 3/2/4 attacks North's 4/4/1, which turns both face up, and is repelled:
    # South's own values on its pieces, the revealed defender's values, the fight's mark and the fall-back.
    rules_example=RulesExample(2, 1, None, ("deploy 5/1/3,3/2/4,C,4/4/1,1/3/5,2/5/2",
                                            "deploy 5/1/3,3/2/4,C,4/4/1,1/3/5,2/5/2",
                                            "b1-b4", "d7-d6", "b4-d6"), 0),
    # A draft changes what the computer decides from the first move: timed apart.
    benchmark_positions=((2, None), (2, {"army": "draft"})),
)
