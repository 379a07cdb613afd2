"""`.ci/run`: it runs the README's one test command, and makes the PostgreSQL tests fail rather than skip."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / ".ci" / "run"


def test_ci_run_prints_the_readmes_one_test_command_with_postgres_required():
    printed = subprocess.run([str(SCRIPT), "--print"], capture_output=True, text=True, check=True).stdout
    assert printed.splitlines() == [
        'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" && python -m pytest']
    assert f"    {printed.strip()}\n" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_run_requires_postgres_before_it_runs_the_tests():
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    required = [i for i, line in enumerate(lines) if re.fullmatch(r"export STRATEGOS_TEST_POSTGRES=require", line)]
    runs = [i for i, line in enumerate(lines) if line.startswith('exec bash -c "$command"')]
    assert len(required) == 1 and len(runs) == 1 and required[0] < runs[0]
