"""renderers/tiles.py: a board drawn from square tiles, in RGB (draw) and composed on its palette (compose), shown
on a toy board small enough to read, and the bounds of the four games' tile caches."""

from __future__ import annotations

from functools import lru_cache

import pytest
from PIL import Image, ImageDraw

from bot.games import registry
from renderers.common import Grid, new_canvas, paste_centred
from renderers.png import Palette, palette_colours
from renderers.tiles import Picture, TiledBoard, one_square

SQUARE, MARGIN, PANEL, CAPTION = 40, 10, 60, 30
LIGHT, DARK, RED, BLUE, INK = (230, 220, 200), (180, 150, 110), (220, 40, 40), (40, 90, 220), (20, 20, 20)


def toy_grid(flipped: bool) -> Grid:
    return Grid(3, 3, SQUARE, MARGIN, MARGIN, flipped)


@lru_cache(maxsize=4)
def toy_layer(flipped: bool) -> Image.Image:
    grid = toy_grid(flipped)
    img = new_canvas(grid.right + MARGIN + PANEL, grid.bottom + MARGIN + CAPTION)
    for f in range(3):
        for r in range(3):
            x, y = grid.origin(f, r)
            img.paste(toy_colour(f, r), (x, y, x + SQUARE, y + SQUARE))
    return img


def toy_colour(f: int, r: int) -> tuple[int, int, int]:
    return DARK if (f + r) % 2 == 0 else LIGHT


def toy_tile(colour, look) -> Image.Image:
    tile, one = one_square(SQUARE, colour)
    ImageDraw.Draw(tile).ellipse((6, 6, SQUARE - 7, SQUARE - 7), fill=(RED, BLUE)[look])
    return tile


def disc(colour) -> Image.Image:
    img = Image.new("RGBA", (24, 24), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((0, 0, 23, 23), fill=colour, outline=INK, width=2)
    return img


def toy_layout(view: dict, player_names=None) -> Picture:
    grid = toy_grid(view["flipped"])
    corner = grid.origin(1, 1)  # both badges over the corner of four squares, one over the other
    badges = [(disc(RED), (corner[0] - 12, corner[1] - 12)), (disc(BLUE), (corner[0] - 4, corner[1] - 4))]
    return Picture(grid, (view["flipped"],), view["pieces"], colour=toy_colour,
                   caption=lambda img, top: ImageDraw.Draw(img).rectangle((4, top + 4, 4 + view["caption"], top + 20),
                                                                   fill=LIGHT),
                   column=lambda img, grid: paste_centred(img, disc(BLUE), (grid.right + MARGIN + 20,
                                                                              grid.top + 20)),
                   badges=badges)


def toy_palette(view: dict) -> Palette:
    """A palette that holds every colour of this view's drawing: so composing must give the drawing mapped."""
    return Palette(palette_colours(TOY.draw(view)))


TOY = TiledBoard(layer=toy_layer, tile=toy_tile, layout=toy_layout, palette_of=toy_palette, margin=MARGIN, tiles=8)
VIEWS = [{"flipped": flipped, "pieces": {(0, 0): 0, (1, 1): 1, (2, 1): 0}, "caption": 30}
         for flipped in (False, True)]


@pytest.mark.parametrize("view", VIEWS)
def test_a_composed_picture_is_its_drawing_mapped_badges_column_and_caption_included(view):
    drawn, composed = TOY.draw(view), TOY.compose(view)
    assert composed.mode == "P"
    assert composed.tobytes() == toy_palette(view).map(drawn).tobytes()


def test_the_drawing_has_the_layer_tiles_badges_column_and_caption_where_the_layout_puts_them():
    view = VIEWS[0]
    img, grid = TOY.draw(view), toy_grid(False)
    x, y = grid.centre(2, 1)
    assert img.getpixel((x, y)) == RED  # a tile
    x, y = grid.centre(0, 2)
    assert img.getpixel((x, y)) == toy_colour(0, 2)  # the layer where no tile is
    x, y = grid.origin(1, 1)
    assert img.getpixel((x + 8, y + 8)) == BLUE  # the second badge over the first and over the tiles
    assert img.getpixel((grid.right + MARGIN + 20, grid.top + 20)) == BLUE  # the column
    assert img.getpixel((10, grid.bottom + MARGIN + 10)) == LIGHT  # the caption


def test_board_only_is_the_board_and_its_margin_without_the_column_or_the_caption():
    grid = toy_grid(False)
    board = TOY.draw(VIEWS[0], board_only=True)
    assert board.size == (grid.right + MARGIN, grid.bottom + MARGIN)
    assert board.tobytes() == TOY.draw(VIEWS[0]).crop((0, 0, *board.size)).tobytes()


def test_cache_clear_forgets_the_tiles_and_the_mapped_layers():
    TOY.compose(VIEWS[0])
    assert TOY.indexed_tile.cache_info().currsize and TOY.indexed_layer.cache_info().currsize
    TOY.cache_clear()
    assert (TOY.tile.cache_info().currsize, TOY.indexed_tile.cache_info().currsize,
            TOY.indexed_layer.cache_info().currsize) == (0, 0, 0)


TILED = ("archimedes", "epaminondas", "myrmidons", "mycenae")


@pytest.mark.parametrize("key", TILED)
def test_a_games_tile_caches_stay_bounded_by_their_memory(key):
    """Each picture worker keeps its own caches, and a long-running bot fills them: the mapped tiles (one byte a
    pixel) stay under ~25 MiB a game, the RGB tiles (three) under ~10 MiB, a few mapped layers."""
    module = registry.renderer_of(key)
    side = module.SQUARE
    assert module.PICTURES.indexed_tile.cache_info().maxsize * side * side <= 26 * 2**20
    assert module.PICTURES.tile.cache_info().maxsize * side * side * 3 <= 10 * 2**20
    assert module.PICTURES.indexed_layer.cache_info().maxsize <= 16
