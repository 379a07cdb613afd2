"""Its pictures: each heap a row of counters beside its letter."""

from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from renderers.common import BACKGROUND, TEXT, YELLOW, draw_text, fit_text, font
from renderers.png import encode_png

ROW, COUNTER, MARGIN, CAPTION = 60, 40, 20, 44
WIDTH = 2 * MARGIN + 40 + 5 * (COUNTER + 10)


def draw(view: dict, player_names: Sequence[str] | None = None, *, board_only: bool = False) -> Image.Image:
    names = list(player_names or view["seat_names"])
    height = 2 * MARGIN + ROW * len(view["heaps"])
    img = Image.new("RGB", (WIDTH, height if board_only else height + CAPTION), BACKGROUND)
    pen = ImageDraw.Draw(img)
    for row, size in enumerate(view["heaps"]):
        y = MARGIN + row * ROW
        draw_text(img, (MARGIN, y + ROW // 2), "abc"[row], font(24), TEXT, anchor="lm")
        for i in range(size):
            x = MARGIN + 40 + i * (COUNTER + 10)
            pen.ellipse((x, y + 10, x + COUNTER, y + 10 + COUNTER), fill=YELLOW)
    if not board_only:
        fnt = font(20)
        draw_text(img, (MARGIN, height + CAPTION // 2 - 6), fit_text(" vs ".join(names), fnt, WIDTH - 2 * MARGIN),
                  fnt, TEXT, anchor="lm")
    return img


def render(view: dict, *, player_names: Sequence[str] | None = None) -> bytes:
    return encode_png(draw(view, player_names))
