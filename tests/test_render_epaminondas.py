"""The Epaminondas picture, checked by properties of real engine views: size, colours at known points, highlights,
orientation, caption, determinism."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import renderers
from bot.games.registry import get_game
from bot.engine.playout import final_state, random_plies
from bot.games.epaminondas import renderer as epa
from renderers.common import BACKGROUND, DARK, LIGHT, SIDES, YELLOW, parse_square
from bot.games import registry

GAME = get_game("epaminondas")
WIDTH = 2 * epa.MARGIN + 14 * epa.SQUARE
HEIGHT = 2 * epa.MARGIN + 12 * epa.SQUARE + renderers.common.CAPTION_HEIGHT


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def close(a, b, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def start_view(viewer=None) -> dict:
    return GAME.view(GAME.new_state(2, 0, None), viewer)


def capture_view(viewer=None, seed: int = 1) -> dict:
    """The position right after the first capture of a seeded random game."""
    for ply in random_plies(GAME, 2, seed):
        if "x" in ply.move:
            return GAME.view(GAME.apply(ply.state, ply.seat, ply.move)[0], viewer)
    raise AssertionError("no capture in that game")


def final_view(viewer=None, seed: int = 3) -> dict:
    return GAME.view(final_state(GAME, 2, seed), viewer)


VIEWS = {
    "start": start_view,
    "mid": capture_view,
    "final": final_view,
}


def grid(view: dict):
    return epa.grid_for(14, 12, view["viewer"] == 1)


def corner(view: dict, name: str, inset: int = 3) -> tuple[int, int]:
    """A point inside the square but outside any stone: where tints show."""
    x0, y0, _, _ = grid(view).box_of(name)
    return x0 + inset, y0 + inset


def squares(view: dict):
    for r, row in enumerate(view["board"]):
        for f, owner in enumerate(row):
            yield f"{chr(97 + f)}{r + 1}", owner


@pytest.mark.parametrize("viewer", [None, 1])
@pytest.mark.parametrize("position", list(VIEWS))
def test_png_decodes_at_the_expected_size(position, viewer):
    img = Image.open(io.BytesIO(epa.render(VIEWS[position](viewer))))
    assert img.format == "PNG"
    assert img.size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_every_stone_centre_has_its_sides_colour_and_empty_squares_the_board_colour(viewer):
    view = capture_view(viewer)
    img = decode(epa.render(view))
    last = view["last"]
    marked = set(last["from"]) | set(last["to"]) | set(last["captured"])
    home_rows = tuple(view["home_rows"])
    for name, owner in squares(view):
        centre = grid(view).centre_of(name)
        if owner is not None:
            assert img.getpixel(centre) == SIDES[owner].fill, name
        elif name not in marked:
            assert img.getpixel(centre) == epa.square_colour(*parse_square(name), home_rows), name


def test_home_rows_are_tinted_toward_their_owners_stone_colour():
    view = start_view()
    img = decode(epa.render(view))
    for f in range(14):
        base = epa.DARK_SQUARE if f % 2 == 0 else epa.LIGHT_SQUARE  # ranks 1 and 12 start on a dark square at a
        light_home = img.getpixel(corner(view, f"{chr(97 + f)}1"))
        dark_home = img.getpixel(corner(view, f"{chr(97 + f)}12"))
        assert sum(light_home) > sum(base), "Light's home row is lighter"
        dark_base = epa.LIGHT_SQUARE if f % 2 == 0 else epa.DARK_SQUARE
        assert sum(dark_home) < sum(dark_base), "Dark's home row is darker"
    # and a middle row is not tinted
    assert img.getpixel(corner(view, "a5")) == epa.DARK_SQUARE


@pytest.mark.parametrize("viewer", [None, 1])
def test_last_move_squares_are_tinted_blue(viewer):
    view = capture_view(viewer)
    img = decode(epa.render(view))
    last = view["last"]
    for name in (set(last["from"]) | set(last["to"])) - set(last["captured"]):  # captured ones: next test
        r, g, b = img.getpixel(corner(view, name, inset=6))
        assert b > r, f"{name} is not highlighted"
    untouched = next(n for n, owner in squares(view) if owner is None and n not in last["from"] and n[1:] == "6")
    r, g, b = img.getpixel(corner(view, untouched, inset=6))
    assert b < r, "an untouched square keeps the wood colour"


@pytest.mark.parametrize("viewer", [None, 1])
def test_captured_squares_are_crossed_in_the_victims_colour(viewer):
    view = capture_view(viewer)
    img = decode(epa.render(view))
    victim = SIDES[1 - view["last"]["seat"]]
    assert view["last"]["captured"]
    for name in view["last"]["captured"]:
        x0, y0, _, _ = grid(view).box_of(name)
        on_the_cross = (x0 + round(epa.SQUARE * 0.17), y0 + round(epa.SQUARE * 0.17))
        assert close(img.getpixel(on_the_cross), victim.fill, 40), name


def test_a_position_without_a_last_move_has_no_highlight():
    view = start_view()
    img = decode(epa.render(view))
    assert img.getpixel(corner(view, "e6")) == epa.square_colour(4, 5, (1, 12))


def test_public_view_has_light_at_the_bottom_and_seat_one_sees_dark_at_the_bottom():
    public, private = decode(epa.render(start_view(None))), decode(epa.render(start_view(1)))
    square = epa.SQUARE
    bottom_row_y = epa.MARGIN + 11 * square + square // 2
    top_row_y = epa.MARGIN + square // 2
    for column in range(14):
        x = epa.MARGIN + column * square + square // 2
        assert public.getpixel((x, bottom_row_y)) == LIGHT.fill
        assert public.getpixel((x, top_row_y)) == DARK.fill
        assert private.getpixel((x, bottom_row_y)) == DARK.fill
        assert private.getpixel((x, top_row_y)) == LIGHT.fill


def test_seat_one_view_is_turned_half_round():
    flipped = epa.grid_for(14, 12, True)
    assert flipped.box_of("n12")[:2] == (epa.MARGIN, epa.MARGIN + 11 * epa.SQUARE)  # bottom-left
    assert flipped.box_of("a1")[:2] == (epa.MARGIN + 13 * epa.SQUARE, epa.MARGIN)  # top-right


def test_caption_is_drawn_and_marks_the_winner():
    view = final_view()
    assert view["outcome"] and view["outcome"]["winners"]
    img = decode(epa.render(view, player_names=["Alice", "Bob"]))
    band = img.crop((0, HEIGHT - renderers.common.CAPTION_HEIGHT, WIDTH, HEIGHT))
    colours = band.getcolors(maxcolors=1_000_000)
    drawn = sum(count for count, colour in colours if colour != BACKGROUND)
    assert drawn > 5000, "text and badges in the caption band"
    assert any(close(colour, YELLOW, 10) for _, colour in colours), "the winner's badge is outlined"


def test_player_names_change_only_the_caption():
    view = capture_view()
    # What is drawn, pixel for pixel: the PNG's palette is chosen per picture, so its edge shades may differ by a
    # level when the caption does (test_render_fidelity keeps every PNG within a few levels of its drawing).
    a = epa.draw(view, ["Alice", "Bob"])
    b = epa.draw(view, ["Carol", "Dave"])
    board = (0, 0, WIDTH, HEIGHT - renderers.common.CAPTION_HEIGHT)
    assert a.crop(board).tobytes() == b.crop(board).tobytes()
    assert a.tobytes() != b.tobytes()


def test_same_view_gives_identical_bytes_even_after_the_caches_are_cleared():
    view = capture_view(1)
    first = epa.render(view)
    assert epa.render(view) == first
    epa.board_layer.cache_clear()
    renderers.common.disc_sprite.cache_clear()
    assert epa.render(view) == first


def test_render_dispatches_on_the_views_game():
    view = start_view()
    assert registry.render(view) == epa.render(view)
    assert registry.can_render("epaminondas")
