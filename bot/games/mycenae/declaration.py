"""Mycenae as the rest of Strategos sees it: its engine part, pictures, computer policy,
words for the alt text, side names, /rules guides and rules page."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Sequence

from bot.engine.base import Event
from bot.games.declaration import GameDeclaration
from renderers.rules_examples import RulesExample

from . import renderer
from .describe import DESCRIBER
from .engine import ENGINE
from .policy import MycenaePolicy

# Each corner's other pieces (its king is its side's emoji): "a1_r" … "a1_p", and "a1_horse", a Mycenaean knight.
PIECE_KINDS = {"r": ("R", False), "b": ("B", False), "n": ("N", False), "p": ("P", False), "horse": ("N", True)}


def moved_piece(events: Sequence[Event]) -> str | None:
    """The piece kind a move moved ("a1_n"); None for a king, whose emoji is its side's, and for moves of no piece
    (a load, an unload)."""
    for ev in events:
        if ev["type"] == "move" and (ev.get("mycenaean") or ev["piece"] != "K"):
            return f"{ev['corner']}_{'horse' if ev.get('mycenaean') else ev['piece'].lower()}"
    return None


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
    piece_emojis={f"{side}_{kind}": partial(renderer.piece_sprite, letter=letter, mycenaean=mycenaean, corner=corner)
                  for corner, side in enumerate(renderer.CORNER_NAMES)
                  for kind, (letter, mycenaean) in PIECE_KINDS.items()},
    moved_piece=moved_piece,
    # A Mycenae army's secret cargo, then a loaded knight jumps and unloads a bishop beside it; its owner's view
    # shows what each knight still carries.
    rules_example=RulesExample(2, 1, {"armies": ["mycenae", "plain"]},
                               ("cargo b2:K,P d2:R,B c1:B,P,P", "d2-e4", "g7-g6", "unload e4 B@f5"), 0),
)
