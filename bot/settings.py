"""Settings from the environment, with a `.env` file filling in what the environment does not set."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments ignored; optional quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key] = value
    return values


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database: Path = Path("strategos.db")
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
        ttl = get("STRATEGOS_CHALLENGE_HOURS") or "24"
        try:
            ttl_hours = float(ttl)
        except ValueError:
            raise SettingsError(f"STRATEGOS_CHALLENGE_HOURS must be a number of hours, not {ttl!r}") from None
        log_level = (get("STRATEGOS_LOG_LEVEL") or "INFO").upper()
        if log_level not in LOG_LEVELS:
            raise SettingsError(f"STRATEGOS_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
        if ttl_hours <= 0:
            raise SettingsError(f"STRATEGOS_CHALLENGE_HOURS must be a positive number of hours, not {ttl!r}")
        return cls(
            token=get("DISCORD_TOKEN"),
            database=Path(get("STRATEGOS_DATABASE") or "strategos.db"),
            dev_guild=int(dev_guild) if dev_guild else None,
            log_level=log_level,
            challenge_ttl_hours=ttl_hours,
        )
