"""Mycenae board picture: an 8 x 8 corner-chess board for two to four armies, chess pieces, and Mycenaean knights
(wooden horses on wheels) with the cargo the viewer may know written on them.

    render(view, player_names=["Alice", "Bob"]) -> PNG bytes

The view is `Mycenae.view` (bot/games/mycenae.py). This module draws only what the view holds, so a picture can
never show a secret: a knight shows cargo chips from `cargo` (the viewer's own knights, in her private view) or
from `known_cargo` (what everybody saw being loaded); a knight with no known cargo shows nothing at all, never a
count. Two states that differ only in secret cargo give equal views, hence byte-identical pictures.

Each army has a colour *and* an emblem (circle, triangle, square, diamond) drawn on every one of its pieces and in
the caption, and the four fills differ in lightness, so the armies read apart in greyscale and for every kind of
colour vision. A private view is turned so that the viewer's corner is bottom left.

The board, coordinates and corner emblems are a cached layer per (seats, orientation); every piece, chip and
marker is a cached sprite, and caption badges and lines are cached images. A render copies the layer, tints the
last move's squares, frames the start areas (two rectangles each), pastes sprites and the caption.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from renderers.common import (
    BACKGROUND,
    PANEL,
    REDDISH_PURPLE,
    RGB,
    SKY_BLUE,
    SUPERSAMPLE,
    TEXT,
    TEXT_DIM,
    TEXT_MIN,
    VERMILLION,
    YELLOW,
    Grid,
    badge_player,
    blend,
    draw_text,
    first_fitting,
    fit_text,
    fitting_size,
    font,
    new_canvas,
    outline_squares,
    palette_reference,
    parse_square,
    paste_centred,
    player_names_for,
    N_,
    say,
    short_name,
    square_name,
    status_line,
    supersampled,
    text_width,
    tint_squares,
    tinted,
)
from renderers.png import Palette, palette_colours
from renderers.tiles import Picture, TiledBoard, one_square, palette_once

SQUARE = 112
MARGIN = 40  # room for the coordinates on every edge
BOARD = 8
LEGEND_ROW = 40  # the caption's last line: what the cargo chips and corner markers mean
CAPTION_HEIGHT = 178 + LEGEND_ROW
SWATCH = 46  # an army's emblem in the caption
CORNER_EMBLEM = 32  # an army's emblem in the margin corner next to its board corner: its square 9 px on a phone
CHIP_HEIGHT = 30  # a cargo chip on a knight: its letter and count TEXT_MIN px, readable on a phone
MARKER = 32  # badges in a square's corner: pending request, take-over (its "?" TEXT_MIN px high)
AREA_FRAME = 4  # the band in the army's colour around its start area

LIGHT_SQUARE: RGB = (236, 216, 180)
DARK_SQUARE: RGB = (206, 172, 126)
LAST_MOVE = SKY_BLUE  # blue on warm wood: the pair every kind of colour vision separates
LAST_MOVE_FRAME = blend(SKY_BLUE, (0, 0, 0), 0.4)
DESTROYED = REDDISH_PURPLE  # captures and burns (vermillion would read as the h1 army's colour)
DESTROYED_TINT = 0.6  # one strength for both: two near-equal flat colours cannot both be exact in one palette
REQUEST = YELLOW
INK: RGB = (26, 26, 30)
PAPER: RGB = (250, 248, 242)
WOOD: RGB = (150, 104, 58)  # the Mycenaean knight's wheeled platform

CORNER_NAMES = ("a1", "a8", "h8", "h1")  # the rules' seat table, clockwise; a view's "corners" are these


@dataclass(frozen=True)
class Army:
    """The look of the army in one corner. The four fills differ in lightness (ivory, sky blue, vermillion,
    charcoal, lightest first) and each army has its own emblem shape, so colour is never the only difference."""

    fill: RGB
    edge: RGB  # outline and inner lines, contrasting with the fill
    emblem: str  # circle, triangle, square, diamond


ARMIES = (  # by corner: a1, a8, h8, h1 (with two players a1 and h8 meet: ivory against charcoal, as in chess)
    Army(fill=(247, 243, 233), edge=INK, emblem="circle"),
    Army(fill=(86, 180, 233), edge=INK, emblem="triangle"),
    Army(fill=(40, 41, 46), edge=(236, 232, 222), emblem="square"),
    Army(fill=(213, 94, 0), edge=INK, emblem="diamond"),
)

# The solid chess glyphs of the bundled DejaVu font: filled with the army's colour and stroked with its edge, their
# inner cut-outs become lines in the edge colour, so one glyph reads right on every fill.
GLYPHS = {"K": "\u265a", "R": "\u265c", "B": "\u265d", "N": "\u265e", "P": "\u265f"}
GLYPH_HEIGHT = 0.66  # of a square, for the plain pieces
HORSE_HEIGHT = 0.5  # the Mycenaean knight's horse, which leaves the square's top for its cargo chips
EMBLEM_AT, EMBLEM_RADIUS = 0.86, 0.12  # a piece's owner emblem, bottom right: its square 23 px, 9 px on a phone


# --- orientation ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnedGrid(Grid):
    """The board turned by quarter turns (counter-clockwise) so that corner `turns` of CORNER_NAMES lands bottom
    left: 0 a1 (the public view), 1 a8, 2 h8, 3 h1. A turn, never a mirror, so the clockwise seat order stays
    clockwise on screen."""

    turns: int = 0

    def screen(self, f: int, r: int) -> tuple[int, int]:
        """(column, row) on screen of square (f, r); row 0 is the top."""
        last = BOARD - 1
        return ((f, last - r), (last - r, last - f), (last - f, r), (r, f))[self.turns]

    def origin(self, f: int, r: int) -> tuple[int, int]:
        col, row = self.screen(f, r)
        return self.left + col * self.square, self.top + row * self.square


def corner_index(view: dict, seat: int) -> int:
    return CORNER_NAMES.index(view["corners"][seat])


def turns_for(view: dict) -> int:
    """The private view puts its viewer's corner bottom left; everyone else sees a1 there."""
    viewer = view.get("viewer")
    return 0 if viewer is None else corner_index(view, viewer)


def grid_for(turns: int) -> TurnedGrid:
    return TurnedGrid(BOARD, BOARD, SQUARE, MARGIN, MARGIN, turns=turns)


# The start area of each corner: 4 squares along its edge, 2 deep (the rules' frame: origin, edge, forward).
FRAMES = (((0, 0), (1, 0), (0, 1)), ((0, 7), (0, -1), (1, 0)), ((7, 7), (-1, 0), (0, -1)), ((7, 0), (0, 1), (-1, 0)))


def start_area(corner: int) -> set[tuple[int, int]]:
    (fo, ro), (fe, re), (ff, rf) = FRAMES[corner]
    return {(fo + i * fe + j * ff, ro + i * re + j * rf) for i in range(4) for j in range(2)}


# --- sprites --------------------------------------------------------------------------------------------------


def _paint_emblem(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, army: Army, line: float) -> None:
    """The army's emblem filled with its colour and edged with its contrasting one."""
    r = radius
    if army.emblem == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=army.fill, outline=army.edge, width=round(line))
        return
    if army.emblem == "square":
        s = r * 0.86
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=army.fill, outline=army.edge, width=round(line))
        return
    if army.emblem == "triangle":
        points = [(cx, cy - r * 1.02), (cx + r * 1.02, cy + r * 0.8), (cx - r * 1.02, cy + r * 0.8)]
    else:  # diamond
        points = [(cx, cy - r * 1.08), (cx + r * 1.08, cy), (cx, cy + r * 1.08), (cx - r * 1.08, cy)]
    draw.polygon(points, fill=army.fill, outline=army.edge, width=round(line))


@lru_cache(maxsize=16)
def emblem_sprite(size: int, corner: int) -> Image.Image:
    army = ARMIES[corner]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        line = max(SUPERSAMPLE * 2, big // 11)
        _paint_emblem(draw, big / 2, big / 2, big / 2 - line / 2 - SUPERSAMPLE, army, line)

    return supersampled(size, paint)


def _paint_glyph(draw: ImageDraw.ImageDraw, letter: str, cx: float, bottom: float, height: float, army: Army,
                 stroke: int) -> None:
    """A chess glyph standing on `bottom`, centred on cx, about `height` tall."""
    fnt = font(round(height / 0.73))  # DejaVu's chess glyphs are about 0.73 of the font size tall
    glyph = GLYPHS[letter]
    x0, y0, x1, y1 = draw.textbbox((0, 0), glyph, font=fnt, stroke_width=stroke)
    draw.text((cx - (x0 + x1) / 2, bottom - y1), glyph, font=fnt, fill=army.fill, stroke_width=stroke,
              stroke_fill=army.edge)


def _paint_platform(draw: ImageDraw.ImageDraw, big: int, army: Army) -> float:
    """The wooden horse's wheeled plank; returns the y the horse stands on."""
    line = max(SUPERSAMPLE * 2, big // 40)
    plank_top, plank_bottom = big * 0.78, big * 0.87
    left, right = big * 0.2, big * 0.76
    draw.rounded_rectangle((left, plank_top, right, plank_bottom), radius=big * 0.02, fill=WOOD, outline=army.edge,
                           width=line)
    wheel = big * 0.062
    for x in (left + big * 0.1, right - big * 0.1):
        y = plank_bottom + wheel * 0.55
        draw.ellipse((x - wheel, y - wheel, x + wheel, y + wheel), fill=army.fill, outline=army.edge, width=line)
        hub = wheel * 0.3
        draw.ellipse((x - hub, y - hub, x + hub, y + hub), fill=army.edge)
    return plank_top + line / 2


@lru_cache(maxsize=64)
def piece_sprite(size: int, letter: str, mycenaean: bool, corner: int) -> Image.Image:
    """A piece filling a whole square: the chess glyph (a Mycenaean knight: a smaller horse on a wheeled plank,
    leaving the top of the square to its cargo chips) and the army's emblem in the bottom-right corner."""
    army = ARMIES[corner]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        stroke = max(SUPERSAMPLE * 2, round(big * 0.026))
        cx = big * 0.46  # left of centre: the emblem sits bottom right
        if mycenaean:
            stands_on = _paint_platform(draw, big, army)
            _paint_glyph(draw, "N", cx, stands_on + stroke, big * HORSE_HEIGHT, army, stroke)
        else:
            _paint_glyph(draw, letter, cx, big * 0.88, big * GLYPH_HEIGHT, army, stroke)
        line = max(SUPERSAMPLE * 2, big // 50)
        _paint_emblem(draw, big * EMBLEM_AT, big * EMBLEM_AT, big * EMBLEM_RADIUS, army, line)

    return supersampled(size, paint)


@lru_cache(maxsize=64)
def piece_patch(letter: str, mycenaean: bool, corner: int) -> tuple[Image.Image, tuple[int, int]]:
    """The piece sprite cut down to its visible part, and where that part sits in the square: pasting a third
    of the pixels makes a render measurably faster."""
    sprite = piece_sprite(SQUARE, letter, mycenaean, corner)
    box = sprite.getchannel("A").getbbox()
    assert box is not None  # every sprite draws something
    return sprite.crop(box), box[:2]


@lru_cache(maxsize=128)
def chip_sprite(letter: str, count: int, corner: int, struck: bool = False, height: int = CHIP_HEIGHT) -> Image.Image:
    """A cargo chip: the piece letter in the owner's colours, followed by the count when there are several (P3:
    three pawns); struck through for destroyed cargo. Both TEXT_MIN px: a subscript count vanished on a phone."""
    army = ARMIES[corner]
    letter_font = font(TEXT_MIN, bold=True)
    count_font = font(TEXT_MIN)
    width = round(letter_font.getlength(letter) + 10)  # narrow: a full cargo K R B2 P3 takes two rows
    if count > 1:
        width += round(count_font.getlength(str(count)))
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=height // 4, fill=army.fill, outline=army.edge,
                           width=2)
    x = 5
    baseline = round(height / 2 + TEXT_MIN * 0.36)
    draw.text((x, baseline), letter, font=letter_font, fill=army.edge, anchor="ls")
    if count > 1:
        x += round(letter_font.getlength(letter))
        draw.text((x, baseline), str(count), font=count_font, fill=army.edge, anchor="ls")
    if struck:
        draw.line((2, height - 3, width - 3, 2), fill=VERMILLION if corner != 3 else INK, width=2)
    return img


@lru_cache(maxsize=4)
def cross_sprite(size: int) -> Image.Image:
    """A bold X in ink with a light edge: a piece was destroyed or taken here (its owner is no longer known)."""

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        inset = big * 0.12
        lo, hi = inset, big - inset
        for colour, width in ((PAPER, big // 8), (INK, big // 8 - 2 * max(SUPERSAMPLE * 2, big // 44))):
            draw.line((lo, lo, hi, hi), fill=colour, width=width)
            draw.line((lo, hi, hi, lo), fill=colour, width=width)

    return supersampled(size, paint)


@lru_cache(maxsize=4)
def flame_sprite(size: int) -> Image.Image:
    """A flame on the square of a burnt knight."""

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        line = max(SUPERSAMPLE * 2, big // 22)

        def flame(scale: float, fill: RGB) -> None:
            # a drop shape: a round bottom half, sides narrowing to a point at the top
            cx, base = big / 2, big * 0.94
            h, w = big * 0.86 * scale, big * 0.36 * scale
            belly = base - w
            points = [(cx + w * math.cos(t), belly + w * math.sin(t)) for t in (i / 16 * math.pi for i in range(17))]
            points += [(cx - w * (1 - t) ** 1.5, belly - (h - w) * t) for t in (i / 10 for i in range(11))]
            points += [(cx + w * t ** 1.5, belly - (h - w) * (1 - t)) for t in (i / 10 for i in range(11))]
            draw.polygon(points, fill=fill, outline=INK, width=line)

        flame(1.0, VERMILLION)
        flame(0.55, YELLOW)

    return supersampled(size, paint)


@lru_cache(maxsize=4)
def marker_sprite(size: int, kind: str) -> Image.Image:
    """A corner badge: 'ask' (a question mark on yellow: this knight asks consent) or 'flag' (a take-over)."""

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        line = max(SUPERSAMPLE * 2, big // 14)
        pad = SUPERSAMPLE
        fill = REQUEST if kind == "ask" else PAPER
        draw.ellipse((pad, pad, big - pad, big - pad), fill=fill, outline=INK, width=line)
        if kind == "ask":
            draw.text((big / 2, big / 2 + big * 0.03), "?", font=font(round(big * 0.72), bold=True), fill=INK,
                      anchor="mm")
        else:
            pole = big * 0.32
            draw.rectangle((pole, big * 0.2, pole + big * 0.07, big * 0.8), fill=INK)
            draw.polygon([(pole + big * 0.07, big * 0.2), (big * 0.76, big * 0.33), (pole + big * 0.07, big * 0.47)],
                         fill=INK)

    return supersampled(size, paint)


# --- layer ----------------------------------------------------------------------------------------------------


def square_colour(f: int, r: int) -> RGB:
    return DARK_SQUARE if (f + r) % 2 == 0 else LIGHT_SQUARE  # a1 dark, as on a chessboard


def area_box(grid: Grid, corner: int) -> tuple[int, int, int, int]:
    """The screen rectangle of a corner's start area."""
    boxes = [grid.box(f, r) for f, r in start_area(corner)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


@lru_cache(maxsize=16)
def board_layer(corners: tuple[int, ...], turns: int, legend: tuple[str, ...] = ()) -> Image.Image:
    """Everything that never changes in a match: squares, coordinates on every edge, each seated army's emblem
    beside its board corner, the empty caption band and its legend (`legend`: its words, see legend_words)."""
    grid = grid_for(turns)
    img = new_canvas(grid.right + MARGIN, grid.bottom + MARGIN + caption_height(len(corners)))
    draw = ImageDraw.Draw(img)
    for f in range(BOARD):
        for r in range(BOARD):
            x0, y0, x1, y1 = grid.box(f, r)
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=square_colour(f, r))
    draw.rectangle((grid.left - 2, grid.top - 2, grid.right + 1, grid.bottom + 1), outline=(18, 20, 24), width=2)
    _draw_coordinates(draw, grid)
    img.paste(legend_image(img.width, corners[:1], legend or legend_words()), (0, img.height - LEGEND_ROW - 4))
    for corner in corners:
        f, r = FRAMES[corner][0]
        x0, y0, x1, y1 = grid.box(f, r)
        x = x0 - MARGIN // 2 if x0 == grid.left else x1 + MARGIN // 2
        y = y0 - MARGIN // 2 if y0 == grid.top else y1 + MARGIN // 2
        paste_centred(img, emblem_sprite(CORNER_EMBLEM, corner), (x, y))
    return img


def edge_labels(grid: TurnedGrid) -> tuple[list[str], list[str]]:
    """The labels of the screen columns (left to right) and rows (top to bottom): after a quarter turn the files
    run up the sides and the ranks along the top and bottom."""
    columns, rows = [""] * BOARD, [""] * BOARD
    for f in range(BOARD):
        for r in range(BOARD):
            col, row = grid.screen(f, r)
            file_label, rank_label = chr(ord("a") + f), str(r + 1)
            columns[col] = file_label if grid.turns % 2 == 0 else rank_label
            rows[row] = rank_label if grid.turns % 2 == 0 else file_label
    return columns, rows


def _frame_start_areas(img: Image.Image, grid: Grid, corners: Sequence[int]) -> None:
    """Each seated army's start area framed by a band of its colour. A frame, not a tint: a tinted area would look
    like a highlight (a sky-blue one like the last move's squares). Drawn after the highlights, so that a tinted
    square does not change the band's colour."""
    draw = ImageDraw.Draw(img)
    for corner in corners:
        _frame_area(draw, corner, area_box(grid, corner))


def _frame_area(draw: ImageDraw.ImageDraw, corner: int, box: tuple[int, int, int, int]) -> None:
    """The frame of one start area whose box (on the picture being drawn) is `box`."""
    x0, y0, x1, y1 = box
    army = ARMIES[corner]
    draw.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=army.edge, width=AREA_FRAME + 2)
    draw.rectangle((x0 + 2, y0 + 2, x1 - 3, y1 - 3), outline=army.fill, width=AREA_FRAME)


def _draw_coordinates(draw: ImageDraw.ImageDraw, grid: TurnedGrid) -> None:
    fnt = font(TEXT_MIN, bold=True)
    half = SQUARE // 2
    columns, rows = edge_labels(grid)
    for col, label in enumerate(columns):
        x = grid.left + col * SQUARE + half
        for y in (grid.top - MARGIN // 2 - 1, grid.bottom + MARGIN // 2 + 1):
            draw.text((x, y), label, font=fnt, fill=TEXT_DIM, anchor="mm")
    for row, label in enumerate(rows):
        y = grid.top + row * SQUARE + half
        for x in (grid.left - MARGIN // 2 - 1, grid.right + MARGIN // 2 + 1):
            draw.text((x, y), label, font=fnt, fill=TEXT_DIM, anchor="mm")


# --- what the view says about the last move -------------------------------------------------------------------


def last_kind(view: dict) -> str | None:
    """'move', 'load', 'unload', 'burn', 'consent', 'refuse' (or None before the first move)."""
    move = view.get("last_move")
    if not move:
        return None
    head = move.split(" ")[0]
    return head if head in ("load", "unload", "burn", "consent", "refuse") else "move"


def revealed_now(view: dict) -> list[dict]:
    """Cargo destroyed (and so shown to everyone) by the last move."""
    return [r for r in view.get("revealed") or [] if r["ply"] == view["ply"]]


def cargo_counts(pieces: Sequence[dict], first_owner: int) -> list[tuple[int, str, int]]:
    """(owner, letter, count) in chip order: the knight owner's pieces first, each owner's in K R B P order."""
    counts = Counter((p["owner"], p["type"]) for p in pieces)
    order = sorted(counts, key=lambda k: (k[0] != first_owner, k[0], "KRBP".index(k[1])))
    return [(owner, letter, counts[owner, letter]) for owner, letter in order]


def visible_cargo(view: dict, square: str) -> list[dict]:
    """What this viewer may know a knight carries: all of it for her own knight, else what was seen loaded."""
    own = view.get("cargo") or {}
    if square in own:
        return own[square]
    return (view.get("known_cargo") or {}).get(square) or []


# --- render ---------------------------------------------------------------------------------------------------


def _seated(view: dict) -> tuple[int, ...]:
    """The corners with a player, in board order: with the turn of the board, what the layer depends on."""
    return tuple(sorted(corner_index(view, s) for s in range(view["num_players"])))


def layout(view: dict, player_names: Sequence[str] | None = None) -> Picture:
    """The picture of a view (renderers/tiles.py): the framed layer, a tile on each square that shows more, the
    caption."""
    grid = grid_for(turns_for(view))
    corners = [corner_index(view, s) for s in range(view["num_players"])]
    names = player_names_for(view, player_names)
    return Picture(grid, (_seated(view), grid.turns, legend_words()), square_ops(view, grid), colour=square_colour,
                   caption=lambda img, top: _draw_caption(img, top, view, names, corners))


@lru_cache(maxsize=16)
def framed_layer(seated: tuple[int, ...], turns: int, legend: tuple[str, ...]) -> Image.Image:
    """The layer with the seated armies' start areas framed: what a square that shows nothing else looks like."""
    img = board_layer(seated, turns, legend).copy()
    _frame_start_areas(img, grid_for(turns), seated)
    return img


# --- squares ---------------------------------------------------------------------------------------------------
# Everything a position adds to the board lies inside single squares, so a picture is the framed layer with a
# tile pasted on each square that shows something: in RGB for draw, mapped once for compose. A square's tile is
# the list of what is drawn on it, in the order the board was drawn: the last move's marks, its start area's frame
# (over the marks, under the pieces), the piece and its cargo chips, destroyed cargo and the take-over flag, a
# request's frames and question mark.

Op = tuple  # ("tint", colour, strength), ("cross",), ("flame",), ("outline", colour, width), ("area", corner, box),
# ("piece", letter, mycenaean, corner), ("chips", ((letter, count, corner), ...), top), ("flag",), ("ask",),
# ("dashed", colour, width)


def square_ops(view: dict, grid: "TurnedGrid") -> dict[tuple[int, int], tuple[Op, ...]]:
    """What is drawn on each square that shows more than the framed layer."""
    ops: dict[str, list[Op]] = {}

    def add(name: str, *op: object) -> None:
        ops.setdefault(name, []).append(op)

    _last_move_ops(view, add)
    corners = [corner_index(view, s) for s in range(view["num_players"])]
    pieces = {p["square"]: p for p in view["board"]}
    revealed = revealed_now(view)
    pending = view.get("pending")
    shown = set(pieces) | {r["square"] for r in revealed}
    if pending:
        shown |= {pending["knight"], *pending["squares"]}
    for name in shown:
        ops.setdefault(name, [])
    for corner in _seated(view):
        x0, y0, x1, y1 = area_box(grid, corner)
        for f, r in start_area(corner):
            name = square_name(f, r)
            if name in ops:  # the frame is in the layer; a tile drawn from the plain square needs it again
                sx, sy = grid.origin(f, r)
                add(name, "area", corner, (x0 - sx, y0 - sy, x1 - sx, y1 - sy))
    for name, p in pieces.items():
        add(name, "piece", p["type"], p["mycenaean"], corners[p["owner"]])
        if p["mycenaean"]:
            add(name, "chips", _chip_key(cargo_counts(visible_cargo(view, name), p["owner"]), corners), True)
    for record in revealed:
        if record["cause"] == "taken over":
            add(record["square"], "flag")
        add(record["square"], "chips", _chip_key(cargo_counts(record["pieces"], record["owner"]), corners), False)
    if pending:
        add(pending["knight"], "outline", REQUEST, 6)
        for name in pending["squares"]:
            add(name, "dashed", REQUEST, 5)
        add(pending["knight"], "ask")
    return {parse_square(name): tuple(square) for name, square in ops.items() if square}


def _chip_key(counts: list[tuple[int, str, int]], corners: list[int]) -> tuple[tuple[int, str, int], ...]:
    """Cargo counts by army corner instead of seat: what the chips look like, whoever sits there."""
    return tuple((corners[owner], letter, count) for owner, letter, count in counts)


def _last_move_ops(view: dict, add) -> None:
    """From and to squares tinted blue, where the move ended framed; a capture's square tinted purple and crossed;
    a burn's squares tinted purple and crossed, with a flame where the knight stood."""
    kind = last_kind(view)
    squares = view.get("last_squares") or []
    if not kind or not squares:
        return
    if kind == "burn":
        for name in squares:
            add(name, "tint", DESTROYED, DESTROYED_TINT)
        add(squares[0], "flame")
        for name in squares[1:]:
            add(name, "cross")
        return
    if kind == "move" and "x" in view["last_move"]:
        add(squares[0], "tint", LAST_MOVE, 0.5)
        for name in squares[1:]:
            add(name, "tint", DESTROYED, DESTROYED_TINT)
        add(squares[1], "cross")
        for name in squares[1:]:
            add(name, "outline", LAST_MOVE_FRAME, 4)
        return
    for name in squares:
        add(name, "tint", LAST_MOVE, 0.5)
    # a move ends on its target; a load in its knight; an unload on the squares it placed pieces on
    for name in squares[:1] if kind in ("load", "consent", "refuse") else squares[1:]:
        add(name, "outline", LAST_MOVE_FRAME, 4)


def square_tile(colour: RGB, ops: tuple[Op, ...]) -> Image.Image:
    """One square of colour `colour` with `ops` drawn on it in order, with the board's own helpers on a one-square
    grid."""
    tile, one = one_square(SQUARE, colour)
    here = ["a1"]
    centre = one.centre(0, 0)
    for kind, *args in ops:
        if kind == "tint":
            tint_squares(tile, one, here, *args)
        elif kind == "cross":
            paste_centred(tile, cross_sprite(SQUARE), centre)
        elif kind == "flame":
            paste_centred(tile, flame_sprite(round(SQUARE * 0.8)), centre)
        elif kind == "outline":
            outline_squares(tile, one, here, *args)
        elif kind == "area":
            _frame_area(ImageDraw.Draw(tile), *args)
        elif kind == "piece":
            patch, (dx, dy) = piece_patch(*args)
            tile.paste(patch, (dx, dy), patch)
        elif kind == "chips":
            counts, top = args
            _draw_chips(tile, one, "a1", [(corner, letter, count) for corner, letter, count in counts], [0, 1, 2, 3],
                        top=top)
        elif kind == "flag":
            paste_centred(tile, marker_sprite(MARKER, "flag"), (MARKER // 2 + 2, MARKER // 2 + 2))
        elif kind == "ask":
            paste_centred(tile, marker_sprite(MARKER, "ask"), (SQUARE - MARKER // 2 - 2, CHIP_HEIGHT + MARKER // 2 + 6))
        elif kind == "dashed":
            _dashed_frame(tile, one, "a1", *args)
    return tile


# --- the picture on a palette chosen once per layer (common.py, "pictures on a palette chosen once") ----------
# The palette depends only on the layer (the seated corners and the turn of the board), never on a position: a
# public picture's bytes cannot depend on anybody's cargo through it.


PICTURES = TiledBoard(layer=framed_layer, tile=square_tile, layout=layout, margin=MARGIN,
                      palette_of=lambda view: board_palette(_seated(view)),
                      tiles=2048, layers=16)  # mapped tiles ~12 KiB each: at most ~25 MiB
draw, compose, render, palette_of = PICTURES.draw, PICTURES.compose, PICTURES.render, PICTURES.palette_of
# render: the PNG of a Mycenae view (default player names: the corners, a1 h8 ...)


@palette_once(maxsize=8)
def board_palette(seated: tuple[int, ...]) -> Palette:
    """Chosen from the layer and boards covered with everything a square can show: every seated army's pieces
    and cargo chips (also struck through) on both square colours, plain and under each kind of highlight, with
    the markers; and captions with every kind of badge. Turning the board moves colours, never changes them: one
    palette serves every seat's view."""
    grid = grid_for(0)
    layer = board_layer(seated, 0)
    # Four ranks hold every piece of the seated armies once (28 at most on 32 squares), enough for a sample.
    names = [square_name(f, r) for f in range(BOARD) for r in range(4)]
    pieces = [(letter, False, corner) for corner in seated for letter in GLYPHS] + [("N", True, c) for c in seated]
    def last_move(img: Image.Image) -> None:
        tint_squares(img, grid, names, LAST_MOVE, 0.5)
        outline_squares(img, grid, names, LAST_MOVE_FRAME, 4)

    def destroyed(img: Image.Image, sprite: Image.Image, frame: bool) -> None:
        tint_squares(img, grid, names, DESTROYED, DESTROYED_TINT)
        for n in names:
            paste_centred(img, sprite, grid.centre_of(n))
        if frame:
            outline_squares(img, grid, names, LAST_MOVE_FRAME, 4)

    def request(img: Image.Image) -> None:
        outline_squares(img, grid, names, REQUEST, 6)
        for n in names:
            _dashed_frame(img, grid, n, REQUEST, 5)

    marks = [
        lambda img: None,
        last_move,
        lambda img: destroyed(img, cross_sprite(SQUARE), frame=True),
        lambda img: destroyed(img, flame_sprite(round(SQUARE * 0.8)), frame=False),
        request,
    ]
    boards = []
    for mark in marks:
        for shift in (0, 1):  # each piece on both colours of square
            img = layer.copy()
            mark(img)
            _frame_start_areas(img, grid, seated)
            for i, name in enumerate(names):
                letter, mycenaean, corner = pieces[(i + shift) % len(pieces)]
                patch, (dx, dy) = piece_patch(letter, mycenaean, corner)
                x0, y0, _, _ = grid.box_of(name)
                img.paste(patch, (x0 + dx, y0 + dy), patch)
                owner = i % len(seated)
                cargo = [(owner, "KRBP"[i % 4], 1 + i % 3), ((owner + 1) % len(seated), "KRBP"[(i + 1) % 4], 1)]
                _draw_chips(img, grid, name, cargo, list(seated), top=bool(i % 2))
                if i % 5 == 0:
                    paste_centred(img, marker_sprite(MARKER, ("flag", "ask")[i % 2]), grid.centre_of(name))
            boards.append(img.crop((0, grid.top + 4 * SQUARE, img.width, grid.bottom + MARGIN)))  # ranks 1-4
    # The flat colours first, exactly: with four armies there are more of them than the sampling keeps.
    flat = [tinted(square, tint, strength) for square in (LIGHT_SQUARE, DARK_SQUARE)
            for tint, strength in ((square, 0.0), (LAST_MOVE, 0.5), (DESTROYED, DESTROYED_TINT))]
    flat += [colour for corner in seated for colour in (ARMIES[corner].fill, ARMIES[corner].edge)]
    flat += [LAST_MOVE_FRAME, REQUEST, INK, PAPER, WOOD, VERMILLION, BACKGROUND, PANEL, TEXT, TEXT_DIM, SKY_BLUE]
    reference = palette_reference(layer, *boards, _caption_samples(layer.width, seated))
    return Palette(flat + palette_colours(reference))


def _caption_samples(width: int, seated: tuple[int, ...]) -> Image.Image:
    """Badges of every state for each seated army at this player count's width, and both caption lines."""
    slot = badge_width(width, len(seated))
    tags = [("TO MOVE", SKY_BLUE), ("WINNER", YELLOW), ("ASKED", YELLOW), ("OUT", TEXT), ("SETTING UP", SKY_BLUE),
            ("READY", TEXT_DIM), ("", TEXT_DIM)]
    img = new_canvas(width, len(tags) * (BADGE_HEIGHT + 8) + 170 + LEGEND_ROW)
    for row, (tag, colour) in enumerate(tags):
        for i, corner in enumerate(seated):
            badge = Badge(slot, corner, "Sample Player", " (you)" if i == 0 else "", tag, tag, colour, "a1 · Mycenae",
                          "a1", tag == "OUT")
            img.paste(badge_image(badge), (_PAD + i * (slot + _PAD), row * (BADGE_HEIGHT + 8)))
    room = width - 2 * _PAD - 8
    top = len(tags) * (BADGE_HEIGHT + 8)
    img.paste(text_line("Sample Player to answer Sample's request to load into c3", STATUS_SIZES, True, TEXT, room),
              (_PAD, top))
    img.paste(text_line("Last: b7xb2 · b2 carried K R2 · Sample Player is out", HISTORY_SIZES, False, TEXT_DIM,
                        room), (_PAD, top + 60))
    img.paste(text_line("Secret setup: Sample Player, Sample Player and Sample Player still choosing cargo",
                        STATUS_SIZES, True, TEXT, room), (_PAD, top + 120))
    img.paste(legend_image(width, (seated[0],), legend_words()), (0, top + 170))
    return img


def _draw_chips(img: Image.Image, grid: Grid, square: str, counts: list[tuple[int, str, int]], corners: list[int],
                top: bool) -> None:
    """Cargo chips in one or two centred rows along the top (a knight's cargo) or bottom (destroyed cargo) of a
    square."""
    if not counts:
        return
    chips = [chip_sprite(letter, count, corners[owner], struck=not top) for owner, letter, count in counts]
    rows: list[list[Image.Image]] = [[]]
    room = SQUARE - 2
    for chip in chips:
        if rows[-1] and sum(c.width + 2 for c in rows[-1]) + chip.width > room:
            rows.append([])
        rows[-1].append(chip)
    x0, y0, x1, y1 = grid.box_of(square)
    for i, row in enumerate(rows):
        width = sum(c.width for c in row) + 2 * (len(row) - 1)
        x = x0 + (SQUARE - width) // 2
        y = y0 + 3 + i * (CHIP_HEIGHT + 2) if top else y1 - 3 - (len(rows) - i) * (CHIP_HEIGHT + 2) + 2
        for chip in row:
            img.paste(chip, (x, y), chip)
            x += chip.width + 2


def _dashed_frame(img: Image.Image, grid: Grid, name: str, colour: RGB, width: int) -> None:
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = grid.box_of(name)
    dash = SQUARE // 8
    for i in range(0, SQUARE, 2 * dash):
        draw.rectangle((x0 + i, y0, x0 + i + dash - 1, y0 + width - 1), fill=colour)
        draw.rectangle((x0 + i, y1 - width, x0 + i + dash - 1, y1 - 1), fill=colour)
        draw.rectangle((x0, y0 + i, x0 + width - 1, y0 + i + dash - 1), fill=colour)
        draw.rectangle((x1 - width, y0 + i, x1 - 1, y0 + i + dash - 1), fill=colour)


# --- caption --------------------------------------------------------------------------------------------------

_PAD = 14
BADGE_HEIGHT = 76
BADGE_ROW = BADGE_HEIGHT + 8  # from one row of badges to the next


BADGE_TAGS = (N_("WINNER"), N_("OUT"), N_("SETTING UP"), N_("READY"), N_("ASKED"), N_("TO MOVE"))  # said by say()


def _badge_tag(view: dict, seat: int) -> tuple[str, RGB]:
    outcome = view.get("outcome")
    if outcome and seat in outcome["winners"]:
        return "WINNER", YELLOW
    if seat in (view.get("out") or []):
        return "OUT", TEXT
    waiting = view["setup"]["waiting"]
    if waiting:
        if seat in waiting:
            return "SETTING UP", SKY_BLUE
        return ("READY", TEXT_DIM) if view["armies"][seat] == "mycenae" else ("", TEXT_DIM)
    if view.get("pending") and view["pending"]["asked"] == seat:
        return "ASKED", YELLOW
    if seat in (view.get("to_act") or []):
        return "TO MOVE", SKY_BLUE
    return "", TEXT_DIM


def _badge_detail(view: dict, seat: int) -> str:
    """'a1 · Mycenae': the corner and the army (a count of pieces would have to leave out the carried ones, and
    counting them would tell how much a knight carries)."""
    army = say("Mycenae") if view["armies"][seat] == "mycenae" else say("Plain")
    return f"{view['corners'][seat]} · {army}"


@dataclass(frozen=True)
class Badge:
    """Everything one player's badge shows; equal badges are drawn once (see badge_image)."""

    width: int
    corner: int
    name: str
    you: str  # " (you)" in the picture's language on the viewer's own badge, in a private view; else ""
    tag: str  # the state, as _badge_tag names it
    tag_words: str  # the state as the picture says it
    tag_colour: RGB
    detail: str
    short_detail: str  # what a narrow badge shows instead
    out: bool


def _badge(view: dict, seat: int, name: str, corner: int, width: int) -> Badge:
    tag, tag_colour = _badge_tag(view, seat)
    you = say(" (you)") if view.get("viewer") == seat else ""
    return Badge(width, corner, name, you, tag, say(tag) if tag else "", tag_colour, _badge_detail(view, seat),
                 view["corners"][seat],
                 seat in (view.get("out") or []))


@lru_cache(maxsize=256)
def badge_image(badge: Badge) -> Image.Image:
    """A player's badge on the caption's background: emblem (crossed out when the player is out), name, and a
    line with the state tag, corner and army. Cached: consecutive boards of a match mostly repeat them."""
    img = Image.new("RGB", (badge.width, BADGE_HEIGHT + 1), BACKGROUND)
    draw = ImageDraw.Draw(img)
    if badge.tag in ("TO MOVE", "WINNER", "ASKED"):
        draw.rounded_rectangle((0, 0, badge.width - 1, BADGE_HEIGHT), radius=12, fill=PANEL,
                               outline=badge.tag_colour, width=3)
    centre = (10 + SWATCH // 2, BADGE_HEIGHT // 2)
    paste_centred(img, emblem_sprite(SWATCH, badge.corner), centre)
    if badge.out:
        paste_centred(img, cross_sprite(SWATCH), centre)
    text_x = 20 + SWATCH
    right = badge.width - 10
    you = badge.you
    # a little smaller before shortening: a four-player badge is narrow
    player = badge_player(badge.name)
    name_font = font(fitting_size(player + you, right - text_x, (26, TEXT_MIN), bold=True), bold=True)
    name = fit_text(player, name_font, right - text_x - text_width(you, name_font)) + you  # "(you)" kept whole
    draw_text(img, (text_x, 25), name, name_font, TEXT_DIM if badge.out else TEXT, "lm",
              room=(text_x - 4, 0, right + 4, 42))
    tag_font, detail_font = font(TEXT_MIN, bold=True), font(TEXT_MIN)
    x = text_x
    line = (text_x - 4, 42, right + 4, BADGE_HEIGHT)
    if badge.tag_words:
        draw_text(img, (x, 56), badge.tag_words, tag_font, badge.tag_colour, "lm", room=line)
        x += round(text_width(badge.tag_words, tag_font)) + 8
    # a narrow badge says less rather than cut it: the corner alone (the player's side: it stays)
    detail = first_fitting((badge.detail, badge.short_detail), right - x, detail_font)
    draw_text(img, (x, 56), detail, detail_font, TEXT_DIM, "lm", room=line)
    return img


@lru_cache(maxsize=64)
def text_line(text: str, sizes: tuple[int, ...], bold: bool, colour: RGB, width: int) -> Image.Image:
    """One caption line on the background, at the largest of the sizes that fits (shortened only if the smallest
    does not: a very long name). Cached: the public and private boards of one move share their lines."""
    fnt = font(fitting_size(text, width, sizes, bold), bold)
    img = Image.new("RGB", (width + 4, round(sizes[0] * 1.3)), BACKGROUND)  # 2 px each side for overhanging ink
    draw_text(img, (2, img.height // 2), fit_text(text, fnt, width), fnt, colour, "lm")
    return img


def _fitting_status(view: dict, names: Sequence[str], room: int) -> str:
    """The status line; during a setup with several long names, a shorter wording rather than a cut one."""
    text = status(view, names)
    waiting = view["setup"]["waiting"]
    if view.get("outcome") or not waiting:
        return text
    players = say("{count} player", plural="{count} players", count=len(waiting))
    variants = (text, say("Choosing cargo: {players}", players=", ".join(names[s] for s in waiting)),
                say("Secret setup: {players} still choosing cargo", players=players))
    return first_fitting(variants, room, font(STATUS_SIZES[-1], bold=True))


def _names_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else say("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def status(view: dict, names: Sequence[str]) -> str:
    """Whose turn it is, who is still setting up (nothing more: the cargo is secret), or how the game ended."""
    waiting = view["setup"]["waiting"]
    if view.get("outcome"):
        return status_line(view, names)
    if waiting:
        return say("Secret setup: {players} still choosing cargo", players=_names_list([names[s] for s in waiting]))
    pending = view.get("pending")
    if pending:
        return say("{asked} to answer {requester}'s request to load into {knight}", asked=names[pending["asked"]],
                   requester=names[pending["requester"]], knight=pending["knight"])
    return status_line(view, names)


def history(view: dict, names: Sequence[str]) -> str:
    """The last move in notation, with what it revealed: destroyed cargo, take-overs, a king lost in a knight."""
    pending = view.get("pending")
    if pending:
        return say("Request: {move} — consent or refuse", move=pending["move"])
    move = view.get("last_move")
    if not move:
        return say("No move yet") if not view["setup"]["waiting"] else say("The first move follows the setup")
    kind, squares = last_kind(view), view.get("last_squares") or []
    if kind == "burn":
        last = say("Last: {move} (destroyed {count})", move=move, count=len(squares))
    elif kind == "consent" and squares:  # a load's squares: the knight, then the pieces
        last = say("Last: {move} to load {squares}", move=move, squares=" ".join(squares))
    elif kind == "refuse" and view.get("refused"):
        last = say("Last: {move} ({refused})", move=move, refused=view["refused"][-1])
    else:
        last = say("Last: {move}", move=move)
    parts = [last]
    kings_lost = []
    for record in revealed_now(view):
        carried = " ".join(p["type"] for p in record["pieces"])
        if record["cause"] == "taken over":
            parts.append(say("{square} taken over, its cargo {cargo} destroyed", square=record["square"], cargo=carried)
                         if carried else say("{square} taken over", square=record["square"]))
        else:
            parts.append(say("{square} carried {cargo}", square=record["square"], cargo=carried) if carried
                         else say("{square} carried nothing", square=record["square"]))
        kings_lost += [p["owner"] for p in record["pieces"] if p["type"] == "K"]
    # a king destroyed inside a knight: its owner is out by this move (other knock-outs the view does not date)
    parts += [say("{player} is out", player=names[seat]) for seat in sorted(set(kings_lost))
              if seat in (view.get("out") or [])]
    return " · ".join(parts)


def _draw_caption(img: Image.Image, top: int, view: dict, names: Sequence[str], corners: list[int]) -> None:
    """One badge per player (emblem, name, state, corner and army), then whose turn in large type, then the last
    move."""
    count = view["num_players"]
    slot, per_row = badge_width(img.width, count), badges_per_row(count)
    for seat in range(count):
        badge = badge_image(_badge(view, seat, names[seat], corners[seat], slot))
        row, column = divmod(seat, per_row)
        img.paste(badge, (_PAD + column * (slot + _PAD), top + 6 + row * BADGE_ROW))
    top += caption_height(count) - CAPTION_HEIGHT  # the lines under the last row of badges
    room = img.width - 2 * _PAD - 8
    quoted = [short_name(name) for name in names]  # a status line's own words always fit
    line = text_line(_fitting_status(view, quoted, room), STATUS_SIZES, True, TEXT, room)
    img.paste(line, (_PAD + 2, top + BADGE_HEIGHT + 36 - line.height // 2))
    line = text_line(history(view, quoted), HISTORY_SIZES, False, TEXT_DIM, room)
    img.paste(line, (_PAD + 2, top + BADGE_HEIGHT + 74 - line.height // 2))


def badges_per_row(count: int) -> int:
    """Three or four badges side by side leave no room for a computer's name and a badge's state: two rows."""
    return 2 if count >= 3 else count


def badge_width(width: int, count: int) -> int:
    per_row = badges_per_row(count)
    return (width - _PAD * (per_row + 1)) // per_row


def caption_height(count: int) -> int:
    """The caption band's height for `count` players: a row of badges more for three or four."""
    rows = -(-count // badges_per_row(count))
    return CAPTION_HEIGHT + (rows - 1) * BADGE_ROW


STATUS_SIZES = (31, 28, 26, TEXT_MIN)
HISTORY_SIZES = (26, TEXT_MIN)
LEGEND_CHIP = ("P", 3)


def legend_words() -> tuple[str, str, str]:
    """The legend's words in the picture's language (a cached layer takes them as part of its key)."""
    return say("3 pawns inside"), say("taken over"), say("asks consent")


@lru_cache(maxsize=8)
def legend_image(width: int, seated: tuple[int, ...], words: tuple[str, ...]) -> Image.Image:
    """The caption's legend line, part of the board layer: a cargo chip (what a knight carries: only its owner sees it, and all see it when
    it is destroyed), the take-over flag and the request's question mark."""
    img = new_canvas(width, LEGEND_ROW)
    fnt = font(TEXT_MIN)
    x, middle = _PAD + 4, LEGEND_ROW // 2
    sprites = (chip_sprite(*LEGEND_CHIP, seated[0]), marker_sprite(MARKER, "flag"), marker_sprite(MARKER, "ask"))
    for sprite, word in zip(sprites, words):
        img.paste(sprite, (x, middle - sprite.height // 2), sprite)
        x += sprite.width + 8
        draw_text(img, (x, middle), word, fnt, TEXT_DIM, "lm")
        x += round(text_width(word, fnt)) + 28
    return img
