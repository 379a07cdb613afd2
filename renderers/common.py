"""Drawing shared by the board renderers: fonts, palette, square geometry, cached sprites and layers, caption.

How a board picture is made fast (docs/design.md, Performance): everything that does not change within a match
(squares, coordinates, home rows, ports, the empty caption band) is drawn once into a cached *layer*; every piece
is a cached *sprite* drawn antialiased at 4x and downscaled once; caption text is stamped from cached glyph masks.
A render is then: copy the layer, tint a few squares, paste sprites, stamp the caption text, encode a palette PNG
(renderers/png.py, which every renderer goes through). Nothing here is supersampled per render.
"""

from __future__ import annotations

import bisect
import json
import math
import re
import unicodedata
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont, features

RGB = tuple[int, int, int]

# Pillow loads its file-format plugins (and the logging they import) on the first save: ~20 ms that otherwise
# land on the first board picture a new process posts. Loading them with the package moves that to start-up.
Image.preinit()

FONT_DIR = Path(__file__).with_name("fonts")
# Discord shows a picture about 390 px wide on a phone: a ~1000 px board at ~0.4 of its size. TEXT_MIN px text is
# 9 px high there, the least that reads; no text on a board picture is drawn smaller.
TEXT_MIN = 24
SUPERSAMPLE = 4  # sprites are drawn this many times larger, then reduced: smooth edges at no per-render cost

# --- palette --------------------------------------------------------------------------------------------------
# The two sides differ by lightness (ivory against charcoal) and by shape/mark, never by hue alone, so the boards
# read the same for every kind of colour vision and in greyscale. Tints use the Okabe-Ito colour-blind-safe set.

BACKGROUND: RGB = (36, 39, 45)  # frame around the board and the caption band (sits well in Discord's dark theme)
PANEL: RGB = (50, 54, 62)  # the badge of the player to move
TEXT: RGB = (238, 240, 243)
TEXT_DIM: RGB = (170, 176, 186)
BOARD_EDGE: RGB = (18, 20, 24)

SKY_BLUE: RGB = (86, 180, 233)
YELLOW: RGB = (240, 228, 66)
VERMILLION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)


@dataclass(frozen=True)
class SideColours:
    fill: RGB  # body of a piece
    edge: RGB  # outline, contrasting with the fill
    mark: RGB  # the inner mark that tells the sides apart by shape as well as lightness


LIGHT = SideColours(fill=(247, 243, 233), edge=(26, 26, 30), mark=(26, 26, 30))
DARK = SideColours(fill=(40, 41, 46), edge=(236, 232, 222), mark=(214, 210, 200))
SIDES: tuple[SideColours, SideColours] = (LIGHT, DARK)


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour t of the way from a to b."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]  # three in, three out


# --- fonts ----------------------------------------------------------------------------------------------------
# Player names come in any script. Text is drawn in DejaVu Sans (Latin, Greek, Cyrillic, Arabic, Hebrew and many
# symbols); a run of characters DejaVu lacks is drawn in the first bundled fallback that has them (fonts/README.md
# lists them, their licences and how their subsets were made). Pillow lays each run out with libraqm when it has
# it (right-to-left order, Arabic joining, Devanagari conjuncts). Runs are set one after another in the order they
# come in the text.

_PRIMARY = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
_FALLBACKS = (  # (regular, bold): a font without a bold face draws both
    ("NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf"),
    ("DroidSansFallback.ttf", "DroidSansFallback.ttf"),  # Chinese, Japanese, Korean
    ("Symbola.ttf", "Symbola.ttf"),  # emoji (monochrome) and pictographic symbols
)
REPLACEMENT = "\ufffd"  # drawn (in DejaVu) for a character no bundled font has, instead of an empty box
# Lines read left to right; inside them libraqm puts right-to-left words in their order. Without libraqm (Pillow's
# wheels load it only where the system has FriBiDi) Pillow refuses any direction, and lays text out plainly.
LAYOUT: dict[str, Any] = {"direction": "ltr"} if features.check_feature("raqm") else {}


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from the package's own fonts folder (never the system's), so every machine draws the same."""
    return ImageFont.truetype(str(FONT_DIR / _PRIMARY[bold]), size)


@lru_cache(maxsize=64)
def _fallback_font(index: int, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / _FALLBACKS[index][bold]), size)


class Coverage:
    """The code points a font has a glyph for, as sorted [first, last] ranges: `ord(ch) in coverage`."""

    def __init__(self, ranges: Sequence[Sequence[int]]):
        self._firsts = [first for first, _ in ranges]
        self._lasts = [last for _, last in ranges]

    def __contains__(self, code_point: int) -> bool:
        i = bisect.bisect_right(self._firsts, code_point) - 1
        return i >= 0 and code_point <= self._lasts[i]


@lru_cache(maxsize=None)
def _coverages() -> dict[str, Coverage]:
    # fonts/coverage.json is written from the fonts' character maps by `python -m benchmarks.font_coverage`
    ranges = json.loads((FONT_DIR / "coverage.json").read_text())
    return {name: Coverage(spans) for name, spans in ranges.items()}


def font_coverage(name: str) -> Coverage:
    """The code points a bundled font has a glyph for (its character map)."""
    return _coverages()[name]


def _is_bold(fnt: ImageFont.FreeTypeFont) -> bool:
    return Path(str(fnt.path)).name == _PRIMARY[1]


def fallback_chain(fnt: ImageFont.FreeTypeFont) -> tuple[tuple[ImageFont.FreeTypeFont, str], ...]:
    """The font and its fallbacks at the same size and weight, each with its file's name."""
    bold = _is_bold(fnt)
    chain = [(fnt, _PRIMARY[bold])]
    chain += [(_fallback_font(i, int(fnt.size), bold), names[bold]) for i, names in enumerate(_FALLBACKS)]
    return tuple(chain)


def _rides_along(ch: str) -> bool:
    """Characters that belong to the run before them: combining marks, joiners and variation selectors (a
    missing one is invisible in HarfBuzz, never a box), spaces and punctuation (so an Arabic name's words stay
    one right-to-left run)."""
    kind = unicodedata.category(ch)
    return kind[0] in "MZP" or _invisible(ch)


@lru_cache(maxsize=4096)
def text_runs(text: str, bold: bool = False) -> tuple[tuple[str, int], ...]:
    """The text split into runs of (characters, font): 0 is DejaVu, i > 0 the i-th fallback. A character no font
    has becomes REPLACEMENT in DejaVu."""
    names = [_PRIMARY[bold]] + [f[bold] for f in _FALLBACKS]
    if all(ord(ch) in font_coverage(names[0]) for ch in text):
        return ((text, 0),) if text else ()
    runs: list[list] = []
    for ch in text:
        if _skin_tone(ch):
            continue
        if runs and _rides_along(ch) and (ord(ch) in font_coverage(names[runs[-1][1]]) or _invisible(ch)):
            runs[-1][0] += ch
            continue
        index = next((i for i, name in enumerate(names) if ord(ch) in font_coverage(name)), None)
        if index is None:
            if _invisible(ch):
                continue
            ch, index = REPLACEMENT, 0
        if runs and runs[-1][1] == index:
            runs[-1][0] += ch
        else:
            runs.append([ch, index])
    return tuple((chars, index) for chars, index in runs if chars)


def _invisible(ch: str) -> bool:
    """Joiners, combining marks, variation selectors and skin tones: nothing to draw on their own. Dropped when no
    font has them; a skin tone always (it would be drawn as a swatch beside a monochrome emoji)."""
    return unicodedata.category(ch) in ("Cf", "Mn") or 0xFE00 <= ord(ch) <= 0xFE0F or _skin_tone(ch)


def _skin_tone(ch: str) -> bool:
    return 0x1F3FB <= ord(ch) <= 0x1F3FF


def _run_fonts(text: str, fnt: ImageFont.FreeTypeFont) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    chain = fallback_chain(fnt)
    return [(chars, chain[index][0]) for chars, index in text_runs(text, _is_bold(fnt))]


@lru_cache(maxsize=4096)
def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """The advance width of a line of text (ImageDraw.textlength, fallback fonts included), cached: captions repeat
    from render to render."""
    return sum(run_font.getlength(chars, **LAYOUT) for chars, run_font in _run_fonts(text, fnt))


def _cut_one(text: str) -> str:
    """The text without its last character, and without what would be left dangling of it (a combining mark, a
    joiner, a variation selector, a skin tone)."""
    text = text[:-1]
    while text and _invisible(text[-1]):
        text = text[:-1]
    return text


@lru_cache(maxsize=4096)
def fit_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """The text, shortened with an ellipsis if it is wider than max_width (long display names)."""
    if text_width(text, fnt) <= max_width:
        return text
    while text and text_width(text + "…", fnt) > max_width:
        text = _cut_one(text)
    return text.rstrip() + "…"


@lru_cache(maxsize=512)  # a few MB at most; the move line is new every render and cycles through
def _text_stamp(text: str, fnt: ImageFont.FreeTypeFont, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's antialiased coverage as an "L" mask, and where its top-left sits relative to the anchor point."""
    runs = _run_fonts(text, fnt)
    if not runs or (len(runs) == 1 and runs[0][1] is fnt and runs[0][0] == text):
        left, top, right, bottom = map(int, fnt.getbbox(text, anchor=anchor, **LAYOUT))  # whole pixels already
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
        ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255, anchor=anchor, **LAYOUT)
        return mask, left, top
    # Several fonts: each run set on the common baseline, one after another; the anchor is placed as DejaVu
    # places it (vertically by DejaVu's metrics, so a line's height does not jump with the script).
    placed, pen = [], 0.0
    for chars, run_font in runs:
        box = run_font.getbbox(chars, anchor="ls", **LAYOUT)
        placed.append((chars, run_font, pen, box))
        pen += run_font.getlength(chars, **LAYOUT)
    left = math.floor(min(x + box[0] for _, _, x, box in placed))
    right = math.ceil(max(x + box[2] for _, _, x, box in placed))
    top, bottom = int(min(box[1] for *_, box in placed)), int(max(box[3] for *_, box in placed))  # whole pixels
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    draw = ImageDraw.Draw(mask)
    for chars, run_font, x, _ in placed:
        draw.text((x - left, -top), chars, font=run_font, fill=255, anchor="ls", **LAYOUT)
    shift_x = {"l": 0, "m": -pen / 2, "r": -pen}[anchor[0]]
    shift_y = int(fnt.getbbox("x", anchor="l" + anchor[1])[1] - fnt.getbbox("x", anchor="ls")[1])
    return mask, round(left + shift_x), top + shift_y


Box = tuple[int, int, int, int]  # left, top, right, bottom


@dataclass(frozen=True)
class Drawn:
    """One thing drawn where words must not run into it: a line of text (its words, the pixels its ink covers and
    the box the layout gave it, if any) or a shape beside words (text ""). For tests that every word fits."""

    target: Image.Image  # the picture (or cached part of one) it was drawn on
    text: str
    ink: Box
    room: Box | None = None


_drawn: ContextVar[list[Drawn] | None] = ContextVar("drawn", default=None)


def recording_drawn(draw: Callable[..., Any], /, *args: Any, **kwargs: Any) -> tuple[Any, list[Drawn]]:
    """`draw(*args, **kwargs)` and everything it drew with draw_text or noted with note_shape. Cached parts
    (layers, badges, lines) are recorded only when drawn, so a test clears the caches first."""
    drawn: list[Drawn] = []
    token = _drawn.set(drawn)
    try:
        return draw(*args, **kwargs), drawn
    finally:
        _drawn.reset(token)


def note_shape(img: Image.Image, box: Box) -> None:
    """A shape (a piece beside a label, say) that words drawn near it must not run into, for recording_drawn."""
    drawn = _drawn.get()
    if drawn is not None:
        drawn.append(Drawn(img, "", box))


def draw_text(img: Image.Image, xy: tuple[int, int], text: str, fnt: ImageFont.FreeTypeFont, fill: RGB | int,
              anchor: str = "la", room: Box | None = None) -> None:
    """ImageDraw.text for one line at a whole-pixel position, pixel for pixel the same, but the glyphs are rendered
    once per (text, font, anchor) and then stamped: FreeType layout and rasterising was about a third of the
    drawing time, and names, counts and titles repeat from one render of a match to the next. Characters DejaVu
    lacks are drawn in the bundled fallback fonts. `room`: the box the layout gives the text (recording_drawn)."""
    mask, left, top = _text_stamp(text, fnt, anchor)
    x, y = xy[0] + left, xy[1] + top
    img.paste(fill, (x, y), mask)
    drawn = _drawn.get()
    if drawn is not None and text.strip():
        ink = mask.getbbox() or (0, 0, 0, 0)
        drawn.append(Drawn(img, text, (x + ink[0], y + ink[1], x + ink[2], y + ink[3]), room))


def plural(count: int, noun: str) -> str:
    """'1 ship', '3 ships'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# --- squares and geometry -------------------------------------------------------------------------------------


def parse_square(name: str) -> tuple[int, int]:
    """'c4' -> (2, 3): 0-based (file, rank)."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def file_letter(f: int) -> str:
    return chr(ord("a") + f)


def square_name(f: int, r: int) -> str:
    """(2, 3) -> 'c4': parse_square's inverse."""
    return f"{file_letter(f)}{r + 1}"


@dataclass(frozen=True)
class Grid:
    """Where each square of a files x ranks board lands in the picture.

    Not flipped: rank 1 at the bottom, file a on the left. Flipped (seat 1's own view): turned 180 degrees."""

    files: int
    ranks: int
    square: int  # side of one square in pixels
    left: int  # pixel position of the board's top-left corner
    top: int
    flipped: bool = False

    @property
    def width(self) -> int:
        return self.files * self.square

    @property
    def height(self) -> int:
        return self.ranks * self.square

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    def column(self, f: int) -> int:
        """Screen column (0 = leftmost) of file f."""
        return self.files - 1 - f if self.flipped else f

    def row(self, r: int) -> int:
        """Screen row (0 = top) of rank r."""
        return r if self.flipped else self.ranks - 1 - r

    def origin(self, f: int, r: int) -> tuple[int, int]:
        """Top-left pixel of square (f, r)."""
        return self.left + self.column(f) * self.square, self.top + self.row(r) * self.square

    def box(self, f: int, r: int) -> tuple[int, int, int, int]:
        x, y = self.origin(f, r)
        return x, y, x + self.square, y + self.square

    def centre(self, f: int, r: int) -> tuple[int, int]:
        x, y = self.origin(f, r)
        return x + self.square // 2, y + self.square // 2

    def centre_of(self, name: str) -> tuple[int, int]:
        return self.centre(*parse_square(name))

    def box_of(self, name: str) -> tuple[int, int, int, int]:
        return self.box(*parse_square(name))

    def origin_of(self, name: str) -> tuple[int, int]:
        return self.origin(*parse_square(name))


def is_flipped(view: dict) -> bool:
    """Seat 1's private view shows seat 1 at the bottom; the public view and seat 0's show seat 0 there."""
    return view.get("viewer") == 1


# --- static layer helpers (called once per cached layer) ------------------------------------------------------


def new_canvas(width: int, height: int) -> Image.Image:
    return Image.new("RGB", (width, height), BACKGROUND)


def draw_squares(img: Image.Image, grid: Grid, colour_of: Callable[[int, int], RGB]) -> None:
    draw = ImageDraw.Draw(img)
    for r in range(grid.ranks):
        for f in range(grid.files):
            x0, y0, x1, y1 = grid.box(f, r)
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour_of(f, r))
    draw.rectangle((grid.left - 2, grid.top - 2, grid.right + 1, grid.bottom + 1), outline=BOARD_EDGE, width=2)


def draw_coordinates(
    img: Image.Image, grid: Grid, margin: int, size: int = TEXT_MIN, marked_ranks: dict[int, SideColours] | None = None
) -> None:
    """File letters above and below the board, rank numbers left and right of it, following the orientation.

    `marked_ranks` (0-based rank -> side) draws those rank numbers on a chip in that side's colours: how a home
    row shows whose it is."""
    draw = ImageDraw.Draw(img)
    fnt = font(size, bold=True)
    half = grid.square // 2
    for f in range(grid.files):
        x = grid.left + grid.column(f) * grid.square + half
        for y in (grid.top - margin // 2 - 1, grid.bottom + margin // 2 + 1):
            draw.text((x, y), file_letter(f), font=fnt, fill=TEXT_DIM, anchor="mm")
    for r in range(grid.ranks):
        y = grid.top + grid.row(r) * grid.square + half
        side = (marked_ranks or {}).get(r)
        for x in (grid.left - margin // 2 - 1, grid.right + margin // 2 + 1):
            if side is None:
                draw.text((x, y), str(r + 1), font=fnt, fill=TEXT_DIM, anchor="mm")
                continue
            chip = margin // 2 - 2
            draw.rounded_rectangle((x - chip, y - chip - 4, x + chip, y + chip + 4), radius=7, fill=side.fill,
                                   outline=side.edge, width=2)
            draw.text((x, y), str(r + 1), font=fnt if fnt.getlength(str(r + 1)) <= 2 * chip - 4 else
                      font(size - 1, bold=True), fill=side.edge, anchor="mm")


# --- sprites (drawn once at 4x, reduced, cached) --------------------------------------------------------------


def supersampled(size: int, paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """An RGBA sprite of size x size: `paint(draw, big)` draws on a transparent big x big canvas (big = 4 * size),
    which is then reduced with a box filter into smooth edges."""
    big = size * SUPERSAMPLE
    canvas = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    paint(ImageDraw.Draw(canvas), big)
    return _premultiplied_reduce(canvas, SUPERSAMPLE)


def _premultiplied_reduce(img: Image.Image, factor: int) -> Image.Image:
    # Reducing straight RGBA would bleed the transparent black into the edge colours (dark fringes around light
    # pieces); averaging premultiplied colour avoids that.
    premultiplied = img.convert("RGBa").reduce(factor)
    return premultiplied.convert("RGBA")


@lru_cache(maxsize=64)
def disc_sprite(diameter: int, seat: int) -> Image.Image:
    """A round stone. Seat 0: ivory with a dark rim. Seat 1: charcoal with a light rim and a light inner ring, so the
    sides differ by shape as well as by lightness."""
    side = SIDES[seat]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        rim = max(SUPERSAMPLE * 2, big // 18)
        pad = SUPERSAMPLE  # keep the antialiased rim inside the sprite
        draw.ellipse((pad, pad, big - pad, big - pad), fill=side.edge)
        draw.ellipse((pad + rim, pad + rim, big - pad - rim, big - pad - rim), fill=side.fill)
        if seat == 1:
            ring = big * 0.27
            width = max(SUPERSAMPLE * 2, big // 16)
            c = big / 2
            draw.ellipse((c - ring, c - ring, c + ring, c + ring), outline=side.mark, width=width)

    return supersampled(diameter, paint)


@lru_cache(maxsize=64)
def cross_sprite(size: int, seat: int) -> Image.Image:
    """A bold X in the victim's colour with a contrasting edge: 'a piece of this side was taken here'."""
    side = SIDES[seat]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        inset = big * 0.1
        lo, hi = inset, big - inset
        for colour, width in ((side.edge, big // 7), (side.fill, big // 7 - 2 * max(SUPERSAMPLE * 2, big // 40))):
            draw.line((lo, lo, hi, hi), fill=colour, width=width)
            draw.line((lo, hi, hi, lo), fill=colour, width=width)

    return supersampled(size, paint)


def paste_centred(img: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    x = centre[0] - sprite.width // 2
    y = centre[1] - sprite.height // 2
    img.paste(sprite, (x, y), sprite)


# --- per-render highlights --------------------------------------------------------------------------------------


def tinted(square: RGB, colour: RGB, strength: float) -> RGB:
    """The colour tint_squares gives a plain square of colour `square` (Image.blend's rounding included)."""
    blended = Image.blend(Image.new("RGB", (1, 1), square), Image.new("RGB", (1, 1), colour), strength)
    # ignore: Pillow types getpixel for every mode; an "RGB" image's pixel is an RGB tuple
    return blended.getpixel((0, 0))  # type: ignore[return-value]


def tint_squares(img: Image.Image, grid: Grid, squares: Iterable[str], colour: RGB, strength: float) -> None:
    """Blend each named square toward `colour` (the square's own look, home-row tint included, shows through)."""
    for name in squares:
        box = grid.box_of(name)
        region = img.crop(box)
        img.paste(Image.blend(region, Image.new("RGB", region.size, colour), strength), box)


def outline_squares(img: Image.Image, grid: Grid, squares: Iterable[str], colour: RGB, width: int) -> None:
    """An inset frame: a mark by shape, not only by tint, for the squares a move ended on."""
    draw = ImageDraw.Draw(img)
    for name in squares:
        x0, y0, x1, y1 = grid.box_of(name)
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=colour, width=width)


def cross_squares(img: Image.Image, grid: Grid, squares: Iterable[tuple[str, int]]) -> None:
    """An X from corner to corner on each (square, victim seat); drawn under the pieces, so on a square a capturing
    piece now stands on, the X's arms still show in its corners."""
    for name, seat in squares:
        paste_centred(img, cross_sprite(grid.square, seat), grid.centre_of(name))


# --- the language of a picture's words -----------------------------------------------------------------------
# A picture's words are written in English, `say("{count} pieces", count=3)`; the caller of a render may give a
# translation for them (`in_language`: English template and params → the words in a language), which `say`
# applies (and `python -m bot.extract_texts` collects every `say("…")`). Renderers import nothing of the bot, so
# the translation comes in as a function. Nothing cached across renders holds translated words. Words that show a
# count have a plural, `say("{count} piece", plural="{count} pieces", count=n)`: the translation is then also given
# the plural, and picks its language's form for `count`.
Translate = Callable[..., str]  # (template, params) or (template, params, plural) → the words


def english(template: str, params: dict, plural: str | None = None) -> str:
    if plural is not None and params.get("count") != 1:
        template = plural
    return template.format(**params) if params else template


_translate: ContextVar[Translate] = ContextVar("translate", default=english)


def say(template: str, /, plural: str | None = None, **params: Any) -> str:
    """A picture's words in the language being drawn (English unless the render runs `in_language`); with a
    `plural`, the form that `params["count"]` takes."""
    if plural is None:
        return _translate.get()(template, params)
    return _translate.get()(template, params, plural)


def say_text(data: Any) -> str:
    """An engine's text kept as JSON in a view ({"text": template, "plural": …, "params": {...}}, see
    bot.engine.text), in the language being drawn; a plain string as it is."""
    if not (isinstance(data, dict) and isinstance(data.get("text"), str)):
        return "" if data is None else str(data)
    return say(data["text"], plural=data.get("plural"), **{k: say_text(v) if isinstance(v, dict) else v
                                                           for k, v in (data.get("params") or {}).items()})


def N_(template: str) -> str:
    """Marks words kept in a table for `python -m bot.extract_texts`; `say` translates them where they are drawn."""
    return template


def in_language(translate: Translate, draw: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """`draw(*args, **kwargs)` with its words translated by `translate`."""
    token = _translate.set(translate)
    try:
        return draw(*args, **kwargs)
    finally:
        _translate.reset(token)


# --- caption ----------------------------------------------------------------------------------------------------

BADGE_HEIGHT = 84
CAPTION_HEIGHT = 10 + BADGE_HEIGHT + 92  # badges, then the status line and the last move, one line each
_PAD = 16


@dataclass(frozen=True)
class Badge:
    """One player in the caption: their piece, their name and a line of counts."""

    sprite: Image.Image
    name: str
    detail: str
    active: bool = False  # this player is to move
    winner: bool = False
    shorter: tuple[str, ...] = ()  # shorter wordings of the detail (fullest first), for a longer language
    you: bool = False  # the viewer's own badge: "(you)" follows the name, kept whole when the name is shortened


def player_names_for(view: dict, player_names: Sequence[str] | None) -> list[str]:
    names = list(player_names) if player_names else [say(side) for side in view.get("seat_names") or []]
    while len(names) < view["num_players"]:
        names.append(say("Seat {seat}", seat=len(names) + 1))
    return names


def history_line(view: dict, detail: str = "") -> str:
    """'Move 17 · last c1-c4' plus a game's own detail about that move (what it captured, say)."""
    if view.get("last_move"):
        return say("Move {ply} · last {move}{detail}", ply=view["ply"], move=view["last_move"], detail=detail)
    return say("Move {ply}", ply=view["ply"])


def status_line(view: dict, names: Sequence[str]) -> str:
    """'Alice to move', 'Alice wins — crossing', 'Draw — agreed' (a very long name shortened: see short_name)."""
    names = [short_name(name) for name in names]
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        reason = reason_of(outcome)
        who = " & ".join(names[w] for w in winners)
        if not winners:
            head = say("Draw")
        else:
            head = say("{player} wins", player=who) if len(winners) == 1 else say("{players} win", players=who)
        return f"{head} — {reason}" if reason else head
    acting = view.get("to_act") or []
    if not acting:
        return ""
    return say("{players} to move", players=" & ".join(names[s] for s in acting))


def reason_of(outcome: dict) -> str:
    """An outcome's reason in the language being drawn, when the view kept its template (else as it is)."""
    if outcome.get("reason_text"):
        return say_text(outcome["reason_text"])
    return outcome.get("reason") or ""


def player_badges(
    view: dict,
    names: Sequence[str],
    sprite: Callable[[int], Image.Image],
    counts: Callable[[int], str],
) -> list[Badge]:
    """A badge per seat: the given name (plus the side's name when they differ, '(you)' in a private view), the
    seat's counts, and whether it is to move or has won."""
    sides = view.get("seat_names") or names
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    acting = set(view.get("to_act") or [])
    badges = []
    for seat in range(view["num_players"]):
        side = say(sides[seat]) if seat < len(sides) else ""
        side = "" if side == names[seat] else side  # a seat named by its side (no player's name)
        details = detail_wordings(side, counts(seat).split(" · "))
        badges.append(Badge(
            sprite=sprite(seat),
            name=names[seat],
            detail=details[0],
            shorter=details[1:],
            you=view.get("viewer") == seat,
            active=seat in acting,
            winner=seat in winners,
        ))
    return badges


def detail_wordings(side: str, counts: Sequence[str]) -> tuple[str, ...]:
    """A badge's detail, fullest first: the side (when the name is not the side's) and the counts, then with fewer
    of the last counts. The side stays in every wording: it tells whose pieces are whose."""
    head = [side] if side else []
    return tuple(" · ".join(head + list(counts[:n])) for n in range(len(counts), 0, -1)) + tuple(head)


def draw_player_caption(
    img: Image.Image,
    top: int,
    view: dict,
    names: Sequence[str],
    *,
    sprite: Callable[[int], Image.Image],
    counts: Callable[[int], str],
    history: str,
    status: str | None = None,
) -> None:
    """The caption of a board whose players each have a badge in one row (player_badges): then whose turn or the
    result (status_line, unless the game says more) and the last move."""
    badges = player_badges(view, names, sprite=sprite, counts=counts)
    draw_caption(img, top, badges, status_line(view, names) if status is None else status, history)


def draw_caption(img: Image.Image, top: int, badges: Sequence[Badge], status: str, history: str) -> None:
    """The band under the board: one badge per player side by side, then the status line and the last move, each
    on a line of its own (a line too long steps down to the smallest readable size, then the status line wraps)."""
    draw = ImageDraw.Draw(img)
    width = img.width
    slot = badge_slot(width, len(badges))
    detail_font = font(TEXT_MIN)
    for i, badge in enumerate(badges):
        x0 = _PAD + i * (slot + _PAD)
        y0 = top + 10
        if badge.active or badge.winner:
            accent = YELLOW if badge.winner else SKY_BLUE
            draw.rounded_rectangle((x0, y0, x0 + slot, y0 + BADGE_HEIGHT), radius=12, fill=PANEL, outline=accent,
                                   width=3)
        sprite_y = y0 + (BADGE_HEIGHT - badge.sprite.height) // 2
        img.paste(badge.sprite, (x0 + 12, sprite_y), badge.sprite)
        text_x = x0 + 24 + badge.sprite.width
        room = badge_detail_room(width, len(badges), badge.sprite.width)
        tag = say("WINNER") if badge.winner else (say("TO MOVE") if badge.active else "")
        name, name_font, tag = badge_name(badge.name, badge.you, tag, room)
        row = (text_x - 4, y0 + 4, x0 + slot - 6, y0 + 46)
        draw_text(img, (text_x, y0 + 28), name, name_font, TEXT, "lm", room=row)
        if tag:
            draw_text(img, (x0 + slot - 12, y0 + 28), tag, font(TEXT_MIN, bold=True),
                      YELLOW if badge.winner else SKY_BLUE, "rm", room=row)
        detail = first_fitting((badge.detail, *badge.shorter), room, detail_font)
        draw_text(img, (text_x, y0 + 62), detail, detail_font, TEXT_DIM, "lm",
                  room=(text_x - 4, y0 + 46, x0 + slot - 6, y0 + BADGE_HEIGHT))
    line_y = top + 10 + BADGE_HEIGHT + 24
    room = width - 2 * _PAD - 8
    band = (_PAD, top + 10 + BADGE_HEIGHT, width - _PAD, top + CAPTION_HEIGHT)
    if status:
        size = fitting_size(status, room, (26, TEXT_MIN), bold=True)
        lines = status_lines(status, font(size, True), room)
        if len(lines) > 1:  # two lines, and the last move a little lower
            line_y -= 8
            for line in lines[:-1]:
                draw_text(img, (_PAD + 4, line_y), line, font(size, True), TEXT, "lm", room=band)
                line_y += 28
        draw_text(img, (_PAD + 4, line_y), lines[-1], font(size, True), TEXT, "lm", room=band)
    if history:
        history_font = font(TEXT_MIN)
        draw_text(img, (_PAD + 4, line_y + 34), fit_text(history, history_font, room), history_font, TEXT_DIM, "lm",
                  room=band)


def status_lines(status: str, fnt: ImageFont.FreeTypeFont, room: float) -> list[str]:
    """The status line, or two when it does not fit: split at its dash ("Alice wins —" / the reason) when both
    halves fit, else wrapped word by word."""
    if text_width(status, fnt) <= room:
        return [status]
    head, dash, reason = status.partition(" — ")
    if dash and text_width(head + " —", fnt) <= room and text_width(reason, fnt) <= room:
        return [head + " —", reason]
    return wrap_text(status, fnt, room)


NAME_SIZES = (28, 26, TEXT_MIN)


# The names Strategos gives the computer's seats ("Strategos (hard)", "Strategos (easy, Yellow)"): never shortened,
# as a player's display name may be; a line quoting one wraps instead.
COMPUTER_NAME = re.compile(r"Strategos \((easy|normal|hard)(, [^()]+)?\)")


def badge_player(name: str) -> str:
    """The name a badge shows: two computer seats are named with their side ("Strategos (normal, Vermilion)"), and
    a badge's detail line names the side (in the picture's language), so the badge shows the computer's name
    without it, whole, never cut."""
    computer = COMPUTER_NAME.fullmatch(name)
    return f"Strategos ({computer.group(1)})" if computer and computer.group(2) else name


def badge_name(name: str, you: bool, tag: str, room: float) -> tuple[str, ImageFont.FreeTypeFont, str]:
    """A badge's name line: the name (with "(you)") and its tag (TO MOVE, WINNER) at the largest size that fits;
    without the tag if they do not fit together (the badge's frame and the status line say it too); a player's
    name shortened only if it does not fit alone at the smallest size, "(you)" kept whole."""
    name = badge_player(name)
    whole = say("{player} (you)", player=name) if you else name
    tag_w = text_width(tag, font(TEXT_MIN, bold=True)) + 12 if tag else 0
    for size in NAME_SIZES:
        if text_width(whole, font(size, True)) + tag_w <= room:
            return whole, font(size, True), tag
    size = fitting_size(whole, room, NAME_SIZES, bold=True)
    fnt = font(size, True)
    if text_width(whole, fnt) <= room:
        return whole, fnt, ""
    suffix = say("{player} (you)", player="") if you else ""
    short = fit_text(name, fnt, room - text_width(suffix, fnt))
    return (say("{player} (you)", player=short) if you else short), fnt, ""


def badge_slot(width: int, count: int) -> int:
    """The width of each of `count` badges side by side in a caption `width` wide."""
    return (width - _PAD * (count + 1)) // count


def badge_detail_room(width: int, count: int, sprite_width: int) -> int:
    """How wide a badge's name and detail lines may be (draw_caption's layout)."""
    return badge_slot(width, count) - 36 - sprite_width


def first_fitting(variants: Sequence[str], room: float, fnt: ImageFont.FreeTypeFont) -> str:
    """The first (fullest) of the variants that fits the room; the last, shortest one if none does."""
    return next((text for text in variants if text_width(text, fnt) <= room), variants[-1])


def wrap_text(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """The text's words in lines no wider than width (a single word wider than that stays whole on its line)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", fnt) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def fitting_size(text: str, room: float, sizes: Sequence[int], bold: bool = False) -> int:
    """The largest of the sizes (largest first) at which the text fits the room; the smallest if none does."""
    for size in sizes:
        if text_width(text, font(size, bold)) <= room:
            return size
    return sizes[-1]


def short_name(name: str, limit: int = 18) -> str:
    """A name as a status or history line quotes it: a very long one shortened, so the line's own words fit (the
    computer's names are never shortened)."""
    if len(name) <= limit or COMPUTER_NAME.fullmatch(name):
        return name
    return name[: limit - 1].rstrip() + "…"


# --- pictures on a palette chosen once -------------------------------------------------------------------------
# Choosing a palette for each picture costs ~1.8 ms of a ~7 ms render. A renderer can instead choose one palette
# per board layer, from samples of everything it ever draws there (palette_reference, caption_samples), and map
# each picture to it (png.Palette): flat colours stay exact as long as the samples hold every one of them, which
# tests/test_render_fidelity.py checks against the RGB drawing.


def palette_reference(*parts: Image.Image) -> Image.Image:
    """The parts stacked into one RGB picture (each left-aligned), to choose a palette from."""
    width = max(p.width for p in parts)
    sheet = new_canvas(width, sum(p.height for p in parts))
    top = 0
    for part in parts:
        sheet.paste(part, (0, top))
        top += part.height
    return sheet


def caption_samples(width: int, sprites: Sequence[Image.Image], detail: str) -> Image.Image:
    """Caption bands with every kind of badge (to move, winner, neither) and both lines of text: the shades of
    text and panels that a palette for the caption must hold."""
    img = new_canvas(width, 2 * CAPTION_HEIGHT)
    for i, (active, winner) in enumerate(((True, False), (False, True))):
        badges = [Badge(sprite, "Sample Player", detail, active=active and seat == 0,
                        winner=winner and seat == len(sprites) - 1, you=True) for seat, sprite in enumerate(sprites)]
        draw_caption(img, i * CAPTION_HEIGHT, badges, "Sample Player wins — all pieces taken",
                     "Move 120 · Sample Player took 3")
    return img


def mark_for_sample(img: Image.Image, grid: Grid, names: Sequence[str], marks: Iterable[str],
                    last: tuple[RGB, float, RGB, int], taken: tuple[RGB, float]) -> None:
    """Every named square marked as a grid game's highlights mark some: "last" tinted and framed as a last move
    (tint colour, strength, frame colour, frame width), "taken" tinted and crossed as a capture (tint colour,
    strength; the crosses alternate between the sides). For palette samples."""
    marks = set(marks)
    if "last" in marks:
        tint_squares(img, grid, names, last[0], last[1])
        outline_squares(img, grid, names, last[2], last[3])
    if "taken" in marks:
        tint_squares(img, grid, names, taken[0], taken[1])
        cross_squares(img, grid, [(name, i % 2) for i, name in enumerate(names)])

