"""The repository stands on its own: what its code, tests and documents cite is in it. Design notes and rules
pages live in docs/; nothing points at files outside the repository or at issue numbers a reader cannot open."""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest

from bot.games.registry import GAMES, declaration_of

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", "build", "dist", "bench-out"}
TEXT_NAMES = {"Dockerfile", "run", ".env.example", ".dockerignore", ".gitignore"}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".sql", ".txt", ".cfg", ".ini", ".yml", ".yaml"}

# Each pattern, with why it is not allowed.
FORBIDDEN = [
    (re.compile(r"shared/"), "the shared folder is outside the repository"),
    (re.compile(r"\.\./(?:seeds|rules|shared)\b"), "a folder beside the repository"),
    (re.compile(r"\bissues?\s*#\s*\d+", re.IGNORECASE), "an issue number a reader cannot open"),
    (re.compile(r"\bissue\s+[\"“]", re.IGNORECASE), "an issue title a reader cannot open"),
    (re.compile(r"(?<![\w/])design\.md"), "design notes are docs/design.md"),
    (re.compile(r"(?<!docs/)(?<![\w<>-])rules/[\w<>*-]+\.md"), "rules pages are docs/rules/<game>.md"),
]
DOCS_CITATION = re.compile(r"docs/[\w/<>*.-]*?\.md")


@functools.cache
def text_files() -> tuple[Path, ...]:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        found += [Path(folder) / name for name in files
                  if Path(name).suffix in TEXT_SUFFIXES or name in TEXT_NAMES]
    return tuple(sorted(found))


def cited_files(citation: str) -> list[Path]:
    if "<game>" in citation or "*" in citation:
        return [ROOT / citation.replace("<game>", key).replace("*", key) for key in GAMES]
    return [ROOT / citation]


def test_the_scan_sees_the_code_tests_and_documents():
    names = {str(path.relative_to(ROOT)) for path in text_files()}
    assert {"README.md", "pyproject.toml", "Dockerfile", ".ci/run", "bot/engine/base.py", "docs/design.md",
            "tests/conftest.py"} <= names


@pytest.mark.parametrize("pattern,why", FORBIDDEN, ids=[why for _, why in FORBIDDEN])
def test_nothing_cites_what_is_not_in_the_repository(pattern, why):
    me = Path(__file__).resolve()
    found = []
    for path in text_files():
        if path == me:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, f"{why}:\n" + "\n".join(found)


# Laid over a copy of the checkout by tests/test_adding_a_game.py: what it cites exists there, with it.
NEW_GAME = ROOT / "tests" / "new_game"


def test_every_cited_page_of_docs_exists():
    missing = []
    for path in text_files():
        if NEW_GAME in path.parents:
            continue
        for citation in DOCS_CITATION.findall(path.read_text(encoding="utf-8")):
            missing += [f"{path.relative_to(ROOT)} cites {citation}" for cited in cited_files(citation)
                        if not cited.is_file()]
    assert not missing


def test_every_game_has_its_rules_page():
    """Each game declares its rules page, docs/rules/<game>.md: any Markdown, no heading required."""
    for key in GAMES:
        page = declaration_of(key).rules_page
        assert page == f"docs/rules/{key}.md" and (ROOT / page).read_text(encoding="utf-8").strip(), key
