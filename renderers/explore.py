"""The picture of one step of an Explore sandbox: the game's own board picture under a banner that says it is a
sandbox, not the match, and marks a position that rests on an assumed result.

    png = explore_png(view, ["Alice", "Bob"], banner="Explore · 3 moves ahead", assumed=True, renderer=renderer)
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image

from . import BoardRenderer
from .common import blend, draw_text, fit_text, font, say
from .png import encode_png, palette_png

BANNER_HEIGHT = 46
BANNER_COLOUR = (46, 64, 96)  # a blue no board uses: a sandbox must never pass for the match's own board
ASSUMED_COLOUR = (150, 78, 20)  # amber: this position rests on a result the explorer chose
TEXT_COLOUR = (255, 255, 255)
MARGIN = 16
TEXT_LEVELS = 8  # shades between the banner and its text: antialiased edges kept, few palette entries used


def explore_picture(view: dict, player_names: Sequence[str] | None, banner: str, *, assumed: bool,
                    renderer: BoardRenderer) -> Image.Image:
    board = renderer.draw(view, player_names)
    if board.mode != "RGB":
        board = board.convert("RGB")
    img = Image.new("RGB", (board.width, board.height + BANNER_HEIGHT), ASSUMED_COLOUR if assumed else BANNER_COLOUR)
    img.paste(board, (0, BANNER_HEIGHT))
    fnt = font(22, bold=True)
    label = _label(banner, assumed)
    draw_text(img, (MARGIN, BANNER_HEIGHT // 2), fit_text(label, fnt, board.width - 2 * MARGIN), fnt, TEXT_COLOUR,
              anchor="lm")
    return img


def explore_png(view: dict, player_names: Sequence[str] | None, banner: str, *, assumed: bool = False,
                renderer: BoardRenderer) -> bytes:
    """The PNG of a sandbox position: `banner` names it; `assumed` marks that it rests on an assumed result.

    The board is composed on its layer's palette as every board post is; the banner's few shades go into palette
    entries the board leaves unused (mapping the whole picture to a new palette would cost ~5x more)."""
    module = renderer
    board = module.compose(view, player_names) if hasattr(module, "compose") else None
    if board is None or board.mode != "P":
        return encode_png(explore_picture(view, player_names, banner, assumed=assumed, renderer=renderer))
    palette = (board.getpalette() or [])[:768]
    defined = len(palette) // 3
    if defined + TEXT_LEVELS + 1 <= 256:  # room after the palette's own entries: no pixel uses them
        free = list(range(defined, defined + TEXT_LEVELS + 1))
    else:
        used = {index for _, index in board.getcolors(256) or ()}
        free = [i for i in range(256) if i not in used][:TEXT_LEVELS + 1]
    if len(free) < TEXT_LEVELS + 1:
        return encode_png(explore_picture(view, player_names, banner, assumed=assumed, renderer=renderer))
    background = ASSUMED_COLOUR if assumed else BANNER_COLOUR
    palette += [0] * (768 - len(palette))
    for level, index in enumerate(free):
        palette[index * 3:index * 3 + 3] = blend(background, TEXT_COLOUR, level / TEXT_LEVELS)
    mask = _banner_mask(board.width, _label(banner, assumed))
    shades = mask.point([free[round(v * TEXT_LEVELS / 255)] for v in range(256)])
    img = Image.new("P", (board.width, board.height + BANNER_HEIGHT), free[0])
    img.putpalette(palette)
    img.paste(shades, (0, 0))
    img.paste(board, (0, BANNER_HEIGHT))
    return palette_png(img)


def _label(banner: str, assumed: bool) -> str:
    """The banner's words: a position that rests on an assumed result says so first."""
    return (say("⚠ ASSUMED · ") if assumed else "") + banner


def _banner_mask(width: int, label: str) -> Image.Image:
    """The banner's text coverage, as an "L" image the banner's size."""
    mask = Image.new("L", (width, BANNER_HEIGHT), 0)
    fnt = font(22, bold=True)
    draw_text(mask, (MARGIN, BANNER_HEIGHT // 2), fit_text(label, fnt, width - 2 * MARGIN), fnt, 255, anchor="lm")
    return mask
