"""The kinds of clock a challenge, a league or a server's default may choose, as members write them.

"Days per move" is a label of the list (`3 days`); a Fischer correspondence clock is a starting bank, an increment
each move adds to it and a cap it never passes: the list offers Little Golem's (10 days, +36 hours, at most 15
days) and a member may write her own, `fischer 7d +1d max 10d`. Pure: no I/O, no Discord.
"""

from __future__ import annotations

import re

from bot.domain import ClockRules
from bot.i18n import N_

from . import errors

HOUR = 3600
DAY = 24 * HOUR

FISCHER_DEFAULT = (10 * DAY, 36 * HOUR, 15 * DAY)  # Little Golem's: bank, increment, cap
FISCHER_LABEL = N_("Fischer: 10 days, +36 hours a move, at most 15 days")
MIN_BANK, MAX_BANK = HOUR, 60 * DAY

_DURATION = r"(?:\d+(?:\.\d+)?\s*[dh]\s*)+"
_FISCHER = re.compile(rf"^\s*(?:fischer\s*:?\s*)?(?P<bank>{_DURATION})\+\s*(?P<increment>{_DURATION})"
                      rf"(?:(?:max|cap|at most|/)\s*(?P<cap>{_DURATION}))?$", re.IGNORECASE)
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([dh])", re.IGNORECASE)

FISCHER_FORMAT = N_("Write a Fischer clock as `fischer 10d +36h max 15d`: a starting bank, what each move adds, and "
                    "the most the bank may hold.")


def seconds_of(text: str) -> int:
    """A duration as written ("1d 12h", "36h") in seconds."""
    return round(sum(float(n) * (DAY if unit.lower() == "d" else HOUR) for n, unit in _PART.findall(text)))


def is_fischer_text(text: str) -> bool:
    return _FISCHER.match(text) is not None


def parse_fischer(text: str) -> tuple[int, ClockRules]:
    """A Fischer clock as written: (starting bank, rules). An omitted cap is half the bank again (at most 60
    days, at least the bank). Refused in one line when it is not one or out of range."""
    found = _FISCHER.match(text)
    if found is None:
        raise errors.UserError(FISCHER_FORMAT)
    bank, increment = seconds_of(found["bank"]), seconds_of(found["increment"])
    cap = seconds_of(found["cap"]) if found["cap"] else max(bank, min(MAX_BANK, bank * 3 // 2))
    return bank, checked_fischer(bank, increment, cap)


def checked_fischer(bank: int, increment: int, cap: int) -> ClockRules:
    """The rules of a Fischer clock whose values are in range; else its one-line refusal."""
    if not MIN_BANK <= bank <= MAX_BANK:
        raise errors.UserError(N_("A Fischer clock's starting bank is from 1 hour to 60 days."))
    if increment > bank:
        raise errors.UserError(N_("A Fischer clock's increment can't be more than its starting bank."))
    if cap < bank:
        raise errors.UserError(N_("A Fischer clock's cap can't be less than its starting bank."))
    if cap > MAX_BANK:
        raise errors.UserError(N_("A Fischer clock's cap is at most 60 days."))
    return ClockRules(increment=increment, cap=cap)


def written(seconds: int) -> str:
    """A duration as a Fischer clock is written ("1d12h"), whole hours."""
    days, hours = divmod(round(seconds / HOUR), 24)
    return (f"{days}d" if days else "") + (f"{hours}h" if hours or not days else "")


def fischer_text(bank: int, rules: ClockRules) -> str:
    """A Fischer clock as a member would write it: `fischer 7d +1d max 10d12h`."""
    assert rules.increment is not None and rules.cap is not None
    return f"fischer {written(bank)} +{written(rules.increment)} max {written(rules.cap)}"


def fischer_setting(bank: int, rules: ClockRules) -> list[int]:
    """A Fischer clock as the server's default clock setting stores it: [bank, increment, cap]."""
    assert rules.increment is not None and rules.cap is not None
    return [bank, rules.increment, rules.cap]


def from_setting(value: int | list[int] | None) -> tuple[int | None, ClockRules]:
    """The server's default clock setting as (seconds, rules): seconds per move, or a Fischer [bank, increment,
    cap]."""
    if isinstance(value, list):
        bank, increment, cap = value
        return bank, ClockRules(increment=increment, cap=cap)
    return value, ClockRules()


def bank_after_move(remaining: float, rules: ClockRules) -> float:
    """A Fischer bank after its player moved with `remaining` seconds left: the increment added, up to the cap."""
    assert rules.increment is not None and rules.cap is not None
    return min(float(rules.cap), max(0.0, remaining) + rules.increment)
