"""The storage layer's split, kept: the driver (bot/storage/driver.py) owns connections, units, group commit and
dialects; each store owns one aggregate's SQL and reaches the driver, and every other store, only through their
public faces."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.storage.challenges import ChallengeStore
from bot.storage.matches import MatchStore
from bot.storage.private_messages import PrivateMessageStore
from bot.storage.repository import Repository
from bot.storage.timers import TimerStore

STORAGE = Path(__file__).resolve().parent.parent / "bot" / "storage"
STORES = ["matches", "challenges", "timers", "private_messages", "leagues", "plans", "rating_store", "clocks",
          "timer_claims", "set_aside", "conversations", "repository"]


def private_reaches(path: Path) -> list[str]:
    """`x._name` where x is not the object's own `self`, and `from .module import _name`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
        if isinstance(node, ast.ImportFrom):
            found += [f"{path.name}:{node.lineno} import {a.name}" for a in node.names if a.name.startswith("_")]
    return found


def test_stores_use_only_public_faces():
    assert [reach for name in STORES for reach in private_reaches(STORAGE / f"{name}.py")] == []


def test_stores_leave_connections_to_the_driver():
    for name in STORES[:-1]:  # Repository only hands its connections on to the driver
        imported = {alias.name.split(".")[0] for node in ast.walk(ast.parse((STORAGE / f"{name}.py").read_text()))
                    if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module.split(".")[0] for node in ast.walk(ast.parse((STORAGE / f"{name}.py").read_text()))
                     if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
        assert not imported & {"aiosqlite", "sqlite3"}, name


def test_the_match_services_stores_name_no_method_twice():
    """Repository is the four stores of a match's aggregates at once: a name in two would hide one of them."""
    names = [{n for n in vars(store) if not n.startswith("__")}
             for store in (MatchStore, ChallengeStore, TimerStore, PrivateMessageStore)]
    assert all(not a & b for i, a in enumerate(names) for b in names[i + 1:])
    assert {"get_match", "commit_move", "create_challenge", "set_timer", "add_private_message"} <= set(dir(Repository))
