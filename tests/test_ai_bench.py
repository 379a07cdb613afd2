"""The computer's benchmark (python -m bot.ai.bench) writes only where it is asked to, never into the package."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bot.ai import bench

PACKAGE = Path(bench.__file__).resolve().parent.parent
FAST = ["--games", "1", "--jobs", "1", "--max-plies", "4"]
TINY = ["archimedes", "--matchups", "easy-random", *FAST]


def package_files() -> dict[str, str]:
    return {str(path): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(PACKAGE.rglob("*")) if path.is_file() and "__pycache__" not in path.parts}


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
        bench.main([*TINY, "--out", str(PACKAGE / "ai")])
    assert stop.value.code == 2 and "inside the package" in capsys.readouterr().err
    assert package_files() == before
