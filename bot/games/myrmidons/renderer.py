"""Myrmidons board picture: a 6 x 7 sand board, square tiles for the myrmidons, and a tray beside the board with
each side's eliminated pieces and the fights of the last action.

    render(view, player_names=["Alice", "Bob"]) -> PNG bytes

The view is `MyrmidonsGame.view` (bot/games/myrmidons/game.py). This module draws only what the view holds, so a
public view can never show a hidden value: a tile shows sword / shield / movement when its cell is "known" (the
viewer's own piece or one a fight revealed), else a blank helmet. A crown marks a Commander only where the view
says `commander` is true (the viewer's own, or one a fight revealed). Seat 1's private view is turned 180 degrees
so North's home rank 7 is at the bottom.

Tiles (one per seat, type and size) and badges are cached sprites; the board, coordinates, tray panels and the
legend are a cached layer. A render pastes a dozen sprites, writes the caption and encodes the PNG.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable, Sequence

from PIL import Image, ImageDraw

from renderers.common import (
    CAPTION_HEIGHT,
    PANEL,
    REDDISH_PURPLE,
    RGB,
    SIDES,
    SKY_BLUE,
    SUPERSAMPLE,
    TEXT,
    TEXT_DIM,
    TEXT_MIN,
    VERMILLION,
    YELLOW,
    Grid,
    blend,
    caption_samples,
    cross_squares,
    draw_coordinates,
    draw_player_caption,
    draw_squares,
    draw_text,
    font,
    history_line,
    is_flipped,
    mark_for_sample,
    new_canvas,
    note_shape,
    outline_squares,
    palette_reference,
    parse_square,
    paste_centred,
    player_names_for,
    short_name,
    square_name,
    status_line,
    supersampled,
    text_width,
    tint_squares,
    wrap_text,
    tinted,
    say,
)
from renderers.png import Palette, palette_colours
from renderers.tiles import Picture, TiledBoard, one_square, palette_once
from .army import COMMANDER_CODE
from .knowledge import knowledge

SQUARE = 108
MARGIN = 40  # room for the coordinates on every edge
TILE = 94  # a myrmidon on the board
MINI = 60  # a myrmidon in the tray: its digits TEXT_MIN px, readable on a phone
BADGE_TILE = 52  # the caption's piece
MARKER = 28  # win / repelled badge on a fight square's top-left corner
EYE = 26  # "face up" badge on a revealed piece's top-right corner
BADGE_INSET = 10  # a corner badge's centre from the square's corner: it covers the tile's corner, not its icons
TRAY_WIDTH = 252  # the column right of the board
LOSSES_HEIGHT = 184  # each side's box of eliminated pieces
LEGEND_HEIGHT = 92
ATTACKER_X = 24  # where a fight's attacker sits in the tray, under its square's name and result
FIGHTS_TOP = 44  # the first fight's top, under the panel's title
FIGHT_ROW = 30 + MINI + 8  # a fight's line of words, then its pieces

LIGHT_SQUARE: RGB = (236, 216, 180)
DARK_SQUARE: RGB = (206, 172, 126)
HOME_TINT = 0.36  # how far a home rank leans toward its owner's piece colour
PATH = SKY_BLUE  # blue on sand: the pair every kind of colour vision separates
FIGHT = REDDISH_PURPLE
REPELLED = VERMILLION
LANDED_FRAME = blend(PATH, (0, 0, 0), 0.45)
GOLD: RGB = (236, 186, 36)
INK: RGB = (26, 26, 30)

# A tile's layout, as fractions of its side: three columns (sword, shield, movement, in notation order), small
# icons above big digits (each icon ~25 px high, 9 px on a phone). FILL_SPOT is a point of plain tile colour below the digits (the tests read it there).
COLUMNS = (0.2, 0.5, 0.8)
ICON_Y, ICON_SIZE = 0.25, 0.26
DIGIT_Y, DIGIT_SIZE = 0.62, 0.39
FILL_SPOT = (0, round(TILE * 0.41))  # offset from a tile's centre


def square_colour(f: int, r: int, home_ranks: tuple[int, ...]) -> RGB:
    base = DARK_SQUARE if (f + r) % 2 == 0 else LIGHT_SQUARE  # a1 dark, as on a chessboard
    for seat, home in enumerate(home_ranks):
        if r + 1 == home:
            return blend(base, SIDES[seat].fill, HOME_TINT)
    return base


def grid_for(files: int, ranks: int, flipped: bool) -> Grid:
    return Grid(files, ranks, SQUARE, MARGIN, MARGIN, flipped)


# --- icons (painted at the supersampled scale into a box x, y, side s) ------------------------------------------


def _paint_sword(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, colour: RGB) -> None:
    """A sword standing point up: blade, crossguard, grip, pommel."""
    c = x + s / 2
    draw.polygon([(c, y), (c + s * 0.11, y + s * 0.14), (c + s * 0.11, y + s * 0.64),
                  (c - s * 0.11, y + s * 0.64), (c - s * 0.11, y + s * 0.14)], fill=colour)
    draw.rectangle((c - s * 0.34, y + s * 0.64, c + s * 0.34, y + s * 0.74), fill=colour)
    draw.rectangle((c - s * 0.07, y + s * 0.74, c + s * 0.07, y + s * 0.9), fill=colour)
    draw.ellipse((c - s * 0.1, y + s * 0.84, c + s * 0.1, y + s), fill=colour)


def _paint_shield(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, colour: RGB) -> None:
    """A heater shield: flat top, sides curving to a point."""
    points = [(x + s * 0.1, y + s * 0.04), (x + s * 0.9, y + s * 0.04)]
    steps = 10
    for i in range(steps + 1):  # right edge down to the point, then the left edge back up
        t = i / steps
        points.append((x + s * (0.9 - 0.4 * t * t), y + s * (0.04 + 0.5 * t + 0.46 * t)))
    for i in range(steps, -1, -1):
        t = i / steps
        points.append((x + s * (0.1 + 0.4 * t * t), y + s * (0.04 + 0.5 * t + 0.46 * t)))
    draw.polygon(points, fill=colour)


def _paint_move(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, colour: RGB) -> None:
    """Two chevrons pointing right: 'how far it goes'."""
    w, reach = s * 0.18, s * 0.26  # narrow enough to stay off a cut tile corner
    for left in (x + s * 0.04, x + s * 0.4):
        draw.polygon([(left, y + s * 0.02), (left + w, y + s * 0.02), (left + w + reach, y + s * 0.5),
                      (left + w, y + s * 0.98), (left, y + s * 0.98), (left + reach, y + s * 0.5)], fill=colour)


ICON_PAINTERS = (_paint_sword, _paint_shield, _paint_move)


def _paint_crown(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, fill: RGB, edge: RGB) -> None:
    """A three-pointed crown in gold with a contrasting outline."""
    line = max(SUPERSAMPLE * 2, round(s * 0.05))
    body = [(x + s * 0.08, y + s * 0.86), (x + s * 0.04, y + s * 0.3), (x + s * 0.3, y + s * 0.55),
            (x + s * 0.5, y + s * 0.16), (x + s * 0.7, y + s * 0.55), (x + s * 0.96, y + s * 0.3),
            (x + s * 0.92, y + s * 0.86)]
    for px, py in ((0.04, 0.3), (0.5, 0.16), (0.96, 0.3)):
        r = s * 0.08
        draw.ellipse((x + s * px - r, y + s * py - r, x + s * px + r, y + s * py + r), fill=fill, outline=edge,
                     width=line)
    draw.polygon(body, fill=fill, outline=edge, width=line)
    draw.line((x + s * 0.1, y + s * 0.74, x + s * 0.9, y + s * 0.74), fill=edge, width=line)


def _paint_helmet(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, colour: RGB, hole: RGB) -> None:
    """A Greek helmet seen from the front, with a crest: the face of a piece the viewer cannot see."""
    draw.chord((x + s * 0.3, y, x + s * 0.7, y + s * 0.36), start=180, end=360, fill=colour)  # crest
    draw.ellipse((x + s * 0.14, y + s * 0.12, x + s * 0.86, y + s * 0.7), fill=colour)  # dome
    draw.rectangle((x + s * 0.14, y + s * 0.41, x + s * 0.86, y + s * 0.9), fill=colour)  # cheek guards
    draw.rectangle((x + s * 0.28, y + s * 0.48, x + s * 0.72, y + s * 0.58), fill=hole)  # eye slit
    draw.rectangle((x + s * 0.44, y + s * 0.48, x + s * 0.56, y + s * 0.91), fill=hole)  # mouth opening
    draw.rectangle((x + s * 0.44, y + s * 0.5, x + s * 0.56, y + s * 0.62), fill=colour)  # nose guard


# --- sprites ------------------------------------------------------------------------------------------------------


def _octagon(lo: float, hi: float, cut: float) -> list[tuple[float, float]]:
    return [(lo + cut, lo), (hi - cut, lo), (hi, lo + cut), (hi, hi - cut), (hi - cut, hi), (lo + cut, hi),
            (lo, hi - cut), (lo, lo + cut)]


def _paint_tile_body(draw: ImageDraw.ImageDraw, big: int, seat: int) -> None:
    """South: an ivory rounded square. North: a charcoal square with cut corners. The sides differ by outline as
    well as by lightness, and the whole inside stays free for the values."""
    side = SIDES[seat]
    rim = max(SUPERSAMPLE * 2, big // 22)
    pad = SUPERSAMPLE
    lo, hi = pad, big - pad
    if seat == 0:
        radius = big * 0.16
        draw.rounded_rectangle((lo, lo, hi, hi), radius=radius, fill=side.edge)
        draw.rounded_rectangle((lo + rim, lo + rim, hi - rim, hi - rim), radius=radius - rim, fill=side.fill)
    else:
        cut = big * 0.2
        draw.polygon(_octagon(lo, hi, cut), fill=side.edge)
        draw.polygon(_octagon(lo + rim, hi - rim, cut - rim * 0.41), fill=side.fill)


@lru_cache(maxsize=256)
def tile_sprite(size: int, seat: int, values: tuple[int, int, int] | None, commander: bool = False,
                hint: str | None = None) -> Image.Image:
    """A myrmidon. values None: blank (a helmet), with under it, in the viewer's own picture, what her information
    proves of it (`hint`: "≥3", its movement at least 3; "135", the only type it can be). A Commander: a crown
    over its small values. Otherwise three columns, sword / shield / movement, each a small icon over a big digit (a
    tile smaller than the board's: only the digits, centred)."""
    side = SIDES[seat]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        _paint_tile_body(draw, big, seat)
        if values is None:
            s = big * (0.38 if hint else 0.56)
            _paint_helmet(draw, (big - s) / 2, big * (0.1 if hint else 0.18), s, blend(side.fill, side.edge, 0.5),
                          side.fill)
            if hint:  # at least 9 px high on a phone, as every text of the picture
                draw.text((big / 2, big * 0.72), hint, font=font(round(big * 0.3), bold=True), fill=side.edge,
                          anchor="mm")
            return
        if commander:
            s = big * 0.5
            _paint_crown(draw, (big - s) / 2, big * 0.1, s, GOLD, INK)
            if size < TILE:  # a small Commander is its crown: its values (always 1/1/1) would be too small to read
                return
            fnt = font(round(big * 0.25), bold=True)
            for column, value in zip(COLUMNS, values):
                draw.text((big * column, big * 0.77), str(value), font=fnt, fill=side.edge, anchor="mm")
            return
        icon = big * ICON_SIZE
        icon_colour = blend(side.fill, side.edge, 0.62)
        fnt = font(round(big * DIGIT_SIZE), bold=True)
        with_icons = size >= TILE  # a small tile's icons could not be read on a phone: the legend names its columns
        digit_y = DIGIT_Y if with_icons else 0.5
        for column, value, paint_icon in zip(COLUMNS, values, ICON_PAINTERS):
            cx = big * column
            if with_icons:
                paint_icon(draw, cx - icon / 2, big * ICON_Y - icon / 2, icon, icon_colour)
            draw.text((cx, big * digit_y), str(value), font=fnt, fill=side.edge, anchor="mm")

    return supersampled(size, paint)


@lru_cache(maxsize=8)
def waiting_sprite(size: int, seat: int) -> Image.Image:
    """An empty place on a home rank still being deployed: dashes and three dots in the side's colour, edged in
    the contrasting one so they show on any square."""
    side = SIDES[seat]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        inset, width = big * 0.12, max(SUPERSAMPLE * 2, big // 24)
        edge = max(SUPERSAMPLE, big // 60)
        lo, hi = inset, big - inset
        dash = (hi - lo) / 7
        for colour, grow in ((side.edge, edge), (side.fill, 0)):
            for i in range(0, 7, 2):  # four dashes on each side
                a, b = lo + i * dash - grow, lo + (i + 1) * dash + grow
                draw.rectangle((a, lo - width / 2 - grow, b, lo + width / 2 + grow), fill=colour)
                draw.rectangle((a, hi - width / 2 - grow, b, hi + width / 2 + grow), fill=colour)
                draw.rectangle((lo - width / 2 - grow, a, lo + width / 2 + grow, b), fill=colour)
                draw.rectangle((hi - width / 2 - grow, a, hi + width / 2 + grow, b), fill=colour)
            r = big * 0.055 + grow
            for cx in (0.33, 0.5, 0.67):
                draw.ellipse((big * cx - r, big / 2 - r, big * cx + r, big / 2 + r), fill=colour)

    return supersampled(size, paint)


@lru_cache(maxsize=8)
def marker_sprite(size: int, won: bool) -> Image.Image:
    """A fight's result in a corner of its square: a yellow star (the attacker won) or a vermillion 'no entry'
    disc (it was repelled). They differ by shape, not only by colour."""

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        line = max(SUPERSAMPLE * 2, big // 14)
        c = big / 2
        if won:
            points = []
            for i in range(10):
                radius = big * (0.48 if i % 2 == 0 else 0.21)
                angle = math.pi * (i / 5 - 0.5)
                points.append((c + radius * math.cos(angle), c + radius * math.sin(angle) + big * 0.03))
            draw.polygon(points, fill=YELLOW, outline=INK, width=line)
        else:
            pad = SUPERSAMPLE
            draw.ellipse((pad, pad, big - pad, big - pad), fill=REPELLED, outline=INK, width=line)
            draw.rectangle((big * 0.2, c - big * 0.09, big * 0.8, c + big * 0.09), fill=(255, 255, 255))

    return supersampled(size, paint)


@lru_cache(maxsize=4)
def eye_sprite(size: int) -> Image.Image:
    """'Face up': an open eye on a sky-blue disc, on pieces a fight has shown to both players."""

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        line = max(SUPERSAMPLE * 2, big // 14)
        pad = SUPERSAMPLE
        draw.ellipse((pad, pad, big - pad, big - pad), fill=SKY_BLUE, outline=INK, width=line)
        c = big / 2
        draw.chord((big * 0.14, big * 0.3, big * 0.86, big * 0.96), start=200, end=340, fill=INK)
        draw.chord((big * 0.14, big * 0.04, big * 0.86, big * 0.7), start=20, end=160, fill=INK)
        draw.ellipse((c - big * 0.12, c - big * 0.12, c + big * 0.12, c + big * 0.12), fill=(255, 255, 255))

    return supersampled(size, paint)


@lru_cache(maxsize=8)
def icon_sprite(size: int, which: int) -> Image.Image:
    """The legend's sword (0), shield (1) or movement (2) icon, in the caption's text colour."""
    return supersampled(size, lambda draw, big: ICON_PAINTERS[which](draw, 0, 0, big, TEXT))


def piece_sprite(size: int, piece: dict) -> Image.Image:
    """The tile for a cell, an eliminated piece or a fighter: values only when the view gives them."""
    return tile_sprite(size, *piece_key(piece))


def piece_key(piece: dict) -> tuple[int, tuple[int, int, int] | None, bool]:
    """tile_sprite's seat, values and commander for a piece (values only when the view gives them)."""
    if piece.get("sword") is None:
        return piece["owner"], None, False
    return piece["owner"], (piece["sword"], piece["shield"], piece["move"]), bool(piece.get("commander"))


# --- layer --------------------------------------------------------------------------------------------------------


def _tray_boxes(grid: Grid) -> tuple[tuple[int, int, int, int], ...]:
    """(upper losses, middle, lower losses) boxes of the tray; each losses box beside its own side's half."""
    x0 = grid.right + MARGIN
    x1 = x0 + TRAY_WIDTH - 16
    upper = (x0, grid.top, x1, grid.top + LOSSES_HEIGHT)
    lower = (x0, grid.bottom - LOSSES_HEIGHT, x1, grid.bottom)
    middle = (x0, upper[3] + 12, x1, lower[1] - 12)
    return upper, middle, lower


@lru_cache(maxsize=8)
def board_layer(files: int, ranks: int, home_ranks: tuple[int, ...], flipped: bool,
                legend: tuple[str, ...] = ()) -> Image.Image:
    """Everything that never changes in a match: squares, home ranks, coordinates, the tray's panels and legend
    (`legend`: its words, see legend_words), the empty caption band."""
    grid = grid_for(files, ranks, flipped)
    img = new_canvas(grid.right + MARGIN + TRAY_WIDTH, grid.bottom + MARGIN + CAPTION_HEIGHT)
    draw_squares(img, grid, lambda f, r: square_colour(f, r, home_ranks))
    draw_coordinates(img, grid, MARGIN, marked_ranks={home - 1: SIDES[seat] for seat, home in enumerate(home_ranks)})
    draw = ImageDraw.Draw(img)
    for box in _tray_boxes(grid):
        draw.rounded_rectangle(box, radius=12, fill=PANEL)
    _draw_legend(img, _tray_boxes(grid)[1], legend or legend_words())
    return img


def legend_words() -> tuple[str, str, str]:
    """The legend's words in the picture's language (the cached layer takes them as part of its key)."""
    return say("sword (left)"), say("shield (middle)"), say("move (right)")


def _draw_legend(img: Image.Image, box: tuple[int, int, int, int], words: Sequence[str]) -> None:
    """The three icons with their words, one a row, in the order a tile shows its values (left to right)."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, _ = box
    for i, word in enumerate(words):
        y = y0 + 20 + 28 * i
        paste_centred(img, icon_sprite(24, i), (x0 + 26, y))
        draw_text(img, (x0 + 48, y), word, font(TEXT_MIN), TEXT_DIM, "lm", room=(x0, y - 14, x1 - 4, y + 14))
    draw.line((x0 + 12, y0 + LEGEND_HEIGHT, x1 - 12, y0 + LEGEND_HEIGHT), fill=blend(PANEL, TEXT_DIM, 0.3), width=1)


# --- render -------------------------------------------------------------------------------------------------------


def layout(view: dict, player_names: Sequence[str] | None = None) -> Picture:
    """The picture of a view (renderers/tiles.py): the board, a tile on each square that shows more, the corner
    badges over them, the tray in the column right of the board, the caption."""
    files, ranks, home_ranks = view["files"], view["ranks"], tuple(view["home_ranks"])
    grid = grid_for(files, ranks, is_flipped(view))
    names = player_names_for(view, player_names)
    return Picture(grid, (files, ranks, home_ranks, grid.flipped, legend_words()), square_looks(view),
                   colour=lambda f, r: square_colour(f, r, home_ranks),
                   caption=lambda img, top: _draw_caption(img, top, view, names),
                   column=lambda img, grid: _draw_tray(img, grid, view),
                   badges=corner_badges(view, grid))


# --- squares ---------------------------------------------------------------------------------------------------
# What a position adds to the board lies inside single squares, except the corner badges (an eye on a revealed
# piece, a fight's result), which reach a few pixels past their square. So a picture is the layer with a tile
# pasted on each square that shows something (in RGB for draw, mapped once for compose), then the badges.

# What a square shows, drawn in this order: (tint: colour and strength, or None; crossed: the taken piece's seat or
# None; frame: colour and width, or None; the piece: tile_sprite's seat, values, commander and hint, or None; a place
# still being deployed: its seat, or None).
SquareLook = tuple["tuple[RGB, float] | None", "int | None", "tuple[RGB, int] | None", "tuple | None", "int | None"]


def proven_hints(view: dict) -> dict[str, str]:
    """What the viewer's own information proves of each hidden enemy piece, as its tile says it: the only type it
    can be, or else its movement's least value when it went two squares or more at once (knowledge.py)."""
    known = knowledge(view)
    hints = {}
    for piece in known.pieces if known else ():
        if piece.square is None:
            continue
        if len(piece.could_be) == 1:
            code = piece.could_be[0]
            hints[piece.square] = "111" if code == COMMANDER_CODE else code.replace("/", "")  # as a tile's digits
        elif piece.moved > 1:
            hints[piece.square] = f"≥{piece.moved}"
    return hints


def square_looks(view: dict) -> dict[tuple[int, int], SquareLook]:
    """The look of every square that shows more than the layer."""
    tints: dict[str, tuple[RGB, float]] = {}
    victims: dict[str, int] = {}
    frames: dict[str, tuple[RGB, int]] = {}
    action = view.get("last_action")
    if action:
        fights = {fight["square"]: fight for fight in action["fights"]}
        for path in action["paths"]:
            for name in travelled(path):
                tints[name] = (PATH, 0.5)
        tints.update({name: (FIGHT, 0.55) for name in fights})
        victims = {name: f["defender"]["owner"] for name, f in fights.items() if f["result"] == "win"}
        fell_back = set(action.get("repelled") or [])
        frames = {path["end"]: (LANDED_FRAME, 4) for path in action["paths"] if path["end"] not in fell_back}
        frames.update({name: (REPELLED, 5) for name in fell_back})
    hints = proven_hints(view)
    pieces = {name: (*piece_key(cell), hints.get(name)) for name, cell in view["cells"].items()}
    waiting = {}
    if view["phase"] == "setup":
        for seat, status in enumerate(view["setup"]):
            if not status["deployed"]:
                rank = view["home_ranks"][seat] - 1
                waiting.update({square_name(f, rank): seat for f in range(view["files"])})
    return {parse_square(name): (tints.get(name), victims.get(name), frames.get(name), pieces.get(name),
                                 waiting.get(name)) for name in {*tints, *victims, *frames, *pieces, *waiting}}


def square_tile(colour: RGB, look: SquareLook) -> Image.Image:
    """One square of colour `colour` as `look` shows it, drawn with the board's own helpers on a one-square grid."""
    tint, victim, frame, piece, waiting = look
    tile, one = one_square(SQUARE, colour)
    here = ["a1"]
    if tint:
        tint_squares(tile, one, here, *tint)
    if victim is not None:
        cross_squares(tile, one, [("a1", victim)])
    if frame:
        outline_squares(tile, one, here, *frame)
    if piece:
        paste_centred(tile, tile_sprite(TILE, *piece), one.centre(0, 0))
    if waiting is not None:
        paste_centred(tile, waiting_sprite(TILE, waiting), one.centre(0, 0))
    return tile


def corner_badges(view: dict, grid: Grid) -> list[tuple[Image.Image, tuple[int, int]]]:
    """(sprite, top-left corner) of every corner badge, in the order they are drawn: an eye on each revealed
    piece, then each fight's result over whatever stands on its square."""
    badges = [_in_corner(grid, name, eye_sprite(EYE), right=True)
              for name, cell in view["cells"].items() if cell.get("revealed")]
    action = view.get("last_action")
    for fight in action["fights"] if action else ():
        badges.append(_in_corner(grid, fight["square"], marker_sprite(MARKER, fight["result"] == "win"), right=False))
    return badges


def _in_corner(grid: Grid, name: str, sprite: Image.Image, right: bool) -> tuple[Image.Image, tuple[int, int]]:
    x0, y0, x1, _ = grid.box_of(name)
    x = x1 - BADGE_INSET if right else x0 + BADGE_INSET
    return sprite, (x - sprite.width // 2, y0 + BADGE_INSET - sprite.height // 2)


def _paste_in_corner(img: Image.Image, grid: Grid, name: str, sprite: Image.Image, right: bool) -> None:
    sprite, xy = _in_corner(grid, name, sprite, right)
    img.paste(sprite, xy, sprite)


# --- the picture on a palette chosen once per layer (common.py, "pictures on a palette chosen once") ----------
# The palette depends only on the board's size and home ranks, never on a position or on hidden values: a public
# picture's bytes cannot depend on a secret through it.


PICTURES = TiledBoard(layer=board_layer, tile=square_tile, layout=layout, margin=MARGIN,
                      palette_of=lambda view: board_palette(view["files"], view["ranks"], tuple(view["home_ranks"])),
                      tiles=1024)  # mapped tiles ~11 KiB each: at most ~12 MiB
draw, compose, render, palette_of = PICTURES.draw, PICTURES.compose, PICTURES.render, PICTURES.palette_of
# render: the PNG of a Myrmidons view


SAMPLE_VALUES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (0, 1, 4))  # every digit a tile can show


@palette_once(maxsize=4)
def board_palette(files: int, ranks: int, home_ranks: tuple[int, ...]) -> Palette:
    """Chosen from the layer and boards covered with both sides' tiles (blank, with every digit, commanders) on
    every kind of square, plain, on a path (tinted, framed), in a fight (tinted, crossed, framed as repelled),
    with eyes, markers and waiting places; full trays; sample captions. Turning the board adds no colour."""
    grid = grid_for(files, ranks, False)
    layer = board_layer(files, ranks, home_ranks, False)
    squares = [(f, r) for f in range(files) for r in range(ranks)]
    names = [square_name(f, r) for f, r in squares]
    tiles = [(seat, values, commander) for seat in (0, 1)
             for values, commander in ((None, False), *((v, False) for v in SAMPLE_VALUES), ((1, 2, 3), True))]
    plain = {square_colour(f, r, home_ranks) for f, r in squares}
    flat = [tinted(c, tint, strength) for c in plain for tint, strength in ((c, 0.0), (PATH, 0.5), (FIGHT, 0.55))]
    flat += [LANDED_FRAME, REPELLED, GOLD, INK, YELLOW, SKY_BLUE, PANEL, TEXT, TEXT_DIM,
             *(colour for side in SIDES for colour in (side.fill, side.edge, side.mark))]
    boards = []
    for marks in ((), ("last",), ("taken",)):
        for shift in (0, 1):
            img = layer.copy()
            mark_for_sample(img, grid, names, marks, (PATH, 0.5, LANDED_FRAME, 4), (FIGHT, 0.55))
            if "taken" in marks:
                outline_squares(img, grid, names[::2], REPELLED, 5)
            for i, name in enumerate(names):
                seat, values, commander = tiles[(i + shift) % len(tiles)]
                if i % 7 == 6:
                    paste_centred(img, waiting_sprite(TILE, seat), grid.centre_of(name))
                    continue
                paste_centred(img, tile_sprite(TILE, seat, values, commander), grid.centre_of(name))
                if i % 3 == 0:
                    _paste_in_corner(img, grid, name, eye_sprite(EYE), right=True)
                if i % 4 == 1:
                    _paste_in_corner(img, grid, name, marker_sprite(MARKER, i % 8 == 1), right=False)
            _sample_tray(img, grid, tiles, shift)
            boards.append(img.crop((0, 0, img.width, grid.bottom + MARGIN)))
    captions = caption_samples(layer.width, [tile_sprite(BADGE_TILE, 0, None), tile_sprite(BADGE_TILE, 1, None)],
                               "9 on board · 3 lost")
    return Palette(flat + palette_colours(palette_reference(layer, *boards, captions)))


def _sample_tray(img: Image.Image, grid: Grid, tiles: list, shift: int) -> None:
    """The tray with losses of both sides and, in the middle, fights (or, on the second sample, the pieces still
    to deploy and a note): every kind of tray text and tile."""
    upper, middle, lower = _tray_boxes(grid)
    pieces = [{"owner": seat, "sword": v[0] if v else None, "shield": v[1] if v else None,
               "move": v[2] if v else None, "commander": commander} for seat, v, commander in tiles]
    for seat, box in ((1, upper), (0, lower)):
        _draw_losses(img, box, seat, "Sample Player", [p for p in pieces if p["owner"] == seat][shift:], 6)
    inner = (middle[0], middle[1] + LEGEND_HEIGHT, middle[2], middle[3])
    if shift == 0:
        fights = [{"square": "c4", "attacker": pieces[i], "defender": pieces[-1 - i],
                   "result": "win" if i % 2 else "repelled"} for i in range(len(pieces) // 2)]
        _draw_fights(img, inner, fights)
    else:
        _tile_grid(img, inner[0], inner[1] + 48, (tile_sprite(MINI, 0, v, False) for v in SAMPLE_VALUES), 6)
        _draw_note(img, inner, "Secret deployment", "values show only in fights")


def travelled(path: dict) -> list[str]:
    """The squares a participant really crossed: from its start to where it ended."""
    squares = path["path"]
    return squares[: squares.index(path["end"]) + 1]


# --- tray ---------------------------------------------------------------------------------------------------------


def _draw_tray(img: Image.Image, grid: Grid, view: dict) -> None:
    upper, middle, lower = _tray_boxes(grid)
    bottom_seat = 1 if grid.flipped else 0
    eliminated = view.get("eliminated_pieces") or []
    for seat, box in ((1 - bottom_seat, upper), (bottom_seat, lower)):
        _draw_losses(img, box, seat, view["seat_names"][seat], [p for p in eliminated if p["owner"] == seat],
                     view["eliminated"][seat])
    inner = (middle[0], middle[1] + LEGEND_HEIGHT, middle[2], middle[3])
    if view["phase"] == "setup":
        _draw_setup_panel(img, inner, view)
    elif view.get("last_action") and view["last_action"]["fights"]:
        _draw_fights(img, inner, view["last_action"]["fights"])
    else:
        _draw_note(img, inner, say("No fight"),
                   say("on the last move") if view.get("last_action") else say("yet"))


def _tile_grid(img: Image.Image, x0: int, y0: int, sprites: Iterable[Image.Image], limit: int) -> None:
    step = MINI + 10
    for i, sprite in enumerate(list(sprites)[:limit]):
        img.paste(sprite, (x0 + 12 + (i % 3) * step, y0 + (i // 3) * step), sprite)


def _panel_title(img: Image.Image, box: tuple[int, int, int, int], left: str, right: str = "") -> None:
    x0, y0, x1, _ = box
    count_font, title_font = font(26, bold=True), font(TEXT_MIN)
    line = (x0 + 6, y0 + 4, x1 - 6, y0 + 40)
    draw_text(img, (x0 + 12, y0 + 22), left, title_font, TEXT_DIM, "lm", room=line)
    if right:
        draw_text(img, (x1 - 12, y0 + 22), right, count_font, TEXT, "rm", room=line)


def _draw_losses(img: Image.Image, box, seat: int, side: str, pieces: list[dict], count: int) -> None:
    """A side's eliminated pieces as small tiles, with values where the view knows them. Titled with the side's
    name, which always fits (the caption's badges tie each player's name to her side)."""
    _panel_title(img, box, say("{player} lost", player=say(side)), str(count))
    sprites = [piece_sprite(MINI, p) for p in pieces]
    sprites += [tile_sprite(MINI, seat, None)] * (count - len(sprites))  # in case the view lists fewer
    _tile_grid(img, box[0], box[1] + 44, sprites, 6)


def _draw_fights(img: Image.Image, box, fights: list[dict]) -> None:
    """Each fight of the last action: its square and result ("won", "held": the attacker's) on a line, then the
    attacker, the result marker and the defender; as many fights as the panel holds, then how many more."""
    x0, y0, x1, y1 = box
    _panel_title(img, (x0, y0 + 2, x1, y1), say("Last fight") if len(fights) == 1 else say("Last fights"))
    rows = max(1, (y1 - y0 - FIGHTS_TOP) // FIGHT_ROW)
    more: list[str] = []
    if len(fights) > rows:  # room at the bottom for how many more, on as many lines as that takes
        more = _more_fights(len(fights) - rows, x1 - x0 - 24)
        rows = max(1, (y1 - y0 - FIGHTS_TOP - 28 * len(more) - 4) // FIGHT_ROW)
        more = _more_fights(len(fights) - rows, x1 - x0 - 24)
    for i, fight in enumerate(fights[:rows]):
        top = y0 + FIGHTS_TOP + i * FIGHT_ROW
        won = fight["result"] == "win"
        line = (x0 + 6, top, x1 - 6, top + 28)
        square_font = font(TEXT_MIN, bold=True)
        draw_text(img, (x0 + 12, top + 14), fight["square"], square_font, TEXT, "lm", room=line)
        draw_text(img, (x0 + 22 + round(text_width(fight["square"], square_font)), top + 14),
                  say("won") if won else say("held"), font(TEXT_MIN), TEXT_DIM, "lm", room=line)
        chips = top + 30
        attacker = piece_sprite(MINI, fight["attacker"])
        img.paste(attacker, (x0 + ATTACKER_X, chips), attacker)
        note_shape(img, (x0 + ATTACKER_X, chips, x0 + ATTACKER_X + MINI, chips + MINI))
        marker = marker_sprite(30, won)
        paste_centred(img, marker, ((x0 + ATTACKER_X + MINI + x1 - 10 - MINI) // 2, chips + MINI // 2))
        defender = piece_sprite(MINI, fight["defender"])
        img.paste(defender, (x1 - 10 - MINI, chips), defender)
        note_shape(img, (x1 - 10 - MINI, chips, x1 - 10, chips + MINI))
    for i, words in enumerate(more):
        y = y1 - 16 - 28 * (len(more) - 1 - i)
        draw_text(img, (x0 + 12, y), words, font(TEXT_MIN), TEXT_DIM, "lm", room=(x0 + 4, y - 14, x1 - 4, y + 14))


def _more_fights(count: int, width: int) -> list[str]:
    words = say("+{count} more fight", plural="+{count} more fights", count=count)
    return wrap_text(words, font(TEXT_MIN), width)


def _draw_setup_panel(img: Image.Image, box, view: dict) -> None:
    """The viewer's pieces still to deploy (private view), or a note that the deployment is secret."""
    undeployed = view.get("undeployed") or []
    viewer = view.get("viewer")
    if undeployed:
        _panel_title(img, (box[0], box[1] + 2, box[2], box[3]), say("To deploy"), str(len(undeployed)))
        _tile_grid(img, box[0], box[1] + 48, (tile_sprite(MINI, viewer, _values(t), t["code"] == "C")
                                              for t in undeployed), 6)
        return
    if viewer is not None and not view["setup"][viewer]["army_chosen"]:
        _draw_note(img, box, say("Choose your army"), say("5 of the 19 types"))
    elif viewer is not None and view["setup"][viewer]["deployed"]:
        _draw_note(img, box, say("Deployed"), say("waiting for the other side"))
    else:
        _draw_note(img, box, say("Secret deployment"), say("values show only in fights"))


def _values(piece_type: dict) -> tuple[int, int, int]:
    return piece_type["sword"], piece_type["shield"], piece_type["move"]


def _draw_note(img: Image.Image, box, head: str, tail: str) -> None:
    """A short note in the middle of the tray: the head in bold, then the tail, each wrapped to the tray's width."""
    width = box[2] - box[0] - 20
    lines = [(line, font(TEXT_MIN, bold=True)) for line in wrap_text(head, font(TEXT_MIN, bold=True), width)]
    lines += [(line, font(TEXT_MIN)) for line in wrap_text(tail, font(TEXT_MIN), width)]
    cx = (box[0] + box[2]) // 2
    top = (box[1] + box[3]) // 2 - 15 * (len(lines) - 1)
    for i, (line, fnt) in enumerate(lines):
        draw_text(img, (cx, top + 30 * i), line, fnt, TEXT_DIM, "mm", room=box)


# --- caption ------------------------------------------------------------------------------------------------------


def _seat_setup_word(status: dict) -> str:
    if status["deployed"]:
        return say("ready")
    return say("deploying") if status["army_chosen"] else say("choosing an army")


def _status(view: dict, names: Sequence[str]) -> str:
    if view["phase"] == "setup":
        return say("Setup — {players}", players=" · ".join(f"{short_name(names[s])} {_seat_setup_word(st)}"
                                                               for s, st in enumerate(view["setup"])))
    return status_line(view, names)


def _counts(view: dict, seat: int) -> str:
    if view["phase"] == "setup":
        return _seat_setup_word(view["setup"][seat])
    on_board = sum(1 for cell in view["cells"].values() if cell["owner"] == seat)
    return say("{on_board} on board · {count} lost", plural="{on_board} on board · {count} lost", on_board=on_board,
               count=view["eliminated"][seat])


def _draw_caption(img: Image.Image, top: int, view: dict, names: Sequence[str]) -> None:
    draw_player_caption(img, top, view, names, sprite=lambda seat: tile_sprite(BADGE_TILE, seat, None),
                        counts=lambda seat: _counts(view, seat), history=_history(view), status=_status(view, names))


def _history(view: dict) -> str:
    return history_line(view)  # the fights themselves are in the tray
