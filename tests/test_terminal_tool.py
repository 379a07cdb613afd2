"""The terminal tool (python -m bot.games): every mistake is one clear line, never a traceback, and at the prompt
the session goes on."""

from __future__ import annotations

import builtins
import subprocess
import sys

import pytest

from bot.games.__main__ import main as cli


@pytest.mark.parametrize("argv,line", [
    (["epaminondas", "--players", "5"], "Epaminondas is for exactly 2 players, not 5"),
    (["mycenae", "--players", "5"], "Mycenae is for 2 to 4 players, not 5"),
    (["mycenae", "--players", "1"], "Mycenae is for 2 to 4 players, not 1"),
    (["mycenae", "--players", "x"], "argument --players: invalid int value: 'x'"),
    (["myrmidons", "--options", "{army: draft}"], "argument --options: not valid JSON"),
    (["myrmidons", "--options", "[1]"], "argument --options: must be a JSON object"),
    (["myrmidons", "--options", '{"army": "huge"}'],
     "argument --options: option 'army' must be 'standard' or 'draft' or 'random', not \"huge\""),
    (["myrmidons", "--options", '{"colour": "red"}'],
     "argument --options: Myrmidons has no option 'colour' (its options: army, memory)"),
    (["mycenae", "--options", '{"armies": 5}'], "argument --options: option 'armies' must be a list of"),
    (["mycenae", "--options", '{"armies": ["plain", "plain", "plain"]}'],
     "argument --options: armies needs one entry per player (2)"),
    (["chess"], "argument game: invalid choice: 'chess'"),
])
def test_a_bad_start_is_one_line_and_exit_status_2(argv, line, capsys, monkeypatch):
    monkeypatch.setattr(builtins, "input", lambda prompt: pytest.fail("the game started"))
    with pytest.raises(SystemExit) as stop:
        cli(argv)
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and not out
    assert len(err.splitlines()) == 1 and err.startswith(f"python -m bot.games: {line}"), err
    assert err.rstrip().endswith("(see --help)")


def test_a_bad_start_prints_no_traceback_from_the_command_line():
    run = subprocess.run([sys.executable, "-m", "bot.games", "mycenae", "--players", "5"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == "python -m bot.games: Mycenae is for 2 to 4 players, not 5 (see --help)\n"


def feed(monkeypatch, lines):
    answers = iter(lines)
    monkeypatch.setattr(builtins, "input", lambda prompt: print(prompt) or next(answers))


def test_typos_at_the_prompt_get_one_line_each_and_the_session_goes_on(monkeypatch, capsys):
    typos = {
        "view x": "! a seat is a number from 0 to 1, not 'x'",
        "view 5": "! a seat is a number from 0 to 1, not '5'",
        "view -1": "! a seat is a number from 0 to 1, not '-1'",
        "as 1": "! write `as SEAT MOVE`, e.g. `as 1 deploy ...`",
        "as": "! write `as SEAT MOVE`, e.g. `as 1 deploy ...`",
        "as x b1-b3": "! a seat is a number from 0 to 1, not 'x'",
        "as 7 b1-b3": "! a seat is a number from 0 to 1, not '7'",
    }
    feed(monkeypatch, [*typos, "view 1", "view", "b1-b3", "quit"])
    assert cli(["epaminondas"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("!")] == list(typos.values())
    assert "Traceback" not in out
    assert out.rstrip().endswith("seat 1 (1 may act) >")  # the move after the typos was played


def test_as_acts_for_another_seat_during_a_secret_setup(monkeypatch, capsys):
    feed(monkeypatch, ["as 1 nonsense", "as 1 deploy 5/1/3,C,2/5/2,1/3/5,3/2/4,4/4/1", "quit"])
    assert cli(["myrmidons"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("!")] == [
        "! 'nonsense' is not a move (write the two squares like c1-c4)"]
    assert out.rstrip().endswith("seat 0 (0 may act) >")  # seat 1 has deployed; seat 0 still to


def test_end_of_input_or_ctrl_c_ends_the_session_quietly(monkeypatch, capsys):
    def interrupted(prompt):
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupted)
    assert cli(["archimedes"]) == 0
    assert "Traceback" not in capsys.readouterr().out
