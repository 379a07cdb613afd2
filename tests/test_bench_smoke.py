"""The service benchmark (python -m benchmarks.bursts) still runs: every section at a tiny size, in a couple of
seconds."""

from __future__ import annotations

import asyncio
import json

import pytest

from benchmarks import bursts as bench
from benchmarks.stats import percentile


def test_percentile_is_nearest_rank():
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 50) == 3.0
    assert percentile(values, 90) == 5.0
    assert percentile(values, 0) == 1.0
    assert percentile([7.0], 99) == 7.0
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    assert percentile([3.0, 1.0, 2.0], 99) == 3.0


def test_every_section_runs_at_a_tiny_size(tmp_path):
    settings = bench.Settings(bursts=(6,), render_games=1, render_every=40, apply_matches=1, apply_moves=2)
    lines = asyncio.run(bench.run(settings, tmp_path))
    text = "\n".join(lines)
    assert lines[0].startswith("Measured ") and "cores" in lines[0] and "Python" in lines[0]
    for key in bench.renderable_games():
        assert f"| {key} |" in text
    assert "render median" in text and "apply + persist median" in text
    assert "| 6 |" in text and ", in order |" in text


def test_a_burst_makes_every_board_once_in_order(tmp_path):
    """Every match moving at once: each move is acknowledged, written and gets its board exactly once."""
    async def play():
        service = await bench.open_service(tmp_path / "b.db")
        try:
            return await bench.bench_burst(service, bench.UserIds(), bench.renderable_games(), matches=30)
        finally:
            await service.repo.close()

    times, wall = asyncio.run(play())
    assert len(times.ack) == 15 and len(times.picker_ack) == 2 * 15  # /move; Move and Confirm clicks
    assert len(times.submit) == 30 and times.replayed_ok
    assert times.expected == len(times.board) == sum(len(v) for v in times.boards.values())
    assert all(len(versions) == 1 for versions in times.boards.values())  # once each
    assert wall > 0


def test_main_prints_the_tables(capsys):
    assert bench.main(["--bursts", "2", "--skip-render", "--skip-apply"]) == 0
    out = capsys.readouterr().out
    assert "matches moving at once" in out and "| 2 |" in out
    last = json.loads(out.strip().splitlines()[-1])  # machines read the last lines
    assert last["bench"] == "burst" and last["database"] == "sqlite" and last["matches"] == 2
    assert last["in_order"] is True and last["replayed_ok"] is True and last["boards"] >= 1
    assert {"ack_p99_ms", "picker_ack_p99_ms", "written_p99_ms", "board_p99_ms"} <= last.keys()


def test_the_burst_runs_in_a_given_sqlite_file_and_refuses_other_urls(tmp_path, capsys):
    assert bench.main(["--bursts", "2", "--skip-render", "--skip-apply", "--database", str(tmp_path / "b.db")]) == 0
    assert (tmp_path / "b.db").exists()
    with pytest.raises(SystemExit):
        bench.main(["--database", "mysql://localhost/strategos"])
    assert "give a SQLite file's path or a postgresql:// URL" in capsys.readouterr().err


def test_the_burst_runs_on_postgresql_and_says_so(migrated_postgres_dsn, capsys):
    assert bench.main(["--bursts", "2", "--skip-render", "--skip-apply", "--database", migrated_postgres_dsn]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["database"] == "postgresql" and last["matches"] == 2
    assert last["in_order"] is True and last["replayed_ok"] is True


def test_a_burst_shared_by_two_processes_on_postgresql(migrated_postgres_dsn, capsys):
    assert bench.main(["--bursts", "6", "--skip-render", "--skip-apply", "--processes", "2",
                       "--database", migrated_postgres_dsn]) == 0
    out = capsys.readouterr().out
    last = json.loads(out.strip().splitlines()[-1])
    assert last["processes"] == 2 and last["matches"] == 6 and "shared by 2 bot processes" in out
    assert last["in_order"] is True and last["replayed_ok"] is True and last["boards"] >= 1


def test_several_processes_are_refused_on_sqlite(tmp_path, capsys):
    with pytest.raises(SystemExit):
        bench.main(["--processes", "2", "--database", str(tmp_path / "b.db")])
    assert "several processes need PostgreSQL" in capsys.readouterr().err
