"""The documents hold together: the README stays short enough for users, every relative link between the README
and docs/ reaches a file (and a heading, where it names one), and CI still finds the README's one test command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 450
LINKED = ["README.md", "docs/operating.md", "docs/performance.md", "docs/design.md"]

FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
INDENTED_CODE = re.compile(r"^ {4}.*$", re.MULTILINE)  # lists here continue with two or three spaces
INLINE_CODE = re.compile(r"(`+).*?\1", re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text without its code, where brackets and parentheses are not links."""
    return INLINE_CODE.sub("", INDENTED_CODE.sub("", FENCED.sub("", text)))


def anchors(text: str) -> set[str]:
    """The ids GitHub gives the headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCED.sub("", text)):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(document: str) -> list[str]:
    path = ROOT / document
    broken = []
    for target in LINK.findall(prose(path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not ours to check
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.is_file():
            broken.append(f"{target}: no file {linked}")
        elif anchor and anchor not in anchors(linked.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading #{anchor} in {linked.relative_to(ROOT)}")
    return broken


def test_the_readme_is_short_enough_for_users():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines: move operator detail to docs/"


@pytest.mark.parametrize("document", LINKED)
def test_every_relative_link_reaches_a_file_and_its_heading(document):
    assert not broken_links(document)


def test_the_check_sees_links_and_catches_a_broken_one(tmp_path, monkeypatch):
    """The link check reads links the documents really have, and would fail on a wrong file or heading."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/operating.md#" in readme and "](docs/performance.md)" in readme
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "a.md").write_text("# Title\n\n## Running on PostgreSQL (15)\n", encoding="utf-8")
    (tmp_path / "b.md").write_text(
        "[ok](guide/a.md#running-on-postgresql-15) [top](#b) `[code](nowhere.md)`\n\n# B\n\n"
        "[file](guide/missing.md) [heading](guide/a.md#running) [web](https://example.org/x.md)\n",
        encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert broken_links("b.md") == [f"guide/missing.md: no file {tmp_path / 'guide' / 'missing.md'}",
                                    "guide/a.md#running: no heading #running in guide/a.md"]


def test_ci_finds_exactly_one_test_command_in_the_readme():
    run = subprocess.run([str(ROOT / ".ci" / "run"), "--print"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.splitlines()) == 1 and run.stdout.strip().endswith("python -m pytest")


def test_adding_a_game_stays_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\n### Adding a game\n" in readme
