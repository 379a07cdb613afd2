"""The Mycenae picture, checked by properties of real engine views: size, each army's colour and emblem on its
pieces, orientation of private views, highlights of moves, captures, burns, take-overs and requests, cargo chips
exactly where the viewer may know the cargo — and leaks: games that differ only in secret cargo draw
byte-identical pictures for everyone who may not see it."""

from __future__ import annotations

import io
import math
from functools import lru_cache

import pytest
from mycenae_twins import twin_plies
from PIL import Image, ImageChops

from picture_helpers import close, decode
from bot.games.registry import get_game
from bot.engine.playout import final_state, random_plies
from bot.games.mycenae import renderer as myc
from renderers.common import BACKGROUND, YELLOW, parse_square
from bot.games import registry

GAME = get_game("mycenae")
SQ = myc.SQUARE
WIDTH = 2 * myc.MARGIN + 8 * SQ
HEIGHT = 2 * myc.MARGIN + 8 * SQ + myc.CAPTION_HEIGHT
ALL_MYCENAE = {2: ["mycenae"] * 2, 3: ["mycenae"] * 3, 4: ["mycenae"] * 4}
MIXED = {2: ["mycenae", "plain"], 3: ["mycenae", "plain", "mycenae"], 4: ["plain", "mycenae", "plain", "mycenae"]}


def picture(view: dict, player_names=None) -> Image.Image:
    """The drawn picture before PNG encoding: pixel checks test the drawing, not the encoder's colour handling
    (the PNG itself is checked for size, format and byte identity)."""
    return myc.draw(view, player_names)


def viewers(n: int) -> list[int | None]:
    return [None, *range(n)]


# --- positions from seeded random games ---------------------------------------------------------------------------


def first_after(n: int, armies: list[str], seed: int, wanted, max_plies: int = 600):
    """The state right after the first move of a seeded random game whose result satisfies `wanted(state)`."""
    for ply in random_plies(GAME, n, seed, {"armies": armies}, max_plies=max_plies):
        state = GAME.apply(ply.state, ply.seat, ply.move)[0]
        if wanted(state):
            return state
    return None


def search(n: int, wanted, armies=None, seeds=range(40)):
    for seed in seeds:
        state = first_after(n, armies or ALL_MYCENAE[n], seed, wanted)
        if state is not None:
            return state
    raise AssertionError("no such position in those games")


@lru_cache(maxsize=None)
def start(n: int):
    return GAME.new_state(n, 0, {"armies": MIXED[n]})


@lru_cache(maxsize=None)
def mid(n: int):
    """Some twenty plies into a game, right after a public load (so a knight shows known cargo)."""
    return search(n, lambda s: s.ply > 20 and (s.last_move or "").startswith("load") and not s.pending)


@lru_cache(maxsize=None)
def final(n: int):
    return final_state(GAME, n, n, {"armies": MIXED[n]})


@lru_cache(maxsize=None)
def plain_move(n: int):
    return search(n, lambda s: s.ply > 10 and myc.last_kind(GAME.view(s, None)) == "move" and "x" not in s.last_move)


@lru_cache(maxsize=None)
def capture(n: int):
    return search(n, lambda s: "x" in (s.last_move or ""))


@lru_cache(maxsize=None)
def burn():
    return search(4, lambda s: (s.last_move or "").startswith("burn") and len(s.last_squares) > 1)


@lru_cache(maxsize=None)
def pending():
    return search(3, lambda s: s.pending is not None)


@lru_cache(maxsize=None)
def takeover():
    return search(4, lambda s: any(r["cause"] == "taken over" and r["ply"] == s.ply for r in s.revealed))


POSITIONS = {"start": start, "mid": mid, "final": final}


def grid(view: dict):
    return myc.grid_for(myc.turns_for(view))


def corners(view: dict) -> list[int]:
    return [myc.corner_index(view, s) for s in range(view["num_players"])]


def emblem_pixel(img: Image.Image, view: dict, name: str) -> tuple[int, int, int]:
    """The centre of the emblem in a piece's bottom-right corner: always the army's fill."""
    x0, y0, _, _ = grid(view).box_of(name)
    return img.getpixel((x0 + round(SQ * myc.EMBLEM_AT), y0 + round(SQ * myc.EMBLEM_AT)))


def chip_strip(img: Image.Image, view: dict, name: str) -> Image.Image:
    """The top of a square, where a knight's cargo chips go (clear of the frames, the horse and the markers)."""
    x0, y0, x1, _ = grid(view).box_of(name)
    return img.crop((x0 + 8, y0 + 8, x1 - 8, y0 + 24))  # inside a chip's first row (y0 + 3 to y0 + 3 + CHIP_HEIGHT)


def edge_pixel(img: Image.Image, view: dict, name: str, inset: int) -> tuple[int, int, int]:
    """A point on the left edge of a square, halfway up: clear of pieces, chips, crosses and corner markers."""
    x0, y0, _, y1 = grid(view).box_of(name)
    return img.getpixel((x0 + inset, (y0 + y1) // 2))


# --- size, colours, emblems ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("position", list(POSITIONS))
def test_png_decodes_at_the_expected_size_for_every_viewer(position, n):
    state = POSITIONS[position](n)
    for viewer in viewers(n):
        img = Image.open(io.BytesIO(myc.render(GAME.view(state, viewer))))
        assert img.format == "PNG"
        assert img.size == (WIDTH, HEIGHT - myc.CAPTION_HEIGHT + myc.caption_height(n))  # three or four: 2 rows
        assert 900 <= img.width <= 1100


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("position", ["start", "mid"])
def test_every_piece_wears_its_armys_colour_and_quiet_squares_keep_the_board_colour(position, n):
    state = POSITIONS[position](n)
    for viewer in viewers(n):
        view = GAME.view(state, viewer)
        img = picture(view)
        seated = tuple(corners(view))
        occupied = {p["square"]: p for p in view["board"]}
        marked = set(view["last_squares"]) | set((view["pending"] or {}).get("squares", []))
        for f in range(8):
            for r in range(8):
                name = myc.square_name(f, r)
                if name in occupied:
                    army = myc.ARMIES[seated[occupied[name]["owner"]]]
                    assert close(emblem_pixel(img, view, name), army.fill, 6), (viewer, name)
                elif name not in marked:
                    assert img.getpixel(grid(view).centre_of(name)) == myc.square_colour(f, r), name


def test_the_armies_differ_in_lightness_and_in_emblem_shape_not_only_in_hue():
    def lightness(rgb):
        r, g, b = rgb
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    lights = sorted(lightness(army.fill) for army in myc.ARMIES)
    assert all(b - a >= 40 for a, b in zip(lights, lights[1:])), "readable in greyscale"
    masks = [myc.emblem_sprite(myc.SWATCH, c).getchannel("A").point(lambda a: 255 if a > 127 else 0)
             for c in range(4)]
    for i in range(4):
        for j in range(i + 1, 4):
            differing = sum(1 for a, b in zip(masks[i].tobytes(), masks[j].tobytes()) if a != b)
            assert differing > 0.08 * myc.SWATCH ** 2, (i, j)
    assert len({army.emblem for army in myc.ARMIES}) == 4


def test_a_mycenaean_knight_looks_unlike_a_plain_knight():
    plain = myc.piece_sprite(SQ, "N", False, 0).getchannel("A")
    horse = myc.piece_sprite(SQ, "N", True, 0).getchannel("A")
    differing = sum(1 for a, b in zip(plain.tobytes(), horse.tobytes()) if abs(a - b) > 127)
    assert differing > 0.1 * SQ * SQ
    # the wooden plank under the horse
    x, y = round(SQ * 0.26), round(SQ * 0.825)
    assert close(myc.piece_sprite(SQ, "N", True, 2).getpixel((x, y))[:3], myc.WOOD, 10)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_seated_armys_start_area_is_framed_in_its_colour(n):
    """The corner's 4 x 2 area, framed by a band of the army's fill between two lines of its edge colour; an
    empty seat's corner is not framed."""
    for viewer in viewers(n):
        view = GAME.view(start(n), viewer)
        img = picture(view)
        seated = corners(view)
        for corner in range(4):
            x0, y0, x1, y1 = myc.area_box(grid(view), corner)
            assert (x1 - x0) * (y1 - y0) == 8 * SQ * SQ
            band = img.getpixel(((x0 + x1) // 2, y0 + 4))  # the middle of the area's top side
            army = myc.ARMIES[corner]
            if corner in seated:
                assert band == army.fill and img.getpixel(((x0 + x1) // 2, y0 + 1)) == army.edge, (viewer, corner)
            else:
                assert band != army.fill
    assert (0, 0) in myc.start_area(0) and (7, 7) in myc.start_area(2) and (1, 4) in myc.start_area(1)


# --- orientation --------------------------------------------------------------------------------------------------


def test_a_private_view_turns_the_viewers_corner_to_the_bottom_left():
    bottom_left = (myc.MARGIN, myc.MARGIN + 7 * SQ)
    for turns, corner in enumerate(myc.CORNER_NAMES):
        g = myc.grid_for(turns)
        assert g.box_of(corner)[:2] == bottom_left, corner
        # a quarter turn, never a mirror: the seat table's clockwise order stays clockwise on screen
        points = [g.centre_of(c) for c in myc.CORNER_NAMES]
        cx = cy = myc.MARGIN + 4 * SQ
        angles = [math.atan2(y - cy, x - cx) for x, y in points]  # screen y points down: clockwise is increasing
        steps = [(angles[(i + 1) % 4] - angles[i]) % (2 * math.pi) for i in range(4)]
        assert all(abs(step - math.pi / 2) < 1e-6 for step in steps), "clockwise on screen"


def test_the_edge_labels_follow_the_turn():
    assert myc.edge_labels(myc.grid_for(0)) == (list("abcdefgh"), list("87654321"))
    assert myc.edge_labels(myc.grid_for(1)) == (list("87654321"), list("hgfedcba"))
    assert myc.edge_labels(myc.grid_for(2)) == (list("hgfedcba"), list("12345678"))
    assert myc.edge_labels(myc.grid_for(3)) == (list("12345678"), list("abcdefgh"))
    g = myc.grid_for(1)
    columns, rows = myc.edge_labels(g)
    for name in ("c5", "h2", "a8"):  # the labels beside a square name it
        x0, y0, _, _ = g.box_of(name)
        col, row = (x0 - myc.MARGIN) // SQ, (y0 - myc.MARGIN) // SQ
        assert {columns[col], rows[row]} == {name[0], name[1]}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_private_view_shows_its_own_army_at_the_bottom(n):
    """At the start every army stands in its corner's 4 x 2 area: in its own view, the bottom-left one."""
    state = start(n)
    for seat in range(n):
        view = GAME.view(state, seat)
        img = picture(view)
        own = myc.ARMIES[corners(view)[seat]]
        mine = [p["square"] for p in view["board"] if p["owner"] == seat]
        assert mine
        for name in mine:
            x0, y0, _, _ = grid(view).box_of(name)
            assert x0 < myc.MARGIN + 4 * SQ and y0 >= myc.MARGIN + 6 * SQ, (seat, name)
            assert close(emblem_pixel(img, view, name), own.fill, 6)


# --- cargo chips: the viewer's own, the public's, never a secret ------------------------------------------------------


def strip_has_chips(img: Image.Image, view: dict, name: str) -> bool:
    return len(chip_strip(img, view, name).getcolors(1_000_000)) > 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_knights_show_cargo_chips_exactly_when_the_viewer_may_know_the_cargo(n):
    state = mid(n)
    flagged = {r["square"] for r in myc.revealed_now(GAME.view(state, None)) if r["cause"] == "taken over"}
    seen_own = seen_public = 0
    for viewer in viewers(n):
        view = GAME.view(state, viewer)
        img = picture(view)
        for p in view["board"]:
            if not p["mycenaean"] or p["square"] in flagged:
                continue
            known = myc.visible_cargo(view, p["square"])
            assert strip_has_chips(img, view, p["square"]) == bool(known), (viewer, p["square"])
            if known and p["owner"] == viewer:
                seen_own += 1
            elif known:
                seen_public += 1
            if viewer is None or p["owner"] != viewer:
                assert p["square"] not in view["cargo"]
    assert seen_own, "some player saw her own cargo"
    assert seen_public, "some knight showed publicly loaded cargo"


def test_the_owner_sees_her_secret_cargo_and_nobody_else_does():
    state = GAME.new_state(2, 0, {"armies": ["mycenae", "mycenae"]})
    state = GAME.apply(state, 0, "cargo b2:K,R,B,B,P,P,P")[0]
    state = GAME.apply(state, 1, "cargo g7:K,P e7:R,B f8:B,P,P")[0]
    own = GAME.view(state, 0)
    img = picture(own)
    assert strip_has_chips(img, own, "b2") and not strip_has_chips(img, own, "d2")
    assert not any(strip_has_chips(img, own, sq) for sq in ("g7", "e7", "f8"))
    # the chips are the owner's letters in her colours: K, R, B2 on a first row, P3 on a second (TEXT_MIN px text)
    x0, y0, _, _ = grid(own).box_of("b2")
    rows = [[("K", 1), ("R", 1), ("B", 2)], [("P", 3)]]
    for i, row in enumerate(rows):
        chips = [myc.chip_sprite(letter, count, 0) for letter, count in row]
        width = sum(c.width for c in chips) + 2 * (len(chips) - 1)
        x, y = x0 + (SQ - width) // 2, y0 + 3 + i * (myc.CHIP_HEIGHT + 2)
        for chip in chips:
            got = img.crop((x, y, x + chip.width, y + chip.height))
            opaque = [(i, j) for i in range(chip.width) for j in range(chip.height) if chip.getpixel((i, j))[3] == 255]
            assert all(got.getpixel(p) == chip.getpixel(p)[:3] for p in opaque)
            x += chip.width + 2
    for viewer in (None, 1):
        view = GAME.view(state, viewer)
        img = picture(view)
        assert not any(strip_has_chips(img, view, sq) for sq in ("b2", "d2", "c1"))


# --- leaks --------------------------------------------------------------------------------------------------------


def twin_games(n: int, secret: int, seed: int, plies: int):
    """The positions of two games that differ only in how `secret` spread her cargo (mycenae_twins.py)."""
    return [(a, b) for a, b, _, _ in twin_plies(n, ALL_MYCENAE[n], secret, seed, plies)]


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    """Pixel for pixel equal, compared in C (tobytes() of two ~1-megapixel pictures costs ten times more)."""
    return a.mode == b.mode and a.size == b.size and ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("n,secret,seed", [(2, 0, 1), (2, 1, 2), (3, 0, 3), (3, 2, 4), (4, 1, 5), (4, 3, 6)])
def test_pictures_are_byte_identical_for_games_differing_only_in_secret_cargo(n, secret, seed):
    pairs = twin_games(n, secret, seed, plies=40)
    others = [None, *(s for s in range(n) if s != secret)]
    for a, b in pairs[::2] + pairs[-1:]:  # every other position (six games give plenty), and the last
        for viewer in others:
            va, vb = GAME.view(a, viewer), GAME.view(b, viewer)
            assert same_pixels(myc.draw(va), myc.draw(vb)), (a.ply, viewer)
    for a, b in pairs[:: max(1, len(pairs) // 4)] + pairs[-1:]:
        for viewer in others:
            assert myc.render(GAME.view(a, viewer)) == myc.render(GAME.view(b, viewer)), (a.ply, viewer)
    mine = [myc.render(GAME.view(a, secret)) != myc.render(GAME.view(b, secret)) for a, b in pairs[-3:]]
    assert any(mine), "the secret player herself sees the difference"


# --- highlights ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4])
def test_a_move_tints_its_from_and_to_squares_and_frames_the_target(n):
    view = GAME.view(plain_move(n), None)
    img = picture(view)
    origin, target = view["last_squares"]
    r, g, b = edge_pixel(img, view, origin, 8)
    assert b > r, "the origin is tinted blue"
    assert close(edge_pixel(img, view, target, 1), myc.LAST_MOVE_FRAME, 2), "the target is framed"


def test_a_capture_tints_the_target_purple_and_crosses_it():
    view = GAME.view(capture(3), 1)
    img = picture(view)
    target = view["last_squares"][1]
    f, r = parse_square(target)
    expected = myc.blend(myc.square_colour(f, r), myc.DESTROYED, myc.DESTROYED_TINT)
    assert close(edge_pixel(img, view, target, 8), expected, 3)
    x0, y0, _, _ = grid(view).box_of(target)
    inset = round(SQ * 0.16)
    assert close(img.getpixel((x0 + inset, y0 + inset)), myc.INK, 30), "an arm of the cross in the corner"


def test_a_burn_shows_its_flame_and_crosses_the_destroyed_squares_and_names_the_revealed_cargo():
    state = burn()
    view = GAME.view(state, None)
    img = picture(view)
    knight, *victims = view["last_squares"]
    x0, y0, x1, y1 = grid(view).box_of(knight)
    flame = [c for _, c in img.crop((x0, y0, x1, y1)).getcolors(100_000) if close(c, YELLOW, 20)]
    assert flame, "a flame on the burnt knight's square"
    for name in [knight, *victims]:
        r, g, b = edge_pixel(img, view, name, 8)
        assert r > g and b > g, f"{name} is tinted purple"
    text = myc.history(view, view["seat_names"])
    assert text.startswith(f"Last: burn {knight}")
    assert f"{knight} carried" in text, "the burnt knight's cargo is public now"


def test_a_king_destroyed_inside_a_knight_is_named_and_its_owner_is_out():
    state = search(3, lambda s: any(r["ply"] == s.ply and any(p["type"] == "K" for p in r["pieces"])
                                    for r in s.revealed), seeds=range(80))
    view = GAME.view(state, None)
    names = ["Alice", "Bob", "Carol"]
    losers = {p["owner"] for r in myc.revealed_now(view) for p in r["pieces"] if p["type"] == "K"}
    text = myc.history(view, names)
    for seat in losers:
        assert seat in view["out"] and f"{names[seat]} is out" in text
        assert myc._badge_tag(view, seat)[0] == "OUT"


def test_a_take_over_flags_the_knights_that_changed_hands():
    view = GAME.view(takeover(), None)
    img = picture(view)
    flagged = [r["square"] for r in myc.revealed_now(view) if r["cause"] == "taken over"]
    assert flagged and view["out"]
    for name in flagged:
        x0, y0, _, _ = grid(view).box_of(name)
        centre = (x0 + myc.MARKER // 2 + 2, y0 + myc.MARKER // 2 + 2)
        assert close(img.getpixel((centre[0] + 6, centre[1] + 8)), myc.PAPER, 12), "the flag badge"
        assert f"{name} taken over" in myc.history(view, view["seat_names"])
        assert any(p["square"] == name and p["mycenaean"] for p in view["board"])


@pytest.mark.parametrize("viewer", [None, 0, 1, 2])
def test_a_pending_request_frames_the_knight_and_the_pieces_and_says_who_must_answer(viewer):
    view = GAME.view(pending(), viewer)
    img = picture(view, player_names=["Alice", "Bob", "Carol"])
    req = view["pending"]
    assert img.getpixel(grid(view).box_of(req["knight"])[:2]) == myc.REQUEST
    for name in req["squares"]:
        x0, y0, _, _ = grid(view).box_of(name)
        assert img.getpixel((x0 + 1, y0 + 1)) == myc.REQUEST, "a dashed yellow frame"
    names = ["Alice", "Bob", "Carol"]
    assert myc.status(view, names) == (
        f"{names[req['asked']]} to answer {names[req['requester']]}'s request to load into {req['knight']}")
    assert req["move"] in myc.history(view, names)
    assert myc._badge_tag(view, req["asked"])[0] == "ASKED"


def test_an_answer_names_the_load_it_answered():
    consented = GAME.view(search(3, lambda s: s.last_move == "consent"), None)
    knight, *pieces = consented["last_squares"]
    assert myc.history(consented, consented["seat_names"]) == f"Last: consent to load {knight} {' '.join(pieces)}"
    refused = GAME.view(search(3, lambda s: s.last_move == "refuse"), None)
    assert myc.history(refused, refused["seat_names"]) == f"Last: refuse ({refused['refused'][-1]})"


# --- caption ------------------------------------------------------------------------------------------------------


def test_the_setup_caption_names_who_is_still_choosing_and_nothing_more():
    names = ["Alice", "Bob", "Carol"]
    state = GAME.new_state(3, 1, {"armies": ["mycenae", "mycenae", "plain"]})
    assert myc.status(GAME.view(state, None), names) == "Secret setup: Alice and Bob still choosing cargo"
    one, other = GAME.legal_moves(state, 1)[:2]
    a, b = GAME.apply(state, 1, one)[0], GAME.apply(state, 1, other)[0]
    assert myc.status(GAME.view(a, 2), names) == "Secret setup: Alice still choosing cargo"
    tags = [myc._badge_tag(GAME.view(a, None), s)[0] for s in range(3)]
    assert tags == ["SETTING UP", "READY", ""]
    for viewer in (None, 0, 2):
        assert myc.render(GAME.view(a, viewer)) == myc.render(GAME.view(b, viewer)), viewer
    assert myc.render(GAME.view(a, 1)) != myc.render(GAME.view(b, 1)), "Bob sees his own cargo"


@pytest.mark.parametrize("n", [3, 4])
def test_the_final_caption_names_the_winner_and_marks_the_players_out(n):
    view = GAME.view(final(n), None)
    names = ["Alice", "Bob", "Carol", "Dave"][:n]
    winners = view["outcome"]["winners"]
    assert myc.status(view, names).startswith(" & ".join(names[w] for w in winners))
    for seat in range(n):
        tag = myc._badge_tag(view, seat)[0]
        assert tag == ("WINNER" if seat in winners else "OUT" if seat in view["out"] else ""), seat
    img = picture(view, player_names=names)
    band = img.crop((0, HEIGHT - myc.CAPTION_HEIGHT, WIDTH, HEIGHT))
    assert any(close(colour, YELLOW, 10) for _, colour in band.getcolors(1_000_000)), "the winner's badge"


def test_the_caption_says_whose_turn_it_is():
    view = GAME.view(mid(4), None)
    names = ["Alice", "Bob", "Carol", "Dave"]
    acting = view["to_act"][0]
    assert myc.status(view, names) == f"{names[acting]} to move"
    assert myc._badge_tag(view, acting)[0] == "TO MOVE"
    assert myc.history(view, names) == f"Last: {view['last_move']}"


def test_player_names_change_only_the_caption():
    view = GAME.view(mid(3), None)
    a = picture(view, player_names=["Alice", "Bob", "Carol"])
    b = picture(view, player_names=["Xi", "A very long display name that must be shortened", "Z"])
    board = (0, 0, WIDTH, HEIGHT - myc.CAPTION_HEIGHT)
    assert a.crop(board).tobytes() == b.crop(board).tobytes()
    assert a.tobytes() != b.tobytes()
    band = a.crop((0, HEIGHT - myc.CAPTION_HEIGHT, WIDTH, HEIGHT))
    assert sum(count for count, colour in band.getcolors(1_000_000) if colour != BACKGROUND) > 5000


# --- determinism and entry points ---------------------------------------------------------------------------------


def test_same_view_gives_identical_bytes_even_after_the_caches_are_cleared():
    view = GAME.view(burn(), 2)
    first = myc.render(view)
    assert myc.render(view) == first
    for cached in (myc.board_layer, myc.piece_sprite, myc.piece_patch, myc.chip_sprite, myc.emblem_sprite,
                   myc.cross_sprite, myc.flame_sprite, myc.marker_sprite, myc.badge_image, myc.text_line):
        cached.cache_clear()
    assert myc.render(view) == first


def test_render_dispatches_on_the_views_game_and_makes_a_rules_diagram():
    view = GAME.view(start(2), None)
    assert registry.render(view) == myc.render(view)
    assert registry.can_render("mycenae")
    diagram = decode(registry.rules_diagram("mycenae"))
    assert diagram.width < WIDTH and diagram.height < HEIGHT - myc.CAPTION_HEIGHT
