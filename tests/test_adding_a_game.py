"""The README's "Adding a game" is exact: a copy of the checkout gets a toy sixth game, Nim (tests/new_game/, English
texts only), exactly as the README says, and there Nim is offered by /play, explained by /rules, played to its end
on simulated Discord and described in words (tests/new_game_checks.py); `python -m bot.extract_texts --check`
still passes and reports Nim as English only; and nothing changed outside the package, docs/rules/ and the
registration line. Everything runs in subprocesses in the copy, so this process's registry never sees Nim."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEW_GAME = ROOT / "tests" / "new_game"  # laid over the copy: the files the README names, for <game> = nim
SKIPPED = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache", "*.egg-info", "*.db", "*.db-*",
                                 "bench-out", "build", "dist")


def section(title: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"\n{title}\n")
    end = readme.find("\n#", start + len(title) + 2)
    return readme[start:end if end > 0 else None]


def files_it_names(text: str) -> set[str]:
    """The files of a new game the section names: under bot/games/<game>/ and docs/rules/."""
    return {path.replace("<game>", "nim") for path in re.findall(r"`((?:bot/games/<game>|docs/rules)/[^`*]+\.\w+)`",
                                                                  text)}


def registration(text: str) -> tuple[str, str]:
    """(the file, the line) the section says to add to register the game."""
    line, where = re.search(r"line `([^`]*<game>[^`]*)` to `\w+` in `([^`]+\.py)`", text).groups()
    return where, line.replace("<game>", "nim")


def tree(root: Path) -> dict[str, str]:
    """Every file under `root` but caches and databases, with its content's hash."""
    found = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", ".pytest_cache")]
        for name in names:
            path = Path(folder) / name
            if not name.endswith((".pyc", ".db", ".db-wal", ".db-shm")):
                found[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def add_line(path: Path, line: str) -> None:
    """The registration: `line` as the last entry of the tuple the file's PACKAGES opens."""
    text = path.read_text(encoding="utf-8")
    start = text.index("PACKAGES")
    end = text.index("\n)", start)
    path.write_text(text[:end] + f"\n    {line}" + text[end:], encoding="utf-8")


def run(copy: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=300)


def test_the_readme_names_every_file_of_the_toy_game():
    text = section("### Adding a game")
    added = {str(path.relative_to(NEW_GAME)) for path in NEW_GAME.rglob("*") if path.is_file()}
    assert files_it_names(text) == added
    assert registration(text) == ("bot/games/engines.py", '"bot.games.nim",')


def test_a_game_added_as_the_readme_says_is_played_and_described(tmp_path):
    copy = tmp_path / "strategos"
    shutil.copytree(ROOT, copy, ignore=SKIPPED)
    before = tree(copy)
    text = section("### Adding a game")
    for name in files_it_names(text):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(NEW_GAME / name, copy / name)
    where, line = registration(text)
    add_line(copy / where, line)

    extract = run(copy, "-m", "bot.extract_texts", "--check")
    assert extract.returncode == 0, extract.stderr
    assert "nim: English only" in extract.stdout and "es: no guide for nim" in extract.stdout
    checks = run(copy, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider", "tests/new_game_checks.py")
    assert checks.returncode == 0, checks.stdout[-3000:] + checks.stderr[-3000:]
    assert "2 passed" in checks.stdout

    after = tree(copy)
    changed = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
    assert changed == files_it_names(text) | {where}
    original = (ROOT / where).read_text(encoding="utf-8").splitlines()
    now = (copy / where).read_text(encoding="utf-8").splitlines()
    assert [entry for entry in now if entry not in original] == [f"    {line}"] and len(now) == len(original) + 1
