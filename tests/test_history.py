"""History narration: numbered lines that hold only what the reader may know, and pages that fit an embed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.games.registry import get_game
from bot.engine.playout import random_plies
from bot.matches import history as history_module
from bot.matches.history import EMBED_DESCRIPTION_LIMIT, EMPTY_HISTORY, escape, history_lines, paginate
from bot.domain import LoggedMove

NAMES = ["alice", "bob", "carol"]


def log_of(key, players, seed, options=None, max_plies=5000):
    game = get_game(key)
    log = []
    for ply in random_plies(game, players, seed, options, max_plies):
        _, events = game.apply(ply.state, ply.seat, ply.move)
        log.append(LoggedMove(len(log) + 1, ply.seat, ply.move, game.is_private_move(ply.move), events, 0.0))
    return log


def test_lines_are_numbered_like_the_log_and_say_who_played_what():
    game = get_game("epaminondas")
    log = log_of("epaminondas", 2, 3)
    lines = history_lines(game, log, NAMES[:2], None, finished=True)
    assert len(lines) == len(log)
    assert lines[0] == f"**1.** alice (Light): `{log[0].move}`."
    captures = [i for i, e in enumerate(log) if any(ev["type"] == "capture" for ev in e.events)]
    assert captures and " captures " in lines[captures[0]]
    assert lines[captures[0]].count(log[captures[0]].move) == 1  # the line shows the move once, its story does not
    assert "wins" in lines[-1]


def test_fights_burns_and_passes_are_narrated():
    myrmidons = history_lines(get_game("myrmidons"), log_of("myrmidons", 2, 3, {"army": "standard"}), NAMES[:2],
                              None, finished=True)
    assert any("Fight on" in line for line in myrmidons)
    mycenae = history_lines(get_game("mycenae"), log_of("mycenae", 3, 4, {"armies": ["mycenae"] * 3}), NAMES, 0)
    assert any("burnt:" in line for line in mycenae)
    assert not any(re.search(r"— [a-h]\d: (un)?load", line) for line in mycenae)  # not the move said twice
    myriath = history_lines(get_game("myriath"), log_of("myriath", 2, 4), NAMES[:2], None)
    assert any("passes" in line for line in myriath)


def test_a_games_whole_sentences_stay_sentences_in_a_line():
    lines = history_lines(get_game("myrmidons"), log_of("myrmidons", 2, 3, {"army": "standard"}), NAMES[:2], None,
                          finished=True)
    ready = next(line for line in lines if "Both armies stand ready" in line)
    assert "has deployed. Both armies stand ready. " in ready and "; Both" not in ready


def test_match_layer_entries_are_narrated():
    game = get_game("archimedes")
    entries = [(0, "resign", False, []), (1, "timeout", False, []), (0, "draw", False, [])]
    assert history_lines(game, entries, NAMES[:2], None) == [
        "**1.** alice (White) resigned.",
        "**2.** bob (Black) ran out of time.",
        "**3.** alice (White) accepted the draw: the match is drawn by agreement.",
    ]


def secret_setup(deploy_of_north: int):
    """A Myrmidons setup where only North's deployment differs: both moves and their real events."""
    game = get_game("myrmidons")
    state = game.new_state(2, 8, {"army": "standard"})
    entries = []
    for seat, pick in ((0, 0), (1, deploy_of_north)):
        move = game.legal_moves(state, seat)[pick]
        state, events = game.apply(state, seat, move)
        entries.append(LoggedMove(len(entries) + 1, seat, move, True, events, 0.0))
    return entries


def test_a_running_match_hides_another_seats_secret_setup_and_its_private_events():
    game = get_game("myrmidons")
    entries = secret_setup(5)
    north_deploy = entries[1].move
    for viewer in (None, 0):
        text = "\n".join(history_lines(game, entries, NAMES[:2], viewer))
        assert north_deploy not in text and "bob (North) made a secret setup move — North has deployed" in text
        assert "You deployed" not in text.split("\n")[1]
    own = history_lines(game, entries, NAMES[:2], 1)[1]
    assert north_deploy in own and "You deployed" in own
    public = "\n".join(history_lines(game, entries, NAMES[:2], None))
    assert entries[0].move not in public and "You deployed" not in public


def test_once_the_match_is_over_setup_moves_are_shown_but_private_events_stay_with_their_seat():
    game = get_game("myrmidons")
    entries = secret_setup(5)
    lines = history_lines(game, entries, NAMES[:2], 0, finished=True)
    assert entries[1].move in lines[1] and "You deployed" not in lines[1]


def test_matches_differing_only_in_a_secret_read_the_same_to_those_who_may_not_know_it():
    game = get_game("myrmidons")
    a, b = secret_setup(3), secret_setup(40)
    assert a[1].move != b[1].move and a[1].events != b[1].events
    for viewer in (None, 0):
        assert history_lines(game, a, NAMES[:2], viewer) == history_lines(game, b, NAMES[:2], viewer)
    assert history_lines(game, a, NAMES[:2], 1) != history_lines(game, b, NAMES[:2], 1)


def test_names_cannot_break_the_markdown():
    assert escape("**bob**_\n`x`") == r"\*\*bob\*\*\_ \`x\`"
    line = history_lines(get_game("archimedes"), [(0, "resign")], ["*eve*", "bob"], None)[0]
    assert line == r"**1.** \*eve\* (White) resigned."


# --- pages -------------------------------------------------------------------------------------------------------


def test_pages_of_a_long_match_fit_an_embed_and_keep_every_line_in_order():
    game = get_game("epaminondas")
    log = log_of("epaminondas", 2, 3)
    assert len(log) > 200
    lines = history_lines(game, log, ["a" * 32, "b" * 32], None)
    pages = paginate(lines)
    assert all(len(page) <= EMBED_DESCRIPTION_LIMIT for page in pages)
    assert all(len(page.split("\n")) <= 18 for page in pages)
    assert "\n".join(pages).split("\n") == lines
    assert len(pages) == -(-len(lines) // 18)


def test_a_page_closes_early_when_the_characters_run_out():
    lines = [f"**{i}.** " + "x" * 1000 for i in range(1, 10)]
    pages = paginate(lines, per_page=20)
    assert [len(p.split("\n")) for p in pages] == [4, 4, 1]
    assert all(len(p) <= EMBED_DESCRIPTION_LIMIT for p in pages)


def test_a_line_longer_than_a_page_is_cut_not_lost():
    pages = paginate(["short", "y" * 5000, "after"])
    assert len(pages[1]) == EMBED_DESCRIPTION_LIMIT and pages[1].endswith("…")
    assert pages[0] == "short" and pages[2] == "after"


def test_an_empty_history_is_one_page_saying_so():
    assert paginate([]) == [EMPTY_HISTORY]
    with pytest.raises(ValueError):
        paginate(["x"], per_page=0)


def test_history_imports_nothing_but_the_rules_layer_and_the_standard_library():
    tree = ast.parse(Path(history_module.__file__).read_text(encoding="utf-8"))
    imported = {node.module.split(".")[0] if node.module else "." for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert imported <= {"__future__", "re", "typing", "bot"}
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert {m for m in modules if m.startswith("bot")} == {"bot.games", "bot.i18n"}  # the catalogues: pure too


def test_two_mycenae_cargoes_read_the_same_to_the_other_seats():
    game = get_game("mycenae")
    options = {"armies": ["mycenae", "mycenae", "plain"]}
    start = game.new_state(3, 2, options)
    cargoes = game.legal_moves(start, 1)
    histories = []
    for cargo in (cargoes[0], cargoes[-1]):
        _, events = game.apply(start, 1, cargo)
        histories.append([history_lines(game, [(1, cargo, True, events)], NAMES, viewer) for viewer in (None, 0, 2)])
    assert cargoes[0] != cargoes[-1]
    assert histories[0] == histories[1]
    assert histories[0][0] == ["**1.** bob made a secret setup move."]
