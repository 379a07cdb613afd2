"""Archimedes: one scenario per rule of docs/rules/archimedes.md, perft numbers, and seeded random games."""

from __future__ import annotations

import json

import pytest

from bot.games import IllegalMoveError, MoveSyntaxError
from bot.games.archimedes.game import (
    GAME,
    INDEX,
    NAMES,
    PORTS,
    SHIPS_PER_SEAT,
    attackers,
    format_move,
    generate,
    is_vulnerable,
    parse_move,
    play,
    position_from_squares,
    position_from_text,
)
from bot.engine.playout import random_plies

WHITE, BLACK = 0, 1


def pos(white: str, black: str, to_move: int = WHITE, reserve: tuple[int, int] | None = None):
    return position_from_squares(white, black, to_move=to_move, reserve=reserve)


def ships(state, seat: int) -> set[str]:
    return {NAMES[sq] for sq, cell in enumerate(state.board) if cell == seat + 1}


def attacker_names(state, square: str, by: int) -> list[str]:
    return sorted(NAMES[sq] for sq in attackers(state.board, INDEX[square], by))


def snapshot(state) -> str:
    return json.dumps(GAME.dump(state), sort_keys=True)


def of_type(events, kind: str) -> list[dict]:
    return [ev for ev in events if ev["type"] == kind]


# --- setup and perft -------------------------------------------------------------------------------------------


def test_metadata():
    info = GAME.info
    assert (info.key, info.title, info.min_players, info.max_players) == ("archimedes", "Archimedes", 2, 2)
    assert not info.hidden_information and info.options == ()
    assert info.seat_names == ("White", "Black")
    assert info.summary


def test_initial_position_and_seed_is_ignored():
    state = GAME.new_state(2, 1)
    assert ships(state, WHITE) == set("a2 a3 a4 b1 b2 b3 b4 c1 c2 c3 d1 d2".split())
    assert ships(state, BLACK) == set("h7 h6 h5 g8 g7 g6 g5 f8 f7 f6 e8 e7".split())
    assert state.board[PORTS[WHITE]] == 0 and state.board[PORTS[BLACK]] == 0
    assert GAME.to_act(state) == [WHITE]
    assert snapshot(state) == snapshot(GAME.new_state(2, 99))


def test_new_state_refuses_other_player_counts_and_options():
    with pytest.raises(ValueError):
        GAME.new_state(3, 0)
    with pytest.raises(ValueError):
        GAME.new_state(2, 0, {"variant": "x"})


def perft(state, depth: int) -> int:
    """Leaf count; the last ply is counted in bulk from the move list."""
    moves = generate(state.board, state.reserve, state.to_move) if state.outcome is None else []
    if depth == 1:
        return len(moves)
    return sum(perft(play(state, state.to_move, parse_move(m))[0], depth - 1) for m in moves)


@pytest.mark.parametrize("depth,expected", [(1, 58), (2, 3187), (3, 213_304)])
def test_perft_from_the_start(depth, expected):
    assert perft(GAME.new_state(2, 0), depth) == expected


def test_perft_1_through_the_contract():
    assert len(GAME.legal_moves(GAME.new_state(2, 0), WHITE)) == 58


# --- moving --------------------------------------------------------------------------------------------------


def test_ships_move_like_queens_over_empty_squares():
    state = pos("d4", "h1 a8", reserve=(0, 0))
    moves = {m for m in GAME.legal_moves(state, WHITE) if m.startswith("d4-")}
    # 7 along the file, 7 along the rank, 13 on the diagonals, minus a1 (White's own port)
    assert len(moves) == 26
    assert "d4-a1" not in moves and "d4-h8" in moves and "d4-e6" not in moves


def test_a_ship_cannot_jump_over_a_ship_of_either_side():
    state = pos("d2 d4", "d6 h1", reserve=(0, 0))
    moves = set(GAME.legal_moves(state, WHITE))
    assert "d2-d3" in moves and "d2-d4" not in moves and "d2-d5" not in moves
    assert "d4-d5" in moves and "d4-d6" not in moves and "d4-d7" not in moves
    with pytest.raises(IllegalMoveError, match="blocked at d6"):
        GAME.apply(state, WHITE, "d4-d8")
    with pytest.raises(IllegalMoveError, match="occupied"):
        GAME.apply(state, WHITE, "d4-d6")


def test_a_ship_never_ends_on_its_own_port():
    state = pos("a3 e4", "g7 c8", reserve=(0, 0))
    assert "a3-a2" in GAME.legal_moves(state, WHITE)
    assert not [m for m in GAME.legal_moves(state, WHITE) if m.endswith("-a1")]
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="own port a1"):
        GAME.apply(state, WHITE, "a3-a1")
    assert snapshot(state) == before
    black = pos("c3 e4", "b7 g7", to_move=BLACK, reserve=(0, 0))
    assert not [m for m in GAME.legal_moves(black, BLACK) if m.endswith("-h8")]


def test_a_ship_may_end_on_the_enemy_port():
    state = pos("c3 e4", "a5 g7", to_move=BLACK, reserve=(0, 0))
    assert "a5-a1" in GAME.legal_moves(state, BLACK)
    new, _ = GAME.apply(state, BLACK, "a5-a1")
    assert NAMES[PORTS[WHITE]] in ships(new, BLACK)


def test_moving_to_another_square_is_required_and_the_line_must_be_straight():
    state = GAME.new_state(2, 0)
    with pytest.raises(IllegalMoveError, match="must move"):
        GAME.apply(state, WHITE, "d2-d2")
    with pytest.raises(IllegalMoveError, match="not a straight line"):
        GAME.apply(state, WHITE, "d2-e4")
    with pytest.raises(IllegalMoveError, match="no ship on d4"):
        GAME.apply(state, WHITE, "d4-d5")
    with pytest.raises(IllegalMoveError, match="e7 is not your ship"):
        GAME.apply(state, WHITE, "e7-e6")


# --- attack lines --------------------------------------------------------------------------------------------


def test_attacks_run_along_ranks_files_and_diagonals_and_adjacent_ships_attack():
    state = pos("e1 a5 b2 d6 f5", "e5 h1")
    assert attacker_names(state, "e5", WHITE) == ["a5", "b2", "d6", "e1", "f5"]
    assert attacker_names(state, "e1", BLACK) == ["e5", "h1"]


def test_an_attack_line_is_blocked_by_a_ship_of_the_victims_side():
    state = pos("e1 a5 c2", "e5 c5 g7")
    assert attacker_names(state, "e5", WHITE) == ["e1"]  # a5 sees c5 first
    new, events = GAME.apply(state, WHITE, "c2-b2")
    assert attacker_names(new, "e5", WHITE) == ["b2", "e1"]
    assert ships(new, BLACK) == {"e5", "c5", "g7"} and not of_type(events, "destroy")


def test_an_attack_line_is_blocked_by_a_ship_of_the_attackers_side():
    state = pos("e1 e3 c2", "e5 g7")
    new, events = GAME.apply(state, WHITE, "c2-b2")
    assert attacker_names(new, "e5", WHITE) == ["b2", "e3"]  # e1 stands behind e3
    assert "e5" in ships(new, BLACK) and not of_type(events, "destroy")


def test_exactly_two_attackers_are_not_enough():
    state = pos("e1 c2", "e5 g7")
    new, events = GAME.apply(state, WHITE, "c2-b2")
    assert attacker_names(new, "e5", WHITE) == ["b2", "e1"]
    assert "e5" in ships(new, BLACK) and not of_type(events, "destroy")
    assert new.reserve == state.reserve


def test_three_attackers_destroy_a_ship():
    state = pos("e1 a5 c2", "e5 g7")
    new, events = GAME.apply(state, WHITE, "c2-b2")
    assert ships(new, BLACK) == {"g7"}
    assert new.reserve == (state.reserve[0], state.reserve[1] + 1)
    assert of_type(events, "destroy") == [
        {"type": "destroy", "visible_to": None, "seat": BLACK, "squares": ["e5"], "wave": 1, "by": WHITE}
    ]
    assert GAME.view(new, None)["last"]["destroyed"] == [{"square": "e5", "seat": BLACK}]


def test_all_vulnerable_ships_go_at_once_in_one_wave():
    state = pos("e1 a5 c2 a7", "e5 b6 h1")
    new, events = GAME.apply(state, WHITE, "c2-b2")
    destroys = of_type(events, "destroy")
    assert [(ev["squares"], ev["wave"]) for ev in destroys] == [(["b6", "e5"], 1)]
    assert ships(new, BLACK) == {"h1"}


def test_chain_destruction_removes_ships_exposed_by_earlier_removals():
    # e6 is attacked by d7 and f7; e1 only sees it once e5 has gone.
    state = pos("e1 a5 c2 d7 f7", "e5 e6 h1")
    new, events = GAME.apply(state, WHITE, "c2-b2")
    destroys = of_type(events, "destroy")
    assert [(ev["squares"], ev["wave"]) for ev in destroys] == [(["e5"], 1), (["e6"], 2)]
    assert ships(new, BLACK) == {"h1"}
    assert new.reserve[BLACK] == state.reserve[BLACK] + 2
    assert [d["square"] for d in GAME.view(new, None)["last"]["destroyed"]] == ["e5", "e6"]
    assert "wave 2" in GAME.describe(destroys[1])


def test_the_movers_own_ships_are_never_destroyed_by_its_own_move():
    state = pos("d2 h1", "d8 a4 g7 c8")
    new, events = GAME.apply(state, WHITE, "d2-d4")  # into the lines of d8, a4 and g7
    assert is_vulnerable(new.board, INDEX["d4"], BLACK + 1)
    assert "d4" in ships(new, WHITE) and not of_type(events, "destroy")
    # ... but Black's next move, whatever it is, removes it while it is still vulnerable
    after, events = GAME.apply(new, BLACK, "c8-b8")
    assert "d4" not in ships(after, WHITE)
    assert of_type(events, "destroy")[0]["squares"] == ["d4"]
    assert after.reserve[WHITE] == new.reserve[WHITE] + 1


def test_a_ship_vulnerable_at_the_start_of_the_turn_survives_if_the_move_saves_it():
    state = pos("e1 a5 b2 g1", "e5 c8")  # Black left e5 in the lines of three White ships
    assert is_vulnerable(state.board, INDEX["e5"], WHITE + 1)
    saved, events = GAME.apply(state, WHITE, "e1-f1")
    assert "e5" in ships(saved, BLACK) and not of_type(events, "destroy")


def test_a_ship_vulnerable_at_the_start_of_the_turn_goes_after_any_other_move():
    state = pos("e1 a5 b2 g1", "e5 c8")
    new, events = GAME.apply(state, WHITE, "g1-h1")
    assert "e5" not in ships(new, BLACK)
    assert of_type(events, "destroy")[0]["squares"] == ["e5"]


# --- rebuilding ----------------------------------------------------------------------------------------------


def test_rebuild_from_an_empty_port_with_a_ship_in_reserve():
    state = pos("a3 c3", "g7 h6", reserve=(2, 10))
    rebuilds = [m for m in GAME.legal_moves(state, WHITE) if m.startswith("a1-")]
    assert rebuilds == ["a1-a2", "a1-b1", "a1-b2", "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1"]
    new, events = GAME.apply(state, WHITE, "a1-b2")
    assert ships(new, WHITE) == {"a3", "b2", "c3"}
    assert new.board[PORTS[WHITE]] == 0
    assert new.reserve == (1, 10)
    assert events[0] == {
        "type": "rebuild", "visible_to": None, "seat": WHITE, "move": "a1-b2", "from": "a1", "to": "b2"
    }
    view = GAME.view(new, None)
    assert view["last"]["rebuild"] is True and view["last_move"] == "a1-b2"
    assert view["ships"] == [3, 2] and view["reserve"] == [1, 10]


def test_no_rebuild_without_a_ship_in_reserve():
    state = pos("a3 c3", "g7 h6", reserve=(0, 10))
    assert not [m for m in GAME.legal_moves(state, WHITE) if m.startswith("a1-")]
    with pytest.raises(IllegalMoveError, match="no destroyed ship"):
        GAME.apply(state, WHITE, "a1-a2")


def test_no_rebuild_while_an_enemy_ship_holds_the_port():
    state = pos("a3 c3", "a1 g7", reserve=(5, 10))
    assert not [m for m in GAME.legal_moves(state, WHITE) if m.startswith("a1-")]
    with pytest.raises(IllegalMoveError, match="occupied"):
        GAME.apply(state, WHITE, "a1-b1")


def test_no_rebuild_without_an_exit_from_the_port():
    start = GAME.new_state(2, 0)  # a2, b1 and b2 all taken; d2 was lost, so a ship waits in reserve
    state = position_from_squares(sorted(ships(start, WHITE) - {"d2"}), sorted(ships(start, BLACK)))
    assert state.reserve == (1, 0)
    assert GAME.legal_moves(state, WHITE) and not [m for m in GAME.legal_moves(state, WHITE) if m.startswith("a1-")]
    with pytest.raises(IllegalMoveError, match="blocked|occupied"):
        GAME.apply(state, WHITE, "a1-a5")


def test_a_rebuilt_ship_cannot_stay_on_the_port():
    state = pos("a3 c3", "g7 h6", reserve=(2, 10))
    with pytest.raises(IllegalMoveError, match="must leave the port"):
        GAME.apply(state, WHITE, "a1-a1")


def test_black_rebuilds_from_h8():
    state = pos("a3 c3", "c6 e6", to_move=BLACK, reserve=(10, 1))
    assert "h8-g7" in GAME.legal_moves(state, BLACK)
    new, events = GAME.apply(state, BLACK, "h8-a8")
    assert events[0]["type"] == "rebuild" and "a8" in ships(new, BLACK) and new.reserve == (10, 0)


def test_a_rebuilds_exit_move_destroys_like_any_move():
    state = pos("e1 b2", "e5 h2", reserve=(1, 10))
    new, events = GAME.apply(state, WHITE, "a1-a5")
    assert [ev["type"] for ev in events] == ["rebuild", "destroy"]
    assert of_type(events, "destroy")[0]["squares"] == ["e5"]
    assert ships(new, BLACK) == {"h2"}


# --- end of the game -----------------------------------------------------------------------------------------


def port_race():
    """White's e5 can sail into h8; Black can answer c2-c3, which makes h8 the target of h3, a8 and c3."""
    return pos("e5 a3", "h3 a8 c2")


def test_entering_the_enemy_port_does_not_win_at_once():
    new, events = GAME.apply(port_race(), WHITE, "e5-h8")
    assert GAME.outcome(new) is None and GAME.to_act(new) == [BLACK]
    assert not of_type(events, "win")


def test_a_ship_destroyed_on_the_enemy_port_does_not_win():
    state, _ = GAME.apply(port_race(), WHITE, "e5-h8")
    new, events = GAME.apply(state, BLACK, "c2-c3")
    assert of_type(events, "destroy")[0]["squares"] == ["h8"]
    assert GAME.outcome(new) is None and GAME.to_act(new) == [WHITE]


def test_a_ship_surviving_the_reply_on_the_enemy_port_wins():
    state, _ = GAME.apply(port_race(), WHITE, "e5-h8")
    new, events = GAME.apply(state, BLACK, "c2-d2")
    outcome = GAME.outcome(new)
    assert outcome is not None and outcome.winners == (WHITE,)
    assert outcome.reason == "White's ship held Black's port"
    assert events[-1] == {"type": "win", "visible_to": None, "winners": [WHITE], "reason": outcome.reason}
    assert GAME.to_act(new) == [] and GAME.legal_moves(new, WHITE) == [] and GAME.legal_moves(new, BLACK) == []
    assert GAME.describe(events[-1]) == "White wins: White's ship held Black's port"


def test_the_port_is_checked_only_for_the_player_to_move():
    # White's ship on h8 wins at the start of White's turn, not of Black's.
    assert GAME.outcome(pos("h8 c3", "a8 c6", to_move=WHITE)).winners == (WHITE,)
    assert GAME.outcome(pos("h8 c3", "a8 c6", to_move=BLACK)) is None
    assert GAME.outcome(pos("c3 e4", "a1 c6", to_move=BLACK)).reason == "Black's ship held White's port"


def test_a_player_without_a_legal_move_loses():
    state = pos("b1", "a2 b2 c2 c1 g7", reserve=(0, 7))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (BLACK,) and outcome.reason == "White has no legal move"
    assert GAME.to_act(state) == [] and GAME.legal_moves(state, WHITE) == []


def test_losing_the_last_ship_with_the_port_blocked_loses():
    state = pos("e5", "a4 e8 h5", to_move=BLACK, reserve=(0, 9))
    new, events = GAME.apply(state, BLACK, "a4-a1")  # a1 completes the third line on e5, then blocks the port
    assert [ev["type"] for ev in events] == ["move", "destroy", "win"]
    assert new.reserve == (1, 9)
    assert GAME.outcome(new).winners == (BLACK,) and GAME.outcome(new).reason == "White has no legal move"


def test_a_ship_in_reserve_and_an_empty_port_is_a_legal_move():
    state = pos("", "b3 g7", reserve=(12, 10))
    assert GAME.outcome(state) is None
    assert GAME.legal_moves(state, WHITE)[0] == "a1-a2"


# --- notation and bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["d2-d6", " D2-D6 ", "d2 - d6", "D2-d6"])
def test_harmless_variations_are_accepted_and_the_move_is_stored_canonically(text):
    assert format_move(parse_move(text)) == "d2-d6"
    new, events = GAME.apply(GAME.new_state(2, 0), WHITE, text)
    assert GAME.view(new, None)["last_move"] == "d2-d6" and events[0]["move"] == "d2-d6"


@pytest.mark.parametrize("text", ["", "d2", "d2d6", "d2-", "-d6", "d2-d9", "i2-a1", "d2-d6-d8", "d2xd6", "a0-a1"])
def test_malformed_text_is_a_syntax_error_and_changes_nothing(text):
    state = GAME.new_state(2, 0)
    before = snapshot(state)
    with pytest.raises(MoveSyntaxError) as info:
        GAME.apply(state, WHITE, text)
    assert str(info.value)
    assert snapshot(state) == before


def test_a_move_out_of_turn_is_refused_and_changes_nothing():
    state = GAME.new_state(2, 0)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="not your turn"):
        GAME.apply(state, BLACK, "e7-e6")
    with pytest.raises(IllegalMoveError, match="not your turn"):
        GAME.apply(state, BLACK, "d2-d6")
    assert snapshot(state) == before
    assert GAME.legal_moves(state, BLACK) == []


def test_a_move_after_the_end_is_refused_and_changes_nothing():
    state = pos("h8 c3", "a8 c6", to_move=WHITE)
    before = snapshot(state)
    for seat, move in [(WHITE, "c3-c4"), (BLACK, "c6-c7")]:
        with pytest.raises(IllegalMoveError, match="game is over"):
            GAME.apply(state, seat, move)
    assert snapshot(state) == before


def test_position_pictures_refuse_impossible_boards():
    with pytest.raises(ValueError):
        position_from_text("........\n" * 7)  # a row is missing
    with pytest.raises(ValueError):
        pos("a1", "h1")  # White's own port
    picture = """
        . . . . . . . *
        . . . . . . . .
        . . . . B . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . W . . . . . .
        * . . . . . . .
    """
    assert position_from_text(picture) == pos("b2", "e6")


# --- view, dump, text, picker --------------------------------------------------------------------------------


def test_view_has_the_agreed_shape():
    state, _ = GAME.apply(pos("e1 a5 c2", "e5 g7"), WHITE, "c2-b2")
    view = GAME.view(state, WHITE)
    assert set(view) == {
        "game", "num_players", "viewer", "to_act", "last_move", "ply", "outcome", "seat_names",
        "files", "ranks", "board", "ports", "ships", "reserve", "last", "to_move", "left",
    }
    assert view["game"] == "archimedes" and view["viewer"] == WHITE and view["to_act"] == [BLACK]
    assert view["seat_names"] == ["White", "Black"] and view["ports"] == ["a1", "h8"]
    assert (view["files"], view["ranks"], view["ply"]) == (8, 8, 1)
    assert view["board"][0][4] == WHITE and view["board"][1][1] == WHITE and view["board"][6][6] == BLACK
    assert view["board"][4][4] is None and view["board"][1][2] is None
    assert view["ships"] == [3, 1] and view["reserve"] == [9, 11]
    assert view["last"] == {
        "move": "c2-b2", "seat": WHITE, "from": "c2", "to": "b2", "rebuild": False,
        "destroyed": [{"square": "e5", "seat": BLACK}],
    }
    assert GAME.view(state, None) == {**view, "viewer": None}
    json.dumps(view)


def test_dump_and_load_round_trip_with_last_move_and_outcome():
    state, _ = GAME.apply(pos("e1 a5 c2 d7 f7", "e5 e6 h1"), WHITE, "c2-b2")
    ended, _ = GAME.apply(*_port_survives())
    for s in (GAME.new_state(2, 0), state, ended):
        data = json.loads(json.dumps(GAME.dump(s)))
        assert data["game"] == "archimedes" and data["rules_version"] == GAME.RULES_VERSION
        assert GAME.load(data) == s
    with pytest.raises(ValueError):
        GAME.load({**GAME.dump(state), "game": "epaminondas"})


def _port_survives():
    state, _ = GAME.apply(port_race(), WHITE, "e5-h8")
    return state, BLACK, "c2-d2"


def test_render_text_draws_the_board():
    text = GAME.render_text(GAME.view(GAME.new_state(2, 0), None))
    lines = text.splitlines()
    assert lines[0] == "8 . . . . B B B *"
    assert lines[7] == "1 * W W W . . . ."
    assert lines[8] == "  a b c d e f g h"
    assert "White to move" in text


def test_describe_narrates_every_event():
    state, events = GAME.apply(pos("e1 a5 c2", "e5 g7"), WHITE, "c2-b2")
    assert [GAME.describe(ev) for ev in events] == ["White c2-b2", "Black loses the ship on e5"]
    _, events = GAME.apply(pos("a3 c3", "g7 h6", reserve=(2, 10)), WHITE, "a1-b2")
    assert GAME.describe(events[0]) == "White rebuilds a ship at a1 and sails it to b2"


def test_picker_asks_for_the_ship_then_the_destination():
    state = pos("a3 c3", "g7 h6", reserve=(2, 10))
    first = GAME.choices(state, WHITE)
    values = [opt.value for opt in first.options]
    assert values == ["a1", "a3", "c3"] and first.move is None
    assert first.options[0].label == "Rebuild from port a1"
    assert all(len(opt.label) <= 100 and len(opt.value) <= 100 for opt in first.options)
    second = GAME.choices(state, WHITE, ["a1"])
    assert "Rebuild" in second.prompt and [o.value for o in second.options][:3] == ["a2", "b1", "b2"]
    third = GAME.choices(state, WHITE, ["c3", "c8"])
    assert third.move == "c3-c8" and third.options == []
    assert GAME.choices(state, WHITE, ["c3", "a1"]).move is None
    assert GAME.move_steps("c3-c8") == ("c3", "c8")


# --- seeded random games -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_every_invariant(seed):
    last = None
    for ply in random_plies(GAME, 2, seed, max_plies=3000):
        state, seat = ply.state, ply.seat
        assert ply.moves == sorted(set(ply.moves))
        assert all(format_move(parse_move(m)) == m for m in ply.moves)
        new, events = GAME.apply(state, seat, ply.move)
        for s in (0, 1):  # every ship is on the board or in reserve; no ship on its own port
            assert new.board.count(s + 1) + new.reserve[s] == SHIPS_PER_SEAT
            assert new.board[PORTS[s]] != s + 1
        opponent = 1 - seat
        for sq, cell in enumerate(new.board):  # after a move no enemy ship is left vulnerable
            if cell == opponent + 1:
                assert not is_vulnerable(new.board, sq, seat + 1)
        lost = sum(len(ev["squares"]) for ev in of_type(events, "destroy"))
        assert lost == new.reserve[opponent] - state.reserve[opponent]
        last = (new, events)
    assert last is not None
    final, events = last
    outcome = GAME.outcome(final)
    assert outcome is not None and events[-1]["type"] == "win"
    mover = final.to_move
    if "held" in outcome.reason:
        assert outcome.winners == (mover,) and final.board[PORTS[1 - mover]] == mover + 1
    else:
        assert outcome.winners == (1 - mover,)
        assert generate(final.board, final.reserve, mover) == []
