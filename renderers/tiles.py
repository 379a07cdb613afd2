"""Boards drawn from square tiles: what the games on a board of squares share (Archimedes, Epaminondas, Myrmidons,
Mycenae; Myriath's board of channels and intersections draws its own).

A picture is the board's layer (everything that never changes in a match: squares, coordinates, empty panels),
with a tile pasted on each square that shows more than the layer (a piece, a last move's tint, a cross), then what
is new in every picture: corner badges that reach past their squares, the panels right of the board, the caption.
draw() makes it in RGB; compose() makes the same picture as a "P" image of the layer's palette (png.py), pixel for
pixel: the layer and each tile are mapped once and kept, and only what is new in every picture is drawn and mapped.
The same view always gives the same bytes, and no position reaches a public picture through its palette.

A game says only what differs (its TiledBoard): its layer, how a square looks (a hashable "look") and the tile of a
look, the layout of a view (Picture), and its palette, chosen once per layer from samples of everything it draws.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .common import english, in_language
from .png import Palette, built_once


def palette_once(maxsize: int) -> Callable[[Callable[..., Palette]], Callable[..., Palette]]:
    """png.built_once for a board's palette, built with the words in English whatever the language of the picture
    that first asks for it: the palette is kept for every later picture, and its shades must not depend on which
    picture came first."""

    def decorate(build: Callable[..., Palette]) -> Callable[..., Palette]:
        @functools.wraps(build)
        def in_english(*args: object) -> Palette:
            return in_language(english, build, *args)

        return built_once(maxsize)(in_english)

    return decorate
