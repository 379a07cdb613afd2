"""Every board picture's PNG looks the same as what was drawn, for every renderer present and every player count.

The PNG is a palette image (renderers/png.py, encode_png), so it is compared with the RGB drawing it came from:
flat areas (squares, highlights, piece bodies, panels, the insides of letters) keep their exact colours; antialiased
edges (piece rims, icons, caption text) stay within a few levels and keep their gradations, no banding; the file is
no larger than the RGB PNG it replaces."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from PIL import Image, ImageChops, ImageFilter

from picture_helpers import decode
from bot.games.registry import GAMES
from bot.engine.playout import random_plies
from renderers.common import BACKGROUND, CAPTION_HEIGHT
from renderers.png import PALETTE_SIZE, encode_png
from bot.games import registry

# Measured on today's renderers: flat areas at most 2 levels off (a few hundred pixels of small icons), edges at
# most 21, 99.9% of edge pixels within 9, 0.1-0.4 on average; each bound leaves room for new renderers' colours
# while a banded rim (off by half its contrast, ~100 levels) or a shifted square fails at once.
FLAT_TOLERANCE = 3  # a uniform 5x5 patch: its colour, give or take what cannot be seen
EDGE_TOLERANCE = 48  # the worst single edge pixel (a rare shade between two of four armies' colours)
EDGE_MEAN_TOLERANCE = 1.5  # over every pixel that differs from its neighbours
EDGE_P999_TOLERANCE = 12  # 999 edge pixels in 1,000 are this close


def cases() -> list[tuple[str, int]]:
    return [
        (key, players)
        for key in registry.GAMES
        if key in GAMES
        for players in range(GAMES[key].info.min_players, GAMES[key].info.max_players + 1)
    ]


def views(key: str, players: int) -> list[dict]:
    """The start, two middle positions and the last position of a seeded random game, seen by everyone and by
    each seat in turn, so every orientation and the usual highlights are covered."""
    game = GAMES[key]
    plies = list(random_plies(game, players, seed=5))
    final = game.apply(plies[-1].state, plies[-1].seat, plies[-1].move)[0]
    states = [plies[0].state, plies[len(plies) // 3].state, plies[2 * len(plies) // 3].state, final]
    viewers = [None, *range(players)]
    return [game.view(state, viewers[i % len(viewers)]) for i, state in enumerate(states)]


def rgb_png(img: Image.Image) -> bytes:
    """The picture as the renderers encoded it before palette PNGs: the size not to exceed."""
    buffer = io.BytesIO()
    img.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def any_band(img: Image.Image) -> Image.Image:
    """'L' image: 255 where any band of img is non-zero."""
    r, g, b = (band.point(lambda v: 255 if v else 0) for band in img.split())
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


def edge_mask(drawn: Image.Image) -> Image.Image:
    """255 on pixels whose 5x5 neighbourhood is not one colour: edges, text, icons. 0 on flat areas."""
    highest = max_5x5(drawn)
    lowest = ImageChops.invert(max_5x5(ImageChops.invert(drawn)))
    return any_band(ImageChops.difference(highest, lowest))


def max_5x5(img: Image.Image) -> Image.Image:
    """ImageFilter.MaxFilter(5), pixel for pixel, in a seventh of the time: a 5x5 maximum is a maximum over 5
    columns of a maximum over 5 rows. Pixels shifted in from outside are black, which never raises a maximum."""
    width, height = img.size

    def shifted(source: Image.Image, dx: int, dy: int) -> Image.Image:
        return source.crop((-dx, -dy, width - dx, height - dy))

    rows = img
    for dx in (-2, -1, 1, 2):
        rows = ImageChops.lighter(rows, shifted(img, dx, 0))
    result = rows
    for dy in (-2, -1, 1, 2):
        result = ImageChops.lighter(result, shifted(rows, 0, dy))
    return result


def error_histogram(diff: Image.Image, mask: Image.Image) -> list[int]:
    """Histogram of per-channel absolute errors over the masked pixels."""
    counts = [0] * 256
    for band in diff.split():
        for level, n in enumerate(band.histogram(mask=mask)):
            counts[level] += n
    return counts


def worst(histogram: list[int]) -> int:
    return max((level for level, n in enumerate(histogram) if n), default=0)


def quantile(histogram: list[int], q: float) -> int:
    total, seen = sum(histogram), 0
    for level, n in enumerate(histogram):
        seen += n
        if seen >= q * total:
            return level
    return 255


def mean(histogram: list[int]) -> float:
    total = sum(histogram)
    return sum(level * n for level, n in enumerate(histogram)) / total if total else 0.0


CASES = cases()


@dataclass
class Picture:
    drawn: Image.Image  # the RGB drawing
    png: bytes  # what render() returns
    decoded: Image.Image  # the PNG read back, as RGB
    edges: Image.Image  # edge_mask(drawn)


@pytest.fixture(scope="module", params=CASES, ids=[f"{key}-{players}p" for key, players in CASES])
def pictures(request) -> list[Picture]:
    key, players = request.param
    module = registry.renderer_of(key)
    result = []
    for view in views(key, players):
        drawn, png = module.draw(view), module.render(view)
        result.append(Picture(drawn, png, decode(png), edge_mask(drawn)))
    return result


def test_max_5x5_is_pillows_max_filter():
    img = Image.effect_noise((41, 23), 90).convert("RGB")
    img.paste((250, 10, 120), (3, 4, 9, 8))
    assert max_5x5(img).tobytes() == img.filter(ImageFilter.MaxFilter(5)).tobytes()


def test_every_renderer_with_an_engine_is_checked():
    assert {key for key, _ in CASES} == {key for key in registry.GAMES if key in GAMES}


def test_png_is_a_palette_image_of_the_drawings_size(pictures):
    for pic in pictures:
        img = decode(pic.png, None)
        assert img.format == "PNG" and img.mode == "P"
        assert img.size == pic.drawn.size


def test_flat_areas_keep_their_exact_colours(pictures):
    """Squares, tinted highlight squares, piece bodies, panels, the caption band: wherever the drawing is one colour
    over a 5x5 patch, the PNG has that colour."""
    for pic in pictures:
        errors = error_histogram(ImageChops.difference(pic.decoded, pic.drawn), ImageChops.invert(pic.edges))
        assert sum(errors) > pic.drawn.width * pic.drawn.height, "most of a board picture is flat"
        assert worst(errors) <= FLAT_TOLERANCE
        assert sum(errors[1:]) <= sum(errors) // 1000, "nearly every flat pixel is exact"


def test_edges_stay_close_and_keep_their_gradations(pictures):
    """Antialiased rims, icons and text: within a few levels, never snapped to one side of the edge (banding)."""
    for pic in pictures:
        errors = error_histogram(ImageChops.difference(pic.decoded, pic.drawn), pic.edges)
        assert worst(errors) <= EDGE_TOLERANCE
        assert quantile(errors, 0.999) <= EDGE_P999_TOLERANCE
        assert mean(errors) <= EDGE_MEAN_TOLERANCE
        # No banding: the edge pixels keep many distinct shades (120-240 today; four armies' flat colours leave
        # the fewest palette entries for shades), not a handful.
        black = Image.new("RGB", pic.drawn.size)
        drawn_shades = len(Image.composite(pic.drawn, black, pic.edges).getcolors(1 << 20))
        kept_shades = len(Image.composite(pic.decoded, black, pic.edges).getcolors(1 << 20))
        assert kept_shades >= min(drawn_shades, PALETTE_SIZE) * 2 // 5


def test_the_caption_text_reads_the_same(pictures):
    """The caption band on its own: names, counts and status in small antialiased type."""
    for pic in pictures:
        band = (0, pic.drawn.height - CAPTION_HEIGHT, pic.drawn.width, pic.drawn.height)
        drawn_band, decoded_band = pic.drawn.crop(band), pic.decoded.crop(band)
        ink = any_band(ImageChops.difference(drawn_band, Image.new("RGB", drawn_band.size, BACKGROUND)))
        errors = error_histogram(ImageChops.difference(decoded_band, drawn_band), ink)
        assert sum(errors) > 3 * 2000, "there is text in the caption"
        assert worst(errors) <= EDGE_TOLERANCE and mean(errors) <= EDGE_MEAN_TOLERANCE


def test_antialiased_piece_edges_keep_several_shades(pictures):
    """Across a piece's rim the drawing steps through intermediate shades; the PNG keeps at least half of them (up
    to 8) on every board row with many edges (a banded rim jumps straight from the square's colour to the rim's)."""
    for pic in pictures:
        edges, drawn, decoded = pic.edges.load(), pic.drawn.load(), pic.decoded.load()
        rows_checked = 0
        for y in range(0, pic.drawn.height - CAPTION_HEIGHT, 7):
            on_edge = [x for x in range(pic.drawn.width) if edges[x, y]]
            drawn_shades = {drawn[x, y] for x in on_edge}
            if len(on_edge) >= 40 and len(drawn_shades) >= 6:
                assert len({decoded[x, y] for x in on_edge}) >= min(len(drawn_shades) // 2, 8), y
                rows_checked += 1
        assert rows_checked >= 10


def test_png_is_no_larger_than_the_rgb_png(pictures):
    for pic in pictures:
        assert len(pic.png) <= len(rgb_png(pic.drawn))


def test_encode_png_is_exact_for_pictures_of_few_colours():
    img = Image.new("RGB", (40, 30), (1, 2, 3))
    img.paste((200, 100, 50), (5, 5, 9, 9))
    img.putpixel((20, 20), (2, 2, 3))  # in the same lookup cell as the background: must not merge with it
    assert decode(encode_png(img)).tobytes() == img.tobytes()


def test_encode_png_keeps_pictures_that_are_not_rgb_as_they_are():
    img = Image.new("RGBA", (20, 10), (10, 20, 30, 0))
    img.putpixel((3, 3), (200, 100, 50, 128))
    back = decode(encode_png(img), None)
    assert back.mode == "RGBA" and back.tobytes() == img.tobytes()


TILED = ("epaminondas", "archimedes", "myrmidons", "mycenae")  # games whose compose pastes square tiles mapped once


@pytest.mark.parametrize("key", TILED)
def test_a_picture_composed_from_tiles_is_its_drawing_mapped_pixel_for_pixel(key):
    """compose() pastes the layer and square tiles mapped once, and maps only the caption (and panels): the same
    pixels as mapping the whole drawing, last moves, captures and both sides' views included."""
    module, game = registry.renderer_of(key), GAMES[key]
    checked = 0
    for seed in range(3):
        for i, ply in enumerate(random_plies(game, 2, seed=seed)):
            if i % 4:
                continue
            view = game.view(ply.state, (None, 0, 1)[i % 3])
            composed = module.compose(view)
            assert composed.tobytes() == module.palette_of(view).map(module.draw(view)).tobytes(), (seed, i)
            checked += 1
    assert checked >= 15
