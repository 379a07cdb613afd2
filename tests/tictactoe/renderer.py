"""Its pictures: the 3×3 board with its marks, under a caption naming who plays X and O."""

from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from renderers.common import BACKGROUND, SKY_BLUE, TEXT, YELLOW, draw_text, fit_text, font
from renderers.png import encode_png

CELL, MARGIN, CAPTION = 100, 20, 44
SIZE = 3 * CELL + 2 * MARGIN


def draw(view: dict, player_names: Sequence[str] | None = None, *, board_only: bool = False) -> Image.Image:
    names = list(player_names or ("Guesser", "Hider"))
    img = Image.new("RGB", (SIZE, SIZE if board_only else SIZE + CAPTION), BACKGROUND)
    pen = ImageDraw.Draw(img)
    for i in (1, 2):
        pen.line([(MARGIN + i * CELL, MARGIN), (MARGIN + i * CELL, MARGIN + 3 * CELL)], fill=TEXT, width=3)
        pen.line([(MARGIN, MARGIN + i * CELL), (MARGIN + 3 * CELL, MARGIN + i * CELL)], fill=TEXT, width=3)
    for index, seat in enumerate(view["board"]):
        if seat is None:
            continue
        x, y = MARGIN + (index % 3) * CELL, MARGIN + (2 - index // 3) * CELL  # rank 1 at the bottom
        box = (x + 20, y + 20, x + CELL - 20, y + CELL - 20)
        if seat == view["first"]:
            pen.line([box[:2], box[2:]], fill=YELLOW, width=8)
            pen.line([(box[0], box[3]), (box[2], box[1])], fill=YELLOW, width=8)
        else:
            pen.ellipse(box, outline=SKY_BLUE, width=8)
    if not board_only:
        first = view["first"]
        caption = (" vs ".join(names) if first is None
                   else f"{names[first]} (X) vs {names[1 - first]} (O)")
        fnt = font(20)
        draw_text(img, (MARGIN, SIZE + CAPTION // 2 - 6), fit_text(caption, fnt, SIZE - 2 * MARGIN), fnt, TEXT,
                  anchor="lm")
    return img


def render(view: dict, *, player_names: Sequence[str] | None = None) -> bytes:
    return encode_png(draw(view, player_names))
