"""Benchmarks, their helpers and one maintenance script: run from the repository's root as
`python -m benchmarks.<name>`.

Not part of the installed packages (pyproject.toml ships only `bot` and `renderers`), so nothing here is imported by
the bot. A benchmark writes only where it is told to (a `--out` or `--database` of the caller's choosing) or in a
temporary folder; font_coverage.py rewrites the fonts' coverage table that renderers/ ships, after a font changed.
"""
