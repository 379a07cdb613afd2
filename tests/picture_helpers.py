"""Reading the pictures the renderers make, for the picture tests."""

from __future__ import annotations

import io
from typing import Iterator

from PIL import Image


def decode(png: bytes, mode: str | None = "RGB") -> Image.Image:
    """The PNG's picture, loaded, in `mode` (None: as it was stored, e.g. a palette picture)."""
    img = Image.open(io.BytesIO(png))
    img.load()
    return img if mode is None else img.convert(mode)


def close(a, b, tolerance: int = 12) -> bool:
    """Two colours within `tolerance` on every channel (antialiasing and palettes move a shade a little)."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def board_squares(view: dict) -> Iterator[tuple[str, int | None]]:
    """Every square of a grid board's view ("a1", "b1", ...) with the seat of the piece on it, or None."""
    for r, row in enumerate(view["board"]):
        for f, owner in enumerate(row):
            yield f"{chr(97 + f)}{r + 1}", owner


def square_corner(grid, name: str, inset: int) -> tuple[int, int]:
    """A point `inset` pixels inside the square's top left corner: clear of the piece, where tints show."""
    x0, y0, _, _ = grid.box_of(name)
    return x0 + inset, y0 + inset
