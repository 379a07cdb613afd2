"""Settings from the environment, with a `.env` file filling in what the environment does not set."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from dotenv import dotenv_values

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
MAX_CHALLENGE_HOURS = 720  # 30 days: longer than any challenge waits, short enough to stay a real date


def is_postgres_dsn(database: object) -> bool:
    """A `postgresql://` or `postgres://` URL names a PostgreSQL database; anything else is a SQLite file path."""
    return str(database).lower().startswith(("postgresql://", "postgres://"))


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


def read_dotenv(path: Path) -> dict[str, str]:
    """The KEY=VALUE lines of a `.env` file, read by python-dotenv: comments (also after a value), quotes,
    `export` and a byte-order mark are understood as shells and editors write them. Values are taken literally
    (no `${VAR}` expansion), as Docker's `--env-file` does."""
    if not path.is_file():
        return {}
    try:
        values = dotenv_values(path, encoding="utf-8-sig", interpolate=False)
    except UnicodeDecodeError:
        raise SettingsError(f"{path} is not UTF-8 text; save it as UTF-8") from None
    return {key: value for key, value in values.items() if value is not None}


def _challenge_hours(text: str) -> float:
    try:
        hours = float(text)
    except ValueError:
        hours = math.nan
    if not (math.isfinite(hours) and 0 < hours <= MAX_CHALLENGE_HOURS):
        raise SettingsError(f"STRATEGOS_CHALLENGE_HOURS must be a number of hours above 0 and at most "
                            f"{MAX_CHALLENGE_HOURS}, not {text!r}")
    return hours


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database: Path | str = Path("strategos.db")  # a SQLite file, or a PostgreSQL URL
    dev_guild: int | None = None
    log_level: str = "INFO"
    challenge_ttl_hours: float = 24.0

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
        merged = read_dotenv(dotenv) if dotenv else {}
        merged.update(os.environ if environ is None else environ)

        def get(key: str) -> str | None:
            value = merged.get(key, "").strip()
            return value or None

        dev_guild = get("STRATEGOS_DEV_GUILD")
        if dev_guild is not None and not dev_guild.isdigit():
            raise SettingsError(f"STRATEGOS_DEV_GUILD must be a server id (digits only), not {dev_guild!r}")
        ttl_hours = _challenge_hours(get("STRATEGOS_CHALLENGE_HOURS") or "24")
        log_level = (get("STRATEGOS_LOG_LEVEL") or "INFO").upper()
        if log_level not in LOG_LEVELS:
            raise SettingsError(f"STRATEGOS_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
        database = get("STRATEGOS_DATABASE") or "strategos.db"
        return cls(
            token=get("DISCORD_TOKEN"),
            # A postgresql:// (or postgres://) URL stays a string: PostgreSQL through asyncpg; else a SQLite file.
            database=database if is_postgres_dsn(database) else Path(database),
            dev_guild=int(dev_guild) if dev_guild else None,
            log_level=log_level,
            challenge_ttl_hours=ttl_hours,
        )
