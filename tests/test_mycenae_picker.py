"""Mycenae's step-by-step picker and autocomplete: they never list every unload to build a menu."""

from __future__ import annotations

import pytest

import bot.games.mycenae.moves as mycenae  # where the unload lists are built
from bot.games.mycenae import GAME as G
from bot.games.mycenae import position

MIXED = ("mycenae", "plain")


def at(pieces, n=2, turn=0, cargo=None, armies=MIXED):
    rows = [" ".join(pieces.get(f"{f}{r}", ".") for f in "abcdefgh") for r in range(8, 0, -1)]
    return position("\n".join(rows), n, turn, cargo, armies)


FULL = {"d4": "0M", "a1": "0B", "h8": "1K", "h7": "1P", "c7": "0P", "b8": "1R"}
FULL_CARGO = {"d4": "0K 0R 0B 0B 0P 0P 0P"}


@pytest.fixture
def no_full_unload_lists(monkeypatch):
    """Make listing every unload of a knight fail: the picker and autocomplete must not need it."""
    def refuse(*args):
        raise AssertionError("the picker listed every unload")

    monkeypatch.setattr(mycenae, "_unload_texts", refuse)


def values(choices):
    return [o.value for o in choices.options]


def test_picker_goes_knight_then_pieces_then_squares(no_full_unload_lists):
    s = at(FULL, cargo=FULL_CARGO)
    first = G.choices(s, 0)
    assert values(first) == ["a1", "c7", "d4"] and first.move is None
    knight = G.choices(s, 0, ["d4"])
    # leaps, then the knight's actions (no burn: the king is inside)
    assert values(knight) == ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5", "unload"]
    pieces = G.choices(s, 0, ["d4", "unload"])
    assert values(pieces) == ["K", "R", "B", "P"] and pieces.move is None
    squares = G.choices(s, 0, ["d4", "unload", "P"])
    assert values(squares) == ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]
    one = G.choices(s, 0, ["d4", "unload", "P", "e5"])
    assert one.move == "unload d4 P@e5" and values(one) == ["K", "R", "B", "P"]  # a move, and more to add
    two = G.choices(s, 0, ["d4", "unload", "P", "e5", "K", "c3"])
    assert two.move == "unload d4 K@c3 P@e5"
    assert values(G.choices(s, 0, ["d4", "unload", "P", "e5", "K"])) == ["c3", "c4", "c5", "d3", "d5", "e3", "e4"]


def test_picker_moves_made_by_hand_are_legal():
    s = at(FULL, cargo=FULL_CARGO)
    path = ["d4", "unload", "P", "e5", "K", "c3", "B", "d5"]
    move = G.choices(s, 0, path).move
    assert move == "unload d4 K@c3 B@d5 P@e5"  # canonical whatever order the pieces were picked in
    assert move in G.legal_moves(s, 0)
    assert G.move_steps(move) == ("d4", "unload", "K", "c3", "B", "d5", "P", "e5")


def test_picker_piece_then_destination_then_promotion():
    s = at(FULL, cargo=FULL_CARGO)
    assert values(G.choices(s, 0, ["c7"])) == ["b8", "c8"]
    promo = G.choices(s, 0, ["c7", "b8"])
    assert values(promo) == ["R", "B", "N"] and promo.move is None
    assert [o.label for o in promo.options][2].startswith("Mycenaean knight")
    assert G.choices(s, 0, ["c7", "b8", "N"]).move == "c7xb8=N"
    assert G.choices(s, 0, ["a1", "b2"]).move == "a1-b2"
    assert G.move_steps("c7xb8=N") == ("c7", "b8", "N")


@pytest.mark.parametrize("path", [["h8"], ["e4"], ["d4", "fly"], ["d4", "unload", "Q"], ["d4", "unload", "P", "h1"],
                                  ["c7", "c8", "K"], ["a1", "h8"], ["d4", "burn", "x"]])
def test_picker_refuses_paths_that_lead_nowhere(path):
    s = at(FULL, cargo=FULL_CARGO)
    step = G.choices(s, 0, path)
    assert step.move is None and step.options == []


def reachable(state, seat, path=()):
    """Every move the picker can reach from `path` (depth-first over all options)."""
    step = G.choices(state, seat, list(path))
    found = {step.move} if step.move else set()
    for option in step.options:
        found |= reachable(state, seat, (*path, option.value))
    return found


def test_picker_reaches_exactly_the_legal_moves():
    s = at({"a1": "0K", "c2": "0M", "b3": "0P", "d1": "0B", "b1": "1N", "h8": "1K", "h7": "1P"},
           cargo={"c2": "0R 0P"})
    assert reachable(s, 0) == set(G.legal_moves(s, 0))


def test_picker_reaches_requests_and_guest_unloads_with_three_players():
    armies = ["mycenae", "plain", "plain"]
    s = at({"a1": "0K", "d4": "0M", "c3": "0P", "c5": "1R", "e5": "2B", "a8": "1K", "h8": "2K", "h7": "2P",
            "a7": "1P"}, n=3, cargo={"d4": "0B"}, armies=armies)
    assert reachable(s, 0) == set(G.legal_moves(s, 0))
    labels = [o.label for o in G.choices(s, 0, ["d4", "load"]).options]
    assert labels == ["c3 Pawn (yours)", "c5 Rook (of a8, asks consent)", "e5 Bishop (of h8, asks consent)"]
    assert values(G.choices(s, 0, ["d4", "load", "c5"])) == ["c3"]  # one other player per request
    s, _ = G.apply(s, 0, "load d4 c5")
    assert values(G.choices(s, 1)) == ["consent", "refuse"]
    assert G.choices(s, 1, ["refuse"]).move == "refuse"
    guest = G.apply(s, 1, "consent")[0]
    assert "d4" in values(G.choices(guest, 1))
    assert values(G.choices(guest, 1, ["d4"])) == ["unload"]
    assert reachable(guest, 1) == set(G.legal_moves(guest, 1))


def test_picker_reaches_requests_with_two_players():
    s = at({"a1": "0K", "d4": "0M", "c3": "0P", "c5": "1R", "h8": "1K", "h7": "1P"}, cargo={"d4": "0B"})
    assert reachable(s, 0) == set(G.legal_moves(s, 0))
    labels = [o.label for o in G.choices(s, 0, ["d4", "load"]).options]
    assert labels == ["c3 Pawn (yours)", "c5 Rook (of h8, asks consent)"]
    assert G.choices(s, 0, ["d4", "load", "c5"]).move == "load d4 c5"
    s, _ = G.apply(s, 0, "load d4 c5")
    assert values(G.choices(s, 1)) == ["consent", "refuse"] and G.choices(s, 1, ["consent"]).move == "consent"
    refused = G.apply(s, 1, "refuse")[0]
    assert values(G.choices(refused, 0, ["d4", "load"])) == ["c3", "c5"]  # c3 with c5 may still be asked
    assert reachable(refused, 0) == set(G.legal_moves(refused, 0))
    guest = G.apply(s, 1, "consent")[0]
    assert values(G.choices(guest, 1, ["d4"])) == ["unload"]
    assert reachable(guest, 1) == set(G.legal_moves(guest, 1))


def test_picker_offers_no_dead_end_after_refusals():
    armies = ["mycenae", "plain", "plain"]
    s = at({"a1": "0K", "d4": "0M", "c3": "0P", "c5": "1R", "a8": "1K", "a7": "1P", "h8": "2K", "h7": "2P"},
           n=3, cargo={"d4": "0B"}, armies=armies)
    for request in ("load d4 c5", "load d4 c3 c5"):
        s = G.apply(G.apply(s, 0, request)[0], 1, "refuse")[0]
    assert values(G.choices(s, 0, ["d4", "load"])) == ["c3"]
    assert reachable(s, 0) == set(G.legal_moves(s, 0))


def test_cargo_picker_one_piece_at_a_time_reaches_all_540():
    s = G.new_state(2, 0)
    step = G.choices(s, 0)
    assert step.prompt == "Which knight carries your King?" and values(step) == ["b2", "d2", "c1"]
    second_bishop = G.choices(s, 0, ["b2", "b2", "d2"])
    assert values(second_bishop) == ["d2", "c1"]  # not before the first bishop: each spread has one path
    assert G.choices(s, 0, ["b2", "d2", "d2", "c1", "b2", "c1", "c1"]).move == "cargo b2:K,P d2:R,B c1:B,P,P"
    assert reachable(s, 0) == set(G.legal_moves(s, 0))
    assert G.move_steps("cargo b2:K,P d2:R,B c1:B,P,P") == ("b2", "d2", "d2", "c1", "b2", "c1", "c1")


def test_picker_labels_fit_discord():
    s = at(FULL, cargo=FULL_CARGO)
    for path in ([], ["d4"], ["d4", "unload"], ["d4", "unload", "K"], ["c7"], ["c7", "c8"]):
        for option in G.choices(s, 0, path).options:
            assert 0 < len(option.label) <= 100 and 0 < len(option.value) <= 100


def test_picker_is_empty_for_a_seat_not_to_act():
    s = at(FULL, cargo=FULL_CARGO)
    assert G.choices(s, 1).options == [] and G.choices(s, 1).move is None


# --- autocomplete ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["unload d4 K@d5 R@", "UNLOAD  D4 k@c3", "unload d4 B@c3 B@c4 K@", "unload",
                                   "u", "unload d4 P@c3 P@c4 P@c5 B@d3 B@d5 R@e3 K@e"])
def test_autocomplete_finds_unloads_by_prefix_without_listing_them(typed, no_full_unload_lists):
    s = at(FULL, cargo=FULL_CARGO)
    found = G.matching_moves(s, 0, typed)
    assert found and len(found) == len(set(found)) <= 25
    prefix = " ".join(typed.lower().split())
    assert all(m.lower().startswith(prefix) for m in found)


def test_autocomplete_agrees_with_the_full_list():
    s = at(FULL, cargo=FULL_CARGO)
    legal = G.legal_moves(s, 0)
    last_squares = "unload d4 P@c3 P@c4 P@c5 B@d3 B@d5 R@e3 K@e"
    for typed in ("unload d4 K@e5 R@", "unload d4 K@d5 R@", "c7", "burn", "a1-", last_squares):
        expected = [m for m in legal if m.lower().startswith(typed.lower())]
        found = G.matching_moves(s, 0, typed)
        assert set(found) <= set(expected) and len(found) == min(25, len(expected))


def test_autocomplete_falls_back_to_moves_containing_the_text():
    s = at(FULL, cargo=FULL_CARGO)
    found = G.matching_moves(s, 0, "k@e5", limit=10)
    assert len(found) == 10 and all("k@e5" in m.lower() for m in found)
    assert G.matching_moves(s, 0, "zzz") == []
    assert G.matching_moves(s, 1, "h7") == []  # not h8's turn
