"""The words of the clocks: deadlines as Discord timestamps (each reader sees her own time zone) and who is away.
Pure text from public facts: a deadline, a name."""

from __future__ import annotations

from bot.i18n import ENGLISH, t
from bot.matches.clocks import MatchClock
from bot.matches.server_settings import HOUR, clock_label
from bot.domain import ClockRules, Match


def due(deadline: float) -> str:
    """A deadline as Discord shows it: "in 2 days (Monday 12 May 14:00)" in the reader's own time zone."""
    return f"<t:{int(deadline)}:R> (<t:{int(deadline)}:f>)"


def duration(seconds: float, lang: str = ENGLISH) -> str:
    """Time in a bank, to the hour below ("4d 3h"; minutes in the last hour): never more than is left."""
    days, hours = divmod(int(max(0.0, seconds) // HOUR), 24)
    if days and hours:
        return t(lang, "{days}d {hours}h", days=days, hours=hours)
    if days:
        return t(lang, "{days}d", days=days)
    if hours:
        return t(lang, "{hours}h", hours=hours)
    return t(lang, "{minutes}m", minutes=int(max(0.0, seconds) // 60))


def in_the_bank(seconds: float, lang: str = ENGLISH) -> str:
    return t(lang, "{time} in the bank", time=duration(seconds, lang))


def clock_kind(seconds: int, rules: ClockRules, lang: str = ENGLISH) -> str:
    """A clock as a challenge, a league and /clock name it: "3 days a move", or a Fischer clock's three values."""
    if rules.increment is None or rules.cap is None:
        kind = t(lang, "{clock} a move", clock=clock_name(seconds, lang))
    else:
        kind = t(lang, "Fischer: {bank} bank, +{increment} a move, at most {cap}", bank=duration(seconds, lang),
                 increment=duration(rules.increment, lang), cap=duration(rules.cap, lang))
    return kind + (" · " + t(lang, "clocks stop at weekends") if rules.weekends else "")


def plain(rules: ClockRules) -> bool:
    """Days per move and nothing more: the clock's words are those it always had."""
    return not rules.fischer and not rules.weekends


def bank_sentence(match: Match, clock: MatchClock, lang: str = ENGLISH) -> str:
    """The banks of a Fischer clock in one sentence, for the board's alt text ("" without banks)."""
    if not clock.banks:
        return ""
    return t(lang, "Time in the bank: {banks}.", banks=", ".join(
        f"{match.seats[seat].user_name} {duration(bank, lang)}" for seat, bank in sorted(clock.banks.items())))


def clock_lines(match: Match, clock: MatchClock, lang: str = ENGLISH) -> list[str]:
    """The board post's clock lines: each running deadline, each player away, and a Fischer clock's banks."""
    lines = []
    for seat, deadline in sorted(clock.deadlines.items()):
        name = match.seats[seat].user_name
        if seat in clock.banks and seat not in clock.away:
            lines.append(t(lang, "⏳ **{player}** must move {due} ({bank}).", player=name,
                           due=f"<t:{int(deadline)}:R>", bank=in_the_bank(clock.banks[seat], lang)))
        elif seat in clock.away:
            lines.append(t(lang, "⏳ **{player}** must move {due}, paused while away until {until}.", player=name,
                           due=f"<t:{int(deadline)}:R>", until=f"<t:{int(clock.away[seat])}:f>"))
        else:
            lines.append(t(lang, "⏳ **{player}** must move {due}.", player=name, due=f"<t:{int(deadline)}:R>"))
    for seat, until in sorted(clock.away.items()):
        if seat not in clock.deadlines:
            lines.append(t(lang, "💤 **{player}** is away until {until}.", player=match.seats[seat].user_name,
                           until=f"<t:{int(until)}:f>"))
    for seat, bank in sorted(clock.banks.items()):
        if seat not in clock.deadlines:
            lines.append(t(lang, "🏦 **{player}**: {bank}.", player=match.seats[seat].user_name,
                           bank=in_the_bank(bank, lang)))
    return lines


def games_note(match: Match, clock: MatchClock, viewer: int, lang: str = ENGLISH) -> str:
    """The clock part of a /games line: when the move is due (yours or theirs), who is away."""
    parts = []
    for seat, deadline in sorted(clock.deadlines.items()):
        when = f"<t:{int(deadline)}:R>"
        parts.append(t(lang, "your move due {due}", due=when) if match.user_of(seat) == viewer else
                     t(lang, "{player}'s move due {due}", player=match.seats[seat].user_name, due=when))
    mine = match.seat_of(viewer)
    if mine is not None and mine in clock.banks:
        parts.append(t(lang, "you have {bank}", bank=in_the_bank(clock.banks[mine], lang)))
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
    deadline = clock.deadlines.get(seat)
    if not plain(clock.rules):
        kind = clock_kind(clock.clock_seconds, clock.rules, lang)
        if deadline:
            return "\n" + t(lang, "Clock: {clock}. Your first move is due {due}.", clock=kind, due=due(deadline))
        return "\n" + t(lang, "Clock: {clock}.", clock=kind)
    label = clock_name(clock.clock_seconds, lang)

    if deadline:
        return "\n" + t(lang, "Clock: {clock} a move. Your first move is due {due}.", clock=label, due=due(deadline))
    return "\n" + t(lang, "Clock: {clock} a move.", clock=label)
