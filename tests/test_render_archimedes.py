"""The Archimedes picture, checked by properties of real engine views: size, colours at known points (ships, sea,
ports), highlights, destroyed ships, reserves, orientation, caption, determinism."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.registry import get_game
from bot.engine.playout import final_state, random_plies
from bot.games.archimedes import renderer as arch
from renderers.common import BACKGROUND, CAPTION_HEIGHT, DARK, LIGHT, PANEL, SIDES, YELLOW, parse_square
from bot.games import registry

GAME = get_game("archimedes")
BOARD_SIDE = 2 * arch.MARGIN + 8 * arch.SQUARE
WIDTH = BOARD_SIDE + arch.PANEL_WIDTH
HEIGHT = BOARD_SIDE + CAPTION_HEIGHT


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def close(a, b, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def start_view(viewer=None) -> dict:
    return GAME.view(GAME.new_state(2, 0, None), viewer)


def first_view(seed: int, wanted, viewer=None) -> dict:
    """The first position of a seeded random game whose public view satisfies `wanted`."""
    for ply in random_plies(GAME, 2, seed):
        state = GAME.apply(ply.state, ply.seat, ply.move)[0]
        if wanted(GAME.view(state, None)):
            return GAME.view(state, viewer)
    raise AssertionError("no such position in that game")


def rebuild_view(viewer=None) -> dict:
    """Seat 0 rebuilds a1-a5 and destroys a ship; both sides have ships in reserve."""
    return first_view(5, lambda v: v["last"]["rebuild"] and v["last"]["destroyed"], viewer)


def final_view(viewer=None, seed: int = 3) -> dict:
    return GAME.view(final_state(GAME, 2, seed), viewer)


VIEWS = {"start": start_view, "mid": rebuild_view, "final": final_view}


def grid(view: dict):
    return arch.grid_for(8, 8, view["viewer"] == 1)


def corner(view: dict, name: str, inset: int = 4) -> tuple[int, int]:
    """A point inside the square but clear of ships and anchors: where tints show."""
    x0, y0, _, _ = grid(view).box_of(name)
    return x0 + inset, y0 + inset


def squares(view: dict):
    for r, row in enumerate(view["board"]):
        for f, owner in enumerate(row):
            yield f"{chr(97 + f)}{r + 1}", owner


@pytest.mark.parametrize("viewer", [None, 1])
@pytest.mark.parametrize("position", list(VIEWS))
def test_png_decodes_at_the_expected_size(position, viewer):
    img = Image.open(io.BytesIO(arch.render(VIEWS[position](viewer))))
    assert img.format == "PNG"
    assert img.size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_every_ship_centre_has_its_sides_colour_and_empty_sea_the_sea_colour(viewer):
    view = rebuild_view(viewer)
    img = decode(arch.render(view))
    last = view["last"]
    marked = {last["from"], last["to"], *(d["square"] for d in last["destroyed"]), *view["ports"]}
    for name, owner in squares(view):
        centre = grid(view).centre_of(name)
        if owner is not None:
            assert img.getpixel(centre) == SIDES[owner].fill, name
        elif name not in marked:
            assert img.getpixel(centre) == arch.sea_colour(*parse_square(name)), name


def test_empty_ports_show_an_anchor_in_the_owners_colour_on_a_tinted_square():
    view = start_view()
    img = decode(arch.render(view))
    for seat, port in enumerate(view["ports"]):
        f, r = parse_square(port)
        assert img.getpixel(corner(view, port)) == arch.port_colour(f, r, seat)
        x, y = grid(view).centre_of(port)
        shank = (x, y + round(arch.ANCHOR * 0.2))
        assert img.getpixel(shank) == SIDES[seat].fill, "the anchor's shank"
    assert arch.port_colour(0, 0, 0) != arch.sea_colour(0, 0)


def test_a_ship_in_a_port_hides_the_anchor_but_not_the_port_tint():
    view = start_view()
    view["board"][7][7] = 0  # a White ship sails into Black's port h8
    img = decode(arch.render(view))
    assert img.getpixel(grid(view).centre_of("h8")) == LIGHT.fill
    assert img.getpixel(corner(view, "h8")) == arch.port_colour(7, 7, 1)


@pytest.mark.parametrize("viewer", [None, 1])
def test_last_move_squares_are_tinted_yellow_rebuild_port_included(viewer):
    view = rebuild_view(viewer)
    assert view["last"]["from"] == "a1"
    img = decode(arch.render(view))
    for name in (view["last"]["from"], view["last"]["to"]):
        r, g, b = img.getpixel(corner(view, name, inset=8))
        assert r > b + 60, f"{name} is not highlighted"
    untouched = next(n for n, owner in squares(view) if owner is None and n not in view["last"].values())
    r, g, b = img.getpixel(corner(view, untouched, inset=8))
    assert b > r, "an untouched square keeps the sea colour"


@pytest.mark.parametrize("viewer", [None, 1])
def test_destroyed_ships_squares_are_crossed_in_the_victims_colour(viewer):
    view = rebuild_view(viewer)
    destroyed = view["last"]["destroyed"]
    assert destroyed
    img = decode(arch.render(view))
    for d in destroyed:
        x0, y0, _, _ = grid(view).box_of(d["square"])
        on_the_cross = (x0 + round(arch.SQUARE * 0.17), y0 + round(arch.SQUARE * 0.17))
        assert close(img.getpixel(on_the_cross), SIDES[d["seat"]].fill, 40), d
        top_middle = (x0 + arch.SQUARE // 2, y0 + 4)  # clear of the X's arms
        r, g, b = img.getpixel(top_middle)
        assert r > b, "the square is tinted vermillion too"


@pytest.mark.parametrize("viewer", [None, 1])
def test_each_reserve_shows_one_small_ship_per_destroyed_ship_beside_its_own_side(viewer):
    view = rebuild_view(viewer)
    img = decode(arch.render(view))
    g = grid(view)
    upper, lower = arch._reserve_boxes(g)
    bottom_seat = 1 if viewer == 1 else 0
    step, size = arch.RESERVE_SHIP + 6, arch.RESERVE_SHIP
    for seat, box in ((1 - bottom_seat, upper), (bottom_seat, lower)):
        x0, y0 = box[0], box[1]
        count = view["reserve"][seat]
        assert 0 < count < 12
        for i in range(count + 1):
            centre = (x0 + 12 + (i % 3) * step + size // 2, y0 + 44 + (i // 3) * step + size // 2)
            expected = SIDES[seat].fill if i < count else PANEL
            assert img.getpixel(centre) == expected, (seat, i)


def test_public_view_has_white_at_the_bottom_and_seat_one_sees_black_at_the_bottom():
    public, private = decode(arch.render(start_view(None))), decode(arch.render(start_view(1)))
    square, m = arch.SQUARE, arch.MARGIN

    def centre(column: int, row: int) -> tuple[int, int]:
        return m + column * square + square // 2, m + row * square + square // 2

    # bottom row, columns b, c, d from the left: White's b1 c1 d1; seat 1 sees g8 f8 e8 there
    for column in (1, 2, 3):
        assert public.getpixel(centre(column, 7)) == LIGHT.fill
        assert private.getpixel(centre(column, 7)) == DARK.fill
        assert private.getpixel(centre(7 - column, 0)) == LIGHT.fill
    # a rotation by 180 degrees: seat 1's own port h8 comes to the bottom-left corner, like a1 for seat 0
    assert grid({"viewer": 1}).box_of("h8")[:2] == (m, m + 7 * square)
    assert grid({"viewer": 1}).box_of("a1")[:2] == (m + 7 * square, m)


def test_caption_is_drawn_and_marks_the_winner():
    view = final_view()
    assert view["outcome"] and view["outcome"]["winners"]
    img = decode(arch.render(view, player_names=["Alice", "Bob"]))
    band = img.crop((0, HEIGHT - CAPTION_HEIGHT, WIDTH, HEIGHT))
    colours = band.getcolors(maxcolors=1_000_000)
    drawn = sum(count for count, colour in colours if colour != BACKGROUND)
    assert drawn > 5000, "text and badges in the caption band"
    assert any(close(colour, YELLOW, 10) for _, colour in colours), "the winner's badge is outlined"


def test_player_names_change_only_the_caption():
    view = rebuild_view()
    # What is drawn, pixel for pixel: the PNG's palette is chosen per picture, so its edge shades may differ by a
    # level when the caption does (test_render_fidelity keeps every PNG within a few levels of its drawing).
    a = arch.draw(view, ["Alice", "Bob"])
    b = arch.draw(view, ["Carol", "A very long display name that must be shortened"])
    board = (0, 0, WIDTH, HEIGHT - CAPTION_HEIGHT)
    assert a.crop(board).tobytes() == b.crop(board).tobytes()
    assert a.tobytes() != b.tobytes()


def test_same_view_gives_identical_bytes_even_after_the_caches_are_cleared():
    view = rebuild_view(1)
    first = arch.render(view)
    assert arch.render(view) == first
    arch.board_layer.cache_clear()
    arch.ship_sprite.cache_clear()
    assert arch.render(view) == first


def test_render_dispatches_on_the_views_game():
    view = start_view()
    assert registry.render(view) == arch.render(view)
    assert registry.can_render("archimedes")
