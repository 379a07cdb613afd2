"""The engine benchmark (python -m benchmarks.engines) still runs, at a tiny size."""

from __future__ import annotations

from benchmarks import engines as bench


def test_main_prints_warm_and_cold_numbers_for_every_player_count(capsys):
    assert bench.main(["archimedes", "mycenae", "--games", "1", "--every", "40"]) == 0
    out = capsys.readouterr().out
    assert "legal_moves median warm / cold" in out and "cold p99" in out
    for row in ("| archimedes | 2 |", "| mycenae | 2 |", "| mycenae | 3 |", "| mycenae | 4 |"):
        assert row in out
    assert "one full knight (39,9" in out
