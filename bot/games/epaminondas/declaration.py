"""Epaminondas as the rest of Strategos sees it: its engine part, pictures, computer policy,
words for the alt text, side names, /rules guides and rules page."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from bot.games.declaration import GameDeclaration
from bot.i18n import N_
from renderers.common import disc_sprite

from . import renderer
from .describe import DESCRIBER
from .engine import ENGINE
from .game import SEAT_NAMES
from .policy import EpaminondasPolicy

DECLARATION = GameDeclaration(
    engine=ENGINE,
    renderer=renderer,
    policy=EpaminondasPolicy,
    guides=Path(__file__).parent / "guide",
    describer=DESCRIBER,
    side_names=frozenset({N_("Light"), N_("Dark")}),
    rules_page="docs/rules/epaminondas.md",
    side_emojis={side: partial(disc_sprite, seat=seat) for seat, side in enumerate(SEAT_NAMES)},  # its stones
)
