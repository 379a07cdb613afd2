"""Archimedes as the rest of Strategos sees it: its engine part, pictures, computer policy,
words for the alt text, side names, /rules guides and rules page."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from bot.games.declaration import GameDeclaration
from bot.i18n import N_

from . import renderer
from .describe import DESCRIBER
from .engine import ENGINE
from .game import SEAT_NAMES
from .policy import ArchimedesPolicy

DECLARATION = GameDeclaration(
    engine=ENGINE,
    renderer=renderer,
    policy=ArchimedesPolicy,
    guides=Path(__file__).parent / "guide",
    describer=DESCRIBER,
    side_names=frozenset({N_("White"), N_("Black")}),
    rules_page="docs/rules/archimedes.md",
    side_emojis={side: partial(renderer.ship_sprite, seat=seat) for seat, side in enumerate(SEAT_NAMES)},  # ships
)
