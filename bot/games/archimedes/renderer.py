"""Archimedes board picture: an 8 x 8 sea, both home ports marked with an anchor, ships, and each side's reserve of
destroyed ships beside the board.

    render(view, player_names=["Alice", "Bob"]) -> PNG bytes

The view format is in notes/views.md ("archimedes"). Seat 1's private view is turned 180 degrees (h8 bottom-right).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from renderers.common import (
    CAPTION_HEIGHT,
    PANEL,
    RGB,
    SIDES,
    SUPERSAMPLE,
    TEXT,
    TEXT_DIM,
    TEXT_MIN,
    VERMILLION,
    YELLOW,
    Grid,
    blend,
    caption_samples,
    draw_coordinates,
    draw_player_caption,
    draw_squares,
    draw_text,
    font,
    history_line,
    is_flipped,
    mark_for_sample,
    new_canvas,
    palette_reference,
    parse_square,
    paste_centred,
    player_names_for,
    square_name,
    supersampled,
    tinted,
    say,
    wrap_text,
)
from renderers.png import Palette, palette_colours
from renderers.tiles import Picture, TiledBoard, marked_tile, palette_once

SQUARE = 92
MARGIN = 40
SHIP = 80
ANCHOR = 72
BADGE_SHIP = 50
RESERVE_SHIP = 38
PANEL_WIDTH = 168  # the reserve column right of the board

LIGHT_SEA: RGB = (160, 200, 226)
DARK_SEA: RGB = (118, 168, 204)
PORT_TINT = 0.62  # how far a port square leans toward its owner's ship colour
LAST_MOVE = YELLOW  # yellow on blue: the pair every kind of colour vision separates
LAST_MOVE_FRAME = blend(LAST_MOVE, (0, 0, 0), 0.45)
DESTROYED = VERMILLION
MARKS = (LAST_MOVE, 0.72, LAST_MOVE_FRAME, 4), (DESTROYED, 0.55)  # a last move's squares (tint, frame), a wreck's


def sea_colour(f: int, r: int) -> RGB:
    return DARK_SEA if (f + r) % 2 == 0 else LIGHT_SEA


def port_colour(f: int, r: int, seat: int) -> RGB:
    return blend(sea_colour(f, r), SIDES[seat].fill, PORT_TINT)


def grid_for(files: int, ranks: int, flipped: bool) -> Grid:
    return Grid(files, ranks, SQUARE, MARGIN, MARGIN, flipped)


# --- sprites ----------------------------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def ship_sprite(size: int, seat: int) -> Image.Image:
    """A galley seen from the side: hull and one square sail. Seat 1's sail carries a light stripe, so the sides
    differ by mark as well as by lightness; the square's centre is always sail cloth in the side's colour."""
    side = SIDES[seat]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        def pts(*xy: float) -> list[tuple[float, float]]:
            return [(xy[i] * big, xy[i + 1] * big) for i in range(0, len(xy), 2)]

        edge = max(SUPERSAMPLE * 2, big // 24)
        draw.line(pts(0.5, 0.06, 0.5, 0.64), fill=side.edge, width=edge * 2)  # mast, behind the sail
        sail = pts(0.22, 0.14, 0.78, 0.14, 0.73, 0.58, 0.27, 0.58)
        draw.polygon(sail, fill=side.fill, outline=side.edge, width=edge)
        if seat == 1:
            draw.polygon(pts(0.245, 0.27, 0.755, 0.27, 0.747, 0.35, 0.253, 0.35), fill=side.mark)
        hull = pts(0.03, 0.55, 0.15, 0.63, 0.85, 0.63, 0.97, 0.55, 0.84, 0.84, 0.16, 0.84)
        draw.polygon(hull, fill=side.fill, outline=side.edge, width=edge)

    return supersampled(size, paint)


@lru_cache(maxsize=8)
def anchor_sprite(size: int, seat: int) -> Image.Image:
    """An anchor in the port owner's colour, outlined in the contrasting one."""
    side = SIDES[seat]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        c = big / 2
        for colour, grow in ((side.edge, big * 0.035), (side.fill, 0.0)):
            w = round(big * 0.06 + 2 * grow)
            ring = big * 0.08 + grow
            draw.ellipse((c - ring - w / 2, big * 0.18 - ring - w / 2, c + ring + w / 2, big * 0.18 + ring + w / 2),
                         outline=colour, width=w)
            draw.line((c, big * 0.26 - grow, c, big * 0.84 + grow), fill=colour, width=w)  # shank
            draw.line((c - big * 0.2 - grow, big * 0.36, c + big * 0.2 + grow, big * 0.36), fill=colour, width=w)
            arm = big * 0.32
            draw.arc((c - arm - grow, big * 0.52 - arm - grow, c + arm + grow, big * 0.52 + arm + grow),
                     start=10, end=170, fill=colour, width=w)

    return supersampled(size, paint)


# --- layer --------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def board_layer(files: int, ranks: int, ports: tuple[str, ...], flipped: bool) -> Image.Image:
    """Everything that never changes in a match: sea, tinted ports, coordinates, empty panels. (The anchors are
    pasted per render: a ship standing in a port hides its anchor.)"""
    grid = grid_for(files, ranks, flipped)
    img = new_canvas(grid.right + MARGIN + PANEL_WIDTH, grid.bottom + MARGIN + CAPTION_HEIGHT)
    draw_squares(img, grid, lambda f, r: square_colour(f, r, ports))
    draw_coordinates(img, grid, MARGIN)
    for box in _reserve_boxes(grid):
        ImageDraw.Draw(img).rounded_rectangle(box, radius=12, fill=PANEL)
    return img


def _reserve_boxes(grid: Grid) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """(upper box, lower box) of the reserve column: each beside its own side's half of the board."""
    x0 = grid.right + MARGIN
    x1 = x0 + PANEL_WIDTH - 16
    middle = (grid.top + grid.bottom) // 2
    return (x0, grid.top, x1, middle - 8), (x0, middle + 8, x1, grid.bottom)


# --- render -------------------------------------------------------------------------------------------------------


def layout(view: dict, player_names: Sequence[str] | None = None) -> Picture:
    """The picture of a view (renderers/tiles.py): the sea, a tile on each square that shows more, the reserves
    in the column right of the board, the caption."""
    files, ranks, ports = view["files"], view["ranks"], tuple(view["ports"])
    grid = grid_for(files, ranks, is_flipped(view))
    return Picture(grid, (files, ranks, ports, grid.flipped), square_looks(view),
                   colour=lambda f, r: square_colour(f, r, ports),
                   caption=lambda img, top: _draw_caption(img, top, view, player_names),
                   column=lambda img, grid: _draw_reserves(img, grid, view["reserve"]))


# --- squares ---------------------------------------------------------------------------------------------------
# Everything a position adds to the sea lies inside single squares, so a picture is the layer with a tile pasted on
# each square that shows something: the same tiles in RGB (draw) and mapped once to the palette (compose).

# What a square shows: (tinted by the last move, framed as where it landed, crossed: the destroyed ship's seat or
# None, a ship: its seat or None, an empty port's anchor: its seat or None). Drawn in that order, as the marks were
# over the whole board.
SquareLook = tuple[bool, bool, "int | None", "int | None", "int | None"]


def square_looks(view: dict) -> dict[tuple[int, int], SquareLook]:
    """The look of every square that shows more than the layer."""
    last = view.get("last") or {}
    lit = {parse_square(name) for name in (last.get("from"), last.get("to")) if name}
    framed = parse_square(last["to"]) if last.get("to") else None
    destroyed = {parse_square(d["square"]): d["seat"] for d in last.get("destroyed") or ()}
    board = view["board"]
    anchors = {parse_square(name): seat for seat, name in enumerate(view["ports"])}
    looks = {}
    for r, row in enumerate(board):
        for f, ship in enumerate(row):
            at = (f, r)
            anchor = anchors.get(at) if ship is None else None
            look = (at in lit, at == framed, destroyed.get(at), ship, anchor)
            if look != (False, False, None, None, None):
                looks[at] = look
    return looks


def square_colour(f: int, r: int, ports: tuple[str, ...]) -> RGB:
    for seat, name in enumerate(ports):
        if parse_square(name) == (f, r):
            return port_colour(f, r, seat)
    return sea_colour(f, r)


def square_tile(colour: RGB, look: SquareLook) -> Image.Image:
    """One square of colour `colour` as `look` shows it, drawn with the board's own helpers on a one-square grid."""
    lit, framed, victim, ship, anchor = look
    tile, one = marked_tile(SQUARE, colour, lit, framed, victim, *MARKS)
    if anchor is not None:
        paste_centred(tile, anchor_sprite(ANCHOR, anchor), one.centre(0, 0))
    if ship is not None:
        paste_centred(tile, ship_sprite(SHIP, ship), one.centre(0, 0))
    return tile


# --- the picture on a palette chosen once per layer (common.py, "pictures on a palette chosen once") ----------


PICTURES = TiledBoard(layer=board_layer, tile=square_tile, layout=layout, margin=MARGIN,
                      palette_of=lambda view: board_palette(view["files"], view["ranks"], tuple(view["ports"])),
                      tiles=1024)  # mapped tiles ~9 KiB each: at most ~9 MiB
draw, compose, render, palette_of = PICTURES.draw, PICTURES.compose, PICTURES.render, PICTURES.palette_of
# render: the PNG of an Archimedes view


@palette_once(maxsize=4)
def board_palette(files: int, ranks: int, ports: tuple[str, ...]) -> Palette:
    """Chosen from the layer and boards covered with ships and anchors of both sides on every square, plain, as
    the last move (tinted and framed) and destroyed (tinted and crossed); full reserves; sample captions. Turning
    the board changes no colour: one palette serves both sides' views."""
    grid = grid_for(files, ranks, False)
    layer = board_layer(files, ranks, ports, False)
    squares = [(f, r) for f in range(files) for r in range(ranks)]
    names = [square_name(f, r) for f, r in squares]
    owners = {parse_square(name): seat for seat, name in enumerate(ports)}
    plain = {sea_colour(f, r) if (f, r) not in owners else port_colour(f, r, owners[(f, r)]) for f, r in squares}
    flat = [tinted(c, tint, strength) for c in plain
            for tint, strength in ((c, 0.0), (LAST_MOVE, 0.72), (DESTROYED, 0.55))]
    flat += [LAST_MOVE_FRAME, *(colour for side in SIDES for colour in (side.fill, side.edge, side.mark))]
    boards = []
    for marks in ((), ("last",), ("taken",)):
        for shift in (0, 1, 2):
            img = layer.copy()
            mark_for_sample(img, grid, names, marks, *MARKS)
            for i, (f, r) in enumerate(squares):
                kind = (i + shift) % 3  # a ship of either side, or an empty port's anchor
                sprite = ship_sprite(SHIP, kind) if kind < 2 else anchor_sprite(ANCHOR, (i // 3) % 2)
                paste_centred(img, sprite, grid.centre(f, r))
            _draw_reserves(img, grid, [12, 12])
            boards.append(img.crop((0, 0, img.width, grid.bottom + MARGIN)))
    captions = caption_samples(layer.width, [ship_sprite(BADGE_SHIP, 0), ship_sprite(BADGE_SHIP, 1)],
                               "12 ships · 3 in reserve")
    return Palette(flat + palette_colours(palette_reference(layer, *boards, captions)))


def _draw_reserves(img: Image.Image, grid: Grid, reserve: Sequence[int]) -> None:
    """Each side's destroyed ships as small icons with a count, beside that side's half of the board, and a legend
    saying what they are."""
    bottom_seat = 1 if grid.flipped else 0
    for seat, box in zip((1 - bottom_seat, bottom_seat), _reserve_boxes(grid)):
        x0, y0, x1, y1 = box
        title = (x0 + 6, y0 + 4, x1 - 4, y0 + 40)
        draw_text(img, (x0 + 12, y0 + 22), say("Reserve"), font(TEXT_MIN), TEXT_DIM, "lm", room=title)
        draw_text(img, (x1 - 8, y0 + 22), f"{reserve[seat]}", font(TEXT_MIN, bold=True), TEXT, "rm", room=title)
        legend = wrap_text(say("lost ships, relaunched from port"), font(TEXT_MIN), x1 - x0 - 20)  # the legend
        for i, line in enumerate(legend):
            y = y1 - 18 - (len(legend) - 1 - i) * 28
            draw_text(img, (x0 + 12, y), line, font(TEXT_MIN), TEXT_DIM, "lm", room=box)
        sprite = ship_sprite(RESERVE_SHIP, seat)
        step = RESERVE_SHIP + 6
        for i in range(min(reserve[seat], 12)):
            col, row = i % 3, i // 3
            img.paste(sprite, (x0 + 12 + col * step, y0 + 44 + row * step), sprite)


def _draw_caption(img: Image.Image, top: int, view: dict, player_names: Sequence[str] | None) -> None:
    draw_player_caption(
        img, top, view, player_names_for(view, player_names),
        sprite=lambda seat: ship_sprite(BADGE_SHIP, seat),
        counts=lambda seat: say("{ships} · {reserve} in reserve", ships=_ships(view["ships"][seat]),
                                reserve=view["reserve"][seat]),
        history=_history(view),
    )


def _ships(count: int) -> str:
    return say("{count} ship", plural="{count} ships", count=count)


def _history(view: dict) -> str:
    last = view.get("last") or {}
    destroyed = len(last.get("destroyed") or [])
    detail = ((say(" (rebuilt)") if last.get("rebuild") else "")
              + (say(" · {count} destroyed", plural=" · {count} destroyed", count=destroyed) if destroyed else ""))
    return history_line(view, detail)
