"""The layers as the design page draws them, read from the code's own imports: the records the service decides with
live in `bot/domain` and import no layer, the store imports nothing above it, the Discord adapters and presenters
reach the store only through the service, and no module of the service reaches into another's private parts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (relative imports made absolute)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def reaching(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    return [f"{path.relative_to(ROOT)} imports {name}" for path in modules(folder) for name in sorted(imported(path))
            if any(name == f or name.startswith(f + ".") for f in forbidden)]


def test_the_scan_reads_relative_imports():
    assert "bot.domain.Match" in imported(ROOT / "bot/storage/matches.py")
    assert "bot.matches.actions.MatchActions" in imported(ROOT / "bot/matches/turns.py")


def test_the_domain_records_import_no_layer():
    outside = [line for line in reaching("bot/domain", ("bot", "renderers", "discord"))
               if " imports bot.domain" not in line]
    assert modules("bot/domain") and outside == []


def test_the_store_imports_nothing_above_it():
    assert reaching("bot/storage", ("bot.matches", "bot.presenters", "bot.views", "bot.cogs", "bot.ai", "bot.app",
                                    "discord")) == []


@pytest.mark.parametrize("folder", ["bot/cogs", "bot/views", "bot/presenters"])
def test_adapters_and_presenters_reach_the_store_only_through_the_service(folder):
    assert reaching(folder, ("bot.storage",)) == []


def test_no_service_module_uses_another_objects_private_parts():
    """`self._x` is a module's own; `other._x` (another class's method or state) is not."""
    found = []
    for path in modules("bot/matches"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert found == []
