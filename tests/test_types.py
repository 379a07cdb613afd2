"""The type checker (mypy, configured in pyproject.toml's [tool.mypy]) passes over bot/ and renderers/, and is strict
enough to catch a wrong call into the engine contract or the store."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def mypy(*args: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    """mypy with the project's configuration, from the checkout's root (so `bot` is found there). Its cache in
    .mypy_cache (gitignored) makes a later run take about a second instead of ten or more."""
    cache_args = ["--cache-dir", str(cache)] if cache else []
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--no-error-summary", "--no-pretty", *cache_args, *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_bot_and_renderers_have_no_type_errors():
    result = mypy()  # the files of [tool.mypy]: bot/ and renderers/
    assert (result.returncode, result.stderr) == (0, ""), result.stdout + result.stderr


def test_no_module_is_exempt_and_the_contract_modules_annotate_everything():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    overrides = config.get("overrides", [])
    assert [o for o in overrides if o.get("ignore_errors") or o.get("disable_error_code")] == []
    assert config["files"] == ["bot", "renderers"] and config["check_untyped_defs"] and config["strict_equality"]
    strict = {m for o in overrides if o.get("disallow_untyped_defs") for m in o["module"]}
    assert {"bot.engine.*", "bot.domain.*", "bot.storage.*", "bot.matches.*"} <= strict


def unexplained_ignores(text: str) -> list[int]:
    """Lines whose `type: ignore` says no why: neither a `# reason` after it on the line, nor an `# ignore: reason`
    comment on the line above it (or above the run of ignored lines it belongs to)."""
    lines = text.splitlines()
    found = []
    for number, line in enumerate(lines):
        if "type: ignore" not in line or re.search(r"# type: ignore\[[a-z, -]+\]  # \S", line):
            continue
        above = number - 1
        while above >= 0 and "type: ignore" in lines[above]:
            above -= 1
        if above < 0 or not lines[above].strip().startswith("# ignore: "):
            found.append(number + 1)
    return found


def test_the_rule_for_ignores_reads_both_forms():
    assert unexplained_ignores("x = f()  # type: ignore[arg-type]  # f lies\n"
                               "# ignore: g lies\ny = g()  # type: ignore[arg-type]\nz = g()  # type: ignore[arg-type]\n"
                               "u = 1\nw = h()  # type: ignore[arg-type]\nv = h()  # type: ignore\n") == [6, 7]


def test_each_type_ignore_says_why():
    files = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "renderers").rglob("*.py")])
    unexplained = [f"{path.relative_to(ROOT)}:{number}" for path in files
                   for number in unexplained_ignores(path.read_text(encoding="utf-8"))]
    assert unexplained == []


PROBE = '''\
from bot.engine.base import Game
from bot.storage import Repository


async def probe(game: Game, store: Repository, state: object) -> None:
    game.apply(state, 0, "a1-a2")
    game.apply(state, "0", "a1-a2")  # wrong: a seat is an int
    game.apply(state, 0, 12)  # wrong: a move is its text
    await store.get_match(7)
    await store.get_match("7")  # wrong: a match id is an int
    match = await store.get_match(7)
    match.version  # wrong: there may be no such match
'''


def test_a_wrong_call_into_the_engine_or_the_store_is_reported(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    # A cache of its own, kept like the other (two test workers running mypy on one cache at once could block each
    # other): after the first run only the probe is checked again.
    result = mypy(str(probe), cache=ROOT / ".mypy_cache" / "probe")
    reported = sorted((int(line), code) for line, code in re.findall(r"probe\.py:(\d+): error: .*\[([a-z-]+)\]$",
                                                                    result.stdout, re.MULTILINE))
    assert reported == [(7, "arg-type"), (8, "arg-type"), (10, "arg-type"), (12, "union-attr")], result.stdout
