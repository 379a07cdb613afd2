"""Pictures as PNG bytes: every renderer's output goes through encode_png.

Measured on a ~1000x1000 board (python -m benchmarks.renders): an RGB PNG spends ~14 ms in Pillow's encoder, mostly
on PNG's per-row filter choice, which no zlib level or strategy avoids. A board picture fits a 256-colour palette
easily (~1,000 distinct colours, 99% of the pixels in fewer than 120 of them: squares, panels, piece bodies; the
rest are antialiased edges, where a shade a few levels off cannot be seen), and a palette PNG has one byte a pixel
and needs no filtering. Its deflate is then the largest cost left: zlib-ng's level 2 does it in ~1.2 ms where zlib's
level 1 takes ~3 ms, and its files are ~15% smaller. Pillow links the system zlib, so the palette PNG is written
here: five chunks (IHDR, PLTE, IDAT, IEND and the signature), nothing else.
"""

from __future__ import annotations

import functools
import io
import struct
import threading
import zlib
from collections.abc import Callable, Sequence
from typing import TypeVar

from PIL import Image
from zlib_ng import zlib_ng

RGB = tuple[int, int, int]
T = TypeVar("T")

DEFLATE_LEVEL = 2  # zlib-ng: level 1 is ~30% faster but its files are ~50% larger; level 3 is slower and no smaller
PNG_COMPRESS_LEVEL = 1  # for pictures that are not RGB, saved by Pillow as they are

PALETTE_SIZE = 256
_SAMPLE_STEP = 3  # every 3rd pixel both ways for the edge shades: ~1 ms; every 4th misses shades (errors up to 24)
_FLAT_STEP = 8  # a sparse grid for the flat colours, which must stay exact
_FLAT_MIN_HITS = 8  # a colour at 8 grid points covers >= ~500 pixels: a square, a panel, a piece body, a rim


def palette_colours(img: Image.Image, dense: Image.Image | None = None) -> list[RGB]:
    """Colours for a 256-colour palette of an RGB picture, chosen from the picture itself, most important first:
    its flat colours exactly, then shades for its antialiased edges.

    Per picture rather than one fixed palette, so every renderer (its own board colours, any number of seats) gets
    a faithful palette without declaring anything; and deterministic, the same picture gets the same palette.
    - Flat colours (squares, panels, piece bodies) from a sparse grid: they keep their exact RGB.
    - Edge shades from a fast octree over a denser subsample: they cover rims and text evenly, so edges keep their
      gradations instead of banding. The octree yields only ~100 distinct shades, so the rest of the palette is
      filled with the sparse grid's rarer colours (real edge shades, most frequent first): that halves the edge
      pixels more than 8 levels off, at no cost.
    ~1-1.3 ms on a ~980x980 board (an octree over the whole picture would take ~10 ms). `dense`: the picture's
    _subsample at _SAMPLE_STEP, when the caller has it already."""
    sparse = _subsample(img, _FLAT_STEP)
    # ignore: getcolors gives None only past its maximum, here the pixel count; an "RGB" picture's colours are RGB
    colours: list[tuple[int, RGB]] = sparse.getcolors(sparse.width * sparse.height)  # type: ignore[assignment]
    counted = sorted(colours, reverse=True)
    flat = [c for n, c in counted if n >= _FLAT_MIN_HITS][: PALETTE_SIZE // 4]  # room for edges, always
    dense = dense or _subsample(img, _SAMPLE_STEP)
    octree = dense.quantize(PALETTE_SIZE - len(flat), method=Image.Quantize.FASTOCTREE)
    values = octree.getpalette() or []
    shades = [(values[i], values[i + 1], values[i + 2]) for i in range(0, len(values) - 2, 3)]
    rare = [c for n, c in counted if n < _FLAT_MIN_HITS]
    return flat + shades + rare


def _subsample(img: Image.Image, step: int) -> Image.Image:
    """Every step-th pixel both ways: real pixel colours, none averaged."""
    return img.resize((max(1, img.width // step), max(1, img.height // step)), Image.Resampling.NEAREST)


def _lookup_cell(colour: RGB) -> RGB:
    """The lowest corner of the 4x4x4 cell Pillow's palette lookup files this colour under (see to_palette)."""
    return tuple(v & ~3 for v in colour)  # type: ignore[return-value]  # three in, three out


class Palette:
    """256 colours to map RGB pictures to, kept for reuse: a renderer that composes its picture from parts mapped
    once (its board layer, its sprites) pays for the mapping once per part instead of once per picture."""

    def __init__(self, colours: Sequence[RGB], size: int = PALETTE_SIZE):
        # Pillow maps a pixel through a cache of 4x4x4-value cells, to the palette entry nearest the cell's lowest
        # corner, not nearest the pixel: a flat colour can lose its own pixels to a shade a level or two away. So
        # the mapping is done against each entry's cell corner (one entry a cell, earlier entries first: flat
        # colours win), and the true colours are put back afterwards. A pixel of a palette colour then maps to
        # exactly that colour.
        kept: dict[RGB, RGB] = {}
        for colour in colours:
            kept.setdefault(_lookup_cell(colour), colour)
        corners = list(kept)[:size]  # `size`: at most this many entries (a GIF keeps one free for transparency)
        self.colours: tuple[RGB, ...] = tuple(kept.values())[:size]
        self._lookup = Image.new("P", (1, 1))
        self._lookup.putpalette([v for c in corners for v in c])
        self._values = [v for c in self.colours for v in c]

    def map(self, img: Image.Image) -> Image.Image:
        """The RGB picture as a "P" image of this palette."""
        # No dithering: it would speckle the flat areas; the nearest colour is what keeps them flat.
        mapped = img.quantize(palette=self._lookup, dither=Image.Dither.NONE)
        mapped.putpalette(self._values)
        return mapped

    def index(self, colour: RGB) -> int:
        """The entry of a colour that is in the palette exactly (to draw with it on a mapped picture)."""
        return self.colours.index(colour)


def to_palette(img: Image.Image) -> Image.Image:
    """An RGB picture as a "P" image: exact if it has at most 256 colours, else mapped to palette_colours(img) with
    every flat colour exact."""
    dense = _subsample(img, _SAMPLE_STEP)
    # getcolors gives up at the 257th colour; asked of the subsample first, which answers for nearly every board
    # picture (they have ~1,000 colours) in a ninth of the time the whole picture takes.
    if dense.getcolors(PALETTE_SIZE) is not None and img.getcolors(PALETTE_SIZE) is not None:
        return img.quantize(PALETTE_SIZE, method=Image.Quantize.MEDIANCUT)  # with <= 256 colours: exact
    return Palette(palette_colours(img, dense)).map(img)


def encode_png(img: Image.Image) -> bytes:
    """The PNG bytes of a picture. An RGB picture (every board picture) becomes a palette PNG, as does a palette
    picture; any other mode is saved by Pillow as it is, so nothing (transparency, say) is lost silently."""
    if img.mode == "RGB":
        return palette_png(to_palette(img))
    if img.mode == "P" and "transparency" not in img.info:  # a picture composed in a palette already
        return palette_png(img)
    buffer = io.BytesIO()
    img.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def palette_png(img: Image.Image) -> bytes:
    """A "P" image as an 8-bit palette PNG: every row filtered with filter 0 (none), deflated by zlib-ng."""
    width, height = img.size
    # Each PNG row starts with its filter byte: a column of index 0 pasted in front of the picture gives exactly
    # those rows from one tobytes(), without a Python loop over rows.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(img, (1, 0))
    palette = img.getpalette() or [0, 0, 0]
    entries = min(len(palette) // 3, 256)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices, colour type 3 (palette)
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", bytes(palette[: entries * 3])),
        _chunk(b"IDAT", zlib_ng.compress(rows.tobytes(), DEFLATE_LEVEL)),
        _chunk(b"IEND", b""),
    ))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def built_once(maxsize: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """An lru_cache that builds each key once even when several render workers ask for it at the same moment.

    A board's palette takes 50-400 ms to build. After a restart both workers meet the same boards at once, and a
    plain lru_cache lets each of them build every palette (twice the work, and the first boards come late): here
    the second caller waits for the first one's build instead. Keys are spread over a few locks, so builds of
    different keys still run side by side (rarely two share a lock, and then build one after the other). The
    wrapper keeps lru_cache's cache_info and cache_clear.
    """

    def decorate(build: Callable[..., T]) -> Callable[..., T]:
        cached = functools.lru_cache(maxsize=maxsize)(build)
        locks = [threading.RLock() for _ in range(_BUILD_LOCKS)]

        @functools.wraps(build)
        def once(*args: object) -> T:
            with locks[hash(args) % _BUILD_LOCKS]:
                return cached(*args)

        # ignore: a plain function has no such attributes until given them, as lru_cache's wrapper has
        once.cache_info = cached.cache_info  # type: ignore[attr-defined]
        once.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return once

    return decorate


_BUILD_LOCKS = 16


# --- the tail every board renderer shares ------------------------------------------------------------------------
# A renderer draws its picture in RGB (draw) and composes the same picture as a "P" image of the palette chosen
# once for the view's layer (compose): the layer and the square tiles are mapped once and pasted, and only what is
# new in every picture (the caption's words, a tray) is drawn and mapped. The same view always gives the same
# bytes, and no position reaches a public picture through its palette. render() is then the same for every game.

Draw = Callable[[dict, "Sequence[str] | None"], Image.Image]
Compose = Callable[[dict, "Sequence[str] | None"], Image.Image]


def layer_compose(draw: Draw, palette_of: Callable[[dict], Palette]) -> Compose:
    """The plain compose(view, player_names=None) for a new renderer: draw()'s whole picture mapped to its
    layer's palette (~1.5-3 ms more per picture than composing from tiles mapped once, as the five games do)."""

    def compose(view: dict, player_names: Sequence[str] | None = None) -> Image.Image:
        return palette_of(view).map(draw(view, player_names))

    return compose


def paint_mapped(img: Image.Image, layer: Image.Image, box: tuple[int, int, int, int], palette: Palette,
                 paint: Callable[[Image.Image], None]) -> None:
    """Draw `paint(part)` in RGB on a copy of the RGB `layer`'s `box`, and paste it, mapped, into `img`: the
    palette image composed on that layer. For the parts of a composed picture that are new every time (a caption:
    its words), so that only they are mapped, not the whole picture."""
    part = layer.crop(box)
    paint(part)
    img.paste(palette.map(part), box[:2])


def palette_render(compose: Compose) -> Callable[..., bytes]:
    """A renderer's render(view, *, player_names=None): its composed picture as PNG bytes. player_names: display
    names per seat (default: the view's seat names)."""

    def render(view: dict, *, player_names: Sequence[str] | None = None) -> bytes:
        return palette_png(compose(view, player_names))

    return render
