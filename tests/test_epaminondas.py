"""Epaminondas: one scenario per rule of docs/rules/epaminondas.md, perft, notation, views and random games."""

from __future__ import annotations

import json
import random

import pytest

from bot.games import IllegalMoveError, MoveSyntaxError
from bot.games.registry import get_game
from bot.games.epaminondas.game import (
    GAME,
    count_moves,
    format_move,
    parse_move,
    position_from_squares,
    position_from_text,
)
from bot.engine.grid import DIRECTIONS
from bot.engine.playout import random_plies

# Reference numbers of the rules page: move paths from the initial position (perft(3) bulk-counts the last ply).
PERFT = {1: 114, 2: 12_996, 3: 1_787_292}

LIGHT, DARK = 0, 1


def pos(light, dark, to_move=LIGHT):
    return position_from_squares(light, dark, to_move)


def moves(state, seat=None):
    return set(GAME.legal_moves(state, state.to_move if seat is None else seat))


def snapshot(state):
    return json.dumps(GAME.dump(state), sort_keys=True)


def squares_of(state, seat):
    board = GAME.view(state, None)["board"]
    return {f"{chr(97 + f)}{r + 1}" for r in range(12) for f in range(14) if board[r][f] == seat}


def refused(state, seat, move, error=IllegalMoveError):
    """Assert that `move` raises `error` and leaves the state as it was; return the message."""
    before = snapshot(state)
    with pytest.raises(error) as info:
        GAME.apply(state, seat, move)
    assert snapshot(state) == before
    assert str(info.value)
    return str(info.value)


# --- a literal reading of the rules, to check the fast generator against ------------------------------------


def reference_moves(state, seat):
    cells = {}
    for s in (LIGHT, DARK):
        for name in squares_of(state, s):
            cells[(ord(name[0]) - 97, int(name[1:]) - 1)] = s

    def on_board(sq):
        return 0 <= sq[0] < 14 and 0 <= sq[1] < 12

    def name(sq):
        return f"{chr(97 + sq[0])}{sq[1] + 1}"

    result = set()
    for tail, owner in cells.items():
        if owner != seat:
            continue
        for dx, dy in DIRECTIONS:
            step = lambda sq, i: (sq[0] + i * dx, sq[1] + i * dy)  # noqa: E731
            n = 1
            while cells.get(step(tail, n)) == seat:
                n += 1
            head = step(tail, n - 1)
            for s in range(1, n + 1):
                if not all(on_board(step(head, i)) and step(head, i) not in cells for i in range(1, s)):
                    break
                target = step(head, s)
                if not on_board(target):
                    break
                if target not in cells:
                    result.add(f"{name(tail)}-{name(target)}")
                    continue
                if cells[target] == 1 - seat:
                    k = 0
                    while cells.get(step(target, k)) == 1 - seat:
                        k += 1
                    if k < n:
                        result.add(f"{name(tail)}x{name(target)}")
                break
    return result


# --- board and setup ----------------------------------------------------------------------------------------


def test_metadata():
    info = GAME.info
    assert get_game("epaminondas") is GAME
    assert (info.key, info.title, info.min_players, info.max_players) == ("epaminondas", "Epaminondas", 2, 2)
    assert not info.hidden_information and info.options == ()
    assert info.seat_names == ("Light", "Dark")
    assert info.summary


def test_setup_fills_two_rows_each_and_light_moves_first():
    state = GAME.new_state(2, seed=123)
    assert GAME.dump(state) == GAME.dump(GAME.new_state(2, seed=9)), "the seed is ignored"
    assert squares_of(state, LIGHT) == {f"{f}{r}" for f in "abcdefghijklmn" for r in (1, 2)}
    assert squares_of(state, DARK) == {f"{f}{r}" for f in "abcdefghijklmn" for r in (11, 12)}
    assert GAME.to_act(state) == [LIGHT]
    assert GAME.outcome(state) is None


@pytest.mark.parametrize("depth", [1, 2])
def test_perft_from_the_start(depth):
    def perft(state, depth):
        seat = state.to_move
        if depth == 1:
            return len(GAME.legal_moves(state, seat))
        return sum(perft(GAME.apply(state, seat, m)[0], depth - 1) for m in GAME.legal_moves(state, seat))

    assert perft(GAME.new_state(2, 0), depth) == PERFT[depth]


def test_perft_3_from_the_start_with_bulk_counting():
    start = GAME.new_state(2, 0)
    total = 0
    for m1 in GAME.legal_moves(start, LIGHT):
        after1 = GAME.apply(start, LIGHT, m1)[0]
        for m2 in GAME.legal_moves(after1, DARK):
            total += count_moves(GAME.apply(after1, DARK, m2)[0].board, LIGHT)
    assert total == PERFT[3]


def test_passing_is_not_a_move():
    state = GAME.new_state(2, 0)
    refused(state, LIGHT, "pass", MoveSyntaxError)


# --- moves --------------------------------------------------------------------------------------------------


def test_single_piece_steps_like_a_king():
    state = pos(["f6"], ["a12"])
    assert moves(state) == {f"f6-{sq}" for sq in ("e5", "e6", "e7", "f5", "f7", "g5", "g6", "g7")}


def test_whole_phalanx_moves_up_to_its_length():
    state = GAME.new_state(2, 0)
    after = GAME.apply(state, LIGHT, "b1-b4")[0]
    assert {"b3", "b4"} <= squares_of(after, LIGHT)
    assert not {"b1", "b2"} & squares_of(after, LIGHT)
    refused(state, LIGHT, "b1-b5")


def test_phalanx_partial_move_leaves_pieces_behind_the_tail():
    state = GAME.new_state(2, 0)
    after = GAME.apply(state, LIGHT, "b2-b3")[0]
    light = squares_of(after, LIGHT)
    assert "b1" in light and "b3" in light and "b2" not in light
    assert GAME.view(after, None)["last"]["from"] == ["b2"]
    after = GAME.apply(state, LIGHT, "b1-b3")[0]
    assert GAME.view(after, None)["last"]["from"] == ["b1", "b2"]
    assert GAME.view(after, None)["last"]["to"] == ["b2", "b3"]
    assert "b1" not in squares_of(after, LIGHT)


def test_phalanx_moves_backwards_along_its_line():
    state = pos(["c5", "c6", "c7"], ["a12"])
    assert {"c7-c4", "c7-c3", "c7-c2"} <= moves(state)
    assert "c7-c1" not in moves(state)
    after = GAME.apply(state, LIGHT, "c7-c2")[0]
    assert squares_of(after, LIGHT) == {"c2", "c3", "c4"}


def test_diagonal_phalanx():
    state = pos(["b2", "c3", "d4"], ["a12"])
    assert {"b2-e5", "b2-f6", "b2-g7"} <= moves(state)
    assert "b2-h8" not in moves(state)
    assert squares_of(GAME.apply(state, LIGHT, "b2-g7")[0], LIGHT) == {"e5", "f6", "g7"}


def test_path_blocked_by_any_piece():
    state = pos(["a1", "a2", "a3"], ["a5", "a6", "a7", "a8"])  # four Dark: too long to capture
    assert {m for m in moves(state) if m.startswith("a1") and m[3] == "a"} == {"a1-a4"}
    assert "strictly shorter" in refused(state, LIGHT, "a1xa5")
    assert "a5 blocks the way" in refused(state, LIGHT, "a1-a6")
    own_block = pos(["a1", "a2", "a3", "a5"], ["n12"])
    assert "a1-a6" not in moves(own_block)
    assert "a5 blocks the way" in refused(own_block, LIGHT, "a1-a6")


def test_moves_stop_at_the_edge():
    state = pos(["a11", "a12"], ["n1"])
    assert not {m for m in moves(state) if m.endswith(("13", "14"))}
    refused(state, LIGHT, "a11-a13", MoveSyntaxError)


def test_target_own_piece_is_illegal():
    state = pos(["b2", "c3", "e5"], ["n12"])  # the b2-c3 phalanx may go to d4 only: e5 is Light's
    assert {m for m in moves(state) if m.startswith("b2") and m[3] in "de"} == {"b2-d4"}
    assert "your own piece" in refused(state, LIGHT, "b2-e5")
    assert "your own piece" in refused(state, LIGHT, "b2-c3")


def test_move_must_run_along_a_line():
    state = pos(["b2"], ["n12"])
    assert "straight line" in refused(state, LIGHT, "b2-c4")


def test_tail_must_be_your_own_piece():
    state = pos(["b2"], ["c5"])
    assert "is empty" in refused(state, LIGHT, "b3-b4")
    assert "not your piece" in refused(state, LIGHT, "c5-c4")


# --- captures -----------------------------------------------------------------------------------------------


def test_longer_phalanx_captures_a_shorter_line():
    state = pos(["b2", "b3"], ["b4"])
    assert "b2xb4" in moves(state)
    after, events = GAME.apply(state, LIGHT, "b2xb4")
    assert squares_of(after, LIGHT) == {"b3", "b4"}
    assert squares_of(after, DARK) == set()
    assert [e for e in events if e["type"] == "capture"][0]["squares"] == ["b4"]


def test_equal_lengths_cannot_capture():
    state = pos(["b2", "b3"], ["b4", "b5", "n12"])
    assert "b2xb4" not in moves(state)
    assert "strictly shorter" in refused(state, LIGHT, "b2xb4")


def test_single_piece_never_captures():
    state = pos(["b3"], ["b4", "n12"])
    assert not {m for m in moves(state) if "x" in m}
    assert "single piece" in refused(state, LIGHT, "b3xb4")
    assert "single piece" in refused(state, LIGHT, "b3-b4")


def test_capture_removes_all_k_enemy_pieces():
    # The enemy line is d5-d6: it ends at the gap on d7. e5 stands beside the line and d8 beyond the gap.
    state = pos(["d1", "d2", "d3"], ["d5", "d6", "d8", "e5"])
    assert "d1xd5" in moves(state)
    after, events = GAME.apply(state, LIGHT, "d1xd5")
    assert squares_of(after, LIGHT) == {"d3", "d4", "d5"}
    assert squares_of(after, DARK) == {"e5", "d8"}
    capture = [e for e in events if e["type"] == "capture"][0]
    assert capture["squares"] == ["d5", "d6"] and capture["count"] == 2
    assert GAME.view(after, None)["last"]["captured"] == ["d5", "d6"]


def test_capture_after_crossing_empty_squares():
    state = pos(["d1", "d2", "d3"], ["d6", "d7", "n12"])
    assert "d1xd6" in moves(state)
    after = GAME.apply(state, LIGHT, "d1xd6")[0]
    assert squares_of(after, LIGHT) == {"d4", "d5", "d6"}
    assert squares_of(after, DARK) == {"n12"}


def test_capture_out_of_reach_is_illegal():
    state = pos(["d1", "d2"], ["d5", "n12"])  # the head d2 may travel 2 squares: d5 is 3 away
    assert "d1xd5" not in moves(state)
    assert "Too far" in refused(state, LIGHT, "d1xd5")


def test_capture_needs_the_x_and_a_plain_move_the_dash():
    state = pos(["b2", "b3"], ["b4", "n12"])
    assert "b2xb4" in refused(state, LIGHT, "b2-b4")
    assert "b2-b4" not in moves(state)
    state = pos(["b2", "b3"], ["n12"])
    assert "b2-b4" in refused(state, LIGHT, "b2xb4")


def test_captures_are_not_compulsory():
    state = pos(["b2", "b3"], ["b4", "n12"])
    legal = moves(state)
    assert "b2xb4" in legal and "b2-c3" in legal
    after = GAME.apply(state, LIGHT, "b2-c3")[0]
    assert squares_of(after, DARK) == {"b4", "n12"}


# --- end of the game ----------------------------------------------------------------------------------------


def test_reaching_the_far_row_does_not_win_at_once():
    state = pos(["c11"], ["m11"])
    after, events = GAME.apply(state, LIGHT, "c11-c12")
    assert GAME.outcome(after) is None and GAME.to_act(after) == [DARK]
    assert not [e for e in events if e["type"] == "win"]
    # Dark does not answer: at the start of Light's turn Light has more pieces across.
    final, events = GAME.apply(after, DARK, "m11-m10")
    outcome = GAME.outcome(final)
    assert outcome.winners == (LIGHT,)
    assert outcome.reason == "Light has more pieces across (1 to 0)"
    assert events[-1] == {"type": "win", "visible_to": None, "winner": LIGHT, "reason": outcome.reason}
    assert GAME.to_act(final) == []


def test_crossing_can_be_answered():
    state = pos(["c11"], ["b12", "a12", "m2"])
    after = GAME.apply(state, LIGHT, "c11-c12")[0]
    assert GAME.outcome(after) is None
    # Dark answers by crossing too: 1 to 1 is not strictly more, so play goes on.
    answered = GAME.apply(after, DARK, "m2-m1")[0]
    assert GAME.outcome(answered) is None
    assert GAME.view(answered, None)["crossings"] == [1, 1]


def test_crossing_is_checked_for_the_side_to_move_only():
    # Dark is ahead 1 to 0, but it is Light's turn: Light plays on, and Dark wins at the start of its turn.
    state = pos(["f6"], ["a1"], to_move=LIGHT)
    assert GAME.outcome(state) is None
    final = GAME.apply(state, LIGHT, "f6-f7")[0]
    assert GAME.outcome(final).winners == (DARK,)
    assert GAME.outcome(final).reason == "Dark has more pieces across (1 to 0)"


def test_crossing_needs_strictly_more_pieces():
    state = pos(["a12", "b12", "f6"], ["a1", "b1", "h6"], to_move=LIGHT)
    assert GAME.outcome(state) is None
    more = pos(["a12", "b12", "c12", "f6"], ["a1", "b1", "h6"], to_move=LIGHT)
    assert GAME.outcome(more).reason == "Light has more pieces across (3 to 2)"


def test_crossing_is_checked_before_the_no_move_loss():
    # Light's only piece is boxed in on a12 (a single piece cannot capture), but Light is ahead on crossings.
    boxed = ["a11", "b11", "b12"]
    state = pos(["a12"], boxed, to_move=LIGHT)
    assert count_moves(state.board, LIGHT) == 0
    assert GAME.outcome(state).winners == (LIGHT,)
    assert GAME.outcome(state).reason == "Light has more pieces across (1 to 0)"
    # With Dark level on crossings the same box is a loss.
    level = pos(["a12"], [*boxed, "a1"], to_move=LIGHT)
    assert GAME.outcome(level).winners == (DARK,)
    assert GAME.outcome(level).reason == "Light has no legal move"


def test_no_legal_move_loses():
    # Light's only piece f6 is surrounded but for g7; Dark closes the ring (a single piece cannot capture).
    ring = ["e5", "e6", "e7", "f5", "f7", "g5", "g6"]
    state = pos(["f6"], [*ring, "h7"], to_move=DARK)
    after, events = GAME.apply(state, DARK, "h7-g7")
    assert count_moves(after.board, LIGHT) == 0 and reference_moves(after, LIGHT) == set()
    assert GAME.outcome(after).reason == "Light has no legal move"
    assert GAME.outcome(after).winners == (DARK,)
    assert events[-1]["type"] == "win" and events[-1]["winner"] == DARK


def test_no_pieces_loses():
    state = pos(["e3", "e4"], ["e5"])
    after, events = GAME.apply(state, LIGHT, "e3xe5")
    outcome = GAME.outcome(after)
    assert outcome.winners == (LIGHT,)
    assert outcome.reason == "Dark has no pieces left"
    assert [e["type"] for e in events] == ["move", "capture", "win"]
    assert GAME.legal_moves(after, DARK) == [] and GAME.to_act(after) == []


def test_no_moves_after_the_game_is_over():
    state = GAME.apply(pos(["e3", "e4"], ["e5"]), LIGHT, "e3xe5")[0]
    assert "over" in refused(state, DARK, "a1-a2")
    assert "over" in refused(state, LIGHT, "e4-e6")
    assert GAME.legal_moves(state, LIGHT) == GAME.legal_moves(state, DARK) == []


# --- notation and bad input ---------------------------------------------------------------------------------


def test_notation_round_trips_for_every_legal_move():
    for ply in random_plies(GAME, 2, seed=4, max_plies=60):
        for text in ply.moves:
            assert format_move(parse_move(text)) == text


def test_notation_accepts_case_and_spaces():
    state = GAME.new_state(2, 0)
    expected = GAME.dump(GAME.apply(state, LIGHT, "b1-b3")[0])
    for text in ["B1-B3", "  b1-b3 ", "b1 - b3"]:
        after = GAME.apply(state, LIGHT, text)[0]
        assert GAME.dump(after) == expected
        assert GAME.view(after, None)["last_move"] == "b1-b3"
    assert format_move(parse_move("D1XD5")) == "d1xd5"


@pytest.mark.parametrize(
    "text", ["", "b1", "b1b3", "b1--b3", "b1+b3", "b1-", "-b3", "1b-3b", "b1-b3-b5", "bb-b3", "pass", "💥"]
)
def test_malformed_moves_are_syntax_errors(text):
    refused(GAME.new_state(2, 0), LIGHT, text, MoveSyntaxError)


@pytest.mark.parametrize("text", ["o1-o2", "a0-a1", "a12-a13", "b1-b99"])
def test_squares_off_the_board_are_syntax_errors(text):
    assert "off the board" in refused(GAME.new_state(2, 0), LIGHT, text, MoveSyntaxError)


def test_wrong_seat_is_refused():
    state = GAME.new_state(2, 0)
    assert "not your turn" in refused(state, DARK, "b11-b10")
    assert "not your turn" in refused(state, DARK, "b1-b3")
    assert "not your turn" in refused(state, 5, "b1-b3")
    assert GAME.legal_moves(state, DARK) == []


# --- view, dump, picker, narration --------------------------------------------------------------------------


def test_view_matches_the_agreed_format():
    state = GAME.apply(GAME.new_state(2, 0), LIGHT, "b1-b3")[0]
    view = GAME.view(state, DARK)
    assert set(view) == {
        "game", "num_players", "viewer", "to_act", "ply", "last_move", "outcome", "seat_names",
        "files", "ranks", "board", "home_rows", "counts", "crossings", "last", "to_move", "left",
    }
    assert view["game"] == "epaminondas" and view["num_players"] == 2 and view["viewer"] == DARK
    assert view["to_act"] == [DARK] and view["ply"] == 1 and view["outcome"] is None
    assert view["seat_names"] == ["Light", "Dark"]
    assert (view["files"], view["ranks"], view["home_rows"]) == (14, 12, [1, 12])
    assert len(view["board"]) == 12 and all(len(row) == 14 for row in view["board"])
    assert view["board"][0][0] == LIGHT and view["board"][11][13] == DARK and view["board"][5][5] is None
    assert view["board"][2][1] == LIGHT and view["board"][0][1] is None  # b3 taken, b1 left
    assert view["counts"] == [28, 28] and view["crossings"] == [0, 0]
    assert view["last_move"] == "b1-b3"
    assert view["last"] == {"move": "b1-b3", "seat": 0, "from": ["b1", "b2"], "to": ["b2", "b3"], "captured": []}
    assert GAME.view(GAME.new_state(2, 0), None)["last"] is None
    json.dumps(view)


def test_dump_and_load_round_trip():
    state = GAME.apply(pos(["d1", "d2", "d3"], ["d5", "d6", "n12"]), LIGHT, "d1xd5")[0]
    data = json.loads(json.dumps(GAME.dump(state)))
    assert data["game"] == "epaminondas" and data["rules_version"] == GAME.RULES_VERSION
    loaded = GAME.load(data)
    assert GAME.view(loaded, None) == GAME.view(state, None)
    with pytest.raises(ValueError):
        GAME.load({**data, "game": "archimedes"})


def test_position_from_text_reads_a_board_picture():
    state = position_from_text(
        """
        D............. | 12
        .............. | 11
        .............. | 10
        .............. | 9
        .............. | 8
        .............. | 7
        .............. | 6
        .............. | 5
        .............. | 4
        .............. | 3
        .L............ | 2
        L............. | 1
        """,
        to_move=DARK,
    )
    assert squares_of(state, LIGHT) == {"a1", "b2"} and squares_of(state, DARK) == {"a12"}
    assert GAME.to_act(state) == [DARK]


def test_picker_asks_the_tail_then_the_destination():
    state = pos(["b2", "b3"], ["b4", "n12"])
    first = GAME.choices(state, LIGHT)
    assert first.prompt == "Which piece moves? For a phalanx, pick its rear piece"
    assert {o.value for o in first.options} == {"b2", "b3"}
    second = GAME.choices(state, LIGHT, ["b2"])
    assert second.prompt == "Where to?"
    labels = {o.value: o.label for o in second.options}
    assert labels["xb4"] == "x b4 (captures 1)"
    assert labels["-c3"] == "c3"
    final = GAME.choices(state, LIGHT, ["b2", "xb4"])
    assert final.move == "b2xb4" and final.options == []
    assert GAME.move_steps("b2xb4") == ("b2", "xb4") and GAME.move_steps("b1-b3") == ("b1", "-b3")


def test_picker_covers_exactly_the_legal_moves():
    state = GAME.new_state(2, 0)
    reached = set()
    for tail in GAME.choices(state, LIGHT).options:
        for dest in GAME.choices(state, LIGHT, [tail.value]).options:
            reached.add(GAME.choices(state, LIGHT, [tail.value, dest.value]).move)
    assert reached == moves(state)


def test_narration():
    state = pos(["d1", "d2", "d3"], ["d5", "d6"])
    _, events = GAME.apply(state, LIGHT, "d1xd5")
    lines = [GAME.describe(e) for e in events]
    assert lines == [
        "Light plays d1xd5 (3 pieces)",
        "captures 2 pieces: d5, d6",
        "Dark has no pieces left: Light wins",
    ]
    assert events[0]["from"] == ["d1", "d2", "d3"] and events[0]["to"] == ["d3", "d4", "d5"]
    assert (events[0]["tail"], events[0]["dest"]) == ("d1", "d5")


def test_render_text_shows_the_board():
    text = GAME.render_text(GAME.view(GAME.new_state(2, 0), None))
    assert "12  D D D D D D D D D D D D D D  12" in text
    assert "Light to move" in text


# --- random games -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_the_invariants(seed):
    game_rng = random.Random(seed)
    plies = list(random_plies(GAME, 2, seed))
    assert len(plies) < 5000
    for i, ply in enumerate(plies):
        state = ply.state
        assert len(set(ply.moves)) == len(ply.moves)
        parsed = [parse_move(m) for m in ply.moves]
        assert len({(m.tail, m.dest) for m in parsed}) == len(ply.moves), "(tail, dest) names one move"
        if i % 7 == 0:
            assert set(ply.moves) == reference_moves(state, ply.seat)
        after, events = GAME.apply(state, ply.seat, ply.move)
        before_counts = GAME.view(state, None)["counts"]
        after_counts = GAME.view(after, None)["counts"]
        captured = sum(e["count"] for e in events if e["type"] == "capture")
        assert after_counts[ply.seat] == before_counts[ply.seat]
        assert after_counts[1 - ply.seat] == before_counts[1 - ply.seat] - captured
        assert ("x" in ply.move) == (captured > 0)
        assert after.ply == state.ply + 1
        if i % 25 == 0:
            # an illegal move is refused without harm
            other = game_rng.choice(ply.moves)
            refused(state, 1 - ply.seat, other)
    final = GAME.apply(plies[-1].state, plies[-1].seat, plies[-1].move)[0]
    outcome = GAME.outcome(final)
    assert outcome is not None and len(outcome.winners) == 1
    view = GAME.view(final, None)
    mover = final.to_move
    if outcome.winners == (mover,):
        assert view["crossings"][mover] > view["crossings"][1 - mover]
    else:
        assert view["counts"][mover] == 0 or not reference_moves(final, mover)
