"""Benchmarks and their helpers: run from the repository's root as `python -m benchmarks.<name>`.

Not part of the installed packages (pyproject.toml ships only `bot` and `renderers`), so nothing here is imported by
the bot; each module writes only where it is told to (a `--out` or `--database` of the caller's choosing, or a
temporary folder).
"""
