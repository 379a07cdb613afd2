"""Myriath board picture: the street grid of 12 x 12 printed squares, the tiles lying in its channels, the playing
area of the player count (the rest greyed out), the last placement outlined in white with the squares beside it
lit sky blue.

    render(view, player_names=["Alice", "Bob", "Carol"]) -> PNG bytes

The view is `MyriathGame.view` (bot/games/myriath/game.py): every tile comes with its segments and, per
intersection, the triangles it occupies, so this module needs no rules. A tile is drawn as its real shape: a bar
along each of its segments and, at each intersection, its one triangle (an arrowed end, pointing out) or its two
triangles (a corner, or a whole edge: one straight diagonal). Where two tiles meet, their outlines run along the
shared half-diagonal; each half-diagonal where the last placement scored gets a white disc in the corner of the printed
square it points to.

Each seat has its Okabe-Ito colour from the view and a mark of its own on every segment (circle, square,
triangle, diamond), so the players differ by shape as well as by hue. Nothing is hidden in Myriath, so every view
is drawn the same way, always with rank 1 at the bottom.

Speed: the board (squares, channels, greyed area, coordinates, the empty caption band) is a cached layer per
player count. Each segment is a cached opaque sprite per seat and highlight; each occupied intersection a cached
opaque image of the antialiased triangles of every tile there. A render copies the layer, pastes a few hundred
small opaque pieces (no masks, which cost far more per pixel) and writes the caption. render() does all this in
palette indices (compose()): the layer and the pieces are mapped to the board's palette once, so only the caption
is mapped per picture, instead of the whole picture (see "the same picture in palette indices" below).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageChops, ImageDraw

from renderers.common import (
    BACKGROUND,
    BOARD_EDGE,
    BADGE_HEIGHT,
    CAPTION_HEIGHT,
    PANEL,
    SKY_BLUE,
    SUPERSAMPLE,
    TEXT,
    TEXT_DIM,
    TEXT_MIN,
    YELLOW,
    Badge,
    RGB,
    blend,
    caption_samples,
    draw_caption,
    draw_text,
    fit_text,
    font,
    history_line,
    new_canvas,
    palette_reference,
    player_names_for,
    short_name,
    status_line,
    say,
)
from renderers.png import Palette, built_once, palette_colours, palette_render

BOARD_SQUARES = 12  # printed squares per side (bot/games/myriath/data.py); the view says so too
INTERSECTIONS = BOARD_SQUARES - 1
SQUARE = 46  # a printed square's side
CHANNEL = 34  # a channel's width, so an intersection is CHANNEL x CHANNEL
PITCH = SQUARE + CHANNEL
MARGIN = 40  # room for the coordinates on every edge
BOARD = BOARD_SQUARES * SQUARE + INTERSECTIONS * CHANNEL
WIDTH = BOARD + 2 * MARGIN
BADGE_TILE = 44  # the caption's swatch of a seat's tile
LEGEND_ROW = 40  # under the caption: what the last placement's marks mean
BADGE_ROW = 10 + BADGE_HEIGHT  # height of one more row of caption badges (common.draw_caption draws them at +10)

# The board: light streets between darker printed blocks, so the channels where tiles lie read as the main thing.
SQUARE_COLOUR: RGB = (178, 166, 146)
CHANNEL_COLOUR: RGB = (232, 226, 212)
DIAGONAL_COLOUR: RGB = (212, 204, 188)  # the faint diagonals that cut a free intersection into its triangles
LIT_SQUARE: RGB = blend(SQUARE_COLOUR, SKY_BLUE, 0.7)  # beside the last placement: blue on stone, for every eye
OUT_SQUARE: RGB = (74, 77, 84)  # outside the playing area: dark and grey, clearly not part of the game
OUT_CHANNEL: RGB = (92, 95, 102)

INK: RGB = (22, 22, 26)  # tile outlines and the marks on light tiles
WHITE: RGB = (255, 255, 255)
OUTLINE = 2  # a tile's dark outline
HIGHLIGHT = 4  # the white band inside the outline of the last placement
MARK = 14  # the seat's mark on each segment
SCORE_MARK = 24  # a score disc: 9 px on a phone. It lies in the corner of the printed square beyond the
# half-diagonal it marks, so it covers none of the intersection

# Sides in the engine's order (clockwise, so side + 2 is the opposite one); corners as steps on screen (y grows
# downwards), for the half-diagonal from an intersection's centre to that corner.
SIDES = "NESW"
CORNER_STEP = {"NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}


def hex_colour(text: str) -> RGB:
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]  # three, from #rrggbb


def seat_colours(view: dict) -> list[RGB]:
    return [hex_colour(c) for c in view["seat_colours"]]


def mark_colour(fill: RGB) -> RGB:
    """Ink on a light fill (yellow), white on the darker ones (vermilion, blue, green): the mark always shows."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 120 else WHITE


# --- where things are ---------------------------------------------------------------------------------------------


def parse_point(name: str) -> tuple[int, int]:
    """'c4' -> (2, 3): 0-based (file, rank) of an intersection."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def square_box(i: int, j: int) -> tuple[int, int, int, int]:
    """Pixel box of printed square (i, j), 0-based column and row from the bottom left."""
    x = MARGIN + i * PITCH
    y = MARGIN + (BOARD_SQUARES - 1 - j) * PITCH
    return x, y, x + SQUARE, y + SQUARE


def point_box(f: int, r: int) -> tuple[int, int, int, int]:
    """Pixel box of intersection (f, r): it lies between squares f and f + 1 and between rows r and r + 1."""
    x = MARGIN + SQUARE + f * PITCH
    y = MARGIN + SQUARE + (INTERSECTIONS - 1 - r) * PITCH
    return x, y, x + CHANNEL, y + CHANNEL


def point_centre(name: str) -> tuple[float, float]:
    x0, y0, _, _ = point_box(*parse_point(name))
    return x0 + CHANNEL / 2, y0 + CHANNEL / 2


def segment_box(a: str, b: str) -> tuple[int, int, int, int]:
    """Pixel box of the channel between two neighbouring intersections (without the intersections)."""
    ax0, ay0, ax1, ay1 = point_box(*parse_point(a))
    bx0, by0, bx1, by1 = point_box(*parse_point(b))
    if ay0 == by0:  # along a rank
        return min(ax1, bx1), ay0, max(ax0, bx0), ay1
    return ax0, min(ay1, by1), ax1, max(ay0, by0)


def triangle_points(side: str, x0: float, y0: float, size: float) -> list[tuple[float, float]]:
    """The triangle of an intersection box facing `side`: its base is that side, its apex the centre."""
    x1, y1, c = x0 + size, y0 + size, (x0 + size / 2, y0 + size / 2)
    base = {"N": [(x0, y0), (x1, y0)], "E": [(x1, y0), (x1, y1)], "S": [(x1, y1), (x0, y1)],
            "W": [(x0, y1), (x0, y0)]}[side]
    return [*base, c]


def half_diagonal_midpoint(at: str, corner: str) -> tuple[float, float]:
    cx, cy = point_centre(at)
    dx, dy = CORNER_STEP[corner]
    return cx + dx * CHANNEL / 4, cy + dy * CHANNEL / 4


# --- the board layer ------------------------------------------------------------------------------------------


def area_of(view: dict) -> tuple[int, int]:
    """First and last usable intersection index (the same on both axes: the area is a central square)."""
    first = parse_point(view["area"]["first_intersection"])[0]
    last = parse_point(view["area"]["last_intersection"])[0]
    return first, last


def caption_height(num_players: int) -> int:
    return CAPTION_HEIGHT + (caption_rows(num_players) - 1) * BADGE_ROW + LEGEND_ROW


@lru_cache(maxsize=4)
def board_layer(num_players: int, first: int, last: int, first_square: int, last_square: int,
                legend: str = "") -> Image.Image:
    """Squares, channels, the greyed-out rest, faint diagonals in usable intersections, coordinates, caption band
    and its legend (`legend`: its words in the picture's language, see layer_key).

    The live channels are those between usable intersections; the stubs running from the outermost usable
    intersections to the area's edge cannot hold a tile, so they are greyed like everything outside."""
    img = new_canvas(WIDTH, MARGIN + BOARD + MARGIN + caption_height(num_players))
    draw = ImageDraw.Draw(img)
    draw.rectangle((MARGIN, MARGIN, MARGIN + BOARD - 1, MARGIN + BOARD - 1), fill=OUT_CHANNEL)
    lx0, _, _, ly1 = point_box(first, first)
    _, ly0, lx1, _ = point_box(last, last)
    draw.rectangle((lx0, ly0, lx1 - 1, ly1 - 1), fill=CHANNEL_COLOUR)
    for i in range(BOARD_SQUARES):
        for j in range(BOARD_SQUARES):
            inside = first_square <= i <= last_square and first_square <= j <= last_square
            x0, y0, x1, y1 = square_box(i, j)
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=SQUARE_COLOUR if inside else OUT_SQUARE)
    for f in range(first, last + 1):
        for r in range(first, last + 1):
            _paint_diagonals(draw, *point_box(f, r)[:2])
    draw.rectangle((MARGIN - 2, MARGIN - 2, MARGIN + BOARD + 1, MARGIN + BOARD + 1), outline=BOARD_EDGE, width=2)
    _draw_coordinates(draw, first, last)
    _draw_legend(img, img.height - LEGEND_ROW, legend or legend_words())
    return img


def legend_words() -> str:
    return say("½ point scored at each square corner with a disc (last tile: white band)")


def _draw_legend(img: Image.Image, top: int, words: str) -> None:
    """The caption's last line: what the last placement's marks mean."""
    disc = score_disc_sprite()
    x, middle = 20, top + LEGEND_ROW // 2
    img.paste(disc, (x, middle - disc.height // 2), disc)
    draw_text(img, (x + disc.width + 8, middle), fit_text(words, font(TEXT_MIN), img.width - x - disc.width - 28),
              font(TEXT_MIN), TEXT_DIM, "lm")


def _paint_diagonals(draw: ImageDraw.ImageDraw, x0: int, y0: int) -> None:
    """The faint diagonals that cut a usable intersection into its four triangles."""
    x1, y1 = x0 + CHANNEL - 1, y0 + CHANNEL - 1
    draw.line((x0, y0, x1, y1), fill=DIAGONAL_COLOUR, width=1)
    draw.line((x0, y1, x1, y0), fill=DIAGONAL_COLOUR, width=1)


def _draw_coordinates(draw: ImageDraw.ImageDraw, first: int, last: int) -> None:
    """Intersection files a-k above and below, ranks 1-11 left and right; the usable ones brighter."""
    fnt = font(TEXT_MIN, bold=True)
    for k in range(INTERSECTIONS):
        x0, y0, _, _ = point_box(k, k)
        centre = x0 + CHANNEL / 2, y0 + CHANNEL / 2
        colour = TEXT if first <= k <= last else blend(TEXT_DIM, (36, 39, 45), 0.45)
        for y in (MARGIN / 2 - 1, MARGIN + BOARD + MARGIN / 2 + 1):
            draw.text((centre[0], y), chr(ord("a") + k), font=fnt, fill=colour, anchor="mm")
        for x in (MARGIN / 2 - 1, MARGIN + BOARD + MARGIN / 2 + 1):
            draw.text((x, centre[1]), str(k + 1), font=fnt, fill=colour, anchor="mm")


# --- sprites --------------------------------------------------------------------------------------------------


def _antialiased(width: int, height: int, paint) -> Image.Image:
    """An RGBA sprite painted at SUPERSAMPLE times the size, reduced in premultiplied colour (no dark fringes)."""
    canvas = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    paint(canvas, ImageDraw.Draw(canvas), SUPERSAMPLE)
    return canvas.convert("RGBa").reduce(SUPERSAMPLE).convert("RGBA")


def _paint_mark(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, size: float, colour: RGB) -> None:
    """The seat's shape: circle, square, triangle, diamond."""
    h = size / 2
    if seat == 0:
        draw.ellipse((cx - h, cy - h, cx + h, cy + h), fill=colour)
    elif seat == 1:
        s = h * 0.86
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=colour)
    elif seat == 2:
        draw.polygon([(cx, cy - h * 1.05), (cx + h * 1.1, cy + h * 0.85), (cx - h * 1.1, cy + h * 0.85)], fill=colour)
    else:
        s = h * 1.18
        draw.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=colour)


def _paint_bands(draw: ImageDraw.ImageDraw, lines, k: int, highlight: bool) -> None:
    """Outline along each (start, end) line in big-canvas coordinates, kept inside the shape by the caller's mask:
    dark, and for the last placement a white band inside the dark."""
    if highlight:
        for line in lines:
            draw.line(line, fill=WHITE, width=2 * (OUTLINE + HIGHLIGHT) * k)
    for line in lines:
        draw.line(line, fill=INK, width=2 * OUTLINE * k)


@lru_cache(maxsize=64)
def segment_sprite(fill: RGB, seat: int, horizontal: bool, highlight: bool) -> Image.Image:
    """One segment of a tile: a bar filling the channel between two intersections, outlined along the channel's
    walls (its ends always join the tile's own triangles), with the seat's mark in the middle."""
    width, height = (SQUARE, CHANNEL) if horizontal else (CHANNEL, SQUARE)

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, k: int) -> None:
        w, h = width * k, height * k
        draw.rectangle((0, 0, w, h), fill=fill)
        walls = [((0, 0), (w, 0)), ((0, h), (w, h))] if horizontal else [((0, 0), (0, h)), ((w, 0), (w, h))]
        _paint_bands(draw, walls, k, highlight)
        _paint_mark(draw, seat, w / 2, h / 2, MARK * k, mark_colour(fill))

    return _antialiased(width, height, paint).convert("RGB")  # opaque: pasted without a mask


@lru_cache(maxsize=512)
def intersection_sprite(fill: RGB, sides: str, joined: str, highlight: bool) -> Image.Image:
    """What a tile occupies in one intersection: the triangles facing `sides` (one: an arrowed end; two
    neighbours: a corner or a whole edge, whose outer sides form one diagonal). `joined` are the sides where the
    tile's own segments continue; every other side of the shape is outlined."""

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, k: int) -> None:
        size = CHANNEL * k
        shape = Image.new("L", canvas.size, 0)
        mask = ImageDraw.Draw(shape)
        for side in sides:
            points = triangle_points(side, 0, 0, size)
            draw.polygon(points, fill=fill)
            mask.polygon(points, fill=255)
        _paint_bands(draw, _outer_lines(sides, joined, size), k, highlight)
        canvas.putalpha(ImageChops.multiply(canvas.getchannel("A"), shape))

    return _antialiased(CHANNEL, CHANNEL, paint)


def _outer_lines(sides: str, joined: str, size: float):
    """The sides of the triangles of `sides` that are not shared with each other nor with a joined segment."""
    lines = []
    for side in sides:
        (b0, b1, centre) = triangle_points(side, 0, 0, size)
        if side not in joined:
            lines.append((b0, b1))
        for corner in (b0, b1):  # each half-diagonal from the centre to a corner of this triangle's base
            shared = any(other != side and corner in triangle_points(other, 0, 0, size)[:2] for other in sides)
            if not shared:
                lines.append((centre, corner))
    return lines


@lru_cache(maxsize=16)
def swatch_sprite(fill: RGB, seat: int, size: int = BADGE_TILE) -> Image.Image:
    """The caption's sample of a seat's tiles (larger, the seat's app emoji): its colour, its outline and its mark."""

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, k: int) -> None:
        big = size * k
        pad = k * size // BADGE_TILE
        draw.rounded_rectangle((pad, pad, big - pad, big - pad), radius=big * 0.18, fill=INK)
        rim = (OUTLINE + 1) * k * size // BADGE_TILE
        draw.rounded_rectangle((pad + rim, pad + rim, big - pad - rim, big - pad - rim), radius=big * 0.14,
                               fill=fill)
        _paint_mark(draw, seat, big / 2, big / 2, big * 0.5, mark_colour(fill))

    return _antialiased(size, size, paint)


def _paint_score_disc(draw: ImageDraw.ImageDraw, x: float, y: float, side: float, k: int) -> None:
    """A white disc edged in ink, filling the box x, y, side."""
    draw.ellipse((x, y, x + side, y + side), fill=WHITE, outline=INK, width=2 * k)


@lru_cache(maxsize=1)
def score_disc_sprite() -> Image.Image:
    """A disc in the corner of the printed square at the far end of a half-diagonal where the last placement
    scored, in the square's corner where the half-diagonal ends (top left for SE): it marks that corner and covers
    nothing of the intersection. Two discs in one square's neighbouring corners barely meet."""

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, k: int) -> None:
        _paint_score_disc(draw, 0, 0, SCORE_MARK * k - 1, k)

    return _antialiased(SCORE_MARK, SCORE_MARK, paint)


# --- drawing a position ---------------------------------------------------------------------------------------


LayerKey = tuple[int, int, int, int, int, str]


def layer_key(view: dict) -> LayerKey:
    """board_layer's arguments for this view: the player count, its playing area, and the legend's words (in the
    picture's language: each language's layer is cached apart)."""
    first, last = area_of(view)
    area = view["area"]
    return view["num_players"], first, last, area["first_square"], area["last_square"], legend_words()


def draw(view: dict, player_names: Sequence[str] | None = None, *, board_only: bool = False) -> Image.Image:
    """The picture as an RGB image; board_only leaves out the caption (the /rules diagram)."""
    img = board_layer(*layer_key(view)).copy()
    last_tile = last_placement(view)
    if last_tile is not None:
        light_squares_beside(img, last_tile)
    draw_tiles(img, view, last_tile)
    if last_tile is not None:
        _mark_scoring_contacts(img, view, last_tile)
    if board_only:
        return img.crop((0, 0, img.width, MARGIN + BOARD + MARGIN))
    _draw_caption(img, MARGIN + BOARD + MARGIN, view, player_names_for(view, player_names))
    return img


# --- the same picture in palette indices ----------------------------------------------------------------------
# A Myriath picture is the largest of all (a tall caption under a wide board) and nearly all of it is pasted from
# cached parts without masks. So render() composes it directly as a palette image: the layer and every sprite are
# mapped to one palette once, and a render pastes their indices; only the caption (new text) and the score discs
# (masked) are drawn in RGB and mapped, a small part of the picture. The palette is chosen once per layer and seat
# colours from a sample of everything a picture can show, so the same view always gives the same bytes.


def compose(view: dict, player_names: Sequence[str] | None = None) -> Image.Image:
    """draw()'s picture as a "P" image of board_palette: the same pixels, the palette's nearest shade at edges."""
    key, colours = layer_key(view), tuple(seat_colours(view))
    palette = board_palette(key, colours)
    img = indexed_layer(key, palette).copy()
    last_tile = last_placement(view)
    if last_tile is not None:
        light_squares_beside(img, last_tile, palette.index(LIT_SQUARE))
    draw_tiles(img, view, last_tile, segment=lambda *args: _indexed_segment(palette, *args),
               intersection=lambda occupants: _indexed_intersection(palette, occupants))
    if last_tile is not None:
        for disc, (x, y) in _score_discs(view, last_tile):
            box = (x, y, x + disc.width, y + disc.height)
            under = img.crop(box).convert("RGB")
            under.paste(disc, (0, 0), disc)
            img.paste(palette.map(under), box[:2])
    top = MARGIN + BOARD + MARGIN
    band = board_layer(*key).crop((0, top, WIDTH, img.height - LEGEND_ROW))  # the legend stays as mapped once
    _draw_caption(band, 0, view, player_names_for(view, player_names))
    img.paste(palette.map(band), (0, top))
    return img


render = palette_render(compose)  # the PNG of a Myriath view (default player names: its colour names)


@built_once(maxsize=8)
def board_palette(key: LayerKey, colours: tuple[RGB, ...]) -> Palette:
    """The flat colours a picture can have, exactly, then shades for the edges of the layer and of every sprite a
    picture can paste, for each seat and highlight, tiles of two seats meeting, a score disc on each ground, and
    captions with every kind of badge."""
    flat = [SQUARE_COLOUR, CHANNEL_COLOUR, DIAGONAL_COLOUR, LIT_SQUARE, OUT_SQUARE, OUT_CHANNEL, INK, WHITE,
            BOARD_EDGE, BACKGROUND, PANEL, TEXT, TEXT_DIM, YELLOW, SKY_BLUE, *colours]
    parts: list[Image.Image] = []
    for seat, fill in enumerate(colours):
        for highlight in (False, True):
            parts += [segment_sprite(fill, seat, horizontal, highlight) for horizontal in (True, False)]
            parts += [intersection_image(((fill, sides, joined, highlight),))
                      for sides in ("N", "E", "S", "W", "NE", "ES", "SW", "NW") for joined in ("", sides[0])]
        for other in colours:
            if other != fill:
                parts.append(intersection_image(tuple(sorted([(fill, "N", "", False), (other, "E", "", False)]))))
                parts.append(intersection_image(tuple(sorted([(fill, "NE", "", False), (other, "SW", "", True)]))))
    for ground in (SQUARE_COLOUR, LIT_SQUARE, OUT_SQUARE, CHANNEL_COLOUR, *colours):  # a disc on each it can touch
        on_ground = Image.new("RGB", (SCORE_MARK + 8, SCORE_MARK + 8), ground)
        on_ground.paste(score_disc_sprite(), (4, 4), score_disc_sprite())
        parts.append(on_ground)
    captions = caption_samples(WIDTH, [swatch_sprite(fill, seat) for seat, fill in enumerate(colours)],
                               "12½ points · passed · 3 tiles left")
    return Palette(flat + palette_colours(palette_reference(board_layer(*key), *parts, captions)))


@lru_cache(maxsize=4)
def indexed_layer(key: LayerKey, palette: Palette) -> Image.Image:
    return palette.map(board_layer(*key))


@lru_cache(maxsize=256)
def _indexed_segment(palette: Palette, fill: RGB, seat: int, horizontal: bool, highlight: bool) -> Image.Image:
    return palette.map(segment_sprite(fill, seat, horizontal, highlight))


@lru_cache(maxsize=2048)
def _indexed_intersection(palette: Palette, occupants: tuple[Occupant, ...]) -> Image.Image:
    return palette.map(intersection_image(occupants))


def last_placement(view: dict) -> dict | None:
    """The most recent tile: the move just played, or the last one laid before a run of passes (still the
    freshest change on the board). In a preview it is the tile about to be confirmed."""
    return view["tiles"][-1] if view["tiles"] else None


# What one tile puts in one intersection: its colour, the sides it occupies, the sides its segments join, and
# whether it is the last placement. An intersection is drawn from the tuple of all of them.
Occupant = tuple[RGB, str, str, bool]


def draw_tiles(img: Image.Image, view: dict, last_tile: dict | None, *, segment=None, intersection=None) -> None:
    """Every segment is an opaque sprite; every occupied intersection one opaque image of all the tiles meeting
    there (up to four arrows). No paste needs a mask: a masked paste costs ~30x more per pixel. `segment` and
    `intersection` give those images (default: the RGB sprites; compose() passes their palette versions)."""
    segment, intersection = segment or segment_sprite, intersection or intersection_image
    colours = seat_colours(view)
    occupants: dict[str, list[Occupant]] = {}
    for tile in view["tiles"]:
        fill, seat, highlight = colours[tile["owner"]], tile["owner"], tile is last_tile
        for a, b in tile["segments"]:
            x0, y0, _, y1 = segment_box(a, b)
            img.paste(segment(fill, seat, y1 - y0 == CHANNEL, highlight), (x0, y0))
        joined = _joined_sides(tile["segments"])
        for piece in tile["caps"] + tile["corners"]:
            at = piece["at"]
            occupants.setdefault(at, []).append((fill, "".join(piece["triangles"]), joined.get(at, ""), highlight))
    for at, here in occupants.items():
        img.paste(intersection(tuple(sorted(here))), point_box(*parse_point(at))[:2])


@lru_cache(maxsize=2048)
def intersection_image(occupants: tuple[Occupant, ...]) -> Image.Image:
    """An occupied (so usable) intersection, opaque: the channel with its faint diagonals under the tiles there."""
    img = Image.new("RGBA", (CHANNEL, CHANNEL), CHANNEL_COLOUR + (255,))
    _paint_diagonals(ImageDraw.Draw(img), 0, 0)
    for fill, sides, joined, highlight in occupants:
        img.alpha_composite(intersection_sprite(fill, sides, joined, highlight))
    return img.convert("RGB")


def squares_beside(tile: dict) -> set[tuple[int, int]]:
    """The printed squares (column, row) along the tile's segments, one on each side of each segment."""
    squares = set()
    for a, b in tile["segments"]:
        (fa, ra), (fb, rb) = parse_point(a), parse_point(b)
        f, r = min(fa, fb), min(ra, rb)
        if ra == rb:  # along a rank: it spans square column f + 1, between rows r and r + 1
            squares |= {(f + 1, r), (f + 1, r + 1)}
        else:
            squares |= {(f, r + 1), (f + 1, r + 1)}
    return squares


def light_squares_beside(img: Image.Image, tile: dict, fill: RGB | int = LIT_SQUARE) -> None:
    """Sky-blue squares along the last placement: a mark big enough to find it on a phone, which touches no
    channel, so it never looks like part of a tile. (A tile lies inside the area: its squares are all plain.)"""
    draw = ImageDraw.Draw(img)
    for i, j in squares_beside(tile):
        x0, y0, x1, y1 = square_box(i, j)
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill)


def _joined_sides(segments: list[list[str]]) -> dict[str, str]:
    """Per intersection of a tile, the sides (N E S W) where one of its own segments leaves it."""
    joined: dict[str, str] = {}
    for a, b in segments:
        (fa, ra), (fb, rb) = parse_point(a), parse_point(b)
        towards_b = "N" if rb > ra else "S" if rb < ra else "E" if fb > fa else "W"
        towards_a = SIDES[(SIDES.index(towards_b) + 2) % 4]
        joined[a] = joined.get(a, "") + towards_b
        joined[b] = joined.get(b, "") + towards_a
    return {at: "".join(sorted(sides, key=SIDES.index)) for at, sides in joined.items()}


def scoring_contacts(view: dict, tile: dict) -> list[dict]:
    """Contacts of the tile with an end on either side: the half-diagonals that scored when it was laid."""
    return [c for c in view.get("contacts") or [] if tile["index"] in c["tiles"] and any(c["ends"])]


def _mark_scoring_contacts(img: Image.Image, view: dict, tile: dict) -> None:
    for disc, corner in _score_discs(view, tile):
        img.paste(disc, corner, disc)


def score_disc_corner(at: str, corner: str) -> tuple[int, int]:
    """Where a half-diagonal ends: the intersection's corner, which is a printed square's corner."""
    cx, cy = point_centre(at)
    dx, dy = CORNER_STEP[corner]
    return round(cx + dx * CHANNEL / 2), round(cy + dy * CHANNEL / 2)


def score_disc_centre(at: str, corner: str) -> tuple[float, float]:
    """The disc's centre, on the printed square beyond the half-diagonal."""
    x, y = score_disc_corner(at, corner)
    dx, dy = CORNER_STEP[corner]
    return x + dx * SCORE_MARK / 2, y + dy * SCORE_MARK / 2


def _score_discs(view: dict, tile: dict) -> list[tuple[Image.Image, tuple[int, int]]]:
    """Each scoring half-diagonal's disc sprite and its top-left corner, the disc touching the square's corner."""
    discs = []
    disc = score_disc_sprite()
    for contact in scoring_contacts(view, tile):
        corner = contact["half_diagonal"]
        x, y = score_disc_corner(contact["at"], corner)
        dx, dy = CORNER_STEP[corner]
        discs.append((disc, (x if dx > 0 else x - disc.width, y if dy > 0 else y - disc.height)))
    return discs


# --- caption ----------------------------------------------------------------------------------------------------


def passed_seats(view: dict) -> set[int]:
    """Seats whose latest turn was a pass: the last `passes_in_a_row` turns, counted back in turn order."""
    n, order = view["num_players"], view["turn_order"]
    start, ply = order[0], view["ply"]
    return {(start + ply - 1 - i) % n for i in range(view.get("passes_in_a_row") or 0)}


def points_gained(view: dict, tile: dict) -> dict[int, int]:
    """Half points per seat scored by laying `tile` (each end half-diagonal in contact is worth ½ to its owner)."""
    owners = {t["index"]: t["owner"] for t in view["tiles"]}
    gained: dict[int, int] = {}
    for contact in scoring_contacts(view, tile):
        for index, is_end in zip(contact["tiles"], contact["ends"]):
            if is_end:
                gained[owners[index]] = gained.get(owners[index], 0) + 1
    return gained


def halves_text(halves: int) -> str:
    """3½, 4, ½ (the engine's own format, for points the view does not spell out)."""
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def halves_count(score: str) -> int:
    """The number a score written as halves ("3½", "½", "4") counts as for a plural form: rounded up."""
    whole = score.rstrip("½")
    return (int(whole) if whole else 0) + (1 if score.endswith("½") else 0)


def _details(view: dict, seat: int, passed: set[int], name: str) -> list[str]:
    """Score first (what a glance looks for), then whether the seat passed, then the tiles it has left, the seat's
    colour before them all (as the other games name their sides): the fullest wording first, then shorter ones that
    keep the colour."""
    left = sum(view["supplies"][seat].values())
    score = view["scores_text"][seat]
    passing = [say("passed")] if seat in passed and view["phase"] != "over" else []  # at the end everybody passed
    colour_name = [say(view["seat_names"][seat])] if say(view["seat_names"][seat]) != name else []
    # "½ point", "1 point", "1½ points": the form of the points rounded up (French says 1½ in the plural too).
    points = say("{score} point", plural="{score} points", score=score, count=halves_count(score))
    tiles = say("{count} tile left", plural="{count} tiles left", count=left)
    variants = [colour_name + [points] + passing + [tiles],
                colour_name + [say("{score} pts", score=score)] + passing
                + [say("{count} left", plural="{count} left", count=left)],
                colour_name + [points] + passing,
                colour_name + [say("{score} pts", score=score)] + passing,
                colour_name + [say("{score} pts", score=score)]]
    return [" · ".join(parts) for parts in variants]


def caption_rows(num_players: int) -> int:
    """Three or four badges side by side leave no room for a name and a readable score: two rows of two."""
    return 2 if num_players >= 3 else 1


def badges_per_row(num_players: int) -> int:
    return -(-num_players // caption_rows(num_players))


def _draw_caption(img: Image.Image, top: int, view: dict, names: Sequence[str]) -> None:
    colours = seat_colours(view)
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    acting = set(view.get("to_act") or [])
    passed = passed_seats(view)
    badges = []
    for seat in range(view["num_players"]):
        details = _details(view, seat, passed, names[seat])
        badges.append(Badge(sprite=swatch_sprite(colours[seat], seat), name=names[seat], detail=details[0],
                            shorter=tuple(details[1:]), active=seat in acting, winner=seat in winners,
                            you=view.get("viewer") == seat))
    rows, per_row = caption_rows(view["num_players"]), badges_per_row(view["num_players"])
    for row in range(rows - 1):  # the upper rows carry badges only; the last one the status and history lines
        draw_caption(img, top + row * BADGE_ROW, badges[row * per_row:(row + 1) * per_row], "", "")
    last_row = top + (rows - 1) * BADGE_ROW
    draw_caption(img, last_row, badges[(rows - 1) * per_row:], _status(view, names), _history(view, names))


def _status(view: dict, names: Sequence[str]) -> str:
    status = status_line(view, names)
    if view["phase"] == "setup" and status:
        status += say(" · setup: an octagon each")
    return status


def _history(view: dict, names: Sequence[str]) -> str:
    tile = last_placement(view)
    if view.get("last_move") in (None, "pass") or tile is None:
        return history_line(view)
    gained = points_gained(view, tile)
    own = gained.pop(tile["owner"], 0)
    detail = f" +{halves_text(own)}" if own else ""
    if gained:
        detail += " (" + ", ".join(f"+{halves_text(h)} {short_name(names[s])}" for s, h in sorted(gained.items())) + ")"
    return history_line(view, detail)
