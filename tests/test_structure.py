"""The shape of the service layer: no class of bot/matches outgrows one use case, and the bot's outer parts (cogs,
views, presenters, app) call the services they were handed, never through those services' parts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_CLASS_LINES = 400
OUTER = ["bot/cogs", "bot/views", "bot/presenters", "bot/app.py", "bot/composition.py"]
# The names by which the outer parts hold a service or a presenter (an attribute, a variable, a lookup).
SERVICES = frozenset({"service", "services", "matches", "leagues", "rounds", "presenter", "boards", "replays",
                      "explorer", "planner", "computers", "service_of", "presenter_of", "leagues_of", "explorer_of",
                      "planner_of", "actions"})


def classes_over(limit: int, folder: Path) -> list[str]:
    found = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > limit:
                found.append(f"{path.name}:{node.lineno} {node.name} "
                             f"({node.end_lineno - node.lineno + 1} lines)")
    return found


def test_no_class_in_the_match_layer_is_over_400_lines():
    assert classes_over(MAX_CLASS_LINES, ROOT / "bot/matches") == []


def test_the_class_size_check_sees_a_long_class(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_CLASS_LINES))
    (tmp_path / "long.py").write_text(f"class Long:\n{body}\n")
    assert [line.split(" ", 1)[1] for line in classes_over(MAX_CLASS_LINES, tmp_path)] \
        == [f"Long ({MAX_CLASS_LINES + 1} lines)"]


def _chain(node: ast.expr) -> list[str] | None:
    """`a.b.c` → ["a", "b", "c"]; a call at the root counts by its function's name (`service_of(x).b` →
    ["service_of", "b"]); None for anything else at the root."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Call):
        node = node.func
        if isinstance(node, ast.Attribute):  # `interaction.client.presenter_of(...)`: its last name counts
            return [node.attr, *reversed(names)]
    if isinstance(node, ast.Name):
        return [node.id, *reversed(names)]
    return None


def reach_throughs(source: str, filename: str = "<source>") -> list[str]:
    """Calls `s.part.method(...)` where `s` holds a service or presenter (`self.` before it does not count), as
    "line: s.part.method"."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        chain = _chain(node.func)
        if chain is None:
            continue
        if chain[0] == "self":
            chain = chain[1:]
        for i, name in enumerate(chain[:-2]):
            if name in SERVICES:
                found.append((node.lineno, f"{node.lineno}: {'.'.join(chain[i:])}"))
                break
    return [text for _, text in sorted(found)]


def outer_files() -> list[Path]:
    files = []
    for entry in OUTER:
        path = ROOT / entry
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


@pytest.mark.parametrize("path", outer_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_outer_parts_call_no_service_through_its_parts(path):
    assert reach_throughs(path.read_text(), str(path)) == []


def test_the_reach_through_check_sees_each_shape():
    source = "\n".join([
        "matches.ratings.store.ratings_of(1)",
        "self.service.timers.claims.arm_unless_claimed(1)",
        "await service_of(interaction).clocks.status([])",
        "self.boards.service.server_settings.language(1)",
        "self.service.submit_move(1)",  # a service's own call
        "interaction.response.send_message('x')",  # Discord's objects are not ours
        "self.boards.post(match)",  # a presenter's own part
    ])
    assert reach_throughs(source) == [
        "1: matches.ratings.store.ratings_of", "2: service.timers.claims.arm_unless_claimed",
        "3: service_of.clocks.status", "4: boards.service.server_settings.language",
    ]
