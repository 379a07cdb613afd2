"""Mycenae: one scenario per rule and per decision of docs/rules/mycenae.md, for two players and for four.

Positions are built with `position()` from a sparse {square: cell} dict (cells: owner seat + letter, M = Mycenaean
knight). With two players contract seat 1 is the h8 corner.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games import IllegalMoveError, MoveSyntaxError, Outcome
from bot.games.mycenae import GAME, INFO, position

G = GAME
PLAIN2 = ("plain", "plain")
MIXED = ("mycenae", "plain")
MYC2 = ("mycenae", "mycenae")


def at(pieces: dict[str, str], n: int = 2, turn: int = 0, cargo=None, armies=None, out=(), known=None):
    """A position from {square: cell}, e.g. {"a1": "0K", "d4": "0M"}."""
    rows = []
    for rank in range(8, 0, -1):
        rows.append(" ".join(pieces.get(f"{f}{rank}", ".") for f in "abcdefgh"))
    return position("\n".join(rows), n, turn, cargo, armies, out, known)


def play(state, seat, *moves):
    for move in moves:
        state, _ = G.apply(state, seat, move)
    return state


def cells(state) -> dict[str, str]:
    return {p["square"]: f"{p['owner']}{'M' if p['mycenaean'] else p['type']}" for p in G.view(state, None)["board"]}


def targets(state, seat, origin) -> set[str]:
    return {m for m in G.legal_moves(state, seat) if m[:2] == origin and m[2] in "-x"}


def cargo_of(state, seat, square) -> list[str]:
    return [f"{p['owner']}{p['type']}" for p in G.view(state, seat)["cargo"][square]]


# --- frame: seats, corners, armies ------------------------------------------------------------------------------


def test_two_plain_players_sit_at_a1_and_h8():
    s = G.new_state(2, 0, {"armies": ["plain", "plain"]})
    assert cells(s) == {
        "a1": "0K", "b1": "0R", "c1": "0B", "d1": "0N", "a2": "0P", "b2": "0P", "c2": "0P", "d2": "0P",
        "h8": "1K", "g8": "1R", "f8": "1B", "e8": "1N", "h7": "1P", "g7": "1P", "f7": "1P", "e7": "1P",
    }
    assert G.view(s, None)["seat_names"] == ["a1", "h8"] == list(INFO.seat_names)
    assert G.to_act(s) == [0]


def test_four_plain_players_fill_the_four_corners_clockwise():
    s = G.new_state(4, 0, {"armies": ["plain"] * 4})
    c = cells(s)
    assert {sq: c[sq] for sq in ("a8", "a7", "a6", "a5", "b8", "b7", "b6", "b5")} == {
        "a8": "1K", "a7": "1R", "a6": "1B", "a5": "1N", "b8": "1P", "b7": "1P", "b6": "1P", "b5": "1P"}
    assert {sq: c[sq] for sq in ("h1", "h2", "h3", "h4", "g1", "g2", "g3", "g4")} == {
        "h1": "3K", "h2": "3R", "h3": "3B", "h4": "3N", "g1": "3P", "g2": "3P", "g3": "3P", "g4": "3P"}
    assert c["h8"] == "2K" and c["a1"] == "0K" and len(c) == 32
    assert G.view(s, None)["seat_names"] == ["a1", "a8", "h8", "h1"]


def test_three_players_take_a1_a8_and_h8():
    s = G.new_state(3, 0, {"armies": ["plain"] * 3})
    assert G.view(s, None)["corners"] == ["a1", "a8", "h8"]
    assert {c for c in cells(s).values() if c[1] == "K"} == {"0K", "1K", "2K"}
    assert cells(s)["a8"] == "1K" and cells(s)["h8"] == "2K"


@pytest.mark.parametrize("n,expected", [
    (2, {"b2", "d2", "c1", "g7", "e7", "f8"}),
    (4, {"b2", "d2", "c1", "b7", "b5", "a6", "g7", "e7", "f8", "g2", "g4", "h3"}),
])
def test_mycenae_army_starts_as_three_knights_and_nothing_else(n, expected):
    s = G.new_state(n, 0, {"armies": ["mycenae"] * n})
    board = G.view(s, None)["board"]
    assert {p["square"] for p in board} == expected
    assert all(p["mycenaean"] and p["type"] == "N" for p in board)


def test_armies_option_defaults_and_choices():
    spec = INFO.option("armies")
    assert spec.per_seat and spec.choices == ("mycenae", "plain") and list(spec.default) == ["mycenae", "plain"]
    assert G.view(G.new_state(2, 0), None)["armies"] == ["mycenae", "plain"]
    assert G.view(G.new_state(3, 0), None)["armies"] == ["mycenae", "plain", "plain"]
    assert G.view(G.new_state(4, 0), None)["armies"] == ["mycenae", "plain", "plain", "plain"]
    assert G.view(G.new_state(2, 0, {"armies": ["plain", "mycenae"]}), None)["armies"] == ["plain", "mycenae"]


def test_a_short_armies_list_is_filled_with_plain_armies():
    # the option's default is the two-player list; with more players the rest play plain
    default = list(INFO.option("armies").default)
    assert G.view(G.new_state(4, 0, {"armies": default}), None)["armies"] == ["mycenae", "plain", "plain", "plain"]
    assert G.view(G.new_state(3, 0, {"armies": ["Plain"]}), None)["armies"] == ["plain"] * 3


@pytest.mark.parametrize("armies", [["mycenae", "plain", "plain"], ["mycenae", "persia"], "mycenae"])
def test_bad_armies_are_refused(armies):
    with pytest.raises(ValueError):
        G.new_state(2, 0, {"armies": armies})


def test_turns_go_round_clockwise_and_skip_players_out():
    s = at({"a1": "0K", "a8": "1K", "h8": "2K", "h1": "3K", "c3": "0R", "c6": "1R", "f6": "2R", "f3": "3R"},
           n=4, armies=["plain"] * 4)
    order = []
    for move in ("c3-c4", "c6-d6", "f6-f7", "f3-f2"):
        order.append(G.to_act(s)[0])
        s = play(s, G.to_act(s)[0], move)
    assert order == [0, 1, 2, 3] and G.to_act(s) == [0]
    s = at({"a1": "0K", "h8": "2K", "h1": "3K", "c3": "0R", "f6": "2R", "f3": "3R", "a2": "0P", "h7": "2P",
            "g1": "3P"}, n=4, out=[1],
           armies=["plain"] * 4)
    assert G.to_act(play(s, 0, "c3-c4")) == [2]


# --- pieces: pawns, promotion, no castling, no en passant -------------------------------------------------------

KINGS4 = {"a1": "0K", "a8": "1K", "h8": "2K", "h1": "3K", "b1": "0R", "a7": "1R", "g8": "2R", "h2": "3R"}


@pytest.mark.parametrize("seat,pawn,expected", [
    (0, "c2", {"c2-c3", "c2-c4"}),
    (1, "b5", {"b5-c5", "b5-d5"}),
    (2, "f7", {"f7-f6", "f7-f5"}),
    (3, "g4", {"g4-f4", "g4-e4"}),
])
def test_pawns_move_towards_their_side_and_double_step_from_their_second_row(seat, pawn, expected):
    s = at({**KINGS4, pawn: f"{seat}P"}, n=4, turn=seat, armies=["plain"] * 4)
    assert targets(s, seat, pawn) == expected


@pytest.mark.parametrize("seat,pawn,expected", [
    (0, "c3", {"c3-c4"}),
    (1, "c5", {"c5-d5"}),
    (2, "f6", {"f6-f5"}),
    (3, "f4", {"f4-e4"}),
])
def test_no_double_step_away_from_the_second_row(seat, pawn, expected):
    s = at({**KINGS4, pawn: f"{seat}P"}, n=4, turn=seat, armies=["plain"] * 4)
    assert targets(s, seat, pawn) == expected


def test_double_step_needs_both_squares_empty():
    s = at({"a1": "0K", "h8": "1K", "c2": "0P", "c4": "1R", "e2": "0P", "e3": "1R"}, armies=PLAIN2)
    assert targets(s, 0, "c2") == {"c2-c3"}
    assert targets(s, 0, "e2") == set()


def test_pawns_capture_diagonally_forward_per_seat():
    s = at({**KINGS4, "c5": "1P", "d6": "2R", "d4": "3B", "b4": "0B"}, n=4, turn=1, armies=["plain"] * 4)
    assert targets(s, 1, "c5") == {"c5-d5", "c5xd6", "c5xd4"}


def test_no_en_passant():
    s = at({"a1": "0K", "h8": "1K", "d5": "0P", "e7": "1P"}, turn=1, armies=PLAIN2)
    s = play(s, 1, "e7-e5")
    assert targets(s, 0, "d5") == {"d5-d6"}


def test_no_castling():
    s = at({"e1": "0K", "h1": "0R", "h8": "1K"}, armies=PLAIN2)
    assert targets(s, 0, "e1") == {"e1-d1", "e1-d2", "e1-e2", "e1-f2", "e1-f1"}


@pytest.mark.parametrize("seat,pawn,edge", [(0, "c7", "c8"), (1, "g5", "h5"), (2, "f2", "f1"), (3, "b4", "a4")])
def test_promotion_on_the_far_edge_to_started_types(seat, pawn, edge):
    s = at({**KINGS4, pawn: f"{seat}P"}, n=4, turn=seat, armies=["plain"] * 4)
    assert targets(s, seat, pawn) == {f"{pawn}-{edge}={p}" for p in "RBN"}


def test_promotion_must_be_named_and_only_on_the_edge():
    s = at({"a1": "0K", "h8": "1K", "c7": "0P", "b8": "1R", "c5": "0P"}, armies=PLAIN2)
    with pytest.raises(IllegalMoveError, match="promotes"):
        G.apply(s, 0, "c7-c8")
    with pytest.raises(IllegalMoveError, match="far edge"):
        G.apply(s, 0, "c5-c6=R")
    assert "c7xb8=N" in G.legal_moves(s, 0)
    t = play(s, 0, "c7xb8=N")
    assert cells(t)["b8"] == "0N"


def test_plain_promotion_to_knight_makes_a_plain_knight():
    s = at({"a1": "0K", "h8": "1K", "c7": "0P"}, armies=PLAIN2)
    p = play(s, 0, "c7-c8=N")
    c8 = next(p for p in G.view(p, None)["board"] if p["square"] == "c8")
    assert c8 == {"square": "c8", "owner": 0, "type": "N", "mycenaean": False}


def test_mycenae_promotion_to_n_makes_a_new_empty_mycenaean_knight():
    s = at({"a1": "0K", "h8": "1K", "c7": "0P"}, armies=("mycenae", "plain"))
    s = play(s, 0, "c7-c8=N")
    assert cells(s)["c8"] == "0M"
    assert cargo_of(s, 0, "c8") == [] and G.view(s, None)["known_cargo"]["c8"] == []
    assert G.view(s, None)["promotions"][0]["N"].startswith("Mycenaean knight")


def test_pawn_taken_over_moves_towards_its_new_owner_far_edge():
    # decision: a pawn always goes towards its current owner's far edge
    s = at({"a1": "0K", "b3": "0R", "b8": "1K", "h8": "2K", "h7": "2P", "e6": "1P"}, n=3, armies=["plain"] * 3)
    s = play(s, 0, "b3xb8")  # king of a8 captured: a1 takes over the pawn on e6
    assert cells(s)["e6"] == "0P"
    s = play(s, 2, "h8-g8")
    assert targets(s, 0, "e6") == {"e6-e7"}


# --- no check: king capture, single unit, take-over -------------------------------------------------------------


def test_moving_into_attack_is_legal_and_capturing_the_king_wins():
    s = at({"a1": "0K", "g1": "0R", "h8": "1K", "b3": "1R"}, armies=PLAIN2)
    assert {"a1-b1", "a1-b2"} <= set(G.legal_moves(s, 0))  # no check: both squares are attacked
    s = play(s, 0, "a1-b2")
    s, events = G.apply(s, 1, "b3xb2")
    assert G.outcome(s) == Outcome((1,), "a1 lost the king")
    assert G.to_act(s) == [] and G.legal_moves(s, 0) == []
    assert [e["type"] for e in events][-2:] == ["out", "game_over"]
    with pytest.raises(IllegalMoveError, match="over"):
        G.apply(s, 0, "g1-g2")


def test_capturing_a_king_with_three_players_takes_over_the_rest():
    s = at({"a1": "0K", "b3": "0R", "b8": "1K", "c6": "1B", "d5": "1P", "h8": "2K", "h7": "2P"}, n=3,
           armies=["plain"] * 3)
    s, events = G.apply(s, 0, "b3xb8")
    assert G.outcome(s) is None and G.view(s, None)["out"] == [1]
    assert cells(s)["c6"] == "0B" and cells(s)["d5"] == "0P"
    assert any(e["type"] == "takeover" and e["seat"] == 0 and e["taken"] == 1 for e in events)
    assert G.to_act(s) == [2]


def test_single_unit_rule_two_players():
    s = at({"a1": "0K", "b3": "0R", "h8": "1K", "b6": "1B"}, armies=PLAIN2)
    s = play(s, 0, "b3xb6")
    assert G.outcome(s) == Outcome((0,), "h8 was reduced to a single unit")


def test_single_unit_player_loses_his_last_unit_with_three_players():
    s = at({"a1": "0K", "b3": "0R", "a8": "1K", "b6": "1B", "h8": "2K", "g8": "2R"}, n=3, armies=["plain"] * 3)
    s, events = G.apply(s, 0, "b3xb6")
    assert G.outcome(s) is None and G.view(s, None)["out"] == [1]
    assert "a8" not in cells(s)  # removed, not taken over
    assert not any(e["type"] == "takeover" for e in events)
    assert G.to_act(s) == [2]


def test_carried_pieces_count_as_units():
    s = at({"c4": "0M", "a5": "0P", "h8": "1K", "h5": "1R"}, turn=1, cargo={"c4": "0K"}, armies=MIXED)
    s = play(s, 1, "h5xa5")  # a1 keeps the knight and the king inside it: two units, still in
    assert G.outcome(s) is None and G.view(s, None)["out"] == []


def test_mover_reduced_to_a_single_unit_by_his_own_burn_is_out():
    s = at({"a1": "0K", "c4": "0M", "h8": "1K", "h1": "1R"}, cargo={"c4": "0P"}, armies=("mycenae", "plain"))
    s = play(s, 0, "burn c4")
    assert G.outcome(s) == Outcome((1,), "a1 was reduced to a single unit")


def test_others_are_judged_first_so_a_burn_killing_the_last_king_wins():
    s = at({"a1": "0K", "c4": "0M", "c5": "1K", "h1": "1R"}, cargo={"c4": "0P"}, armies=("mycenae", "plain"))
    s = play(s, 0, "burn c4")
    assert G.outcome(s) == Outcome((0,), "h8 lost the king")


# --- Mycenaean knights --------------------------------------------------------------------------------------------

def test_mycenaean_knight_leaps_but_never_captures():
    s = at({"a1": "0K", "d4": "0M", "h8": "1K", "e6": "1R", "c6": "0B"}, cargo={"d4": "0P"}, armies=MIXED)
    leaps = targets(s, 0, "d4")
    assert leaps == {"d4-b5", "d4-b3", "d4-c2", "d4-e2", "d4-f3", "d4-f5"}
    with pytest.raises(IllegalMoveError, match="cannot capture"):
        G.apply(s, 0, "d4xe6")


def test_plain_knight_captures_as_in_chess():
    s = at({"a1": "0K", "d4": "0N", "h8": "1K", "e6": "1R"}, armies=PLAIN2)
    assert "d4xe6" in targets(s, 0, "d4")


def test_cargo_travels_with_its_knight():
    s = at({"a1": "0K", "d4": "0M", "h8": "1K"}, cargo={"d4": "0R 0P"}, armies=MIXED)
    s = play(s, 0, "d4-f5")
    assert cargo_of(s, 0, "f5") == ["0R", "0P"]


def test_load_own_adjacent_pieces_any_number():
    s = at({"a1": "0K", "d4": "0M", "c3": "0P", "c5": "0R", "e4": "0B", "b2": "0B", "h8": "1K"}, armies=MIXED)
    loads = {m for m in G.legal_moves(s, 0) if m.startswith("load")}
    assert len(loads) == 7 and "load d4 c3 c5 e4" in loads
    s2, events = G.apply(s, 0, "load d4 e4 c3 c5")  # any order typed; recorded sorted by file then rank
    assert G.view(s2, None)["last_move"] == "load d4 c3 c5 e4"
    assert {"c3", "c5", "e4"}.isdisjoint(cells(s2))
    assert sorted(cargo_of(s2, 0, "d4")) == ["0B", "0P", "0R"]
    assert sorted(p["type"] for p in G.view(s2, None)["known_cargo"]["d4"]) == ["B", "P", "R"]
    assert events[0]["type"] == "load" and events[0]["visible_to"] is None


def test_load_refuses_far_pieces_and_knights():
    s = at({"a1": "0K", "d4": "0M", "b2": "0B", "c5": "0N", "d5": "0M", "e5": "1R", "h8": "1K"}, armies=MIXED)
    with pytest.raises(IllegalMoveError, match="not next to"):
        G.apply(s, 0, "load d4 b2")
    with pytest.raises(IllegalMoveError, match="Knights cannot carry knights"):
        G.apply(s, 0, "load d4 c5")
    with pytest.raises(IllegalMoveError, match="Knights cannot carry knights"):
        G.apply(s, 0, "load d4 d5")
    assert [m for m in G.legal_moves(s, 0) if m.startswith("load")] == ["load d4 e5", "load d5 e5"]  # requests


def test_unload_places_pieces_on_different_empty_squares_around():
    s = at({"a1": "0K", "d4": "0M", "e5": "1R", "h8": "1K"}, cargo={"d4": "0R 0B 0P"}, armies=MIXED)
    s2 = play(s, 0, "unload d4 P@e3 R@c5")
    assert G.view(s2, None)["last_move"] == "unload d4 R@c5 P@e3"
    assert cells(s2)["c5"] == "0R" and cells(s2)["e3"] == "0P" and cargo_of(s2, 0, "d4") == ["0B"]
    with pytest.raises(IllegalMoveError, match="not empty"):
        G.apply(s, 0, "unload d4 R@e5")
    with pytest.raises(IllegalMoveError, match="not next to"):
        G.apply(s, 0, "unload d4 R@d6")
    with pytest.raises(IllegalMoveError, match="does not carry"):
        G.apply(s, 0, "unload d4 K@d5")
    with pytest.raises(MoveSyntaxError):
        G.apply(s, 0, "unload d4 R@d5 B@d5")


def test_unload_counts_every_distribution():
    # one full knight (K R B B P P P) with eight empty squares around: the page's "about 40,000"
    s = at({"d4": "0M", "h8": "1K", "h1": "1R"}, cargo={"d4": "0K 0R 0B 0B 0P 0P 0P"}, armies=MIXED)
    unloads = [m for m in G.legal_moves(s, 0) if m.startswith("unload")]
    assert len(unloads) == len(set(unloads)) == 39932


def test_pawn_may_not_be_unloaded_onto_its_promotion_edge():
    s = at({"a1": "0K", "b7": "0M", "h8": "1K"}, cargo={"b7": "0P"}, armies=MIXED)
    spots = {m.split("@")[1] for m in G.legal_moves(s, 0) if m.startswith("unload")}
    assert spots == {"a6", "a7", "b6", "c6", "c7"}
    with pytest.raises(IllegalMoveError, match="promotion edge"):
        G.apply(s, 0, "unload b7 P@b8")
    # with four players the edge depends on the owner: a8's pawns may not land on file h
    s4 = at({**KINGS4, "g5": "1M"}, n=4, turn=1, cargo={"g5": "1P"}, armies=["plain", "mycenae", "plain", "plain"])
    spots = {m.split("@")[1] for m in G.legal_moves(s4, 1) if m.startswith("unload")}
    assert spots == {"f4", "f5", "f6", "g4", "g6"}


def test_pawn_unloaded_on_its_first_row_steps_one_square_only():
    s = at({"b2": "0M", "h8": "1K", "h1": "1R", "a8": "0K"}, cargo={"b2": "0P"}, armies=MIXED)
    assert "unload b2 P@c1" in G.legal_moves(s, 0)
    s = play(s, 0, "unload b2 P@c1")
    s = play(s, 1, "h1-h2")
    assert targets(s, 0, "c1") == {"c1-c2"}  # no double step from the first row


def test_first_row_pawn_still_captures():
    # decision: "only one square forward" rules out the double step, not the diagonal capture
    s = at({"h8": "1K", "a8": "0K", "c1": "0P", "b2": "1B", "d2": "0R"}, armies=MIXED)
    assert targets(s, 0, "c1") == {"c1-c2", "c1xb2"}


def test_burn_destroys_knight_cargo_and_orthogonal_neighbours_only():
    s = at({
        "a1": "0K", "a2": "0P", "d4": "0M", "d5": "1P", "c4": "0B", "e4": "1M", "f4": "1B", "e5": "1R", "h8": "1K",
    }, cargo={"d4": "0P", "e4": "1R"}, armies=MYC2)
    s2, events = G.apply(s, 0, "burn d4")
    left = cells(s2)
    assert {"d4", "d5", "c4", "e4"}.isdisjoint(left)
    assert left["f4"] == "1B" and left["e5"] == "1R"  # diagonal neighbour and the neighbour's neighbour survive
    assert all(e["visible_to"] is None for e in events)
    revealed = {r["square"]: [p["type"] for p in r["pieces"]] for r in G.view(s2, None)["revealed"]}
    assert revealed == {"d4": ["P"], "e4": ["R"]}
    destroyed = next(e for e in events if e["type"] == "destroyed")["pieces"]
    assert {p["square"] for p in destroyed} == {"d4", "d5", "c4", "e4"}
    assert G.view(s2, None)["quiet_turns"] == 0


def test_burn_needs_cargo():
    s = at({"a1": "0K", "d4": "0M", "h8": "1K"}, armies=MIXED)
    assert "burn d4" not in G.legal_moves(s, 0)
    with pytest.raises(IllegalMoveError, match="carries something"):
        G.apply(s, 0, "burn d4")


@pytest.mark.parametrize("extra,cargo", [
    ({"d5": "0K"}, {"d4": "0P"}),                        # own king orthogonally next to it
    ({"a2": "0P"}, {"d4": "0K 0P"}),                     # own king inside
    ({"e4": "0M"}, {"d4": "0P", "e4": "0K"}),           # own king inside a neighbouring knight
])
def test_burn_destroying_own_king_is_illegal(extra, cargo):
    s = at({"d4": "0M", "h8": "1K", **extra}, cargo=cargo, armies=MIXED)
    assert "burn d4" not in G.legal_moves(s, 0)
    with pytest.raises(IllegalMoveError, match="own king"):
        G.apply(s, 0, "burn d4")


def test_own_king_diagonal_to_a_burn_is_safe():
    s = at({"d4": "0M", "e5": "0K", "h8": "1K"}, cargo={"d4": "0P"}, armies=MIXED)
    assert "burn d4" in G.legal_moves(s, 0)


def test_captured_knight_loses_its_cargo_and_the_king_inside_means_out():
    s = at({"d4": "0M", "h8": "1K", "d8": "1R", "h1": "0R"}, turn=1, cargo={"d4": "0K 0B"}, armies=MIXED)
    s, events = G.apply(s, 1, "d8xd4")
    assert G.outcome(s) == Outcome((1,), "a1 lost the king")
    reveal = next(e for e in events if e["type"] == "cargo_destroyed")
    assert reveal["visible_to"] is None and sorted(p["type"] for p in reveal["pieces"]) == ["B", "K"]


def test_burn_destroying_a_neighbouring_knight_with_the_king_inside_knocks_its_owner_out():
    s = at({"a1": "0K", "a2": "0P", "d4": "0M", "e4": "1M", "h8": "1M"}, cargo={"d4": "0P", "e4": "1K 1B"},
           armies=MYC2)
    s, events = G.apply(s, 0, "burn d4")
    assert G.outcome(s) == Outcome((0,), "h8 lost the king")
    reveals = {e["square"]: [p["type"] for p in e["pieces"]] for e in events if e["type"] == "cargo_destroyed"}
    assert reveals == {"d4": ["P"], "e4": ["K", "B"]}


def test_burn_knocks_out_several_players_and_the_mover_takes_over_both():
    armies = ["mycenae", "plain", "plain", "plain"]
    s = at({"a1": "0K", "d4": "0M", "d5": "1K", "a8": "1R", "e4": "2K", "h8": "2B", "h1": "3K", "c5": "3P"},
           n=4, cargo={"d4": "0P"}, armies=armies)
    s, events = G.apply(s, 0, "burn d4")
    assert G.outcome(s) is None and G.view(s, None)["out"] == [1, 2]
    assert cells(s)["a8"] == "0R" and cells(s)["h8"] == "0B" and cells(s)["c5"] == "3P"
    assert [e["taken"] for e in events if e["type"] == "takeover"] == [1, 2]
    assert G.to_act(s) == [3]


def test_burn_knocking_out_every_other_player_wins():
    armies = ["mycenae", "plain", "plain", "plain"]
    s = at({"a1": "0K", "d4": "0M", "d5": "1K", "e4": "2K", "d3": "3K"}, n=4, cargo={"d4": "0P"}, armies=armies)
    s = play(s, 0, "burn d4")
    assert G.outcome(s).winners == (0,)


def test_knight_taken_over_loses_its_cargo():
    armies = ["plain", "mycenae", "plain"]
    s = at({"a1": "0K", "b3": "0R", "b8": "1K", "c6": "1M", "h8": "2K", "h7": "2P"}, n=3, cargo={"c6": "1R 1P"},
           armies=armies)
    s, events = G.apply(s, 0, "b3xb8")
    assert cells(s)["c6"] == "0M"
    reveal = next(e for e in events if e["type"] == "cargo_destroyed")
    assert reveal["cause"] == "taken over" and sorted(p["type"] for p in reveal["pieces"]) == ["P", "R"]
    assert G.view(s, 0)["cargo"]["c6"] == []


def test_the_power_lives_in_the_horse_after_a_take_over():
    armies = ["plain", "mycenae", "plain"]
    s = at({"a1": "0K", "b3": "0R", "b8": "1K", "c6": "1M", "h8": "2K", "d8": "2R", "d5": "0P"}, n=3,
           armies=armies)
    s = play(s, 0, "b3xb8")
    s = play(s, 2, "h8-h7")
    assert "load c6 d5" in G.legal_moves(s, 0)
    assert "c6xd8" not in G.legal_moves(s, 0)  # and it still never captures


# --- hidden cargo setup -------------------------------------------------------------------------------------------


def test_cargo_setup_is_secret_and_simultaneous():
    s = G.new_state(4, 0, {"armies": ["mycenae", "plain", "mycenae", "plain"]})
    assert G.to_act(s) == [0, 2]
    moves = G.legal_moves(s, 2)
    assert len(moves) == len(set(moves)) == 540 and G.legal_moves(s, 1) == []
    assert "cargo g7:K,R,B,B,P,P,P" in moves and "cargo g7:K,P e7:R,B f8:B,P,P" in moves
    assert all(G.is_private_move(m) for m in moves) and not G.is_private_move("b1-b3")
    with pytest.raises(IllegalMoveError):
        G.apply(s, 0, "b2-a4")  # nobody moves before everyone has chosen
    s, events = G.apply(s, 2, "cargo f8:P,P,B e7:B,R g7:P,K")  # typed in any order, recorded canonically
    assert events == [{"type": "cargo", "visible_to": [2], "seat": 2, "move": "cargo g7:K,P e7:R,B f8:B,P,P",
                       "cargo": {"g7": ["K", "P"], "e7": ["R", "B"], "f8": ["B", "P", "P"]}}]
    assert G.to_act(s) == [0] and G.legal_moves(s, 2) == []
    assert G.view(s, None)["last_move"] is None
    with pytest.raises(IllegalMoveError, match="chosen"):
        G.apply(s, 2, "cargo g7:K,R,B,B,P,P,P")
    s = play(s, 0, "cargo b2:K,R,B,B,P,P,P")
    assert G.to_act(s) == [0] and G.view(s, 0)["cargo"]["b2"][0] == {"owner": 0, "type": "K"}
    assert G.view(s, 2)["cargo"] == {"e7": [{"owner": 2, "type": "R"}, {"owner": 2, "type": "B"}],
                                     "f8": [{"owner": 2, "type": "B"}, {"owner": 2, "type": "P"},
                                            {"owner": 2, "type": "P"}],
                                     "g7": [{"owner": 2, "type": "K"}, {"owner": 2, "type": "P"}]}
    assert G.view(s, None)["cargo"] == {} and G.view(s, 1)["cargo"] == {}


@pytest.mark.parametrize("bad", [
    "cargo b2:K,R,B,B,P,P",          # a pawn missing
    "cargo b2:K,R,B,B,P,P,P,P",      # one too many
    "cargo b2:K,R,B,B,P,P e7:P",     # not a knight of this seat
    "cargo b2:K,R,B b2:B,P,P,P",     # a knight twice
])
def test_bad_cargo_is_refused(bad):
    s = G.new_state(2, 0)
    with pytest.raises(IllegalMoveError):
        G.apply(s, 0, bad)


def test_no_setup_when_nobody_plays_mycenae():
    s = G.new_state(2, 0, {"armies": ["plain", "plain"]})
    assert G.to_act(s) == [0] and "d2-d4" in G.legal_moves(s, 0)


# --- loading another player's pieces (three or more players) ---------------------------------------------------

ARMIES3 = ["mycenae", "plain", "plain"]


def consent_position():
    return at({"a1": "0K", "d4": "0M", "c3": "0P", "c5": "1R", "e5": "2B", "a8": "1K", "h8": "2K"},
              n=3, cargo={"d4": "0B"}, armies=ARMIES3)


def test_a_load_naming_another_players_pieces_is_a_request_for_one_player_only():
    s = consent_position()
    loads = {m for m in G.legal_moves(s, 0) if m.startswith("load")}
    assert loads == {"load d4 c3", "load d4 c5", "load d4 c3 c5", "load d4 e5", "load d4 c3 e5"}
    with pytest.raises(IllegalMoveError, match="one other player"):
        G.apply(s, 0, "load d4 c5 e5")


def test_request_then_consent_loads_and_passes_the_turn():
    s = consent_position()
    s, events = G.apply(s, 0, "load d4 c3 c5")
    assert events[0]["type"] == "request" and events[0]["visible_to"] is None
    assert G.to_act(s) == [1] and G.legal_moves(s, 1) == ["consent", "refuse"] and G.legal_moves(s, 0) == []
    v = G.view(s, None)
    assert v["pending"] == {"requester": 0, "asked": 1, "move": "load d4 c3 c5", "knight": "d4",
                            "squares": ["c3", "c5"]}
    assert v["turn"] == 0 and cells(s)["c5"] == "1R"
    with pytest.raises(IllegalMoveError):
        G.apply(s, 0, "d4-b5")
    s = play(s, 1, "consent")
    assert {"c3", "c5"}.isdisjoint(cells(s)) and G.to_act(s) == [1]
    assert sorted(cargo_of(s, 0, "d4")) == ["0B", "0P", "1R"]
    assert sorted(f"{p['owner']}{p['type']}" for p in G.view(s, None)["known_cargo"]["d4"]) == ["0P", "1R"]
    assert G.view(s, None)["pending"] is None


def test_refused_request_is_not_legal_again_that_turn():
    s = consent_position()
    s = play(s, 0, "load d4 c5")
    s, events = G.apply(s, 1, "refuse")
    assert [e["type"] for e in events] == ["refuse"]
    assert G.to_act(s) == [0] and cells(s)["c5"] == "1R"
    assert "load d4 c5" not in G.legal_moves(s, 0) and "load d4 c3 c5" in G.legal_moves(s, 0)
    assert G.view(s, None)["refused"] == ["load d4 c5"]
    with pytest.raises(IllegalMoveError, match="refused"):
        G.apply(s, 0, "load d4 c5")
    s = play(s, 0, "d4-f3")  # the turn ends; next turn the request would be legal again
    assert G.view(s, None)["refused"] == []


def test_guests_are_unloaded_only_by_their_owner_on_his_turn():
    s = consent_position()
    s = play(s, 0, "load d4 c5")
    s = play(s, 1, "consent")
    assert G.to_act(s) == [1]
    mine = {m for m in G.legal_moves(s, 1) if m.startswith("unload")}
    assert "unload d4 R@c5" in mine and all(m.count("@") == 1 and "R@" in m for m in mine)
    s1 = play(s, 1, "unload d4 R@e3")
    assert cells(s1)["e3"] == "1R"
    s = play(s, 1, "a8-b8")
    s = play(s, 2, "h8-g8")
    with pytest.raises(IllegalMoveError, match="does not carry"):
        G.apply(s, 0, "unload d4 R@c5")
    assert not any("R@" in m for m in G.legal_moves(s, 0))
    with pytest.raises(IllegalMoveError, match="not your turn"):
        G.apply(s, 1, "unload d4 R@c5")


def test_guests_are_destroyed_with_the_knight_and_a_guest_king_means_out():
    s = at({"a1": "0K", "a2": "0P", "d4": "0M", "c5": "1K", "a7": "1R", "h8": "2K", "h4": "2R"}, n=3,
           cargo={"d4": "0B"},
           armies=ARMIES3)
    s = play(s, 0, "load d4 c5")
    s = play(s, 1, "consent")
    s = play(s, 1, "a7-b7")
    s, events = G.apply(s, 2, "h4xd4")
    assert G.view(s, None)["out"] == [1]
    assert cells(s)["b7"] == "2R"  # the capturer takes over the guest owner's pieces
    reveal = next(e for e in events if e["type"] == "cargo_destroyed")
    assert sorted(f"{p['owner']}{p['type']}" for p in reveal["pieces"]) == ["0B", "1K"]


def test_a_knight_carrying_only_guests_may_burn():
    s = at({"a1": "0K", "a2": "0P", "d4": "0M", "a8": "1K", "a7": "1P", "h8": "2K", "h7": "2P"}, n=3,
           cargo={"d4": "1R"}, known={"d4": "1R"}, armies=ARMIES3)
    assert "burn d4" in G.legal_moves(s, 0)


def test_mover_knocked_out_by_his_own_take_over_loses_everything():
    # a1's king rides as a guest in a8's knight: capturing a8's king takes the knight over, which destroys its
    # cargo, a1's king with it; nobody can inherit from a1, so all his pieces leave the board
    armies = ["plain", "mycenae", "plain", "plain"]
    s = at({"b3": "0R", "a2": "0P", "b8": "1K", "c6": "1M", "h8": "2K", "h7": "2P", "h1": "3K", "g1": "3P"},
           n=4, cargo={"c6": "0K 1P"}, known={"c6": "0K"}, armies=armies)
    s, events = G.apply(s, 0, "b3xb8")
    assert G.outcome(s) is None and G.view(s, None)["out"] == [0, 1]
    assert {"b8", "a2", "c6"}.isdisjoint(cells(s))
    assert G.to_act(s) == [2]
    assert [e["seat"] for e in events if e["type"] == "out"] == [1, 0]


def test_two_players_may_ask_the_opponent_to_load_his_pieces():
    s = at({"a1": "0K", "d4": "0M", "c3": "0P", "c5": "1R", "h8": "1K", "h7": "1P"}, cargo={"d4": "0B"},
           armies=MIXED)
    loads = {m for m in G.legal_moves(s, 0) if m.startswith("load")}
    assert loads == {"load d4 c3", "load d4 c5", "load d4 c3 c5"}
    s, events = G.apply(s, 0, "load d4 c3 c5")
    assert [e["type"] for e in events] == ["request"] and events[0]["asked"] == 1
    assert G.to_act(s) == [1] and G.legal_moves(s, 1) == ["consent", "refuse"] and G.legal_moves(s, 0) == []
    assert G.view(s, None)["pending"]["asked"] == 1 and cells(s)["c5"] == "1R"
    refused = play(s, 1, "refuse")  # nothing moves; a1 acts again, without that request
    assert G.to_act(refused) == [0] and cells(refused)["c5"] == "1R"
    assert "load d4 c3 c5" not in G.legal_moves(refused, 0) and "load d4 c5" in G.legal_moves(refused, 0)
    s = play(s, 1, "consent")  # the load happens and the turn passes on
    assert {"c3", "c5"}.isdisjoint(cells(s)) and G.to_act(s) == [1]
    assert sorted(cargo_of(s, 0, "d4")) == ["0B", "0P", "1R"]
    assert {m for m in G.legal_moves(s, 1) if m.startswith("unload")} >= {"unload d4 R@c5"}
    assert not any("R@" in m for m in G.legal_moves(play(s, 1, "h7-h6"), 0))  # only the owner unloads a guest


# --- no legal action -----------------------------------------------------------------------------------------------


def test_player_without_a_legal_action_is_out_two_players():
    # h8 has only a knight in the corner carrying the king: no empty leap, no empty square around, no burn, and
    # no request either, since knights around cannot be carried
    s = at({"a1": "0K", "h8": "1M", "g8": "0N", "g7": "0N", "h7": "0N", "f7": "0R", "e5": "0N"},
           cargo={"h8": "1K"}, armies=MIXED[::-1])
    s = play(s, 0, "e5-g6")
    assert G.outcome(s) == Outcome((0,), "h8 had no legal action")


def test_player_without_a_legal_action_is_taken_over_by_the_last_mover():
    # with three players a request to load a1's pieces would be an action: knights around cannot be carried
    s = at({"a1": "0K", "a8": "1M", "a7": "0N", "b7": "0N", "b8": "0N", "b6": "0R", "e8": "0N", "h8": "2K",
            "h7": "2P"}, n=3, cargo={"a8": "1K"}, armies=["plain", "mycenae", "plain"])
    s, events = G.apply(s, 0, "e8-c7")
    assert G.outcome(s) is None and G.view(s, None)["out"] == [1]
    assert cells(s)["a8"] == "0M" and G.to_act(s) == [2]
    assert any(e["type"] == "out" and e["reason"] == "had no legal action" for e in events)


# --- automatic draws -------------------------------------------------------------------------------------------------


def test_fifty_moves_by_every_player_draw_two_players():
    s = at({"a1": "0K", "h8": "1K", "h7": "1P", "c3": "0N", "c5": "0P"}, armies=PLAIN2)
    s = replace(s, quiet=99)
    drawn = play(s, 0, "c3-b5")
    assert G.outcome(drawn) == Outcome((), "fifty-move rule: 50 moves by every player without a capture, burn or "
                                           "pawn move")
    assert G.outcome(play(s, 0, "c5-c6")) is None  # a pawn move resets the count
    assert G.view(play(s, 0, "c5-c6"), None)["quiet_turns"] == 0
    assert G.outcome(play(replace(s, quiet=98), 0, "c3-b5")) is None


def test_fifty_moves_means_fifty_times_the_players_still_in():
    s = at({**KINGS4, "c3": "0N"}, n=4, armies=["plain"] * 4)  # everybody has two units at least
    assert G.view(s, None)["quiet_limit"] == 200
    assert G.outcome(play(replace(s, quiet=198), 0, "c3-b5")) is None
    assert G.outcome(play(replace(s, quiet=199), 0, "c3-b5")).winners == ()
    s = at({"a1": "0K", "h8": "2K", "h7": "2P", "h1": "3K", "g1": "3P", "c3": "0N"}, n=4, out=[1],
           armies=["plain"] * 4)
    assert G.view(s, None)["quiet_limit"] == 150
    assert G.outcome(play(replace(s, quiet=149), 0, "c3-b5")).winners == ()


def test_loads_and_unloads_do_not_reset_the_fifty_move_count():
    s = at({"a1": "0K", "d4": "0M", "c3": "0P", "h8": "1K"}, armies=MIXED)
    s = play(s, 0, "load d4 c3")
    assert G.view(s, None)["quiet_turns"] == 1


def test_threefold_repetition_is_a_draw():
    s = at({"a1": "0K", "b1": "0N", "h8": "1K", "g8": "1N"}, armies=PLAIN2)
    shuffle = [(0, "b1-c3"), (1, "g8-f6"), (0, "c3-b1"), (1, "f6-g8")]
    for seat, move in shuffle + shuffle[:3]:
        s = play(s, seat, move)
        assert G.outcome(s) is None
    s, events = G.apply(s, 1, "f6-g8")
    assert G.outcome(s) == Outcome((), "threefold repetition")
    assert events[-1] == {"type": "game_over", "visible_to": None, "winners": [], "reason": "threefold repetition"}


def test_repetition_counts_cargo_and_not_just_the_board():
    s = at({"a1": "0K", "c3": "0M", "e3": "0M", "h8": "1K", "g8": "1N"}, cargo={"c3": "0P"}, armies=MIXED)
    cycle = [(0, "unload c3 P@d4"), (1, "g8-f6"), (0, "load e3 d4"), (1, "f6-g8"),
             (0, "unload e3 P@d2"), (1, "g8-f6"), (0, "load c3 d2"), (1, "f6-g8")]
    # the board returns to the start every 4 plies, the complete state only every 8
    for seat, move in cycle + cycle[:7]:
        s = play(s, seat, move)
        assert G.outcome(s) is None, move
    s = play(s, 1, "f6-g8")
    assert G.outcome(s).reason == "threefold repetition"


def test_side_to_move_is_part_of_the_repeated_state():
    s = at({"a1": "0K", "b1": "0N", "h8": "1K", "g8": "1N"}, armies=PLAIN2)
    # a1's king walks a triangle so the same board recurs with the other side to move
    moves = [(0, "a1-a2"), (1, "g8-f6"), (0, "a2-b2"), (1, "f6-g8"), (0, "b2-a1"), (1, "g8-f6"),
             (0, "a1-a2"), (1, "f6-g8"), (0, "a2-b2"), (1, "g8-f6"), (0, "b2-a1"), (1, "f6-g8")]
    for seat, move in moves:
        s = play(s, seat, move)
    # the start board has now been seen three times (plies 0, 5, 12), once with h8 to move
    assert G.outcome(s) is None


# --- notation ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed,canonical", [
    ("B1-B5", "b1-b5"),
    ("  b1 x b5 ", "b1xb5"),
    ("a7-a8r", "a7-a8=R"),
    ("b7xa8=r", "b7xa8=R"),
    ("LOAD c4 d5 b3", "load c4 b3 d5"),
    ("unload c4 p@d5 k@b5", "unload c4 K@b5 P@d5"),
    ("Burn C4", "burn c4"),
    ("CONSENT", "consent"),
    ("cargo c1:p,b,p d2:b,r b2:p,k", "cargo c1:B,P,P d2:R,B b2:K,P"),
])
def test_notation_forgives_case_and_spaces(typed, canonical):
    from bot.games.mycenae import parse_move

    assert str(parse_move(typed)) == canonical
    assert str(parse_move(canonical)) == canonical


@pytest.mark.parametrize("text", ["", "b1", "b1-", "b1-b9", "i1-i2", "load", "load c4", "unload c4 Q@b5",
                                  "unload c4 K@b5 P@b5", "burn", "a7-a8=Q", "cargo b2", "load c4 b3 b3"])
def test_garbage_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        G.apply(G.new_state(2, 0, {"armies": ["plain", "plain"]}), 0, text)


def test_load_and_unload_sort_by_file_then_rank():
    s = at({"a1": "0K", "b2": "0M", "a3": "0P", "c1": "0B", "b3": "0R", "h8": "1K"}, cargo={"b2": "0P 0P 0R"},
           armies=MIXED)
    moves = G.legal_moves(s, 0)
    assert "load b2 a3 b3 c1" in moves
    assert "unload b2 P@a2 R@b1 P@c2" in moves and "unload b2 R@b1 P@a2 P@c2" not in moves


def test_wrong_seat_and_not_your_piece_messages():
    s = at({"a1": "0K", "h8": "1K", "h7": "1P", "a2": "0P"}, armies=PLAIN2)
    with pytest.raises(IllegalMoveError, match="not your turn"):
        G.apply(s, 1, "h7-h6")
    with pytest.raises(IllegalMoveError, match="not your piece"):
        G.apply(s, 0, "h7-h6")
    with pytest.raises(IllegalMoveError, match="no piece"):
        G.apply(s, 0, "c3-c4")
    with pytest.raises(IllegalMoveError, match="no request"):
        G.apply(s, 0, "consent")


# --- four players: the Mycenae actions from another corner -------------------------------------------------------

ARMIES4 = ["plain", "plain", "mycenae", "mycenae"]


def test_four_players_load_unload_and_burn_from_h1():
    s = at({**KINGS4, "e3": "3M", "d2": "3P", "f4": "3B", "e4": "2R", "e2": "0P", "d3": "1B"}, n=4, turn=3,
           cargo={"e3": "3R 3P"}, armies=ARMIES4)
    moves = G.legal_moves(s, 3)
    assert {"load e3 d2", "load e3 d2 f4", "load e3 f4", "burn e3"} <= set(moves)
    assert "unload e3 P@f2 R@f3" in moves and "unload e3 R@d4 P@f2 P@f3" not in moves  # one pawn inside
    burnt = play(s, 3, "burn e3")
    assert {"e3", "e4", "e2", "d3"}.isdisjoint(cells(burnt)) and cells(burnt)["d2"] == "3P"
    s = play(s, 3, "load e3 d2 f4")
    assert sorted(cargo_of(s, 3, "e3")) == ["3B", "3P", "3P", "3R"]
    assert G.to_act(s) == [0]


def test_four_players_pawn_unload_edge_for_h1_is_file_a():
    s = at({**KINGS4, "b5": "3M"}, n=4, turn=3, cargo={"b5": "3P"}, armies=ARMIES4)
    spots = {m.split("@")[1] for m in G.legal_moves(s, 3) if m.startswith("unload")}
    assert spots == {"b4", "b6", "c4", "c5", "c6"}


def test_four_players_request_goes_to_the_named_player_then_play_resumes_in_order():
    s = at({**KINGS4, "e5": "3M", "d6": "2P", "f4": "1B"}, n=4, turn=3, cargo={"e5": "3R"}, armies=ARMIES4)
    s = play(s, 3, "load e5 d6")
    assert G.to_act(s) == [2]
    s = play(s, 2, "refuse")
    s = play(s, 3, "load e5 f4")
    assert G.to_act(s) == [1]
    s = play(s, 1, "consent")
    assert G.to_act(s) == [0]  # the turn passes on from the requester
    assert sorted(f"{p['owner']}{p['type']}" for p in G.view(s, None)["known_cargo"]["e5"]) == ["1B"]


# --- views ----------------------------------------------------------------------------------------------------------


def test_view_carries_what_a_renderer_needs_and_hides_cargo():
    s = at({"a1": "0K", "d4": "0M", "c3": "0P", "h8": "1K", "h7": "1P"}, cargo={"d4": "0R 0B"}, armies=MIXED)
    s = play(s, 0, "load d4 c3")
    public, mine, theirs = G.view(s, None), G.view(s, 0), G.view(s, 1)
    assert {"board", "cargo", "known_cargo", "revealed", "armies", "corners", "seat_names", "out", "turn", "to_act",
            "pending", "refused", "last_move", "last_squares", "ply", "quiet_turns", "quiet_limit", "outcome",
            "setup", "promotions", "pawn_forward"} <= public.keys()
    assert public["cargo"] == {} and theirs["cargo"] == {}
    assert sorted(p["type"] for p in mine["cargo"]["d4"]) == ["B", "P", "R"]
    assert public["known_cargo"] == {"d4": [{"owner": 0, "type": "P"}]}
    assert public["last_move"] == "load d4 c3" and public["last_squares"] == ["d4", "c3"]
    assert public["armies"] == ["mycenae", "plain"] and public["corners"] == ["a1", "h8"]
    assert public["turn"] == 1 and public["to_act"] == [1] and public["ply"] == 1 and public["quiet_turns"] == 1
    assert public["pawn_forward"] == [[0, 1], [0, -1]]
    d4 = next(p for p in public["board"] if p["square"] == "d4")
    assert d4 == {"square": "d4", "owner": 0, "type": "N", "mycenaean": True}
    assert "'type': 'R'" not in str(public) + str(theirs)  # the rook is inside d4: nobody else sees it


def test_known_cargo_is_a_lower_bound_from_public_moves_only():
    s = at({"a1": "0K", "d4": "0M", "c3": "0P", "h8": "1K", "h7": "1P", "h1": "1R"}, cargo={"d4": "0P"},
           armies=MIXED)
    s = play(s, 0, "load d4 c3")
    s = play(s, 1, "h1-h2")
    s = play(s, 0, "unload d4 P@e5")
    # one pawn went in publicly, one came out: nobody but a1 can tell whether d4 still holds a pawn
    assert G.view(s, None)["known_cargo"]["d4"] == []
    assert G.view(s, 0)["cargo"]["d4"] == [{"owner": 0, "type": "P"}]


def test_events_narrate_in_one_line():
    s = at({"a1": "0K", "d4": "0M", "d5": "1P", "h8": "1K", "h7": "1P"}, cargo={"d4": "0P"}, armies=MIXED)
    _, events = G.apply(s, 0, "burn d4")
    lines = [G.describe(e) for e in events]
    assert lines[0] is None  # the burn itself: the caption names the move
    assert "the knight on d4 carried a pawn" in lines and "burnt: the Mycenaean knight on d4, the pawn on d5" in lines
    assert all("\n" not in line for line in lines if line)
    assert "d4" in G.render_text(G.view(s, 0))
