"""Settings from the environment, with a `.env` file filling in what the environment does not set."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from dotenv import dotenv_values

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
MAX_CHALLENGE_HOURS = 720  # 30 days: longer than any challenge waits, short enough to stay a real date
MAX_VACATION_DAYS = 366  # a whole year away

MAX_SHARD_COUNT = 4096  # far above what any bot of this kind needs (Discord asks for one shard per 2,500 servers)
MAX_PORT = 65535
SWITCH = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


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


# "scheme://": what a URL starts with. Any scheme but PostgreSQL's is refused rather than read as a file path
# (a "mysql://..." or "sqlite://..." database would otherwise become a folder named "mysql:").
_URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def _database(text: str) -> str:
    scheme = _URL_SCHEME.match(text)
    if scheme and not is_postgres_dsn(text):
        raise SettingsError(f"STRATEGOS_DATABASE: {scheme.group(1)}:// databases are not supported; give a SQLite "
                            "file path (such as strategos.db or /data/strategos.db) or a postgresql:// URL")
    return text


def _challenge_hours(text: str) -> float:
    try:
        hours = float(text)
    except ValueError:
        hours = math.nan
    if not (math.isfinite(hours) and 0 < hours <= MAX_CHALLENGE_HOURS):
        raise SettingsError(f"STRATEGOS_CHALLENGE_HOURS must be a number of hours above 0 and at most "
                            f"{MAX_CHALLENGE_HOURS}, not {text!r}")
    return hours


def _vacation_days(text: str) -> int:
    if not (text.isdigit() and int(text) <= MAX_VACATION_DAYS):
        raise SettingsError(f"STRATEGOS_VACATION_DAYS must be a whole number of days from 0 to {MAX_VACATION_DAYS}, "
                            f"not {text!r}")
    return int(text)


def _shard_count(text: str) -> int:
    if not (text.isdigit() and 1 <= int(text) <= MAX_SHARD_COUNT):
        raise SettingsError(f"STRATEGOS_SHARD_COUNT must be a whole number from 1 to {MAX_SHARD_COUNT}, not {text!r}")
    return int(text)


def _shard_ids(text: str, count: int) -> tuple[int, ...]:
    """The shards of this process from a list of ranges such as `0-3` or `0-1,4-5` (a single shard: `2`)."""
    shards: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        first, last = first.strip(), (last.strip() if dash else first.strip())
        if not (first.isdigit() and last.isdigit()):
            raise SettingsError(f"STRATEGOS_SHARDS must be shard numbers or ranges such as 0-3, separated by commas, "
                                f"not {text!r}")
        low, high = int(first), int(last)
        if low > high:
            raise SettingsError(f"STRATEGOS_SHARDS: the range {part.strip()} is empty (it must run from the lower "
                                "shard number to the higher)")
        if high >= count:
            raise SettingsError(f"STRATEGOS_SHARDS: the range {part.strip()} is outside the {count} shards of "
                                f"STRATEGOS_SHARD_COUNT (numbered 0 to {count - 1})")
        overlap = sorted(set(shards) & set(range(low, high + 1)))
        if overlap:
            raise SettingsError(f"STRATEGOS_SHARDS: the ranges overlap (shard {overlap[0]} is named twice)")
        shards.extend(range(low, high + 1))
    return tuple(sorted(shards))


def _switch(key: str, text: str) -> bool:
    if text.lower() not in SWITCH:
        raise SettingsError(f"{key} must be on or off, not {text!r}")
    return SWITCH[text.lower()]


def _metrics_port(text: str) -> int:
    if not (text.isdigit() and int(text) <= MAX_PORT):
        raise SettingsError(f"STRATEGOS_METRICS_PORT must be a port number from 0 to {MAX_PORT}, not {text!r}")
    return int(text)


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database: Path | str = Path("strategos.db")  # a SQLite file, or a PostgreSQL URL
    dev_guild: int | None = None
    log_level: str = "INFO"
    challenge_ttl_hours: float = 24.0
    vacation_days: int = 30  # each member's time away a calendar year, across servers
    shard_count: int | None = None  # None: as many as Discord recommends, all in this process
    shard_ids: tuple[int, ...] | None = None  # this process's shards; None: every shard
    metrics_port: int | None = None  # STRATEGOS_METRICS_PORT: None, no metrics endpoint (see metrics_address)
    metrics_host: str = "127.0.0.1"
    app_emojis: bool = True  # STRATEGOS_APP_EMOJIS: the side emojis uploaded and shown (bot/presenters/emojis.py)

    @property
    def runs_every_shard(self) -> bool:
        return self.shard_ids is None or len(self.shard_ids) == self.shard_count

    @property
    def metrics_address(self) -> tuple[str, int] | None:
        """Where this process serves its metrics and health: STRATEGOS_METRICS_PORT plus the lowest shard number of
        STRATEGOS_SHARDS (0 when it runs every shard), so the processes of one host, each with its own shards, never
        ask for the same port. Port 0 stays 0: any free port (the tests). None: the endpoint is off."""
        if self.metrics_port is None:
            return None
        first = min(self.shard_ids) if self.shard_ids else 0
        return self.metrics_host, (self.metrics_port + first) if self.metrics_port else 0

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
        vacation_days = _vacation_days(get("STRATEGOS_VACATION_DAYS") or "30")
        log_level = (get("STRATEGOS_LOG_LEVEL") or "INFO").upper()
        if log_level not in LOG_LEVELS:
            raise SettingsError(f"STRATEGOS_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
        database = _database(get("STRATEGOS_DATABASE") or "strategos.db")
        count_text, shards_text = get("STRATEGOS_SHARD_COUNT"), get("STRATEGOS_SHARDS")
        shard_count = _shard_count(count_text) if count_text is not None else None
        if shards_text is not None and shard_count is None:
            raise SettingsError("STRATEGOS_SHARDS needs STRATEGOS_SHARD_COUNT, the number of shards of all processes "
                                "together")
        shard_ids = None if shards_text is None or shard_count is None else _shard_ids(shards_text, shard_count)
        port_text = get("STRATEGOS_METRICS_PORT")
        metrics_port = _metrics_port(port_text) if port_text is not None else None
        settings = cls(
            token=get("DISCORD_TOKEN"),
            # A postgresql:// (or postgres://) URL stays a string: PostgreSQL through asyncpg; else a SQLite file.
            database=database if is_postgres_dsn(database) else Path(database),
            dev_guild=int(dev_guild) if dev_guild else None,
            log_level=log_level,
            challenge_ttl_hours=ttl_hours,
            vacation_days=vacation_days,
            shard_count=shard_count,
            shard_ids=shard_ids,
            metrics_port=metrics_port,
            metrics_host=get("STRATEGOS_METRICS_HOST") or "127.0.0.1",
            app_emojis=_switch("STRATEGOS_APP_EMOJIS", get("STRATEGOS_APP_EMOJIS") or "on"),
        )
        address = settings.metrics_address
        if address is not None and address[1] > MAX_PORT:
            raise SettingsError(f"STRATEGOS_METRICS_PORT plus this process's lowest shard is {address[1]}, above "
                                f"{MAX_PORT}: choose a lower STRATEGOS_METRICS_PORT")
        if not settings.runs_every_shard and not is_postgres_dsn(settings.database):
            # Each process keeps its own SQLite writer: two of them on one file would each believe it is alone.
            raise SettingsError(f"STRATEGOS_SHARDS={shards_text} leaves the other shards to other processes, and "
                                "several processes need PostgreSQL: set STRATEGOS_DATABASE to a postgresql:// URL, "
                                "or run every shard in this process")
        return settings
