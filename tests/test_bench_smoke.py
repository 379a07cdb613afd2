"""The service benchmark (python -m bot.bench) still runs: every section at a tiny size, in a couple of seconds."""

from __future__ import annotations

import asyncio

from bot import bench


def test_percentile_is_nearest_rank():
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert bench.percentile(values, 50) == 3.0
    assert bench.percentile(values, 90) == 5.0
    assert bench.percentile(values, 0) == 1.0
    assert bench.percentile([7.0], 99) == 7.0


def test_every_section_runs_at_a_tiny_size(tmp_path):
    settings = bench.Settings(
        matches=4, moves=2, render_games=1, render_every=40, apply_matches=1, apply_moves=2
    )
    lines = asyncio.run(bench.run(settings, tmp_path))
    text = "\n".join(lines)
    assert lines[0].startswith("Measured ") and "cores" in lines[0] and "Python" in lines[0]
    for key in bench.renderable_games():
        assert f"| {key} |" in text
    assert "render median" in text and "apply + persist median" in text
    assert "receive → reply ready | 8 |" in text  # 4 matches × 2 moves, none lost
    assert "moves refused as stale: 0." in text


def test_concurrent_drivers_are_never_stale(tmp_path):
    async def play():
        service = await bench.open_service(tmp_path / "b.db")
        try:
            keys = bench.renderable_games()
            return await bench.bench_concurrency(service, bench.UserIds(), keys, matches=3, moves=2, think=0.001)
        finally:
            await service.repo.close()

    times, wall = asyncio.run(play())
    assert times.stale == 0
    assert len(times.total) == len(times.submit) == len(times.render) == 6
    assert all(t >= s for t, s in zip(times.total, times.submit))
    assert wall > 0


def test_main_prints_the_tables(capsys):
    assert bench.main(["--matches", "2", "--moves", "1", "--skip-render", "--skip-apply"]) == 0
    out = capsys.readouterr().out
    assert "2 concurrent matches" in out and "moves/s" in out
