"""The Myriath picture, checked by properties of real engine views: size, the greyed-out rest of the board, every
tile's segments and triangles in its owner's colour where the view puts them, the last placement lit (also in
the move picker's preview), where it scored, the caption's half points and passes, determinism."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from picture_helpers import close, decode
import renderers
from bot.games.registry import get_game
from bot.games.myriath.game import position
from bot.engine.playout import final_state, random_plies
from bot.games.myriath import renderer as myr
from bot.workers import picture_words
from renderers.common import BACKGROUND, TEXT_MIN, YELLOW, badge_detail_room, first_fitting, font, in_language
from bot.games import registry

GAME = get_game("myriath")
COUNTS = (2, 3, 4)
SCREEN_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}  # y grows downwards


# --- positions from seeded random games ---------------------------------------------------------------------------


def start_view(n: int, viewer=None) -> dict:
    return GAME.view(GAME.new_state(n, 0, None), viewer)


def after_setup_view(n: int, viewer=None, seed: int = 1) -> dict:
    """Every octagon down, nothing else yet."""
    plies = list(random_plies(GAME, n, seed))
    return GAME.view(plies[n].state, viewer)


def mid_view(n: int, viewer=None, seed: int = 2) -> dict:
    """Right after the first placement that scored for more than one seat, past the middle of the game."""
    plies = list(random_plies(GAME, n, seed))
    for ply in plies[len(plies) // 2:]:
        state, events = GAME.apply(ply.state, ply.seat, ply.move)
        scores = [e for e in events if e["type"] == "score"]
        if scores and sum(1 for g in scores[0]["gains"] if g) > 1:
            return GAME.view(state, viewer)
    raise AssertionError("no such placement in that game")


def final_view(n: int, viewer=None, seed: int = 3) -> dict:
    return GAME.view(final_state(GAME, n, seed), viewer)


POSITIONS = {"start": start_view, "setup": after_setup_view, "mid": mid_view, "final": final_view}


def centre_of(box) -> tuple[int, int]:
    x0, y0, x1, y1 = box
    return (x0 + x1) // 2, (y0 + y1) // 2


def segment_fill_point(a: str, b: str) -> tuple[int, int]:
    """A point of plain tile colour in a segment: mid-width, a quarter of the way along (clear of the mark)."""
    x0, y0, x1, y1 = myr.segment_box(a, b)
    if y1 - y0 == myr.CHANNEL:
        return x0 + myr.SQUARE // 4, (y0 + y1) // 2
    return (x0 + x1) // 2, y0 + myr.SQUARE // 4


def triangle_point(at: str, side: str) -> tuple[int, int]:
    """A point well inside the triangle of `at` facing `side`, clear of its outlines."""
    cx, cy = myr.point_centre(at)
    dx, dy = SCREEN_STEP[side]
    reach = myr.CHANNEL * 0.3
    return round(cx + dx * reach), round(cy + dy * reach)


def colour(view: dict, seat: int):
    return myr.seat_colours(view)[seat]


# --- size and layout ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("name", list(POSITIONS))
def test_png_decodes_at_the_expected_size(name, n):
    img = Image.open(io.BytesIO(myr.render(POSITIONS[name](n))))
    assert img.format == "PNG"
    assert img.size == (myr.WIDTH, 2 * myr.MARGIN + myr.BOARD + myr.caption_height(n))
    assert 900 <= img.width <= 1100


def test_the_board_is_the_view_size():
    view = start_view(2)
    assert view["board"] == {"squares": myr.BOARD_SQUARES, "intersections": myr.INTERSECTIONS}


def test_three_and_four_players_get_two_rows_of_badges_and_two_players_one():
    assert [myr.caption_rows(n) for n in COUNTS] == [1, 2, 2]


# --- the playing area -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", COUNTS)
def test_squares_inside_the_area_are_printed_and_the_rest_greyed(n):
    view = start_view(n)
    img = decode(myr.render(view))
    first, last = view["area"]["first_square"], view["area"]["last_square"]
    for i in range(myr.BOARD_SQUARES):
        for j in range(myr.BOARD_SQUARES):
            inside = first <= i <= last and first <= j <= last
            expected = myr.SQUARE_COLOUR if inside else myr.OUT_SQUARE
            assert img.getpixel(centre_of(myr.square_box(i, j))) == expected, (i, j)


@pytest.mark.parametrize("n", COUNTS)
def test_usable_channels_are_light_and_unusable_ones_grey(n):
    view = start_view(n)
    img = decode(myr.render(view))
    first, last = myr.area_of(view)
    for f in range(myr.INTERSECTIONS - 1):
        for r in range(myr.INTERSECTIONS):
            a, b = f"{chr(97 + f)}{r + 1}", f"{chr(98 + f)}{r + 1}"
            usable = first <= f and f + 1 <= last and first <= r <= last
            expected = myr.CHANNEL_COLOUR if usable else myr.OUT_CHANNEL
            assert img.getpixel(centre_of(myr.segment_box(a, b))) == expected, (a, b)
    # the stubs from the outermost intersections to the board's edge never hold a tile, even with four players
    x0, _, x1, _ = myr.point_box(0, 0)
    assert img.getpixel(((x0 + x1) // 2, myr.MARGIN + 3)) == myr.OUT_CHANNEL


# --- tiles ------------------------------------------------------------------------------------------------------


def single_tile_view() -> dict:
    """One known tile, not the last placement (so no white band inside its outline)."""
    state = position(2, [(0, "O@e5"), (0, "c3NE:A.Wr"), (1, "O@g5")], to_move=0)
    return GAME.view(state, None)


def test_a_known_tile_fills_exactly_the_triangles_of_its_notation():
    """c3NE:A.Wr: c3 -> c4 -> d4, an arrow at c3 (the triangle facing north, pointing south out of the tile), a
    corner at c4 (east and south), and at d4 a whole edge on the right seen from the end looking east: the
    triangles facing west (its segment) and south."""
    view = single_tile_view()
    img = decode(myr.render(view))
    vermilion = colour(view, 0)
    occupied = {"c3": "N", "c4": "ES", "d4": "SW"}
    for at, sides in occupied.items():
        for side in "NESW":
            pixel = img.getpixel(triangle_point(at, side))
            if side in sides:
                assert pixel == vermilion, (at, side)
            else:
                assert pixel == myr.CHANNEL_COLOUR, (at, side)
    for a, b in (("c3", "c4"), ("c4", "d4")):
        assert img.getpixel(segment_fill_point(a, b)) == vermilion
    assert img.getpixel(segment_fill_point("d4", "e4")) == myr.CHANNEL_COLOUR


def test_an_arrowed_end_points_out_of_the_tile():
    """Along the arrow's axis the tile narrows to its tip at the intersection's centre: just short of the centre
    it is still the tile's colour (or its outline), just past it the channel shows."""
    view = single_tile_view()
    img = decode(myr.render(view))
    cx, cy = myr.point_centre("c3")
    assert img.getpixel((round(cx), round(cy - 8))) == colour(view, 0)
    assert img.getpixel((round(cx), round(cy + 4))) == myr.CHANNEL_COLOUR
    # either side of the tip, level with it: channel, not tile (a triangle, not a square end)
    assert img.getpixel((round(cx - 12), round(cy - 3))) == myr.CHANNEL_COLOUR
    assert img.getpixel((round(cx + 12), round(cy - 3))) == myr.CHANNEL_COLOUR


def test_an_octagon_rings_its_square_and_leaves_it_showing():
    view = after_setup_view(2)
    img = decode(myr.render(view))
    for tile in view["tiles"]:
        assert tile["kind"] == "O" and len(tile["segments"]) == 4
        for a, b in tile["segments"]:
            assert img.getpixel(segment_fill_point(a, b)) == colour(view, tile["owner"])
        f, r = myr.parse_point(tile["points"][0])
        inner = img.getpixel(centre_of(myr.square_box(f + 1, r + 1)))
        assert inner in (myr.SQUARE_COLOUR, myr.LIT_SQUARE)


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("name", ["mid", "final"])
def test_every_segment_and_triangle_has_its_owners_colour(name, n):
    view = POSITIONS[name](n)
    img = decode(myr.render(view))
    last = view["tiles"][-1]
    for tile in view["tiles"]:
        fill = colour(view, tile["owner"])
        for a, b in tile["segments"]:
            assert img.getpixel(segment_fill_point(a, b)) == fill, tile["move"]
        if tile is last:
            continue  # its white band reaches into the triangles' middles
        for at, side in tile["triangles"]:
            assert img.getpixel(triangle_point(at, side)) == fill, (tile["move"], at, side)


@pytest.mark.parametrize("n", COUNTS)
def test_each_segment_carries_its_seats_mark(n):
    view = mid_view(n)
    img = decode(myr.render(view))
    for tile in view["tiles"]:
        mark = myr.mark_colour(colour(view, tile["owner"]))
        for a, b in tile["segments"]:
            assert img.getpixel(centre_of(myr.segment_box(a, b))) == mark, tile["move"]


def test_seats_differ_by_shape_not_only_by_colour():
    fill = (128, 128, 128)
    segments = {myr.segment_sprite(fill, seat, True, False).tobytes() for seat in range(4)}
    swatches = {myr.swatch_sprite(fill, seat).tobytes() for seat in range(4)}
    assert len(segments) == 4 and len(swatches) == 4


def test_free_usable_intersections_stay_channel_coloured():
    view = single_tile_view()
    img = decode(myr.render(view))
    used = {at for tile in view["tiles"] for at, _ in tile["triangles"]}
    first, last = myr.area_of(view)
    for f in range(first, last + 1):
        for r in range(first, last + 1):
            name = f"{chr(97 + f)}{r + 1}"
            if name not in used:
                assert img.getpixel(triangle_point(name, "E")) == myr.CHANNEL_COLOUR, name


# --- the last placement -----------------------------------------------------------------------------------------


def lit(img: Image.Image, tile: dict) -> bool:
    return all(img.getpixel(centre_of(myr.square_box(*sq))) == myr.LIT_SQUARE for sq in myr.squares_beside(tile))


def band_point(a: str, b: str) -> tuple[int, int]:
    """Just inside a segment's wall: the white band of the last placement, else the tile's own colour."""
    x0, y0, x1, y1 = myr.segment_box(a, b)
    inset = myr.OUTLINE + myr.HIGHLIGHT // 2
    if y1 - y0 == myr.CHANNEL:
        return x0 + myr.SQUARE // 4, y0 + inset
    return x0 + inset, y0 + myr.SQUARE // 4


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("name", ["setup", "mid", "final"])
def test_the_last_placement_is_outlined_in_white_and_its_squares_lit(name, n):
    view = POSITIONS[name](n)
    img = decode(myr.render(view))
    last = view["tiles"][-1]
    assert lit(img, last)
    for a, b in last["segments"]:
        assert img.getpixel(band_point(a, b)) == myr.WHITE
    for tile in view["tiles"][:-1]:
        for a, b in tile["segments"]:
            assert img.getpixel(band_point(a, b)) == colour(view, tile["owner"]), tile["move"]
    others = {sq for tile in view["tiles"] for sq in myr.squares_beside(tile)} - myr.squares_beside(last)
    for sq in others:
        assert img.getpixel(centre_of(myr.square_box(*sq))) == myr.SQUARE_COLOUR


def test_nothing_is_lit_before_the_first_placement():
    view = start_view(3)
    board = decode(myr.render(view)).crop((0, 0, myr.WIDTH, 2 * myr.MARGIN + myr.BOARD))
    colours = {c for _, c in board.getcolors(1_000_000)}
    assert myr.LIT_SQUARE not in colours and myr.WHITE not in colours


def test_the_half_diagonals_where_the_last_placement_scored_get_a_disc_beside_them_not_on_them():
    view = mid_view(3)
    img = decode(myr.render(view))
    unmarked = decode(myr.render({**view, "contacts": []}))
    last = view["tiles"][-1]
    scoring = myr.scoring_contacts(view, last)
    assert scoring
    for contact in scoring:
        x, y = myr.score_disc_centre(contact["at"], contact["half_diagonal"])
        assert img.getpixel((round(x), round(y))) == myr.WHITE, contact
        x, y = myr.half_diagonal_midpoint(contact["at"], contact["half_diagonal"])  # the spot itself stays seen
        assert img.getpixel((round(x), round(y))) == unmarked.getpixel((round(x), round(y))), contact


def test_the_preview_of_a_placement_lights_the_previewed_tile():
    state = list(random_plies(GAME, 3, 4))[20].state
    seat = GAME.to_act(state)[0]
    move = GAME.legal_moves(state, seat)[0]
    view = GAME.preview(state, seat, move)
    assert view["tiles"][-1]["move"] == move
    img = decode(myr.render(view))
    assert lit(img, view["tiles"][-1])
    before = decode(myr.render(GAME.view(state, seat)))
    assert not lit(before, view["tiles"][-1])


# --- caption ----------------------------------------------------------------------------------------------------


def test_points_gained_agree_with_the_engines_score_events():
    checked = 0
    for ply in random_plies(GAME, 4, 5):
        state, events = GAME.apply(ply.state, ply.seat, ply.move)
        if ply.move == "pass":
            continue
        view = GAME.view(state, None)
        scored = next((e for e in events if e["type"] == "score"), None)
        gains = {s: round(g * 2) for s, g in enumerate(scored["gains"]) if g} if scored else {}
        assert myr.points_gained(view, view["tiles"][-1]) == gains, ply.move
        checked += bool(gains)
    assert checked > 10


def test_passed_seats_are_those_whose_latest_turn_was_a_pass():
    for ply in random_plies(GAME, 3, 6):
        state, _ = GAME.apply(ply.state, ply.seat, ply.move)
        view = GAME.view(state, None)
        passed = myr.passed_seats(view)
        if ply.move == "pass":
            assert ply.seat in passed
        else:
            assert ply.seat not in passed
    assert view["phase"] == "over" and passed == {0, 1, 2}


def _badge_detail(view: dict, seat: int, passed: set[int], name: str) -> str:
    """The detail a badge of this caption shows: the fullest wording that fits it."""
    room = badge_detail_room(myr.WIDTH, myr.badges_per_row(view["num_players"]), myr.BADGE_TILE)
    return first_fitting(myr._details(view, seat, passed, name), room, font(TEXT_MIN))


def test_badge_details_show_half_points_passes_and_tiles_left_and_always_the_colour():
    state = position(3, [(0, "O@e5"), (1, "O@g5"), (2, "O@e7")], to_move=1, scores=[3.5, 0.5, 1])
    view = GAME.view(state, None)
    view = {**view, "passes_in_a_row": 1}  # seat 0, the seat before the one to move, has just passed
    # the fullest wording that fits a badge at TEXT_MIN px: the colour's name first, then words, then the short form
    assert _badge_detail(view, 0, myr.passed_seats(view), "Ann") == "Vermilion · 3½ points · passed"
    assert _badge_detail(view, 1, myr.passed_seats(view), "Ben") == "Blue · ½ point · 18 tiles left"
    full = {**view, "scores_text": ["13½", "½", "1"]}
    assert _badge_detail(full, 0, myr.passed_seats(view), "Ann") == "Vermilion · 13½ points · passed"
    two = GAME.view(position(2, [], scores=[2, 0]), None)
    assert _badge_detail(two, 0, set(), "Vermilion") == "2 points · 19 tiles left"
    assert _badge_detail(two, 1, set(), "Bob") == "Blue · 0 points · 19 tiles left"
    german = in_language(picture_words("de"), _badge_detail, view, 0, myr.passed_seats(view), "Ann")
    assert german.startswith("Zinnober · ")  # the colour in every language
    # a point and half a point in the singular, in English as in French ("1½" is French's plural too)
    assert _badge_detail({**full, "scores_text": ["1", "½", "1"]}, 2, set(), "Cy").startswith("Yellow · 1 point ·")
    assert [myr.halves_count(score) for score in ("0", "½", "1", "1½", "13½")] == [0, 1, 1, 2, 14]
    french = in_language(picture_words("fr"), _badge_detail, full, 0, set(), "Ann")
    assert "13½ points" in french


def test_history_names_the_last_placement_and_what_it_scored():
    view = mid_view(3)
    names = ["Ann", "Ben", "Cat"]
    history = myr._history(view, names)
    assert history.startswith(f"Move {view['ply']} · last {view['last_move']} +")
    assert "(+" in history  # another seat scored too


def test_the_caption_is_drawn_and_marks_the_winner():
    view = final_view(4)
    assert view["outcome"]["winners"]
    img = decode(myr.render(view, player_names=["Ann", "Ben", "Cat", "Dan"]))
    top = 2 * myr.MARGIN + myr.BOARD
    band = img.crop((0, top, img.width, img.height))
    colours = band.getcolors(maxcolors=1_000_000)
    assert sum(count for count, c in colours if c != BACKGROUND) > 8000
    assert any(close(c, YELLOW, 10) for _, c in colours)
    for seat, fill in enumerate(myr.seat_colours(view)):
        assert any(c == fill for _, c in colours), f"seat {seat}'s swatch"


def test_player_names_and_the_viewer_change_only_the_caption():
    """Compared as drawn, before encoding: an encoder may choose its palette from the whole picture."""
    view = mid_view(2)
    a = myr.draw(view, ["Alice", "Bob"])
    b = myr.draw(view, ["Carol", "Dave"])
    c = myr.draw(mid_view(2, viewer=1), ["Alice", "Bob"])
    board = (0, 0, myr.WIDTH, 2 * myr.MARGIN + myr.BOARD)
    assert a.crop(board).tobytes() == b.crop(board).tobytes() == c.crop(board).tobytes()
    assert a.tobytes() != b.tobytes() and a.tobytes() != c.tobytes()


# --- entry points -----------------------------------------------------------------------------------------------


def test_same_view_gives_identical_bytes_even_after_the_caches_are_cleared():
    view = mid_view(4)
    first = myr.render(view)
    assert myr.render(view) == first
    for cached in (myr.board_layer, myr.intersection_image, myr.segment_sprite, myr.intersection_sprite,
                   myr.swatch_sprite, myr.score_disc_sprite, myr.board_palette, myr.indexed_layer,
                   myr._indexed_segment, myr._indexed_intersection):
        cached.cache_clear()
    for other in (start_view(4), final_view(4)):  # what was drawn before must not change the palette
        myr.render(other)
    assert myr.render(view) == first


def test_the_palette_picture_is_the_drawing_with_every_flat_colour_exact():
    """render() composes the picture in palette indices from parts mapped once; it must show what draw() draws."""
    for view in (start_view(3), mid_view(4), final_view(2)):
        drawn, composed = myr.draw(view), myr.compose(view)
        assert composed.mode == "P" and composed.size == drawn.size
        diff = ImageChops.difference(drawn, composed.convert("RGB")).convert("L")
        histogram = diff.histogram()
        assert sum(histogram[4:]) < drawn.width * drawn.height // 200, "only edge pixels differ, and by little"
        assert decode(myr.render(view)).tobytes() == composed.convert("RGB").tobytes()


def test_render_dispatches_on_the_views_game_and_the_rules_diagram_is_smaller():
    view = start_view(2)
    assert registry.can_render("myriath")
    assert registry.render(view) == myr.render(view)
    diagram = Image.open(io.BytesIO(registry.rules_diagram("myriath")))
    assert diagram.width == round(myr.WIDTH * renderers.RULES_DIAGRAM_SCALE)  # the example, caption and all
