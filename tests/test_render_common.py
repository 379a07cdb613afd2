"""Shared drawing (renderers/common.py) and the package entry points (renderers/__init__.py)."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from picture_helpers import decode
import renderers
from bot.games.registry import GAMES
from renderers import common
from renderers.common import DARK, LIGHT, Grid
from renderers.png import encode_png, to_palette
from bot.games import registry


# --- fonts and text -----------------------------------------------------------------------------------------------


def test_fonts_come_from_the_package_and_are_cached():
    fnt = common.font(20, bold=True)
    assert Path(fnt.path).parent == Path(renderers.__file__).parent / "fonts"
    assert Path(fnt.path).name == "DejaVuSans-Bold.ttf"
    assert common.font(20, bold=True) is fnt
    assert Path(common.font(20).path).name == "DejaVuSans.ttf"


def test_fit_text_keeps_short_text_and_shortens_long_text_with_an_ellipsis():
    fnt = common.font(20)
    assert common.fit_text("Alice", fnt, 200) == "Alice"
    short = common.fit_text("A display name far too long for its slot", fnt, 120)
    assert short.endswith("…") and fnt.getlength(short) <= 120


@pytest.mark.parametrize("anchor", ["la", "lm", "rm", "mm"])
def test_draw_text_stamps_exactly_what_imagedraw_draws_and_caches_the_glyphs(anchor):
    fnt = common.font(22, bold=True)
    expected = Image.new("RGB", (300, 60), common.PANEL)
    ImageDraw.Draw(expected).text((150, 30), "Alice wins — Ægir", font=fnt, fill=common.YELLOW, anchor=anchor)
    got = Image.new("RGB", (300, 60), common.PANEL)
    common.draw_text(got, (150, 30), "Alice wins — Ægir", fnt, common.YELLOW, anchor)
    assert got.tobytes() == expected.tobytes()
    stamp = common._text_stamp("Alice wins — Ægir", fnt, anchor)
    assert common._text_stamp("Alice wins — Ægir", fnt, anchor) is stamp


def test_plural():
    assert common.plural(1, "ship") == "1 ship"
    assert common.plural(0, "ship") == "0 ships"
    assert common.plural(12, "piece") == "12 pieces"


# --- geometry -----------------------------------------------------------------------------------------------------


def test_parse_square_handles_two_digit_ranks():
    assert common.parse_square("a1") == (0, 0)
    assert common.parse_square("n12") == (13, 11)


def test_grid_puts_a1_bottom_left_and_turns_half_round_when_flipped():
    grid = Grid(8, 8, 10, left=5, top=7)
    assert grid.box_of("a1") == (5, 77, 15, 87)
    assert grid.box_of("h8") == (75, 7, 85, 17)
    assert grid.centre_of("a1") == (10, 82)
    flipped = Grid(8, 8, 10, left=5, top=7, flipped=True)
    assert flipped.box_of("a1") == grid.box_of("h8")
    assert flipped.box_of("h8") == grid.box_of("a1")
    assert flipped.box_of("a8") == grid.box_of("h1")
    assert (grid.width, grid.height, grid.right, grid.bottom) == (80, 80, 85, 87)


def test_is_flipped_only_for_seat_ones_private_view():
    assert not common.is_flipped({"viewer": None})
    assert not common.is_flipped({"viewer": 0})
    assert common.is_flipped({"viewer": 1})


# --- sprites ------------------------------------------------------------------------------------------------------


def test_disc_sprites_differ_by_lightness_and_by_mark():
    light, dark = common.disc_sprite(52, 0), common.disc_sprite(52, 1)
    assert light.size == dark.size == (52, 52)
    assert light.getpixel((26, 26)) == (*LIGHT.fill, 255)
    assert dark.getpixel((26, 26)) == (*DARK.fill, 255)
    assert light.getpixel((0, 0))[3] == 0 and dark.getpixel((0, 0))[3] == 0, "transparent corners"
    ring = (26 + round(52 * 0.27) - 1, 26)  # seat 1's inner ring, in the mark colour
    assert sum(dark.getpixel(ring)[:3]) > sum(DARK.fill) + 200
    assert light.getpixel(ring)[:3] == LIGHT.fill, "seat 0 has no ring"


def test_sprites_are_antialiased_and_cached():
    sprite = common.disc_sprite(52, 0)
    alpha_histogram = sprite.getchannel("A").histogram()
    assert sum(alpha_histogram[1:255]) > 0, "soft edge"
    assert common.disc_sprite(52, 0) is sprite


def test_light_stones_have_no_dark_fringe_inside_their_rim():
    # premultiplied reduction: the body right inside the rim stays ivory, not greyed by the transparent border
    sprite = common.disc_sprite(52, 0)
    row = [sprite.getpixel((x, 26)) for x in range(52)]
    body = [p for p in row if p[3] == 255 and sum(p[:3]) > 600]
    assert body and all(p[:3] == LIGHT.fill for p in body[2:-2])


def test_cross_sprite_is_drawn_in_the_victims_colour():
    for seat, side in enumerate(common.SIDES):
        cross = common.cross_sprite(64, seat)
        assert cross.getpixel((32, 32))[:3] == side.fill
        assert cross.getpixel((32, 2))[3] == 0, "clear between the arms"


# --- caption text -------------------------------------------------------------------------------------------------


def test_status_line_says_who_moves_or_who_won():
    names = ["Alice", "Bob"]
    assert common.status_line({"to_act": [1], "outcome": None}, names) == "Bob to move"
    won = {"to_act": [], "outcome": {"winners": [0], "reason": "crossing"}}
    assert common.status_line(won, names) == "Alice wins — crossing"
    drawn = {"to_act": [], "outcome": {"winners": [], "reason": "agreed"}}
    assert common.status_line(drawn, names) == "Draw — agreed"


def test_player_names_default_to_the_views_seat_names():
    view = {"num_players": 2, "seat_names": ["Light", "Dark"]}
    assert common.player_names_for(view, None) == ["Light", "Dark"]
    assert common.player_names_for(view, ["Alice", "Bob"]) == ["Alice", "Bob"]
    assert common.player_names_for({"num_players": 2, "seat_names": []}, None) == ["Seat 1", "Seat 2"]


# --- output and package -------------------------------------------------------------------------------------------


def test_encode_png_round_trips_the_pixels():
    img = Image.new("RGB", (30, 20), (1, 2, 3))
    img.putpixel((5, 5), (200, 100, 50))
    back = decode(encode_png(img))
    assert back.tobytes() == img.tobytes()


def test_a_board_png_is_a_valid_palette_png_of_exactly_the_mapped_pixels():
    img = Image.new("RGB", (301, 97), (36, 39, 45))
    draw = ImageDraw.Draw(img)
    for i in range(40):  # far more than 256 colours: the palette path, not the exact one
        draw.ellipse((i * 7, i % 9, i * 7 + 30, 60 + i % 30), fill=(i * 6, 255 - i * 5, (i * 37) % 256))
        draw.text((i * 7, 70), "Ab", fill=(255, 255 - i, i * 3))
    png = encode_png(img)
    chunks, at = [], 8
    while at < len(png):  # length, kind, data, CRC: every chunk's CRC must be right
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + data)
        chunks.append(kind)
        at += 12 + length
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and chunks == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    back = decode(png, None)
    assert back.mode == "P" and back.size == img.size
    assert back.convert("RGB").tobytes() == to_palette(img).convert("RGB").tobytes()


def test_registry_and_dispatch():
    assert {"epaminondas", "archimedes", "myrmidons"} <= set(registry.GAMES)
    assert registry.can_render("archimedes") and not registry.can_render("chess")
    with pytest.raises(KeyError, match="no renderer"):
        registry.render({"game": "chess"})


@pytest.mark.parametrize("key", ["epaminondas", "archimedes"])
def test_rules_diagram_is_a_smaller_picture_of_the_start_position(key):
    from bot.games.registry import get_game

    game = get_game(key)
    full = decode(registry.render(game.view(game.new_state(2, 0, None), None)), None)
    diagram = decode(registry.rules_diagram(key), None)
    assert diagram.format == "PNG"
    assert diagram.width < full.width and diagram.height < full.height
    assert registry.rules_diagram(key) == registry.rules_diagram(key)


def test_importing_renderers_pulls_in_no_discord_storage_or_asyncio():
    code = (
        "import sys, renderers; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'discord', 'asyncio', 'aiosqlite', 'bot'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(renderers.__file__).parent.parent)
    assert out.stdout.strip() == "[]"


def test_render_bench_measures_every_column_at_a_tiny_size():
    from benchmarks import renders as bench

    result = bench.bench_game("archimedes", 2, games=1, every=50, samples=3, cold_runs=1)
    assert result.renders >= 3 and result.views >= 2
    assert 0 < result.draw < result.median <= result.p99
    assert result.cold > 0 and result.flat > 0 and result.kib > 0
    assert bench.row(result).startswith("| archimedes | 2 | ")


def test_layer_compose_maps_the_whole_drawing_to_the_layers_palette():
    """The plain compose a new renderer starts from: the five games compose from tiles, and must equal it."""
    from bot.games.epaminondas import renderer as epa
    from renderers.png import layer_compose

    game = GAMES["epaminondas"]
    state = game.new_state(2, seed=1)
    state = game.apply(state, 0, game.legal_moves(state, 0)[0])[0]
    view = game.view(state, 1)
    plain = layer_compose(epa.draw, epa.palette_of)
    assert plain(view).tobytes() == epa.compose(view).tobytes()
