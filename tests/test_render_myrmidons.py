"""The Myrmidons picture, checked by properties of real engine views: size, colours at known points, value tiles
only where the view knows the values, highlights of moves, fights and repelled pieces, the tray, orientation,
setup, determinism — and leaks: games that differ only in hidden values draw byte-identical pictures for everyone
who may not see them."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from picture_helpers import close, decode
from bot.games import IllegalMoveError
from bot.games.registry import get_game
from bot.games.myrmidons import parse_move
from bot.engine.playout import final_state, random_plies
from bot.presenters.describe import alt_text, text_board
from bot.games.myrmidons import renderer as myr
from renderers.common import BACKGROUND, CAPTION_HEIGHT, DARK, LIGHT, SIDES, VERMILLION, YELLOW
from bot.games import registry

GAME = get_game("myrmidons")
WIDTH = 2 * myr.MARGIN + 6 * myr.SQUARE + myr.TRAY_WIDTH
HEIGHT = 2 * myr.MARGIN + 7 * myr.SQUARE + CAPTION_HEIGHT
VIEWERS = [None, 0, 1]


def drawn(view: dict, player_names=None) -> Image.Image:
    """The picture before PNG encoding: for checks of exactly what is drawn, pixel for pixel. (The PNG is a palette
    image whose edge shades may sit a few levels off; test_render_fidelity checks it against this drawing.)"""
    return myr.draw(view, player_names)


# --- positions from seeded random games ---------------------------------------------------------------------------


def after(seed: int, wanted, options=None):
    """The state right after the first move of a seeded random game whose result satisfies `wanted(state)`."""
    for ply in random_plies(GAME, 2, seed, options):
        state = GAME.apply(ply.state, ply.seat, ply.move)[0]
        if wanted(state):
            return state
    raise AssertionError("no such position in that game")


def start_state():
    return GAME.new_state(2, 0, None)


def half_deployed_state():
    """South has deployed, North not yet."""
    state = start_state()
    return GAME.apply(state, 0, GAME.legal_moves(state, 0)[5])[0]


def first_play_state():
    return after(0, lambda s: not s.in_setup())


def fight_state():
    """Right after a single move that fought."""
    return after(1, lambda s: s.report and s.report["kind"] == "move" and s.report["fights"])


def order_state():
    """Right after an order in which a participant was repelled."""
    return after(2, lambda s: s.report and s.report["kind"] == "order"
                 and any(f["result"] == "repelled" for f in s.report["fights"]))


def final():
    return final_state(GAME, 2, 1)


STATES = {
    "start": start_state,
    "half-deployed": half_deployed_state,
    "fight": fight_state,
    "order": order_state,
    "final": final,
}


def grid(view: dict):
    return myr.grid_for(6, 7, view["viewer"] == 1)


def tile_region(view: dict, name: str) -> tuple[int, int, int, int]:
    """The inside of the tile on a square, below the corner badges: only the tile itself is drawn there."""
    cx, cy = grid(view).centre_of(name)
    half = myr.TILE // 2
    return cx - half + 12, cy - half + 34, cx + half - 12, cy + half - 12


def sprite_region(sprite: Image.Image, view: dict, name: str) -> bytes:
    x0, y0, x1, y1 = tile_region(view, name)
    cx, cy = grid(view).centre_of(name)
    ox, oy = cx - sprite.width // 2, cy - sprite.height // 2
    return sprite.crop((x0 - ox, y0 - oy, x1 - ox, y1 - oy)).convert("RGB").tobytes()


def badge_centre(view: dict, name: str, right: bool) -> tuple[int, int]:
    x0, y0, x1, _ = grid(view).box_of(name)
    return (x1 - myr.BADGE_INSET if right else x0 + myr.BADGE_INSET), y0 + myr.BADGE_INSET


def corner_pixel(img: Image.Image, view: dict, name: str, inset: int) -> tuple[int, int, int]:
    """A point near the bottom-left corner of a square: clear of the tile and of the corner badges."""
    x0, _, _, y1 = grid(view).box_of(name)
    return img.getpixel((x0 + inset, y1 - 1 - inset))


# --- size, tiles, colours -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("position", list(STATES))
def test_png_decodes_at_the_expected_size(position, viewer):
    img = Image.open(io.BytesIO(myr.render(GAME.view(STATES[position](), viewer))))
    assert img.format == "PNG"
    assert img.size == (WIDTH, HEIGHT)
    assert 900 <= img.width <= 1100 and 900 <= img.height <= 1100


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("position", ["half-deployed", "fight", "order", "final"])
def test_each_tile_shows_values_exactly_when_the_view_knows_them(position, viewer):
    """A known piece is drawn with its own values (a crown for a known Commander); any other is the blank tile, with
    under its helmet what the viewer's information proves of it (nothing in the public picture)."""
    view = GAME.view(STATES[position](), viewer)
    img = drawn(view)
    for name, cell in view["cells"].items():
        region = img.crop(tile_region(view, name)).tobytes()
        if cell["known"]:
            expected = myr.tile_sprite(myr.TILE, cell["owner"], (cell["sword"], cell["shield"], cell["move"]),
                                       cell["commander"])
        else:
            expected = myr.tile_sprite(myr.TILE, cell["owner"], None, False, myr.proven_hints(view).get(name))
        assert region == sprite_region(expected, view, name), (name, cell)
    if viewer is None:
        assert myr.proven_hints(view) == {}


def test_a_hidden_piece_that_went_far_shows_its_least_movement_to_the_player_only():
    state = final_state(GAME, 2, 3)  # North's pieces on c3 and e6 went two squares at once, unseen
    view = GAME.view(state, 0)
    assert myr.proven_hints(view) == {"c3": "≥2", "e6": "≥2"}
    img = drawn(view)
    blank = myr.tile_sprite(myr.TILE, 1, None)
    for name in ("c3", "e6"):
        assert img.crop(tile_region(view, name)).tobytes() != sprite_region(blank, view, name)
    assert myr.proven_hints(GAME.view(state, None)) == {}
    assert set(myr.proven_hints(GAME.view(state, 1))).isdisjoint({"c3", "e6"}), "North knows her own pieces"


@pytest.mark.parametrize("viewer", VIEWERS)
def test_every_tile_has_its_sides_colour_and_quiet_squares_the_board_colour(viewer):
    view = GAME.view(order_state(), viewer)
    img = decode(myr.render(view))
    action = view["last_action"]
    marked = {sq for p in action["paths"] for sq in p["path"]}
    home = tuple(view["home_ranks"])
    dx, dy = myr.FILL_SPOT
    for f in range(6):
        for r in range(7):
            name = f"{chr(97 + f)}{r + 1}"
            cx, cy = grid(view).centre_of(name)
            cell = view["cells"].get(name)
            if cell:
                assert img.getpixel((cx + dx, cy + dy)) == SIDES[cell["owner"]].fill, name
            elif name not in marked:
                assert img.getpixel((cx, cy)) == myr.square_colour(f, r, home), name


def test_home_ranks_lean_toward_their_owners_colour():
    view = GAME.view(fight_state(), None)
    for f in range(6):
        plain = myr.square_colour(f, 3, ())
        assert sum(myr.square_colour(f, 0, (1, 7))) > sum(myr.square_colour(f, 0, ())), "South's rank is lighter"
        assert sum(myr.square_colour(f, 6, (1, 7))) < sum(myr.square_colour(f, 6, ())), "North's rank is darker"
        assert myr.square_colour(f, 3, (1, 7)) == plain
    assert view["home_ranks"] == [1, 7]


def count_gold(img: Image.Image, box) -> int:
    return sum(n for n, colour in img.crop(box).getcolors(1_000_000) if colour == myr.GOLD)


def test_only_the_owner_sees_a_crown_on_her_unrevealed_commander():
    state = first_play_state()
    for seat in (0, 1):
        own = GAME.view(state, seat)
        square = own["commander"]
        assert square and not own["cells"][square]["revealed"]
        assert count_gold(decode(myr.render(own)), grid(own).box_of(square)) > 40, "a crown on her Commander"
        for viewer in (None, 1 - seat):
            other = GAME.view(state, viewer)
            img = decode(myr.render(other))
            board = (myr.MARGIN, myr.MARGIN, myr.MARGIN + 6 * myr.SQUARE, myr.MARGIN + 7 * myr.SQUARE)
            own_crowns = count_gold(img, grid(other).box_of(other["commander"])) if other["commander"] else 0
            assert count_gold(img, board) == own_crowns, f"{viewer} sees no crown but her own"


def test_a_commander_revealed_by_a_fight_wears_its_crown_in_public():
    state = final()
    view = GAME.view(state, None)
    crowned = [name for name, cell in view["cells"].items() if cell["commander"]]
    assert crowned, "this game ends with a Commander revealed on the board"
    img = decode(myr.render(view))
    for name in crowned:
        assert count_gold(img, grid(view).box_of(name)) > 40


# --- highlights -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", VIEWERS)
def test_an_order_shows_paths_fights_and_repelled_pieces(viewer):
    view = GAME.view(order_state(), viewer)
    img = decode(myr.render(view))
    action = view["last_action"]
    fights = {f["square"]: f for f in action["fights"]}
    fell_back = set(action["repelled"])
    assert fell_back
    for path in action["paths"]:
        for name in myr.travelled(path):
            if name not in fights and name not in fell_back and name != path["end"]:
                r, g, b = corner_pixel(img, view, name, 6)
                assert b > r, f"{name} on the path is tinted blue"
        if path["end"] not in fell_back:
            assert corner_pixel(img, view, path["end"], 0) == myr.blend(myr.PATH, (0, 0, 0), 0.45), "landing frame"
    for name in fell_back:
        assert corner_pixel(img, view, name, 1) == VERMILLION, f"{name}: a repelled piece's square is framed"
    for name, fight in fights.items():
        r, g, b = corner_pixel(img, view, name, 6)
        assert b > g, f"{name}: a fight square is tinted purple"
        x, y = badge_centre(view, name, right=False)
        if fight["result"] == "win":
            assert img.getpixel((x, y)) == YELLOW, "a star: the attack won"
        else:
            assert img.getpixel((x, y - 6)) == VERMILLION, "a no-entry disc: the attacker was repelled"


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_won_fight_crosses_the_square_in_the_losers_colour(viewer):
    state = after(1, lambda s: s.report and any(f["result"] == "win" for f in s.report["fights"]))
    view = GAME.view(state, viewer)
    img = decode(myr.render(view))
    fight = next(f for f in view["last_action"]["fights"] if f["result"] == "win")
    x0, y0, x1, y1 = grid(view).box_of(fight["square"])
    on_the_cross = (x1 - 1 - round(myr.SQUARE * 0.12), y1 - 1 - round(myr.SQUARE * 0.12))
    assert close(img.getpixel(on_the_cross), SIDES[fight["defender"]["owner"]].fill, 40)
    assert img.getpixel(badge_centre(view, fight["square"], right=False)) == YELLOW, "a star: the attack won"


def test_a_position_without_a_last_action_has_no_highlight():
    view = GAME.view(first_play_state(), None)
    assert view["last_action"] is None
    img = decode(myr.render(view))
    for f in range(6):
        for r in range(1, 6):
            assert img.getpixel(grid(view).centre(f, r)) == myr.square_colour(f, r, (1, 7))


@pytest.mark.parametrize("viewer", VIEWERS)
def test_revealed_pieces_carry_the_face_up_eye(viewer):
    view = GAME.view(order_state(), viewer)
    img = decode(myr.render(view))
    for name, cell in view["cells"].items():
        x, y = badge_centre(view, name, right=True)
        assert (img.getpixel((x, y - 8)) == myr.SKY_BLUE) == cell["revealed"], name  # the badge's blue disc


# --- tray -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", VIEWERS)
def test_each_losses_box_shows_one_small_tile_per_eliminated_piece_beside_its_side(viewer):
    view = GAME.view(final(), viewer)
    img = drawn(view)
    upper, _, lower = myr._tray_boxes(grid(view))
    bottom = 1 if viewer == 1 else 0
    step = myr.MINI + 10
    assert sum(view["eliminated"]) > 0
    for seat, box in ((1 - bottom, upper), (bottom, lower)):
        lost = [p for p in view["eliminated_pieces"] if p["owner"] == seat]
        for i in range(6):
            x = box[0] + 12 + (i % 3) * step + myr.MINI // 2
            y = box[1] + 44 + (i // 3) * step + round(myr.MINI * 0.91)  # below the digits
            expected = SIDES[seat].fill if i < view["eliminated"][seat] else myr.PANEL
            assert img.getpixel((x, y)) == expected, (seat, i)
            if i < len(lost):
                mini = myr.piece_sprite(myr.MINI, lost[i])
                x0, y0 = box[0] + 12 + (i % 3) * step, box[1] + 44 + (i // 3) * step
                got = img.crop((x0 + 8, y0 + 8, x0 + myr.MINI - 8, y0 + myr.MINI - 8)).tobytes()
                assert got == mini.crop((8, 8, myr.MINI - 8, myr.MINI - 8)).convert("RGB").tobytes()


def test_the_fight_list_shows_both_fighters_values_even_with_memory_on():
    """With memory on the pieces turn face down again, but the fight report is public: the tray shows it."""
    state = after(30, lambda s: s.report and len(s.report["fights"]) >= 2, {"memory": "on"})
    view = GAME.view(state, None)
    assert not any(cell["known"] for cell in view["cells"].values())
    img = drawn(view)
    _, middle, _ = myr._tray_boxes(grid(view))
    top = middle[1] + myr.LEGEND_HEIGHT + myr.FIGHTS_TOP + 30  # under the fight's square and result
    for i, fight in enumerate(view["last_action"]["fights"][:2]):
        y = top + i * myr.FIGHT_ROW
        x = middle[0] + myr.ATTACKER_X
        got = img.crop((x + 8, y + 8, x + myr.MINI - 8, y + myr.MINI - 8)).tobytes()
        want = myr.piece_sprite(myr.MINI, fight["attacker"]).crop((8, 8, myr.MINI - 8, myr.MINI - 8))
        assert got == want.convert("RGB").tobytes(), "the attacker's values"
        assert fight["attacker"]["sword"] is not None


# --- orientation ------------------------------------------------------------------------------------------------


def test_public_view_has_south_at_the_bottom_and_seat_one_sees_north_at_the_bottom():
    state = first_play_state()
    dx, dy = myr.FILL_SPOT
    square, m = myr.SQUARE, myr.MARGIN
    for viewer, bottom in ((None, LIGHT), (0, LIGHT), (1, DARK)):
        img = decode(myr.render(GAME.view(state, viewer)))
        top = DARK if bottom is LIGHT else LIGHT
        for column in range(6):
            x = m + column * square + square // 2 + dx
            assert img.getpixel((x, m + 6 * square + square // 2 + dy)) == bottom.fill, (viewer, column)
            assert img.getpixel((x, m + square // 2 + dy)) == top.fill, (viewer, column)
    flipped = myr.grid_for(6, 7, True)
    assert flipped.box_of("f7")[:2] == (m, m + 6 * square), "f7 bottom-left for North"
    assert flipped.box_of("a1")[:2] == (m + 5 * square, m)


# --- setup ------------------------------------------------------------------------------------------------------


def test_setup_caption_says_who_is_still_setting_up():
    names = ["Alice", "Bob"]
    assert myr._status(GAME.view(start_state(), None), names) == "Setup — Alice deploying · Bob deploying"
    assert myr._status(GAME.view(half_deployed_state(), 1), names) == "Setup — Alice ready · Bob deploying"
    draft = GAME.new_state(2, 0, {"army": "draft"})
    assert myr._status(GAME.view(draft, None), names) == "Setup — Alice choosing an army · Bob choosing an army"
    assert myr._status(GAME.view(fight_state(), None), names).endswith("to move")


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_home_rank_still_being_deployed_shows_waiting_places(viewer):
    view = GAME.view(half_deployed_state(), viewer)
    img = decode(myr.render(view))
    waiting = myr.waiting_sprite(myr.TILE, 1)
    for f in range(6):
        name = f"{chr(97 + f)}7"
        assert name not in view["cells"]
        cx, cy = grid(view).centre_of(name)
        assert img.getpixel((cx, cy)) == waiting.getpixel((myr.TILE // 2, myr.TILE // 2))[:3], "the middle dot"
        assert f"{chr(97 + f)}1" in view["cells"], "South's deployed pieces stand on rank 1"


def test_the_private_setup_view_lists_the_pieces_still_to_deploy():
    view = GAME.view(start_state(), 1)
    assert len(view["undeployed"]) == 6
    img = drawn(view)
    _, middle, _ = myr._tray_boxes(grid(view))
    x0, y0 = middle[0] + 12, middle[1] + myr.LEGEND_HEIGHT + 48
    first = view["undeployed"][0]
    assert first["code"] == "C"
    expected = myr.tile_sprite(myr.MINI, 1, (1, 1, 1), True)
    got = img.crop((x0 + 8, y0 + 8, x0 + myr.MINI - 8, y0 + myr.MINI - 8)).tobytes()
    assert got == expected.crop((8, 8, myr.MINI - 8, myr.MINI - 8)).convert("RGB").tobytes()
    public = decode(myr.render(GAME.view(start_state(), None)))
    assert public.crop((x0, y0, x0 + myr.MINI, y0 + myr.MINI)).getcolors() == [(myr.MINI ** 2, myr.PANEL)]


# --- leaks ------------------------------------------------------------------------------------------------------


def _deploy_variants(state, seat: int):
    """Two deployments of `seat` that differ in where its pieces stand."""
    moves = GAME.legal_moves(state, seat)
    return moves[0], moves[-1]


@pytest.mark.parametrize("viewer", [None, 1])
def test_setup_pictures_do_not_depend_on_souths_secret_deployment(viewer):
    state = start_state()
    one, other = _deploy_variants(state, 0)
    a, b = GAME.apply(state, 0, one)[0], GAME.apply(state, 0, other)[0]
    assert myr.render(GAME.view(a, viewer)) == myr.render(GAME.view(b, viewer))
    assert myr.render(GAME.view(a, 0)) != myr.render(GAME.view(b, 0)), "South herself sees the difference"


def _fought(plies) -> set[str]:
    return {f[side]["id"] for *_, new in plies if new.report for f in new.report["fights"]
            for side in ("attacker", "defender")}


def _twin_games(seat: int, options=None, limit: int = 40):
    """Two games with the same moves whose only difference is `seat`'s deployment, two never-fought pieces
    swapped: lists of states, ply by ply."""
    for seed in range(limit):
        plies = [(p.seat, p.move, GAME.apply(p.state, p.seat, p.move)[0]) for p in random_plies(GAME, 2, seed, options)]
        shown = _fought(plies)
        deploy = next(move for s, move, _ in plies if s == seat and move.startswith("deploy"))
        codes = list(parse_move(deploy).codes)
        letter = "SN"[seat]
        hidden = [i for i, c in enumerate(codes) if c != "C" and f"{letter}{i + 1}" not in shown]
        for i, a in enumerate(hidden):
            for b in hidden[i + 1:]:
                swapped = codes[:]
                swapped[a], swapped[b] = swapped[b], swapped[a]
                twin = "deploy " + ",".join(swapped)
                try:
                    state, states = GAME.new_state(2, seed, options), []
                    for s, move, _ in plies:
                        state = GAME.apply(state, s, twin if move == deploy and s == seat else move)[0]
                        states.append(state)
                except IllegalMoveError:
                    continue  # a swapped piece could not make one of the moves
                if len(states) > 8:
                    return [new for *_, new in plies], states
    raise AssertionError("no comparable pair of games")


@pytest.mark.parametrize("options", [None, {"memory": "on"}])
def test_public_pictures_are_identical_for_games_differing_only_in_hidden_values(options):
    first, second = _twin_games(0, options)
    assert first[-1].pieces != second[-1].pieces
    for a, b in zip(first, second):
        assert myr.render(GAME.view(a, None)) == myr.render(GAME.view(b, None)), f"ply {a.ply}"
    assert any(myr.render(GAME.view(a, 0)) != myr.render(GAME.view(b, 0)) for a, b in zip(first, second))


def _words(view):
    """Everything a screen reader hears of the picture: its alt text and the text board."""
    names = ["alice", "bob"]
    return alt_text("Myrmidons", view, names, match_id=7), text_board("Myrmidons", view, names, match_id=7)


@pytest.mark.parametrize("options", [None, {"memory": "on"}])
def test_public_descriptions_are_identical_for_games_differing_only_in_hidden_values(options):
    first, second = _twin_games(0, options)
    for a, b in zip(first, second):
        assert _words(GAME.view(a, None)) == _words(GAME.view(b, None)), f"ply {a.ply}"
        assert _words(GAME.view(a, 1)) == _words(GAME.view(b, 1)), f"ply {a.ply}"
    # North's text board says what her own information proves about South's hidden pieces, alike in both worlds
    assert "as far as you can tell" in "".join(_words(GAME.view(first[-1], 1))[1])
    # South's own text board names her pieces, so it does tell the twins apart: the comparison can fail
    assert any(_words(GAME.view(a, 0)) != _words(GAME.view(b, 0)) for a, b in zip(first, second))


def test_souths_private_pictures_do_not_depend_on_norths_hidden_values():
    first, second = _twin_games(1)
    assert first[-1].pieces != second[-1].pieces
    for a, b in zip(first, second):
        assert myr.render(GAME.view(a, 0)) == myr.render(GAME.view(b, 0)), f"ply {a.ply}"
    assert any(myr.render(GAME.view(a, 1)) != myr.render(GAME.view(b, 1)) for a, b in zip(first, second))


# --- caption and determinism --------------------------------------------------------------------------------------


def test_caption_is_drawn_and_marks_the_winner():
    view = GAME.view(final(), None)
    assert view["outcome"] and view["outcome"]["winners"]
    img = decode(myr.render(view, player_names=["Alice", "Bob"]))
    band = img.crop((0, HEIGHT - CAPTION_HEIGHT, WIDTH, HEIGHT))
    colours = band.getcolors(maxcolors=1_000_000)
    assert sum(count for count, colour in colours if colour != BACKGROUND) > 5000
    assert any(close(colour, YELLOW, 10) for _, colour in colours), "the winner's badge is outlined"


def test_player_names_change_only_the_caption_and_the_tray_titles():
    view = GAME.view(order_state(), None)
    a = drawn(view, ["Alice", "Bob"])
    b = drawn(view, ["Carol", "A very long display name that must be shortened"])
    board = (0, 0, 2 * myr.MARGIN + 6 * myr.SQUARE, HEIGHT - CAPTION_HEIGHT)
    assert a.crop(board).tobytes() == b.crop(board).tobytes()
    assert a.tobytes() != b.tobytes()


def test_same_view_gives_identical_bytes_even_after_the_caches_are_cleared():
    view = GAME.view(order_state(), 1)
    first = myr.render(view)
    assert myr.render(view) == first
    for cached in (myr.board_layer, myr.tile_sprite, myr.marker_sprite, myr.eye_sprite, myr.waiting_sprite,
                   myr.icon_sprite):
        cached.cache_clear()
    assert myr.render(view) == first


def test_render_dispatches_on_the_views_game_and_makes_a_rules_diagram():
    view = GAME.view(start_state(), None)
    assert registry.render(view) == myr.render(view)
    assert registry.can_render("myrmidons")
    diagram = decode(registry.rules_diagram("myrmidons"))
    assert diagram.width < WIDTH and diagram.height < HEIGHT

