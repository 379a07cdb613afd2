"""Myriath as the rest of Strategos sees it: its engine part, pictures, computer policy,
words for the alt text, side names, /rules guides and rules page."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from bot.games.declaration import GameDeclaration
from bot.i18n import N_
from renderers.rules_examples import RulesExample

from . import renderer
from .data import SEAT_COLOURS
from .describe import DESCRIBER
from .engine import ENGINE
from .policy import MyriathPolicy

DECLARATION = GameDeclaration(
    engine=ENGINE,
    renderer=renderer,
    policy=MyriathPolicy,
    guides=Path(__file__).parent / "guide",
    describer=DESCRIBER,
    side_names=frozenset({N_("Vermilion"), N_("Blue"), N_("Yellow"), N_("Green")}),
    rules_page="docs/rules/myriath.md",
    # each seat's tile colour and mark, as the caption shows them
    side_emojis={side: partial(renderer.swatch_sprite, renderer.hex_colour(colour), seat)
                 for seat, (side, colour) in enumerate(SEAT_COLOURS)},
    # Octagons, then tiles laid end to end against the other player's; the last one (Blue's L) scores
    # on both its ends at once, and its score dots show where.
    rules_example=RulesExample(2, 1, None, ("O@d4", "O@f6", "g7N:A.A", "g8E:A.A", "h8N:A.A", "h9E:A.A",
                                            "g7EN:A.Wr"), None),
)
