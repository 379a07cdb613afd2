"""The ratings benchmark (python -m benchmarks.ratings) still runs, at a tiny size."""

from __future__ import annotations

from benchmarks import ratings as bench


def test_the_benchmark_runs_at_a_tiny_size(capsys):
    assert bench.main(["--members", "30", "--games", "4", "--veteran", "10", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert "30 rated members of epaminondas" in out
    for query in ("leaderboard page + own rank", "profile (4-ish games)", "profile (10+ games)"):
        assert f"| {query} | cold | 2 |" in out and f"| {query} | warm | 2 |" in out
    assert "within the 100 ms budget" in out
