"""Its pictures: each heap a row of counters beside its letter (the counters taken as empty rings), under the
caption every board has (renderers/common.py), mapped to a palette of its own colours (renderers/png.py)."""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from renderers.common import (
    CAPTION_HEIGHT, SUPERSAMPLE, TEXT, TEXT_DIM, disc_sprite, draw_player_caption, draw_text, font, history_line,
    new_canvas, paste_centred, player_names_for, say, supersampled,
)
from renderers.png import Palette, palette_colours, palette_render

from .game import HEAPS, START

COUNTER, GAP, MARGIN, LABEL = 140, 24, 24, 56
WIDTH = 2 * MARGIN + LABEL + max(START) * (COUNTER + GAP)
BOARD = 2 * MARGIN + len(START) * (COUNTER + GAP)


@lru_cache(maxsize=None)
def ring_sprite(diameter: int) -> Image.Image:
    """Where a counter was taken: an empty ring."""
    def paint(pen: ImageDraw.ImageDraw, big: int) -> None:
        pen.ellipse((SUPERSAMPLE, SUPERSAMPLE, big - SUPERSAMPLE, big - SUPERSAMPLE), outline=TEXT_DIM,
                    width=big // 20)
    return supersampled(diameter, paint)


def draw(view: dict, player_names: Sequence[str] | None = None, *, board_only: bool = False) -> Image.Image:
    names = player_names_for(view, player_names)
    img = new_canvas(WIDTH, BOARD if board_only else BOARD + CAPTION_HEIGHT)
    for row, (heap, size) in enumerate(zip(HEAPS, view["heaps"])):
        y = MARGIN + row * (COUNTER + GAP) + COUNTER // 2
        draw_text(img, (MARGIN, y), heap, font(32, bold=True), TEXT, anchor="lm")
        for i in range(START[row]):
            x = MARGIN + LABEL + i * (COUNTER + GAP) + COUNTER // 2
            paste_centred(img, disc_sprite(COUNTER, 0) if i < size else ring_sprite(COUNTER), (x, y))
    if not board_only:
        left = sum(view["heaps"])
        draw_player_caption(img, BOARD, view, names, sprite=lambda seat: disc_sprite(48, seat),
                            counts=lambda seat: say("{count} left", count=left), history=history_line(view))
    return img


def compose(view: dict, player_names: Sequence[str] | None = None) -> Image.Image:
    """The picture on its own palette: what render encodes and Explore puts its banner over."""
    img = draw(view, player_names)
    return Palette(palette_colours(img)).map(img)


render = palette_render(compose)
