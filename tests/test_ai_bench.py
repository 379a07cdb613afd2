"""The computer's benchmark (python -m benchmarks.computer) writes only where it is asked to, never into the package."""

from __future__ import annotations

import hashlib
import json
import time

import pytest

from benchmarks import computer as bench
from bot.engine.playout import random_plies
from bot.games.registry import get_game

PACKAGES = bench.PACKAGES  # bot/ and renderers/
FAST = ["--games", "1", "--jobs", "1", "--max-plies", "4"]
TINY = ["archimedes", "--matchups", "easy-random", *FAST]


def package_files() -> dict[str, str]:
    return {str(path): hashlib.sha256(path.read_bytes()).hexdigest() for package in PACKAGES
            for path in sorted(package.rglob("*")) if path.is_file() and "__pycache__" not in path.parts}


def test_a_run_prints_its_table_and_writes_nothing(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = package_files()
    assert bench.main(TINY) == 0
    assert "| archimedes | 2 | easy vs random |" in capsys.readouterr().out
    assert package_files() == before and list(tmp_path.iterdir()) == []


def test_out_merges_runs_into_the_folder_named(capsys, tmp_path):
    before = package_files()
    out = tmp_path / "results"
    assert bench.main([*TINY, "--out", str(out)]) == 0
    assert bench.main(["archimedes", "--matchups", "normal-random", *FAST, "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["BENCH.md", "bench_results.json"]
    report = (out / "BENCH.md").read_text(encoding="utf-8")
    assert "easy vs random" in report and "normal vs random" in report  # the second run kept the first's numbers
    assert package_files() == before


def test_out_inside_the_package_is_refused(capsys):
    before = package_files()
    with pytest.raises(SystemExit) as stop:
        bench.main([*TINY, "--out", str(PACKAGES[0] / "ai")])
    assert stop.value.code == 2 and "inside the package" in capsys.readouterr().err
    assert package_files() == before


def test_plain_uct_plays_legal_moves_from_a_seat_view_in_its_time():
    """The benchmark's reference opponent: a legal move, from the seat's private view, after its CPU time."""
    for key, n, options in [("epaminondas", 2, None), ("myrmidons", 2, {"army": "draft"}), ("mycenae", 3, None)]:
        game = get_game(key)
        plies = list(random_plies(game, n, 2, options))
        for ply in (plies[0], plies[len(plies) // 2]):
            view = json.loads(json.dumps(game.view(ply.state, ply.seat)))
            start = time.process_time()
            assert bench.uct_move(view, 0.05, seed=1) in ply.moves
            assert time.process_time() - start < 1.0


def test_a_run_prints_each_levels_median_p99_and_maximum(capsys):
    assert bench.main(["archimedes", "--matchups", "easy-random,easy-easy", *FAST]) == 0
    out = capsys.readouterr().out
    assert "| level | moves | CPU time per move: median of medians / worst p99 / max |" in out
    assert "| easy | " in out
    assert "easy vs random | 0.5/1 = 50 % (" in out  # an unfinished game and its interval


def test_positions_time_every_level_against_its_budget(capsys):
    """`--positions` times decisions over fixed positions of every game and player count, the openings included."""
    assert bench.main(["--positions", "--levels", "easy", "--every", "1000", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    for key, n, options in bench.POSITION_SIZES:
        assert f"| {bench._name(key, options)} / {n} | easy | " in out
    assert "| easy | 50 (75) ms | " in out
    views = bench.position_views("myrmidons", 2, None, every=1000)
    assert [v["viewer"] for v in views[:2]] == [0, 1] and views[0]["to_act"] == [0, 1]  # each secret set-up, timed


def test_first_game_plays_other_seeds_and_keeps_them_apart(capsys, tmp_path):
    """`--first-game N` numbers the games (their seeds) from N, to check a change on seeds it was not chosen on;
    its results are stored beside the run from game 0, not over it."""
    out = tmp_path / "results"
    assert bench.main([*TINY, "--out", str(out)]) == 0
    assert bench.main([*TINY, "--first-game", "7", "--out", str(out)]) == 0
    stored = json.loads((out / "bench_results.json").read_text(encoding="utf-8"))
    assert sorted(stored) == ["archimedes/2/easy-random", "archimedes/2/easy-random/from 7"]
    assert stored["archimedes/2/easy-random/from 7"]["first_game"] == 7
    assert "| archimedes | 2 | easy vs random (games 7–7) |" in capsys.readouterr().out


def test_prior_and_posterior_levels_compare_the_two_guesses_at_one_scaled_work_limit(capsys):
    base = bench.policy_for("myrmidons")
    prior, posterior = bench.bench_policy("myrmidons", "prior", 0.5), bench.bench_policy("myrmidons", "posterior", 0.5)
    assert (prior.infers, posterior.infers) == (False, True)
    assert prior.hard_work == posterior.hard_work == base.hard_work / 2
    assert prior.hard_iterations == round(base.hard_iterations / 2)
    assert bench.main(["myrmidons", "--matchups", "posterior-prior", "--work", "0.1", *FAST]) == 0
    assert "| myrmidons | 2 | posterior vs prior (work ×0.1) |" in capsys.readouterr().out
