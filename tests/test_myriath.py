"""Myriath: one scenario per rule of docs/rules/myriath.md, scoring above all.

Seats: 0 Vermilion, 1 Blue, 2 Yellow, 3 Green. Positions are built with `position` (tiles laid without rule
checks or scoring) and then a real move is applied. Geometry reminders: triangle sides N E S W; the
half-diagonal NE lies between the N and E triangles, SE between E and S, SW between S and W, NW between W and N.
"""

from __future__ import annotations

import pytest

from bot.games import IllegalMoveError, MoveSyntaxError
from bot.games.myriath import GAME, canonical, format_move, parse_move, position
from bot.games.myriath import geometry as geo
from bot.games.myriath.data import BOARD_SQUARES, PLAYING_AREA, TILE_SET

V, B, Y, G = 0, 1, 2, 3


def scores(state):
    return GAME.view(state, None)["scores"]


def play(state, seat, move):
    return GAME.apply(state, seat, move)


def gains(events):
    found = [ev for ev in events if ev["type"] == "score"]
    return found[0]["gains"] if found else None


def tile_named(pl_text):
    cat = geo.catalogue()
    return cat.placements[cat.by_text[pl_text]]


# --- data and geometry ---------------------------------------------------------------------------------------


def test_data_board_areas_and_tile_set():
    assert BOARD_SQUARES == 12 and geo.SIZE == 11
    assert PLAYING_AREA == {2: 8, 3: 10, 4: 12}
    assert sum(k.count for k in TILE_SET) == 19
    counts = {k.key: k.count for k in TILE_SET}
    assert counts == {"O": 1, "1AA": 5, "1AW": 3, "1WW": 2, "2AA": 2, "2AW": 1, "2WW": 1, "3UAA": 2, "3ZAA": 2}


@pytest.mark.parametrize("players,first,last", [(2, "c3", "i9"), (3, "b2", "j10"), (4, "a1", "k11")])
def test_usable_intersections_have_four_area_squares_around_them(players, first, last):
    view = GAME.view(GAME.new_state(players, 1), None)
    assert view["area"]["first_intersection"] == first
    assert view["area"]["last_intersection"] == last
    assert view["area"]["squares"] == PLAYING_AREA[players]


def test_triangle_and_half_diagonal_indexing():
    c4 = geo.point(2, 3)
    assert geo.POINT_NAMES[c4] == "c4"
    assert geo.triangle_name(geo.triangle(c4, geo.E)) == ("c4", "E")
    assert geo.half_diagonal_triangles(geo.half_diagonal(c4, 0)) == (geo.triangle(c4, geo.N), geo.triangle(c4, geo.E))
    assert geo.half_diagonal_name(geo.half_diagonal(c4, 3)) == ("c4", "NW")


def test_arrow_occupies_one_triangle_with_two_half_edges():
    view = GAME.view(position(2, [(V, "c3N:A.A")]), None)
    cap = next(c for c in view["tiles"][0]["caps"] if c["at"] == "c4")
    assert cap == {"at": "c4", "triangles": ["S"], "edge": ["SE", "SW"], "cap": "A"}


def test_whole_edge_side_is_seen_from_the_end_looking_out():
    # at d4 the tile arrives from the west (triangle W) and one looks out eastwards: right hand is south
    example = tile_named("c3NE:A.Wr")
    d4 = geo.point(3, 3)
    assert geo.triangle(d4, geo.W) in example.triangles and geo.triangle(d4, geo.S) in example.triangles
    left = tile_named("c3NE:A.Wl")
    assert geo.triangle(d4, geo.N) in left.triangles


def test_one_segment_ww_is_parallelogram_or_trapezoid():
    para = GAME.view(position(2, [(V, "c3N:Wl.Wl")]), None)["tiles"][0]["triangles"]
    trap = GAME.view(position(2, [(V, "c3N:Wl.Wr")]), None)["tiles"][0]["triangles"]
    assert sorted(para) == [["c3", "E"], ["c3", "N"], ["c4", "S"], ["c4", "W"]]
    assert sorted(trap) == [["c3", "E"], ["c3", "N"], ["c4", "E"], ["c4", "S"]]


def test_corner_occupies_the_triangles_facing_both_segments():
    tile = GAME.view(position(2, [(V, "c3NE:A.A")]), None)["tiles"][0]
    assert tile["corners"] == [{"at": "c4", "triangles": ["E", "S"], "edge": ["NE", "SW"]}]
    assert tile["segments"] == [["c3", "c4"], ["c4", "d4"]]


def test_octagon_ring_has_four_corners_and_no_ends():
    tile = GAME.view(position(2, [(V, "O@c3")]), None)["tiles"][0]
    assert tile["caps"] == []
    assert [c["at"] for c in tile["corners"]] == ["c3", "d3", "d4", "c4"]
    assert len(tile["segments"]) == 4 and len(tile["triangles"]) == 8


def test_u_and_z_shapes():
    assert tile_named("c3NEN:A.A").kind == "3ZAA"
    assert tile_named("c3NES:A.A").kind == "3UAA"
    assert tile_named("c3NW:A.A").kind == "2AA"


# --- notation ------------------------------------------------------------------------------------------------


def test_notation_both_writings_name_one_placement_and_the_smaller_is_canonical():
    assert canonical("c3NE:A.Wr") == "c3NE:A.Wr"
    assert canonical("d4WS:Wr.A") == "c3NE:A.Wr"
    assert canonical("c9N:A.A") == "c10S:A.A"  # plain code-point order: '1' < '9'
    assert canonical(" C3ne:a.WR ") == "c3NE:A.Wr"
    assert canonical("o@C3") == "O@c3" and canonical("PASS") == "pass"


def test_notation_round_trips():
    for text in ("c3NE:A.Wr", "O@c3", "pass", "k11SW:Wl.Wl"):
        assert format_move(parse_move(text)) == text


def test_apply_accepts_both_writings():
    start = position(2, [(V, "O@e5")], to_move=B)
    a, _ = play(start, B, "e4N:A.A")
    b, _ = play(start, B, "e5S:A.A")
    assert GAME.dump(a) == GAME.dump(b)
    assert GAME.view(a, None)["last_move"] == "e4N:A.A"
    assert "e4N:A.A" in GAME.legal_moves(start, B) and "e5S:A.A" not in GAME.legal_moves(start, B)


@pytest.mark.parametrize("text", ["c3", "c3NE", "c3NE:A", "c3NE:A.W", "c3XE:A.A", "O@", "z1N:A.A", "passes"])
def test_notation_garbage_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        parse_move(text)


# --- tiles ---------------------------------------------------------------------------------------------------


def test_tile_never_runs_straight_through_an_intersection():
    state = position(4, [(V, "O@e5")], to_move=B)
    with pytest.raises(IllegalMoveError, match="straight"):
        play(state, B, "e3NN:A.A")


def test_tile_cannot_turn_back():
    with pytest.raises(IllegalMoveError, match="turn back"):
        play(position(4, [(V, "O@e5")], to_move=B), B, "e3NS:A.A")


def test_path_of_no_tile_in_the_set_is_refused():
    state = position(4, [(V, "O@e5")], to_move=B)
    with pytest.raises(IllegalMoveError, match="no tile"):
        play(state, B, "e3NEN:A.Wl")  # Z shapes come only with two arrows
    with pytest.raises(IllegalMoveError, match="no tile"):
        play(state, B, "e3NENE:A.A")


def test_empty_supply_of_a_kind_is_refused():
    state = position(2, [(V, "O@e5")], to_move=B, supplies=[{}, {"1AW": 1}])
    with pytest.raises(IllegalMoveError, match="no 1 segment A·A"):
        play(state, B, "e4N:A.A")
    assert all(geo.catalogue().placements[geo.catalogue().by_text[m]].kind == "1AW"
               for m in GAME.legal_moves(state, B))


def test_tiles_leaving_the_area_are_refused():
    # two players: usable intersections c3..i9 only
    state = position(2, [(V, "O@c3")], to_move=B)
    with pytest.raises(IllegalMoveError, match="playing area"):
        play(state, B, "b3E:A.A")
    with pytest.raises(IllegalMoveError, match="leaves the board"):
        play(position(4, [(V, "O@j3")], to_move=B), B, "k3E:A.A")


def test_triangle_facing_an_unusable_segment_is_usable():
    # c3 is on the area's edge: the segment c3-b3 is outside, the triangle W of c3 is not
    area = geo.area(2)
    assert area.fits(tile_named("c3N:Wr.A"))
    assert not area.fits(tile_named("b3E:A.A"))


def test_overlap_is_refused():
    state = position(2, [(V, "O@e5")], to_move=B)
    with pytest.raises(IllegalMoveError, match="overlaps"):
        play(state, B, "e5E:A.A")  # the ring's own segment


def test_an_arrow_may_share_an_intersection_with_an_opposite_arrow():
    state = position(2, [(V, "O@e5"), (V, "c3N:A.A")], to_move=B)
    # c4: Vermilion's arrow holds S; Blue's arrow from the north holds N: they meet only at the centre
    assert not tile_named("c4N:A.A").mask & state.occupied


# --- setup ---------------------------------------------------------------------------------------------------


def test_setup_each_player_in_turn_places_an_octagon_and_nothing_scores():
    state = GAME.new_state(4, 3)
    order = GAME.view(state, None)["turn_order"]
    before = scores(state)
    corners = ["O@c3", "O@d4", "O@e5", "O@f6"]  # diagonal neighbours: they touch, corner to corner
    for seat, move in zip(order, corners):
        assert GAME.to_act(state) == [seat]
        state, events = play(state, seat, move)
        assert not [ev for ev in events if ev["type"] == "score"]
    assert scores(state) == before
    assert GAME.view(state, None)["phase"] == "play"
    assert GAME.to_act(state) == [order[0]]  # the starting player lays the first tile
    assert len(GAME.view(state, None)["contacts"]) == 6  # three touching pairs, two half-diagonals each


def test_setup_allows_only_octagons_and_no_overlap():
    state = GAME.new_state(2, 5)
    first, second = GAME.view(state, None)["turn_order"]
    assert all(m.startswith("O@") for m in GAME.legal_moves(state, first))
    with pytest.raises(IllegalMoveError, match="octagon"):
        play(state, first, "e4N:A.A")
    state, _ = play(state, first, "O@e5")
    with pytest.raises(IllegalMoveError, match="overlaps"):
        play(state, second, "O@f5")  # shares the segment f5-f6
    assert "O@f5" not in GAME.legal_moves(state, second)
    assert "O@f6" in GAME.legal_moves(state, second)


def test_octagons_around_outer_squares_are_refused():
    four = GAME.new_state(4, 1)
    seat = GAME.to_act(four)[0]
    with pytest.raises(IllegalMoveError, match="leave the board"):
        play(four, seat, "O@k5")  # would need an intersection beyond k
    assert "O@a1" in GAME.legal_moves(four, seat)  # surrounds the second square, not an outer one
    assert len(GAME.legal_moves(four, seat)) == 10 * 10
    two = GAME.new_state(2, 1)
    seat = GAME.to_act(two)[0]
    with pytest.raises(IllegalMoveError, match="playing area"):
        play(two, seat, "O@b3")  # the area's outer square
    with pytest.raises(IllegalMoveError, match="playing area"):
        play(two, seat, "O@i3")
    assert len(GAME.legal_moves(two, seat)) == 6 * 6


def test_octagon_after_setup_is_refused():
    state = position(2, [(V, "O@e5"), (B, "O@c3")], to_move=V, supplies=[{"O": 1, "1AA": 1}, {}])
    with pytest.raises(IllegalMoveError, match="already"):
        play(state, V, "O@g7")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_starting_player_and_turn_position_handicaps(players):
    starts = set()
    for seed in range(24):
        state = GAME.new_state(players, seed)
        view = GAME.view(state, None)
        order = view["turn_order"]
        starts.add(order[0])
        assert order == [(order[0] + i) % players for i in range(players)]
        assert [view["scores"][seat] for seat in order] == [0, 0, 0.5, 1][:players]
        assert GAME.to_act(state) == [order[0]]
        assert GAME.view(GAME.new_state(players, seed), None) == view  # the seed decides
    assert starts == set(range(players))


# --- connection rule -----------------------------------------------------------------------------------------


def test_an_end_touching_another_players_tile_connects():
    state = position(2, [(V, "c3N:A.A")], to_move=B)
    assert "c4E:A.A" in GAME.legal_moves(state, B)
    play(state, B, "c4E:A.A")


def test_a_corner_alone_does_not_connect():
    # Blue's corner at c4 (E and N) would touch Vermilion's arrow at c4 S along SE; Blue's ends touch nothing
    state = position(2, [(V, "c3N:A.A")], to_move=B)
    with pytest.raises(IllegalMoveError, match="ends must touch another player"):
        play(state, B, "c5SE:A.A")
    assert "c5SE:A.A" not in GAME.legal_moves(state, B)


def test_ones_own_tile_alone_does_not_connect():
    state = position(2, [(B, "c3N:A.A"), (V, "O@g7")], to_move=B)
    with pytest.raises(IllegalMoveError, match="another player"):
        play(state, B, "c4E:A.A")
    assert "c4E:A.A" not in GAME.legal_moves(state, B)


def test_an_end_may_connect_to_another_players_corner():
    state = position(2, [(V, "O@e5")], to_move=B)
    moves = GAME.legal_moves(state, B)
    assert "e4N:A.A" in moves  # the arrow at e5 S touches the ring's corner (N and E) along SE
    assert "d5E:A.A" in moves  # the arrow at e5 W touches it along NW
    assert "d4N:A.A" not in moves  # the arrow at d5 S touches nothing


def test_without_another_players_tile_the_only_move_is_pass():
    state = position(2, [(V, "O@e5"), (V, "e3N:A.A")], to_move=V)
    assert GAME.legal_moves(state, V) == ["pass"]


# --- scoring -------------------------------------------------------------------------------------------------


def test_arrow_half_edges_touching_score_half_each_side():
    state = position(2, [(V, "c3N:A.A")], to_move=B)
    state, events = play(state, B, "c4E:A.A")  # Blue's arrow at c4 E meets Vermilion's arrow at c4 S along SE
    assert gains(events) == [0.5, 0.5]
    assert scores(state) == [0.5, 0.5]
    contact = next(ev for ev in events if ev["type"] == "score")["contacts"]
    assert contact == [{"at": "c4", "half_diagonal": "SE", "tile": 0, "owner": V, "new_end": True,
                        "other_end": True, "scorers": [B, V]}]


def test_end_against_a_corner_the_corner_scores_nothing():
    state = position(4, [(V, "c3NE:A.A")], to_move=B)  # Vermilion's corner at c4 holds S and E
    state, events = play(state, B, "b4E:A.A")  # Blue's arrow at c4 W meets the corner's S along SW
    assert gains(events) == [0, 0.5, 0, 0]


def test_whole_edge_touched_on_one_half_then_on_both():
    # Vermilion's whole edge at c4 holds S and W: its halves are SE (beside E) and NW (beside N)
    state = position(3, [(V, "c3N:A.Wl")], to_move=B)
    state, events = play(state, B, "c4E:A.A")  # touches SE only: partially
    assert gains(events) == [0.5, 0.5, 0]
    state, events = play(state, Y, "c4N:A.A")  # touches NW (whole edge, now fully) and NE (Blue's arrow)
    assert gains(events) == [0.5, 0.5, 1]
    assert scores(state) == [1, 1, 1]  # Vermilion's whole edge: 1 in total, over two turns


def test_whole_edge_fully_touching_at_once_scores_one():
    # Vermilion's corner at c4 holds N and E; Blue's whole edge S+W touches it along SE and NW at once
    state = position(2, [(V, "d4WN:A.A")], to_move=B)
    state, events = play(state, B, "c3N:A.Wl")
    assert gains(events) == [0, 1]


def test_contacts_with_ones_own_tiles_score():
    # Blue connects to Vermilion at c4 (SE) and also touches her own arrow at c4 N along NE
    state = position(2, [(V, "c3N:A.A"), (B, "c5S:A.A")], to_move=B)
    state, events = play(state, B, "c4E:A.A")
    assert gains(events) == [0.5, 1.5]  # SE: ½ each; NE: both sides are Blue's ends
    score = next(ev for ev in events if ev["type"] == "score")
    assert sorted(c["owner"] for c in score["contacts"]) == [V, B]


def test_own_corner_touched_scores_only_the_new_end():
    state = position(2, [(V, "c3N:A.A"), (B, "c5SW:A.A")], to_move=B)  # Blue's corner at c4 holds N and W
    state, events = play(state, B, "c4E:A.A")  # SE: Vermilion's arrow (½ each); NE: Blue's own corner (½)
    assert gains(events) == [0.5, 1]


def test_scores_shown_in_halves():
    state = position(2, [], scores=[3.5, 0])
    view = GAME.view(state, None)
    assert view["scores"] == [3.5, 0] and view["scores_text"] == ["3½", "0"]


# --- passing and the end -------------------------------------------------------------------------------------


def test_pass_is_refused_while_a_placement_exists():
    state = position(2, [(V, "O@e5")], to_move=B)
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        play(state, B, "pass")


def test_passing_is_not_permanent():
    state = position(2, [(V, "O@e5")], to_move=V)
    assert GAME.legal_moves(state, V) == ["pass"]  # nothing of Blue's to touch
    state, events = play(state, V, "pass")
    assert events[0]["type"] == "pass" and GAME.view(state, None)["passes_in_a_row"] == 1
    state, _ = play(state, B, "e4N:A.A")
    assert GAME.view(state, None)["passes_in_a_row"] == 0
    assert GAME.legal_moves(state, V) != ["pass"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_ends_after_a_full_round_of_passes(players):
    state = position(players, [(0, "O@e5")], to_move=0, supplies=[{}] * players, scores=[1, 2, 0.5, 2][:players])
    for seat in range(players):
        assert GAME.outcome(state) is None
        assert GAME.legal_moves(state, seat) == ["pass"]
        state, events = play(state, seat, "pass")
    assert events[0]["empty_supply"] is True
    outcome = GAME.outcome(state)
    assert outcome is not None and GAME.to_act(state) == []
    end = next(ev for ev in events if ev["type"] == "end")
    if players == 2:
        assert outcome.winners == (1,) and end["winners"] == [1]
    else:  # equal highest scores share the win
        assert outcome.winners == ((1,) if players == 3 else (1, 3))
    with pytest.raises(IllegalMoveError, match="over"):
        play(state, 0, "pass")


def test_not_your_turn():
    state = position(2, [(V, "O@e5")], to_move=B)
    with pytest.raises(IllegalMoveError, match="not your turn"):
        play(state, V, "e4N:A.A")


# --- events and view -----------------------------------------------------------------------------------------


def test_events_and_narration():
    state = position(2, [(V, "c3N:A.A")], to_move=B)
    _, events = play(state, B, "c4E:A.A")
    place, score = events
    assert place["type"] == "place" and place["owner"] == B and place["move"] == "c4E:A.A"
    assert place["segments"] == [["c4", "d4"]] and ["c4", "E"] in place["triangles"]
    assert GAME.describe(place) == "Blue places 1 segment A·A c4E:A.A"
    assert GAME.describe(score) == "Scores: Vermilion +½, Blue +½"
    assert GAME.describe({"type": "pass", "seat": 0, "empty_supply": False}) == (
        "Vermilion cannot place a tile and passes")


def test_view_carries_what_a_renderer_needs():
    view = GAME.view(position(4, [(V, "O@e5"), (B, "e4N:A.Wl")], to_move=Y), 2)
    assert view["seat_names"] == ["Vermilion", "Blue", "Yellow", "Green"]
    assert len(view["seat_colours"]) == 4 and view["viewer"] == 2
    assert view["supplies"][B]["1AW"] == 2 and view["supplies"][V]["O"] == 0
    tile = view["tiles"][1]
    assert tile["owner"] == B and tile["caps"][1]["cap"] == "Wl"
    assert {"at", "half_diagonal", "tiles", "ends"} <= view["contacts"][0].keys()
    assert GAME.render_text(view)
