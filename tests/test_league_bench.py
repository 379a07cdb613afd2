"""The league benchmark (python -m benchmarks.leagues) still runs, at a tiny size."""

from __future__ import annotations

from benchmarks import leagues as bench


def test_the_league_benchmark_runs_at_a_tiny_size(capsys):
    assert bench.main(["--division", "12", "--swiss", "16", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert "| standings, 12 players, 66 games | 2 |" in out
    assert "| Swiss pairing, 16 players, each of 5 rounds | 5 |" in out
    assert "OVER" not in out
