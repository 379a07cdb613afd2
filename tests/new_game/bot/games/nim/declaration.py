"""Nim as the rest of Strategos sees it: its engine part, pictures, computer policy, words, side names, guide
and rules page."""

from __future__ import annotations

from pathlib import Path

from bot.games.declaration import GameDeclaration
from bot.i18n import N_

from . import renderer
from .describe import DESCRIBER
from .engine import ENGINE
from .policy import NimPolicy

DECLARATION = GameDeclaration(
    engine=ENGINE,
    renderer=renderer,
    policy=NimPolicy,
    guides=Path(__file__).parent / "guide",
    describer=DESCRIBER,
    side_names=frozenset({N_("First"), N_("Second")}),
    rules_page="docs/rules/nim.md",
)
