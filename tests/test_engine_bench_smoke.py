"""The engine benchmark (python -m bot.games.bench) still runs, at a tiny size."""

from __future__ import annotations

from bot.games import bench


def test_p99_is_nearest_rank():
    assert bench._p99([float(i) for i in range(1, 101)]) == 99.0
    assert bench._p99([3.0, 1.0, 2.0]) == 3.0 and bench._p99([7.0]) == 7.0


def test_main_prints_warm_and_cold_numbers_for_every_player_count(capsys):
    assert bench.main(["archimedes", "mycenae", "--games", "1", "--every", "40"]) == 0
    out = capsys.readouterr().out
    assert "legal_moves median warm / cold" in out and "cold p99" in out
    for row in ("| archimedes | 2 |", "| mycenae | 2 |", "| mycenae | 3 |", "| mycenae | 4 |"):
        assert row in out
    assert "one full knight (39,9" in out
