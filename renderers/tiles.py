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
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

from .common import RGB, Grid, cross_squares, english, in_language, outline_squares, tint_squares
from .png import Palette, built_once, paint_mapped, palette_render

Square = tuple[int, int]  # (file, rank), 0-based
Badge = tuple[Image.Image, tuple[int, int]]  # a sprite with transparency, and its top-left corner on the picture


@dataclass(frozen=True)
class Picture:
    """How one view's picture is laid out, as its game says it."""

    grid: Grid
    layer: tuple  # the game's layer(...) arguments: what the layer of this view depends on
    looks: Mapping[Square, Hashable]  # the look of every square that shows more than the layer
    colour: Callable[[int, int], RGB]  # a square's plain colour in the layer, under its tile
    caption: Callable[[Image.Image, int], None]  # draws the caption with its top at y
    column: Callable[[Image.Image, Grid], None] | None = None  # draws the panels right of the board, on this grid
    badges: Sequence[Badge] = ()  # pasted over the tiles in this order; each may reach past its square


def one_square(size: int, colour: RGB) -> tuple[Image.Image, Grid]:
    """A plain tile, and a one-square grid ("a1") to draw on it with the board's own helpers (tint_squares...)."""
    return Image.new("RGB", (size, size), colour), Grid(1, 1, size, 0, 0)


def marked_tile(size: int, colour: RGB, lit: bool, framed: bool, victim: int | None,
                last: tuple[RGB, float, RGB, int], taken: tuple[RGB, float]) -> tuple[Image.Image, Grid]:
    """A tile with a grid game's marks, as common.mark_for_sample draws them on a palette's samples (`last`, `taken`
    as there): tinted as a last move's square (lit), framed as where it ended (framed), tinted and crossed where a
    piece of seat `victim` was taken. With the one-square grid, to draw the piece on it."""
    tile, one = one_square(size, colour)
    if lit:
        tint_squares(tile, one, ["a1"], last[0], last[1])
    if framed:
        outline_squares(tile, one, ["a1"], last[2], last[3])
    if victim is not None:
        tint_squares(tile, one, ["a1"], *taken)
        cross_squares(tile, one, [("a1", victim)])
    return tile, one


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


class TiledBoard:
    """A game's board pictures from its parts:
    - layer(*key): the layer, RGB, cached by the game (a layer per key, a few keys);
    - tile(colour, look): a square of that plain colour as the look shows it, RGB;
    - layout(view, player_names): the Picture of a view;
    - palette_of(view): the palette of the view's layer, one for every seat's view (turning the board changes no
      colour);
    - margin: the room around the board (its coordinates); the panels start that far right of the board, the
      caption that far below it;
    - tiles: how many mapped tiles are kept (~11-12 KiB each: a game's at most ~12-25 MiB), layers: mapped layers.
    The RGB tiles are kept fewer (RGB_TILES): they are mostly needed to build the mapped ones once."""

    RGB_TILES = 256

    def __init__(self, *, layer: Callable[..., Image.Image], tile: Callable[[RGB, Any], Image.Image],
                 layout: Callable[[dict, Sequence[str] | None], Picture], palette_of: Callable[[dict], Palette],
                 margin: int, tiles: int, layers: int = 8):
        self.layer, self.layout, self.palette_of, self.margin = layer, layout, palette_of, margin
        self.tile = functools.lru_cache(maxsize=self.RGB_TILES)(tile)

        @functools.lru_cache(maxsize=layers)
        def indexed_layer(palette: Palette, *key: object) -> Image.Image:
            return palette.map(layer(*key))

        @functools.lru_cache(maxsize=tiles)
        def indexed_tile(palette: Palette, colour: RGB, look: Hashable) -> Image.Image:
            return palette.map(self.tile(colour, look))

        self.indexed_layer, self.indexed_tile = indexed_layer, indexed_tile
        self.render = palette_render(self.compose)

    def cache_clear(self) -> None:
        """The tiles and mapped layers forgotten (the game's own layer and palette caches are its own)."""
        for cache in (self.tile, self.indexed_layer, self.indexed_tile):
            cache.cache_clear()

    def draw(self, view: dict, player_names: Sequence[str] | None = None, *, board_only: bool = False
             ) -> Image.Image:
        """The picture as an RGB image; board_only leaves out the caption and the panels (the /rules diagram)."""
        picture = self.layout(view, player_names)
        grid = picture.grid
        img = self.layer(*picture.layer).copy()
        for (f, r), look in picture.looks.items():
            img.paste(self.tile(picture.colour(f, r), look), grid.origin(f, r))
        for sprite, xy in picture.badges:
            img.paste(sprite, xy, sprite)
        if board_only:
            return img.crop((0, 0, grid.right + self.margin, grid.bottom + self.margin))
        if picture.column:
            picture.column(img, grid)
        picture.caption(img, grid.bottom + self.margin)
        return img

    def compose(self, view: dict, player_names: Sequence[str] | None = None) -> Image.Image:
        """draw()'s picture as a "P" image of palette_of(view), pixel for pixel: the layer and the square tiles are
        mapped once and pasted; the badges' boxes, the panels and the caption are drawn and mapped per picture."""
        picture = self.layout(view, player_names)
        grid, palette = picture.grid, self.palette_of(view)
        img = self.indexed_layer(palette, *picture.layer).copy()
        for (f, r), look in picture.looks.items():
            img.paste(self.indexed_tile(palette, picture.colour(f, r), look), grid.origin(f, r))
        layer = self.layer(*picture.layer)
        for sprite, (x, y) in picture.badges:
            # The badge's box drawn again in RGB from everything under and over it (the tiles it reaches, every
            # badge that overlaps it, in drawing order), then mapped: the same pixels draw() has there.
            box = (x, y, x + sprite.width, y + sprite.height)
            paint_mapped(img, layer, box, palette, lambda part: self._redraw(part, box, picture))
        if (draw_column := picture.column) is not None:
            column = (grid.right + self.margin, grid.top, layer.width, grid.bottom)
            # The panels drawn on the column alone: the same grid, moved by the column's corner.
            moved = replace(grid, left=grid.left - column[0], top=grid.top - column[1])
            paint_mapped(img, layer, column, palette, lambda part: draw_column(part, moved))
        paint_mapped(img, layer, (0, grid.bottom + self.margin, layer.width, layer.height), palette,
                     lambda band: picture.caption(band, 0))
        return img

    def _redraw(self, part: Image.Image, box: tuple[int, int, int, int], picture: Picture) -> None:
        x0, y0, x1, y1 = box
        size = picture.grid.square
        for (f, r), look in picture.looks.items():
            sx, sy = picture.grid.origin(f, r)
            if sx < x1 and x0 < sx + size and sy < y1 and y0 < sy + size:
                part.paste(self.tile(picture.colour(f, r), look), (sx - x0, sy - y0))
        for sprite, (bx, by) in picture.badges:
            if bx < x1 and x0 < bx + sprite.width and by < y1 and y0 < by + sprite.height:
                part.paste(sprite, (bx - x0, by - y0), sprite)
