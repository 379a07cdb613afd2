"""Writes fonts/coverage.json: the code points each bundled font has a glyph for, as ranges, read from the fonts'
character maps with fontTools (`pip install fonttools`, a test dependency). Run it after changing a font:

    python -m benchmarks.font_coverage

The pictures read the ranges instead of the fonts' tables: reading Droid Sans Fallback's 33,000-entry map took
~0.3-0.7 s on the first name that needed it. tests/test_render_names.py checks the file matches the fonts.
"""

from __future__ import annotations

import json

from fontTools.ttLib import TTFont

from renderers.common import FONT_DIR

COVERAGE_FILE = FONT_DIR / "coverage.json"


def ranges(code_points: set[int]) -> list[list[int]]:
    """Sorted code points as [first, last] ranges of consecutive ones."""
    result: list[list[int]] = []
    for cp in sorted(code_points):
        if result and result[-1][1] == cp - 1:
            result[-1][1] = cp
        else:
            result.append([cp, cp])
    return result


def measured() -> dict[str, list[list[int]]]:
    coverage = {}
    for path in sorted(FONT_DIR.glob("*.ttf")):
        with TTFont(path, lazy=True) as ttf:
            coverage[path.name] = ranges(set(ttf.getBestCmap()))
    return coverage


def main() -> None:
    COVERAGE_FILE.write_text(json.dumps(measured(), separators=(",", ":")) + "\n")
    print(f"wrote {COVERAGE_FILE}")


if __name__ == "__main__":
    main()
