"""Quiet weekends: a clock that stands still from Saturday 00:00 to Monday 00:00 in its player's own time zone.

Deadline arithmetic with that rule, as pure functions of Unix times and a time zone (zoneinfo: a weekend is two
local days, so across a change to or from summer time it lasts 47 or 49 hours). No I/O.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

SATURDAY = 5
UTC = "UTC"


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    """The time zone of an IANA name; ValueError when there is none of that name."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}") from exc


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone name, sorted (what the autocomplete offers)."""
    return tuple(sorted(name for name in available_timezones() if "/" in name or name == UTC))


def known_zone(name: str) -> str | None:
    """The IANA name as zoneinfo spells it (case aside), or None when there is no such zone."""
    wanted = name.strip().casefold()
    return next((n for n in zone_names() if n.casefold() == wanted), None)


def _midnight(day: date, tz: ZoneInfo) -> float:
    return datetime.combine(day, time(0), tzinfo=tz).timestamp()


def _weekend_around(at: float, tz: ZoneInfo) -> tuple[float, float]:
    """(start, end) of the weekend of the week of `at` (Saturday 00:00 to Monday 00:00, local)."""
    local = datetime.fromtimestamp(at, tz).date()
    saturday = local + timedelta(days=SATURDAY - local.weekday())
    return _midnight(saturday, tz), _midnight(saturday + timedelta(days=2), tz)


def weekend_at(at: float, tz: ZoneInfo) -> tuple[float, float] | None:
    """The weekend `at` falls in (start, end), or None on a weekday."""
    start, end = _weekend_around(at, tz)
    return (start, end) if start <= at < end else None


def run_until(start: float, seconds: float, tz: ZoneInfo) -> float:
    """When a clock started at `start` has run `seconds`, standing still at weekends: the deadline."""
    at, left = start, max(0.0, seconds)
    while True:
        weekend = weekend_at(at, tz)
        if weekend is not None:
            at = weekend[1]
        next_start = _weekend_around(at, tz)[0]
        if at + left <= next_start:
            return at + left
        left -= next_start - at
        at = next_start


def run_between(start: float, end: float, tz: ZoneInfo) -> float:
    """How long a clock runs from `start` to `end`, standing still at weekends: what is left before a deadline."""
    total, at = 0.0, start
    while at < end:
        weekend = weekend_at(at, tz)
        if weekend is not None:
            at = weekend[1]
            continue
        stop = min(end, _weekend_around(at, tz)[0])
        total += stop - at
        at = stop
    return total


def ran_back(end: float, seconds: float, tz: ZoneInfo) -> float:
    """The latest moment from which the clock runs `seconds` until `end`: when a reminder `seconds` before a
    deadline goes out."""
    at, left = end, max(0.0, seconds)
    while True:
        weekend = weekend_at(at - 1e-6, tz)
        if weekend is not None:
            at = weekend[0]
        previous_end = _weekend_around(at - 7 * 86400, tz)[1]
        if at - left >= previous_end:
            return at - left
        left -= at - previous_end
        at = previous_end
