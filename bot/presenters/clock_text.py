"""The words of the clocks: deadlines as Discord timestamps (each reader sees her own time zone) and who is away.
Pure text from public facts: a deadline, a name."""

from __future__ import annotations

from bot.i18n import ENGLISH, t
from bot.matches.clocks import MatchClock
from bot.matches.server_settings import clock_label
from bot.domain import Match


def due(deadline: float) -> str:
    """A deadline as Discord shows it: "in 2 days (Monday 12 May 14:00)" in the reader's own time zone."""
    return f"<t:{int(deadline)}:R> (<t:{int(deadline)}:f>)"


def clock_lines(match: Match, clock: MatchClock, lang: str = ENGLISH) -> list[str]:
    """The board post's clock lines: each running deadline and each player away."""
    lines = []
    for seat, deadline in sorted(clock.deadlines.items()):
        name = match.seats[seat].user_name
        if seat in clock.away:
            lines.append(t(lang, "⏳ **{player}** must move {due}, paused while away until {until}.", player=name,
                           due=f"<t:{int(deadline)}:R>", until=f"<t:{int(clock.away[seat])}:f>"))
        else:
            lines.append(t(lang, "⏳ **{player}** must move {due}.", player=name, due=f"<t:{int(deadline)}:R>"))
    for seat, until in sorted(clock.away.items()):
        if seat not in clock.deadlines:
            lines.append(t(lang, "💤 **{player}** is away until {until}.", player=match.seats[seat].user_name,
                           until=f"<t:{int(until)}:f>"))
    return lines


def games_note(match: Match, clock: MatchClock, viewer: int, lang: str = ENGLISH) -> str:
    """The clock part of a /games line: when the move is due (yours or theirs), who is away."""
    parts = []
    for seat, deadline in sorted(clock.deadlines.items()):
        when = f"<t:{int(deadline)}:R>"
        parts.append(t(lang, "your move due {due}", due=when) if match.user_of(seat) == viewer else
                     t(lang, "{player}'s move due {due}", player=match.seats[seat].user_name, due=when))
    for seat, until in sorted(clock.away.items()):
        when = f"<t:{int(until)}:f>"
        parts.append(t(lang, "you are away until {until}", until=when) if match.user_of(seat) == viewer else
                     t(lang, "{player} away until {until}", player=match.seats[seat].user_name, until=when))
    if clock.clock_seconds is None:
        parts.append(t(lang, "no clock"))
    return " · ".join(parts)


def clock_name(seconds: int, lang: str = ENGLISH) -> str:
    """A clock's time per move as /play's clock choice names it ("3 days"), in `lang`."""
    return t(lang, clock_label(seconds), context="choice_name")


def start_note(clock: MatchClock, seat: int, lang: str = ENGLISH) -> str:
    """The clock line of a player's private "your match has started" message."""
    if clock.clock_seconds is None:
        return "\n" + t(lang, "This match has no clock.")
    label = clock_name(clock.clock_seconds, lang)
    deadline = clock.deadlines.get(seat)
    if deadline:
        return "\n" + t(lang, "Clock: {clock} a move. Your first move is due {due}.", clock=label, due=due(deadline))
    return "\n" + t(lang, "Clock: {clock} a move.", clock=label)
