"""Epaminondas board picture: 14 x 12 wooden board, home rows tinted in their owner's colour, round stones.

    render(view, player_names=["Alice", "Bob"]) -> PNG bytes

The view format is in notes/views.md ("epaminondas"). Seat 1's private view is turned 180 degrees.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from PIL import Image

from renderers.common import (
    CAPTION_HEIGHT,
    DARK,
    LIGHT,
    REDDISH_PURPLE,
    RGB,
    SKY_BLUE,
    Grid,
    blend,
    caption_samples,
    disc_sprite,
    draw_coordinates,
    draw_player_caption,
    draw_squares,
    history_line,
    is_flipped,
    mark_for_sample,
    new_canvas,
    palette_reference,
    paste_centred,
    parse_square,
    player_names_for,
    square_name,
    say,
)
from renderers.png import Palette, palette_colours
from renderers.tiles import Picture, TiledBoard, marked_tile, palette_once

SQUARE = 64
MARGIN = 40  # room for the coordinates on every edge
PIECE = 52
BADGE_PIECE = 44

LIGHT_SQUARE: RGB = (226, 200, 152)
DARK_SQUARE: RGB = (190, 152, 100)
HOME_TINT = 0.42  # how far a home row's squares lean toward its owner's stone colour
LAST_MOVE = SKY_BLUE  # blue on warm wood: the pair every kind of colour vision separates
LAST_MOVE_FRAME = blend(LAST_MOVE, (0, 0, 0), 0.35)
CAPTURE = REDDISH_PURPLE
MARKS = (LAST_MOVE, 0.55, LAST_MOVE_FRAME, 3), (CAPTURE, 0.5)  # a last move's squares (tint, frame), a capture's


def square_colour(f: int, r: int, home_rows: tuple[int, ...]) -> RGB:
    base = DARK_SQUARE if (f + r) % 2 == 0 else LIGHT_SQUARE  # a1 dark, as on a chessboard
    for seat, home in enumerate(home_rows):
        if r + 1 == home:
            return blend(base, (LIGHT, DARK)[seat].fill, HOME_TINT)
    return base


def grid_for(files: int, ranks: int, flipped: bool) -> Grid:
    return Grid(files, ranks, SQUARE, MARGIN, MARGIN, flipped)


@lru_cache(maxsize=8)
def board_layer(files: int, ranks: int, home_rows: tuple[int, ...], flipped: bool) -> Image.Image:
    """Everything that never changes in a match: squares, home rows, coordinates, the empty caption band."""
    grid = grid_for(files, ranks, flipped)
    img = new_canvas(grid.right + MARGIN, grid.bottom + MARGIN + CAPTION_HEIGHT)
    draw_squares(img, grid, lambda f, r: square_colour(f, r, home_rows))
    home_chips = {home - 1: (LIGHT, DARK)[seat] for seat, home in enumerate(home_rows)}
    draw_coordinates(img, grid, MARGIN, marked_ranks=home_chips)
    return img


def layout(view: dict, player_names: Sequence[str] | None = None) -> Picture:
    """The picture of a view (renderers/tiles.py): the board, a tile on each square that shows more, the
    caption."""
    files, ranks, home_rows = view["files"], view["ranks"], tuple(view["home_rows"])
    grid = grid_for(files, ranks, is_flipped(view))
    return Picture(grid, (files, ranks, home_rows, grid.flipped), square_looks(view),
                   colour=lambda f, r: square_colour(f, r, home_rows),
                   caption=lambda img, top: _draw_caption(img, top, view, player_names))


# --- squares ---------------------------------------------------------------------------------------------------
# Everything a position adds to the layer lies inside single squares, so a picture is the layer with a tile pasted
# on each square that shows something: the same tiles in RGB (draw) and mapped once to the palette (compose).

# What a square shows: (tinted by the last move, framed as where it ended, crossed: the taken stone's seat or None,
# the stone standing on it: its seat or None). Drawn in that order, as the marks were over the whole board.
SquareLook = tuple[bool, bool, "int | None", "int | None"]


def square_looks(view: dict) -> dict[tuple[int, int], SquareLook]:
    """The look of every square that shows more than the layer."""
    last = view.get("last") or {}
    framed = {parse_square(name) for name in last.get("to") or ()}
    lit = framed | {parse_square(name) for name in last.get("from") or ()}
    captured = {parse_square(name) for name in last.get("captured") or ()}
    victim = 1 - last["seat"] if captured else None
    looks = {}
    for r, row in enumerate(view["board"]):
        for f, stone in enumerate(row):
            at = (f, r)
            if stone is not None or at in lit or at in captured:
                looks[at] = (at in lit, at in framed, victim if at in captured else None, stone)
    return looks


def square_tile(colour: RGB, look: SquareLook) -> Image.Image:
    """One square of colour `colour` as `look` shows it, drawn with the board's own helpers on a one-square grid."""
    lit, framed, victim, stone = look
    tile, one = marked_tile(SQUARE, colour, lit, framed, victim, *MARKS)
    if stone is not None:
        paste_centred(tile, disc_sprite(PIECE, stone), one.centre(0, 0))
    return tile


# --- the picture on a palette chosen once per layer (common.py, "pictures on a palette chosen once") ----------


PICTURES = TiledBoard(layer=board_layer, tile=square_tile, layout=layout, margin=MARGIN,
                      palette_of=lambda view: board_palette(view["files"], view["ranks"], tuple(view["home_rows"])),
                      tiles=1024)  # mapped tiles ~4 KiB each: at most ~4 MiB
draw, compose, render, palette_of = PICTURES.draw, PICTURES.compose, PICTURES.render, PICTURES.palette_of
# render: the PNG of an Epaminondas view


@palette_once(maxsize=4)
def board_palette(files: int, ranks: int, home_rows: tuple[int, ...]) -> Palette:
    """Chosen from the layer and the board drawn over with everything a square can show: each stone on every
    square, plain, as the last move (tinted and framed), captured (tinted and crossed), and both. Turning the
    board changes no colour: one palette serves both sides' views."""
    grid = grid_for(files, ranks, False)
    layer = board_layer(files, ranks, home_rows, False)
    # The two ranks at each edge hold every kind of square (home rows and plain ones, light and dark): drawing
    # only there keeps the first picture of a process quick.
    edge_ranks = sorted({0, 1, ranks - 2, ranks - 1})
    squares = [(f, r) for f in range(files) for r in edge_ranks]
    names = [square_name(f, r) for f, r in squares]
    boards = []
    for marks in ((), ("last",), ("taken",), ("last", "taken")):
        for stones in (None, 0, 1):
            img = layer.copy()
            mark_for_sample(img, grid, names, marks, *MARKS)
            if stones is not None:
                for f, r in squares:
                    paste_centred(img, disc_sprite(PIECE, (f + r + stones) % 2), grid.centre(f, r))
            boards.append(img.crop((0, grid.top, img.width, grid.top + 2 * SQUARE)))
            boards.append(img.crop((0, grid.bottom - 2 * SQUARE, img.width, grid.bottom)))
    captions = caption_samples(layer.width, [disc_sprite(BADGE_PIECE, 0), disc_sprite(BADGE_PIECE, 1)],
                               "28 pieces · 3 crossed")
    return Palette(palette_colours(palette_reference(layer, *boards, captions)))


def _draw_caption(img: Image.Image, top: int, view: dict, player_names: Sequence[str] | None) -> None:
    draw_player_caption(
        img, top, view, player_names_for(view, player_names),
        sprite=lambda seat: disc_sprite(BADGE_PIECE, seat),
        counts=lambda seat: say("{pieces} · {count} crossed", plural="{pieces} · {count} crossed",
                                pieces=_pieces(view["counts"][seat]), count=view["crossings"][seat]),
        history=_history(view),
    )


def _pieces(count: int) -> str:
    return say("{count} piece", plural="{count} pieces", count=count)


def _history(view: dict) -> str:
    taken = len((view.get("last") or {}).get("captured") or [])
    return history_line(view, say(" (took {count})", plural=" (took {count})", count=taken) if taken else "")
