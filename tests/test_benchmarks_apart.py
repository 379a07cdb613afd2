"""Benchmarks and their helpers live in benchmarks/, run from the repository's root: the installed packages hold
none of them and import none of them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("bot", "renderers")


def test_the_installed_packages_leave_the_benchmarks_out():
    found = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    packages = find_packages(ROOT, include=found["find"]["include"])
    assert {"bot", "renderers", "bot.games"} <= set(packages)
    assert not [name for name in packages if name.split(".")[0] not in SHIPPED]


def test_no_benchmark_is_left_in_or_imported_by_the_packages():
    sources = [path for package in SHIPPED for path in (ROOT / package).rglob("*.py")]
    assert not [path for path in sources if "bench" in path.name]
    importing = re.compile(r"^\s*(from|import)\s+benchmarks\b", re.MULTILINE)
    assert not [path for path in sources if importing.search(path.read_text(encoding="utf-8"))]
