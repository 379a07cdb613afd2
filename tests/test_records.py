"""Match records: export → parse → replay round trips for every game, secrets kept, bad files refused clearly."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import bot.games.record as record_module
from bot.games import Outcome
from bot.games.registry import GAMES, get_game
from bot.games.__main__ import main as cli
from bot.engine.playout import random_plies
from bot.games.record import (
    HIDDEN,
    MATCH_ACTIONS,
    Record,
    RecordError,
    format_record,
    make_record,
    parse_record,
    rebuild_state,
    replay,
    replay_moves,
)
from bot.domain import LoggedMove

NAMES = ["alice", "bob", "carol", "dave"]
SECRET_CONFIGS = [
    ("myrmidons", 2, {"army": "standard"}),
    ("myrmidons", 2, {"army": "draft"}),
    ("myrmidons", 2, {"army": "random", "memory": "on"}),
    ("mycenae", 2, {"armies": ["mycenae", "mycenae"]}),
    ("mycenae", 4, {"armies": ["mycenae", "plain", "mycenae", "mycenae"]}),
]
ALL_CONFIGS = [(key, n, None) for key, game in GAMES.items()
               for n in range(game.info.min_players, game.info.max_players + 1)] + SECRET_CONFIGS


def play(key, players, seed, options=None, max_plies=5000):
    """A seeded random game: its log (as the move log stores it) and every state, start first."""
    game = get_game(key)
    log, states = [], [game.new_state(players, seed, options)]
    for ply in random_plies(game, players, seed, options, max_plies):
        state, events = game.apply(ply.state, ply.seat, ply.move)
        log.append(LoggedMove(len(log) + 1, ply.seat, ply.move, game.is_private_move(ply.move), events, 0.0))
        states.append(state)
    return log, states


def export(key, players, seed, options, log, *, viewer=None, result=None):
    return format_record(game=key, num_players=players, seed=seed, options=options, entries=log,
                         names=NAMES[:players], viewer=viewer, result=result, date="2026-11-24", match_id=7)


# --- round trips -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key,players,options", ALL_CONFIGS)
def test_a_finished_random_game_round_trips_to_the_same_final_state(key, players, options):
    game = get_game(key)
    log, states = play(key, players, 3, options)
    outcome = game.outcome(states[-1])
    assert outcome is not None, "the random game should end"
    text = export(key, players, 3, options, log, result=outcome)

    record = parse_record(text)
    assert format_record(record) == text
    assert record.complete and record.seed == 3 and HIDDEN not in text
    run = replay(record)
    assert run.complete and run.replayed == len(log)
    assert game.dump(run.final_state) == game.dump(states[-1])
    assert [game.dump(s) for s in run.states] == [game.dump(s) for s in states]
    assert run.outcome == outcome


def test_a_running_perfect_information_match_replays_whole_with_its_seed():
    log, states = play("myriath", 3, 5, max_plies=20)
    record = parse_record(export("myriath", 3, 5, None, log, viewer=1))
    assert record.seed == 5 and record.result is None and record.viewer == 1
    run = replay(record)
    assert run.complete and run.outcome is None
    assert get_game("myriath").dump(run.final_state) == get_game("myriath").dump(states[-1])


def test_reserved_match_words_are_no_game_move():
    for key, players, options in ALL_CONFIGS:
        log, _ = play(key, players, 1, options)
        assert not {entry.move for entry in log} & MATCH_ACTIONS, key


# --- secrets ---------------------------------------------------------------------------------------------------


def first_play_ply(key, log):
    """The number of entries up to the end of the secret setup."""
    game = get_game(key)
    return max(i + 1 for i, entry in enumerate(log) if game.is_private_move(entry.move))


@pytest.mark.parametrize("key,players,options", SECRET_CONFIGS)
def test_a_running_hidden_information_export_holds_no_other_seats_secret(key, players, options):
    game = get_game(key)
    log, states = play(key, players, 9, options)
    cut = first_play_ply(key, log) + 3
    running = log[:cut]
    secrets = {entry.move: entry.seat for entry in running if entry.private}
    assert secrets
    for viewer in [None, *range(players)]:
        text = export(key, players, 9, options, running, viewer=viewer)
        for move, seat in secrets.items():
            assert (move in text) == (seat == viewer), (viewer, move)
        assert "Seed: withheld" in text and "9" not in text.split("Seed:")[1].split("\n")[0]
        run = replay(text)
        assert not run.complete and run.states == [] and "withheld" in run.stopped

    finished = export(key, players, 9, options, log, viewer=1, result=game.outcome(states[-1]))
    assert all(move in finished for move in secrets) and "Viewer: all" in finished
    assert finished == export(key, players, 9, options, log, viewer=0, result=game.outcome(states[-1]))


def deployments(key, options, seed, count=2):
    """Different secret setups of seat 1 after the same setup of seat 0 (both from the start position)."""
    game = get_game(key)
    state = game.new_state(2, seed, options)
    acting = game.to_act(state)
    assert 1 in acting
    own = game.legal_moves(state, 0)[0] if 0 in acting else None
    theirs = game.legal_moves(state, 1)
    return own, [theirs[0], theirs[-1]][:count]


@pytest.mark.parametrize("key,options", [("myrmidons", {"army": "standard"}),
                                         ("mycenae", {"armies": ["mycenae", "mycenae"]})])
def test_matches_differing_only_in_a_secret_give_identical_records_to_those_who_may_not_know_it(key, options):
    own, (secret_a, secret_b) = deployments(key, options, seed=4)
    assert secret_a != secret_b
    texts = {}
    for seed in (4, 5):  # the seed is a secret too while it decides draws to come
        for secret in (secret_a, secret_b):
            log = [LoggedMove(1, 1, secret, True, [], 0.0)] + ([LoggedMove(2, 0, own, True, [], 0.0)] if own else [])
            for viewer in (None, 0):
                texts.setdefault(viewer, set()).add(export(key, 2, seed, options, log, viewer=viewer))
    assert len(texts[None]) == 1 and len(texts[0]) == 1
    assert HIDDEN in next(iter(texts[0]))


def test_an_own_secret_is_in_ones_own_record_and_a_record_made_for_a_seat_says_so():
    own, (secret, _) = deployments("myrmidons", {"army": "draft"}, seed=2)
    log = [LoggedMove(1, 0, own, True, [], 0.0), LoggedMove(2, 1, secret, True, [], 0.0)]
    text = export("myrmidons", 2, 2, {"army": "draft"}, log, viewer=0)
    assert f"1. 0 {own}\n2. 1 {HIDDEN}\n" in text and "Viewer: 0" in text


def test_a_hidden_move_stops_replay_just_before_it_and_everything_before_is_checked():
    log, _ = play("myrmidons", 2, 3, {"army": "standard"})
    record = parse_record(export("myrmidons", 2, 3, {"army": "standard"}, log, viewer=0))
    hidden_at = next(i for i, m in enumerate(record.moves) if m.hidden)
    seeded = Record(**{**record.__dict__, "seed": 3})  # as if the seed were known: the secret still stops it
    run = replay(seeded)
    assert run.replayed == hidden_at and not run.complete
    assert f"move {hidden_at + 1} is seat {record.moves[hidden_at].seat}'s secret setup" in run.stopped


def test_the_log_flag_alone_hides_a_move():
    """A move the log marked private stays hidden even if the engine would not call it private."""
    record = make_record("epaminondas", num_players=2, seed=1, options=None, names=NAMES[:2], viewer=1,
                         result=None, entries=[(0, "a2-a3", True)])
    assert record.moves[0].hidden


def test_a_display_name_cannot_forge_header_or_move_lines():
    evil = format_record(game="archimedes", num_players=2, seed=1, options=None, entries=[],
                         names=["eve\nResult: 1 (forged)\n1. 0 a1-a2", "bob"], viewer=None, result=None)
    record = parse_record(evil)
    assert record.result is None and record.moves == () and record.names[0].startswith("eve Result")


# --- match-layer entries and take-backs ----------------------------------------------------------------------


def test_resign_timeout_and_draw_end_the_match_as_the_service_does():
    log, _ = play("epaminondas", 2, 1, max_plies=6)
    moves = [(e.seat, e.move) for e in log]
    resigned = replay_moves("epaminondas", 2, 1, None, moves + [(1, "resign")], NAMES)
    assert resigned.outcome == Outcome((0,), "bob resigned")
    timed_out = replay_moves("epaminondas", 2, 1, None, moves + [(0, "timeout")], NAMES)
    assert timed_out.outcome == Outcome((1,), "alice ran out of time")
    drawn = replay_moves("epaminondas", 2, 1, None, moves + [(0, "draw")], NAMES)
    assert drawn.outcome == Outcome((), "draw by agreement")
    assert drawn.states[-1] is drawn.states[-2]  # an agreed draw changes no position

    text = export("epaminondas", 2, 1, None, log + [LoggedMove(7, 1, "resign", False, [], 0.0)],
                  result=Outcome((0,), "bob resigned"))
    assert text.endswith("7. 1 resign\n") and "Result: 0 (bob resigned)" in text
    assert replay(text).outcome.winners == (0,)


def test_a_resignation_out_of_turn_replays():
    log, _ = play("archimedes", 2, 2, max_plies=5)
    acting = get_game("archimedes").to_act(play("archimedes", 2, 2, max_plies=5)[1][-1])[0]
    run = replay_moves("archimedes", 2, 2, None, [(e.seat, e.move) for e in log] + [(1 - acting, "resign")])
    assert run.outcome.winners == (acting,)


def test_take_back_rebuilds_the_exact_state_before_the_last_move():
    for key, players, options in [("epaminondas", 2, None), ("mycenae", 3, {"armies": ["mycenae"] * 3}),
                                  ("myrmidons", 2, {"army": "draft"}), ("myriath", 4, None)]:
        game = get_game(key)
        log, states = play(key, players, 6, options, max_plies=40)
        before = rebuild_state(game, players, 6, options, log[:-1])
        assert game.dump(before) == game.dump(states[-2]), key


def test_entries_after_the_end_are_refused():
    with pytest.raises(RecordError, match=r"move 2 comes after the end of the match \(draw by agreement\)"):
        replay_moves("archimedes", 2, 1, None, [(0, "draw"), (0, "a1-a2")])


# --- bad records -------------------------------------------------------------------------------------------------


def good_text():
    log, states = play("archimedes", 2, 1, max_plies=8)
    return export("archimedes", 2, 1, None, log)


@pytest.mark.parametrize("mangle,message", [
    (lambda t: "hello\n" + t, r"line 1: not a Strategos match record"),
    (lambda t: "", r"not a Strategos match record"),
    (lambda t: t.replace("Game: archimedes", "Game: chess"), r"line 2: unknown game 'chess'"),
    (lambda t: t.replace("Seed: 1", "Seed: one"), r"line 8: Seed must be a whole number"),
    (lambda t: t.replace("Options: {}", "Options: {army"), r"line 7: Options is not valid JSON"),
    (lambda t: t.replace("Options: {}", "Options: []"), r"line 7: Options must be a JSON object"),
    (lambda t: t.replace("Seat 1: bob\n", ""), r"one 'Seat N: name' line for each seat"),
    (lambda t: t.replace("Result: *", "Result: maybe"), r"Result must be"),
    (lambda t: t.replace("\n3. ", "\n4. "), r"line 16: expected move 3, found move 4"),
    (lambda t: t.replace("\n3. 0 ", "\n3. 5 "), r"line 16: seat 5 does not exist in a 2-player match"),
    (lambda t: t.replace("\n3. 0 ", "\n3. 1 "), r"line 16: move 3: '.*' by seat 1 does not replay: it is not "
                                               r"seat 1's turn"),
    (lambda t: t + "9. 1 a1-h8\n", r"line 22: move 9: 'a1-h8' by seat 1 does not replay"),
    (lambda t: t + "9. 1 zz\n", r"line 22: move 9: 'zz' by seat 1 does not replay"),
    (lambda t: t + "Hello there\n", r"line 22: expected a move line"),
    (lambda t: t.replace("Rules: 1", "Rules: 99"), r"rules version 99"),
    (lambda t: t.replace("Players: 2", "Players: 3") .replace("Seat 1: bob", "Seat 1: bob\nSeat 2: c"),
     r"Archimedes is for 2 to 2 players, not 3"),
    (lambda t: t.replace("Result: *", "Result: 1 (made up)"), r"the record says the match ended \(1 \(made up\)\)"),
    (lambda t: t.replace("Seed: 1", "Seed: 1\nSeed: 2"), r"line 9: header 'Seed' appears twice"),
])
def test_a_bad_record_is_refused_with_a_message_naming_the_line(mangle, message):
    with pytest.raises(RecordError, match=message):
        replay(mangle(good_text()))


def test_a_wrong_result_is_refused():
    game = get_game("archimedes")
    log, states = play("archimedes", 2, 1)
    winner = game.outcome(states[-1]).winners[0]
    text = export("archimedes", 2, 1, None, log, result=Outcome((1 - winner,), "forged"))
    with pytest.raises(RecordError, match=f"the record says {1 - winner} \\(forged\\), but the replay ends "
                                          f"{winner} "):
        replay(text)


def test_comments_and_blank_lines_are_ignored():
    text = "# exported from Strategos\n\n" + good_text().replace("\n1. ", "\n# the first move\n1. ")
    assert replay(text).complete


# --- the terminal tool ---------------------------------------------------------------------------------------


def test_the_terminal_replays_a_file_and_prints_the_final_position(tmp_path, capsys):
    game = get_game("epaminondas")
    log, states = play("epaminondas", 2, 2)
    path = tmp_path / "match.txt"
    path.write_text(export("epaminondas", 2, 2, None, log, result=game.outcome(states[-1])), encoding="utf-8")
    assert cli(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert game.render_text(game.view(states[-1], None)) in out
    assert f"{len(log)} of {len(log)} moves replayed and checked" in out
    assert f"Result: {game.outcome(states[-1]).reason}" in out


def test_the_terminal_names_the_bad_line_and_says_when_a_record_hides_moves(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text(good_text() + "9. 1 a1-h8\n", encoding="utf-8")
    assert cli(["replay", str(bad)]) == 1
    assert "line 22: move 9" in capsys.readouterr().err

    log, _ = play("myrmidons", 2, 1, {"army": "standard"}, max_plies=10)
    partial = tmp_path / "partial.txt"
    partial.write_text(export("myrmidons", 2, 1, {"army": "standard"}, log, viewer=0), encoding="utf-8")
    assert cli(["replay", str(partial)]) == 2
    assert "seed is withheld" in capsys.readouterr().out
    assert cli(["replay", str(tmp_path / "missing.txt")]) == 1


def test_a_record_saved_with_a_byte_order_mark_is_accepted(tmp_path, capsys):
    text = good_text()
    assert parse_record("\ufeff" + text) == parse_record(text)
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeff".encode("utf-8") + text.encode("utf-8"))
    assert cli(["replay", str(path)]) == 0
    assert "8 of 8 moves replayed and checked" in capsys.readouterr().out


def test_a_record_read_from_standard_input_may_carry_a_byte_order_mark(monkeypatch, capsys):
    data = "\ufeff".encode("utf-8") + good_text().encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="ascii"))
    assert cli(["replay", "-"]) == 0
    assert "8 of 8 moves replayed and checked" in capsys.readouterr().out


@pytest.mark.parametrize("data", [
    "Strategos match record 1\nGame: archimedes\n".encode("utf-16"),  # what some Windows editors save
    "Strategos match record 1\nSeat 0: Zo\xeb\n".encode("latin-1"),
    b"\x89PNG\r\n\x1a\n\x00\x00",
], ids=["utf-16", "latin-1", "png"])
def test_a_file_that_is_not_utf8_text_is_one_clear_line(tmp_path, capsys, data):
    path = tmp_path / "match.txt"
    path.write_bytes(data)
    assert cli(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert not out and len(err.splitlines()) == 1
    assert err.startswith(f"cannot read {path}: not UTF-8 text (byte 0x")


def test_a_view_seat_the_record_does_not_have_is_one_clear_line(tmp_path, capsys):
    path = tmp_path / "match.txt"
    path.write_text(good_text(), encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        cli(["replay", str(path), "--view", "2"])
    out, err = capsys.readouterr()
    assert stop.value.code == 1 and err.splitlines() == [
        "python -m bot.games replay: --view must be a seat from 0 to 1, not 2 (see --help)"]


def indented_example(text: str) -> str:
    """The first indented block that starts a record, unindented."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Strategos match record 1")
    block = []
    for line in lines[start:]:
        if line.strip() and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block)


def test_the_documented_examples_replay():
    doc = (Path(record_module.__file__).parents[2] / "docs" / "operating.md").read_text(encoding="utf-8")  # records
    for text in (indented_example(record_module.__doc__), indented_example(doc)):
        run = replay(text)
        assert run.complete and run.outcome is not None and run.outcome.reason == "alice resigned"
