"""The one long-lived aiosqlite connection, its pragmas and the numbered migrations."""

from __future__ import annotations

import logging
import re
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"(\d{3})_[a-z0-9_]+\.sql")


def migration_files() -> list[tuple[int, str, str]]:
    """(number, name, sql) for every migration shipped in bot/storage/migrations, in order."""
    found = []
    for entry in resources.files("bot.storage").joinpath("migrations").iterdir():
        m = _MIGRATION_NAME.fullmatch(entry.name)
        if m:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


async def open_database(path: str | Path) -> aiosqlite.Connection:
    """Open the database, set the pragmas the bot relies on and apply pending migrations."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = await aiosqlite.connect(str(path), isolation_level=None)  # we issue BEGIN/COMMIT ourselves
    db.row_factory = aiosqlite.Row
    try:
        for pragma in (
            "journal_mode=WAL",
            "foreign_keys=ON",
            "busy_timeout=5000",
            "synchronous=NORMAL",  # with WAL, durable across application crashes; fast commits
        ):
            async with db.execute(f"PRAGMA {pragma}"):
                pass  # some pragmas answer with a row; close the cursor so COMMIT is never blocked by it
        await migrate(db)
    except BaseException:
        # A read-only file fails here, after connecting: close the connection, whose worker thread would
        # otherwise outlive the event loop that reports the error.
        await db.close()
        raise
    return db


async def migrate(db: aiosqlite.Connection) -> list[int]:
    async with db.execute("PRAGMA user_version") as cur:
        (current,) = await cur.fetchone()
    applied = []
    for number, name, sql in migration_files():
        if number <= current:
            continue
        log.info("applying migration %s", name)
        # executescript commits first; the whole migration and its version bump land together.
        await db.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        applied.append(number)
    return applied
