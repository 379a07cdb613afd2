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
    cross_squares,
    disc_sprite,
    draw_caption,
    draw_coordinates,
    draw_squares,
    history_line,
    is_flipped,
    mark_for_sample,
    new_canvas,
    outline_squares,
    palette_reference,
    paste_centred,
    player_badges,
    player_names_for,
    plural,
    square_name,
    status_line,
    tint_squares,
)
from renderers.png import Palette, built_once, palette_colours, palette_png

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


def draw(view: dict, player_names: Sequence[str] | None = None, *, board_only: bool = False) -> Image.Image:
    """The picture as an image; board_only leaves out the caption (the /rules diagram)."""
    files, ranks = view["files"], view["ranks"]
    flipped = is_flipped(view)
    grid = grid_for(files, ranks, flipped)
    img = board_layer(files, ranks, tuple(view["home_rows"]), flipped).copy()
    last = view.get("last")
    if last:
        _highlight_last_move(img, grid, last)
    for r, row in enumerate(view["board"]):
        for f, owner in enumerate(row):
            if owner is not None:
                paste_centred(img, disc_sprite(PIECE, owner), grid.centre(f, r))
    if board_only:
        return img.crop((0, 0, img.width, grid.bottom + MARGIN))
    _draw_caption(img, grid.bottom + MARGIN, view, player_names)
    return img


def render(view: dict, *, player_names: Sequence[str] | None = None) -> bytes:
    """The PNG of an Epaminondas view. player_names: display names per seat (default: the view's seat names)."""
    return palette_png(compose(view, player_names))


# --- the picture on a palette chosen once per layer (common.py, "pictures composed on a palette chosen once") ----

def compose(view: dict, player_names: Sequence[str] | None = None) -> Image.Image:
    """draw()'s picture as a "P" image of its layer's palette (choosing a palette per picture took ~1.8 ms)."""
    return board_palette(view["files"], view["ranks"], tuple(view["home_rows"])).map(draw(view, player_names))


@built_once(maxsize=4)
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
            mark_for_sample(img, grid, names, marks, (LAST_MOVE, 0.55, LAST_MOVE_FRAME, 3), (CAPTURE, 0.5))
            if stones is not None:
                for f, r in squares:
                    paste_centred(img, disc_sprite(PIECE, (f + r + stones) % 2), grid.centre(f, r))
            boards.append(img.crop((0, grid.top, img.width, grid.top + 2 * SQUARE)))
            boards.append(img.crop((0, grid.bottom - 2 * SQUARE, img.width, grid.bottom)))
    captions = caption_samples(layer.width, [disc_sprite(BADGE_PIECE, 0), disc_sprite(BADGE_PIECE, 1)],
                               "28 pieces · 3 crossed")
    return Palette(palette_colours(palette_reference(layer, *boards, captions)))


def _highlight_last_move(img: Image.Image, grid: Grid, last: dict) -> None:
    """From and to squares tinted blue (landing squares also framed); captured squares tinted and crossed."""
    tint_squares(img, grid, set(last["from"]) | set(last["to"]), LAST_MOVE, 0.55)
    outline_squares(img, grid, last["to"], LAST_MOVE_FRAME, 3)
    captured = last.get("captured") or []
    if captured:
        victim = 1 - last["seat"]
        tint_squares(img, grid, captured, CAPTURE, 0.5)
        cross_squares(img, grid, [(name, victim) for name in captured])


def _draw_caption(img: Image.Image, top: int, view: dict, player_names: Sequence[str] | None) -> None:
    names = player_names_for(view, player_names)
    badges = player_badges(
        view,
        names,
        sprite=lambda seat: disc_sprite(BADGE_PIECE, seat),
        counts=lambda seat: f"{plural(view['counts'][seat], 'piece')} · {view['crossings'][seat]} crossed",
    )
    draw_caption(img, top, badges, status_line(view, names), _history(view))


def _history(view: dict) -> str:
    taken = len((view.get("last") or {}).get("captured") or [])
    return history_line(view, f" (took {taken})" if taken else "")
