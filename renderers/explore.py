"""The picture of one step of an Explore sandbox: the game's own board picture under a banner that says it is a
sandbox, not the match, and marks a position that rests on an assumed result.

    png = explore_png(view, ["Alice", "Bob"], banner="Explore · 3 moves ahead", assumed=True)
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image

from . import RENDERERS
from .common import draw_text, fit_text, font
from .png import encode_png

BANNER_HEIGHT = 46
BANNER_COLOUR = (46, 64, 96)  # a blue no board uses: a sandbox must never pass for the match's own board
ASSUMED_COLOUR = (150, 78, 20)  # amber: this position rests on a result the explorer chose
TEXT_COLOUR = (255, 255, 255)
MARGIN = 16


def explore_picture(view: dict, player_names: Sequence[str] | None, banner: str, *, assumed: bool) -> Image.Image:
    board = RENDERERS[view["game"]].draw(view, player_names)
    if board.mode != "RGB":
        board = board.convert("RGB")
    img = Image.new("RGB", (board.width, board.height + BANNER_HEIGHT), ASSUMED_COLOUR if assumed else BANNER_COLOUR)
    img.paste(board, (0, BANNER_HEIGHT))
    fnt = font(22, bold=True)
    label = ("⚠ ASSUMED · " if assumed else "") + banner
    draw_text(img, (MARGIN, BANNER_HEIGHT // 2), fit_text(label, fnt, board.width - 2 * MARGIN), fnt, TEXT_COLOUR,
              anchor="lm")
    return img


def explore_png(view: dict, player_names: Sequence[str] | None, banner: str, *, assumed: bool = False) -> bytes:
    """The PNG of a sandbox position: `banner` names it; `assumed` marks that it rests on an assumed result."""
    return encode_png(explore_picture(view, player_names, banner, assumed=assumed))
