"""Clocks: each player has a time limit per move, or a Fischer bank, chosen with the challenge and fixed for the
match.

The rules, in one place:
- A seat's clock starts whenever her turn begins: when she becomes one of the seats to act, or when she acts and
  still has to act (a move proves she is there). Seats already to act keep their running clock, so during a
  simultaneous secret setup one player's step never gives another more time.
- Days per move: each turn starts with the full limit. A Fischer clock: each turn starts with what is in her bank;
  her action adds the increment to what was left, up to the cap; a turn that ends without her acting keeps what was
  left. The banks are written with the action's own unit (Match.clock_banks), with the banks as they were just
  before it, which a take-back gives back (the mover's without its increment).
- One reminder per turn, when the time left falls below the smaller of 24 hours and half the limit.
- Time away (`/away`) stands her clocks still: her deadlines and reminders are pushed by the time away when she
  leaves, a turn that begins meanwhile starts its full limit when she is back, and coming back early (`/back`,
  or any move of hers) gives back the unused part. Away ends on its own; nothing needs to fire for it.
- Time away is drawn from her vacation days: an allowance per calendar year (UTC) across servers, the bot's
  setting; the unused part of a pause ended early goes back to it, to the hour. When her time runs out and she has
  a whole day left, one day is spent instead of losing: every running clock of hers in the matches that allow
  it (a league may forbid it) gets 24 hours more, and she is told once.
- When a deadline passes the match service settles it (a win on time, or the player is out); see
  MatchService.time_out.

Deadlines and reminders are rows of the `timers` table (kinds DEADLINE and REMINDER, seat = the player's seat),
fired by the service's TimerDispatcher: a thousand running clocks cost rows, not tasks, and a deadline that
passed while the bot was down fires once at start-up.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timezone

from typing import Awaitable, Callable, Mapping, Sequence
from zoneinfo import ZoneInfo

from bot.i18n import N_
from bot.domain import Match, MemberPrefs, SeatTimers, Timer
from bot.games import Text
from bot.storage import Repository, VacationExhausted
from bot.storage.clocks import DEADLINE, REMINDER, Shift

from . import errors
from .bus import EventBus
from .damage import alone
from .events import MatchClock, MatchEvent, TurnReminder, VacationDaySpent
from .clock_kinds import bank_after_move, fischer_text
from .weekends import UTC, ran_back, run_between, run_until, zone

from .server_settings import DAY, checked_zone, clock_label
from .timers import TimerDispatcher

log = logging.getLogger(__name__)



def reminder_lead(limit: float) -> float:
    """How long before the deadline the reminder goes out."""
    return min(DAY, limit / 2)


class ClockKeeper:
    def __init__(self, repo: Repository, timers: TimerDispatcher, bus: EventBus[MatchEvent], clock: Callable[[], float],
                 to_act: Callable[[Match], list[int]], language: Callable[[int | None], Awaitable[str]],
                 vacation_days: float = 0, time_zone: Callable[[int | None], Awaitable[str]] | None = None):
        """`language`: the language of a server's public posts, which a reminder is written in; `vacation_days`:
        each member's allowance a calendar year; `time_zone`: a server's time zone (quiet weekends)."""
        self.time_zone = time_zone or _utc
        self.vacation = vacation_days * DAY
        self.store = repo.clocks
        self.repo = repo
        self.timers = timers
        self.bus = bus
        self.clock = clock
        self.to_act = to_act
        self.language = language
        timers.on(REMINDER, self._remind)

    # --- the service tells the keeper whenever the seats to act may have changed ----------------------------

    def plan(self, match: Match, before: Sequence[int], after: Sequence[int], actor: int | None,
             prefs: Mapping[int, MemberPrefs], deadlines: Mapping[int, float] | None = None, *,
             rewinds: bool = False, server_zone: str = UTC) -> SeatTimers:
        """The clock timers a change of the seats to act needs (`match` as it is after the change): start the
        clocks of the seats whose turn began, stop those whose turn ended, leave the rest running. Nothing is
        written here: the timers go into the action's own unit. A Fischer clock also needs the running
        `deadlines` as the action read them (what is left in a running bank); `rewinds`: a take-back, which gives
        back the banks as they were before the move it undoes; `server_zone`: the server's time zone, of quiet
        weekends of members who did not choose theirs (see `server_zone()`)."""
        if match.clock_seconds is None or not match.active:
            return SeatTimers()  # a finished match's timers go with its last write
        stopped = tuple(s for s in before if s not in after)
        started = [s for s in after if (s not in before or s == actor) and match.seats[s].is_member]
        arm = {}
        now = self.clock()
        banks = prior = None
        if match.clock_rules.fischer:
            prior = fischer_banks(match, {s: due for s, due in (deadlines or {}).items() if s in before}, prefs, now,
                                  server_zone)
            banks = dict(match.clock_prior or prior) if rewinds else dict(prior)
            if actor in prior and actor in before and not rewinds:
                banks[actor] = bank_after_move(prior[actor], match.clock_rules)
        for seat in started:
            user_id = match.member_id(seat)
            away = prefs.get(user_id) or MemberPrefs(user_id)
            begins = away.back_at(now)  # away: her clock starts when she is back
            limit = banks[seat] if banks is not None else match.clock_seconds
            tz = seat_zone(match, seat, prefs, server_zone)
            if tz is None:
                deadline = begins + limit
                arm[seat] = {DEADLINE: deadline, REMINDER: deadline - reminder_lead(limit)}
            else:  # quiet weekends: her clock stands still at hers
                deadline = run_until(begins, limit, tz)
                arm[seat] = {DEADLINE: deadline, REMINDER: ran_back(deadline, reminder_lead(limit), tz)}
        return SeatTimers(stopped, arm, banks, prior)

    def armed(self, timers: SeatTimers) -> None:
        """Tell the dispatcher about timers a committed unit armed."""
        if timers.arm:
            self.timers.wake(min(due for armed in timers.arm.values() for due in armed.values()))

    async def turns_changed(self, match: Match, before: Sequence[int], after: Sequence[int],
                            actor: int | None) -> None:
        """plan() and write it on its own (the start-up repair of a clock that was never started)."""
        prefs = await self.store.prefs(match.member_ids)
        running = await self.running(match) if match.clock_rules.fischer else None
        timers = self.plan(match, before, after, actor, prefs, running, server_zone=await self.server_zone(match))
        await self.repo.write_seat_timers(match.id, timers)
        self.armed(timers)

    async def server_zone(self, match: Match) -> str:
        """The time zone of the quiet weekends of the match's members who did not choose theirs: the server's."""
        return await self.time_zone(match.guild_id) if match.clock_rules.weekends else UTC

    def after_commit(self, match: Match, deadlines: Mapping[int, float], timers: SeatTimers,
                     prefs: Mapping[int, MemberPrefs], server_zone: str = UTC) -> MatchClock:
        """The match's clock right after a unit wrote `timers` over the `deadlines` it was loaded with."""
        running = {seat: due for seat, due in deadlines.items() if seat not in timers.cancel}
        running.update({seat: armed[DEADLINE] for seat, armed in timers.arm.items()})
        now = self.clock()
        if timers.banks is not None:
            match = replace(match, clock_banks=timers.banks)
        return _clock(match, running if match.active else {}, prefs, now, server_zone)

    async def recover(self) -> None:
        """At start-up, repair what a stop between two writes of an older Strategos left behind: a turn whose
        clock was never started gets one now. (A deadline or reminder claimed but not settled needs nothing: its
        claim runs out and it fires again.)"""
        for match_id in await self.store.clocked_matches_without_deadlines():
            async with alone(self.repo, self.clock):  # a damaged match is set aside, the others repaired
                match = await self.repo.get_match(match_id)
                if match is not None and self.to_act(match):
                    log.info("match=%s had no running clock; starting it", match.id)
                    await self.turns_changed(match, [], self.to_act(match), None)

    async def check_in_time(self, match: Match, seat: int, deadlines: Mapping[int, float] | None = None) -> None:
        """Refuse a move whose deadline has passed although the dispatcher has not settled it yet (it wakes
        half a second late, or the bot has just started): a move counts only before its deadline. `deadlines`:
        the match's running deadlines as the action loaded them (else they are read)."""
        if match.clock_seconds is None:
            return
        if deadlines is not None:
            deadline = deadlines.get(seat)
        else:
            deadline = await self.store.timer_due(DEADLINE, match.id, seat)
        if deadline is not None and deadline <= self.clock():
            self.timers.wake(deadline)
            raise errors.UserError(N_("Your time for this move ran out <t:{deadline}:R>, so it can't be played."),
                                   deadline=int(deadline))

    async def all_late(self, match: Match, in_play: Sequence[int]) -> bool:
        """Whether every seat still in the game is past her deadline (a simultaneous setup nobody made)."""
        if len(in_play) < 2:
            return False
        now = self.clock()
        deadlines = {d.seat: d.due_at for d in await self.store.deadlines([match.id])}
        return all(seat in deadlines and deadlines[seat] <= now for seat in in_play)

    async def _zones(self, user_id: int, matches: Sequence[Match]) -> dict[int, ZoneInfo | None]:
        """Match id → the time zone whose weekends stop her clock there (None: a clock that always runs)."""
        prefs = await self.store.prefs([user_id])
        return {m.id: seat_zone(m, m.player_seat(user_id), prefs, await self.server_zone(m)) for m in matches}

    async def _away_shift(self, user_id: int) -> Shift | None:
        """Where time away moves her timers in matches with quiet weekends: her clock keeps what it had left,
        counted in the time that runs; None when none of her matches has them (every timer moves alike)."""
        zones = await self._zones(user_id, [m for m in await self.repo.matches_of_user(user_id)
                                            if isinstance(m, Match) and m.clock_rules.weekends])
        if not zones:
            return None

        def shift(match_id: int, due: float, ran_from: float, runs_from: float) -> float:
            tz = zones.get(match_id)
            if tz is None:
                return due + runs_from - ran_from
            return run_until(runs_from, run_between(ran_from, due, tz), tz)

        return shift

    async def vacation_day(self, match: Match, seat: int, due_at: float) -> bool:
        """Her time in `match` ran out at `due_at`: spend one of her vacation days instead, if the match allows it
        and she has a whole day left, adding a day to every running clock of hers in the matches that allow it.
        True when it was spent (she is told once)."""
        if not match.clock_rules.vacation or not match.seats[seat].is_member:
            return False
        user_id = match.member_id(seat)
        mine = {m.id: m for m in await self.repo.matches_of_user(user_id)  # a damaged match waits, unextended
                if isinstance(m, Match) and m.clock_rules.vacation and m.clock_seconds is not None}
        mine[match.id] = match
        zones = await self._zones(user_id, list(mine.values()))

        def later(match_id: int, due: float) -> float:  # a day of her clock: with quiet weekends, not at weekends
            tz = zones.get(match_id)
            return due + DAY if tz is None else run_until(due, DAY, tz)

        extended = sorted(mine)
        left = await self.store.spend_vacation_day(user_id, match.id, seat, due_at, extended, year=self.year(),
                                                   allowance=self.vacation, later=later)
        if left is None:
            return False
        log.info("match=%s guild=%s user=%s spent a vacation day; matches=%s left=%s", match.id, match.guild_id,
                 user_id, extended, left)
        self.timers.wake(due_at + DAY)
        await self.bus.publish(VacationDaySpent(match, seat, tuple(extended), left,
                                                lang=await self.language(match.guild_id)))
        return True

    async def is_current(self, match: Match, seat: int, due_at: float) -> bool:
        """Whether a fired deadline still stands: the match is on, the seat still to act, her deadline unmoved."""
        if not match.active or seat not in self.to_act(match):
            return False
        return await self.store.timer_due(DEADLINE, match.id, seat) == due_at

    async def _remind(self, timer: Timer) -> None:
        if await self._send_reminder(timer) is not False:  # sent, or not to be sent: either way it is done
            await self.store.drop_fired(timer.kind, timer.ref_id, timer.seat, timer.due_at)

    async def _send_reminder(self, timer: Timer) -> bool | None:
        """True once the reminder was presented, False if presenting failed, None if there is none to send."""
        match = await self.repo.get_match(timer.ref_id)
        if match is None or not match.active or timer.seat not in self.to_act(match):
            return None
        deadline = await self.store.timer_due(DEADLINE, match.id, timer.seat)
        user_id = match.user_of(timer.seat)
        if deadline is None or user_id is None or deadline <= self.clock():
            return None  # a reminder the bot slept through is pointless once the deadline itself has passed
        prefs = await self.store.prefs([user_id])
        if not prefs[user_id].reminders:
            return None
        log.info("match=%s guild=%s user=%s seat=%s reminded", match.id, match.guild_id, user_id, timer.seat)
        tz = seat_zone(match, timer.seat, prefs, await self.server_zone(match))
        bank = None
        if match.clock_rules.fischer:
            bank = deadline - self.clock() if tz is None else run_between(self.clock(), deadline, tz)
        return await self.bus.publish(TurnReminder(match, timer.seat, deadline, bank=bank,
                                                   lang=await self.language(match.guild_id)))

    # --- what players see -----------------------------------------------------------------------------------

    async def status(self, matches: Sequence[Match]) -> dict[int, MatchClock]:
        """Deadlines and players away, per match id, for many matches in two queries."""
        deadlines: dict[int, dict[int, float]] = {}
        for d in await self.store.deadlines([m.id for m in matches if m.clock_seconds is not None]):
            deadlines.setdefault(d.match_id, {})[d.seat] = d.due_at
        now = self.clock()
        prefs = await self.store.prefs(uid for m in matches for uid in m.member_ids)
        zones: dict[int, str] = {}  # a server's time zone, read once however many of its matches are listed
        for m in matches:
            if m.clock_rules.weekends and m.guild_id not in zones:
                zones[m.guild_id] = await self.server_zone(m)
        return {m.id: _clock(m, deadlines.get(m.id, {}), prefs, now, zones.get(m.guild_id, UTC)) for m in matches}

    async def running(self, match: Match) -> dict[int, float]:
        """The match's running deadlines, seat → due."""
        return {d.seat: d.due_at for d in await self.store.deadlines([match.id])}

    async def of(self, match: Match) -> MatchClock:
        return (await self.status([match]))[match.id]

    async def of_running(self, match: Match, *, change: str | None = None) -> MatchClock:
        """A match's clock for /clock. Asking to change it is refused: a match keeps the clock its players
        accepted with the challenge, so nobody can shorten the time of a game in progress."""
        if change is not None:
            if match.clock_rules.fischer and match.clock_seconds is not None:
                fixed = fischer_text(match.clock_seconds, match.clock_rules)
            else:
                fixed = clock_label(match.clock_seconds) + (" a move" if match.clock_seconds else "")
            raise errors.UserError(N_("The clock of match #{match} was set when it started ({clock}) and can't change "
                                      "during the game. Choose a clock with `/play` for your next match."),
                                   match=match.id, clock=fixed)
        return await self.of(match)

    async def prefs(self, user_ids: Sequence[int]) -> dict[int, MemberPrefs]:
        return await self.store.prefs(user_ids)

    # --- members' choices -------------------------------------------------------------------------------------

    def year(self) -> int:
        """The calendar year (UTC) vacation days count in."""
        return datetime.fromtimestamp(self.clock(), timezone.utc).year

    async def vacation_left(self, user_id: int) -> float | None:
        """Seconds of vacation days the member has left this year; None when the bot gives none."""
        if not self.vacation:
            return None
        return (await self.store.prefs([user_id]))[user_id].vacation_left(self.year(), self.vacation)

    async def go_away(self, user_id: int, days: int) -> float:
        """Pause the member's clocks for `days` days, drawn from her vacation days; returns when she is back."""
        if not isinstance(days, int) or days < 1:
            raise errors.UserError(N_("Choose at least 1 day away. To end your time away, use `/back`."))
        now = self.clock()
        until = now + days * DAY
        try:
            await self.store.set_away(user_id, until, now, year=self.year(), allowance=self.vacation,
                                      shift=await self._away_shift(user_id))
        except VacationExhausted as exc:
            raise errors.UserError(Text("You have {count} vacation day left this year, so you can be away for at "
                                        "most that.", plural="You have {count} vacation days left this year, so "
                                        "you can be away for at most that.", count=int(exc.left // DAY))) from None
        self.timers.wake()
        log.info("user=%s away for %s days", user_id, days)
        return until

    async def come_back(self, user_id: int) -> bool:
        """End the member's time away (her clocks run again from where they stood, the unused time goes back to
        her vacation days); False if she was not away."""
        was_away = await self.store.set_away(user_id, None, self.clock(), year=self.year(), allowance=self.vacation,
                                             shift=await self._away_shift(user_id)) is not None
        if was_away:
            self.timers.wake()
            log.info("user=%s is back", user_id)
        return was_away

    async def member_zone(self, user_id: int, name: str | None = None) -> str | None:
        """The member's time zone, after setting it to `name` when given (an unknown zone is refused in one line);
        None: she has not chosen one, so her server's applies."""
        if name is not None:
            found = checked_zone(name)
            await self.store.set_time_zone(user_id, found)
            log.info("user=%s time zone %s", user_id, found)
            return found
        return (await self.store.prefs([user_id]))[user_id].time_zone

    async def notifications(self, user_id: int, *, turn_dms: bool | None, reminders: bool | None) -> MemberPrefs:
        if turn_dms is not None or reminders is not None:
            await self.store.set_notifications(user_id, turn_dms=turn_dms, reminders=reminders)
            log.info("user=%s notifications turn_dms=%s reminders=%s", user_id, turn_dms, reminders)
        return (await self.store.prefs([user_id]))[user_id]

    async def player_acted(self, user_id: int, prefs: Mapping[int, MemberPrefs] | None = None) -> None:
        """A move of hers ends her time away (checked first, from the action's load when given: almost every
        mover is not away)."""
        mine = prefs.get(user_id) if prefs is not None else None
        if mine is None:
            mine = (await self.store.prefs([user_id]))[user_id]
        if mine.away(self.clock()):
            await self.come_back(user_id)


def seat_zone(match: Match, seat: int, prefs: Mapping[int, MemberPrefs], server_zone: str) -> ZoneInfo | None:
    """The time zone whose weekends stop the seat's clock (hers, else the server's); None without quiet weekends."""
    if not match.clock_rules.weekends:
        return None
    user_id = match.seats[seat].user_id
    mine = prefs.get(user_id) if user_id is not None else None
    return zone(mine.time_zone if mine is not None and mine.time_zone else server_zone)


def fischer_banks(match: Match, running: Mapping[int, float], prefs: Mapping[int, MemberPrefs],
                  now: float, server_zone: str = UTC) -> dict[int, float]:
    """Every member seat's Fischer bank now: what is left before a running seat's deadline (standing still while
    she is away, and at weekends with quiet weekends), a stopped seat's bank as it stopped (full until her clock
    first ran)."""
    full, stored = float(match.clock_seconds or 0), match.clock_banks or {}
    banks = {}
    for s in match.seats:
        if not s.is_member:
            continue
        if s.seat in running:
            away = prefs.get(s.user_id) if s.user_id is not None else None
            runs = away.back_at(now) if away else now
            tz = seat_zone(match, s.seat, prefs, server_zone)
            left = running[s.seat] - runs if tz is None else run_between(runs, running[s.seat], tz)
            banks[s.seat] = max(0.0, left)
        else:
            banks[s.seat] = stored.get(s.seat, full)
    return banks


def _clock(match: Match, running: dict[int, float], prefs: Mapping[int, MemberPrefs], now: float,
           server_zone: str) -> MatchClock:
    """What players see of a match's clock now, from its running deadlines."""
    banks = fischer_banks(match, running, prefs, now, server_zone) if match.clock_rules.fischer and match.active \
        else {}
    return MatchClock(match.clock_seconds, running, _away(match, prefs, now), rules=match.clock_rules, banks=banks)


async def _utc(guild_id: int | None) -> str:
    return UTC


def _away(match: Match, prefs: Mapping[int, MemberPrefs], now: float) -> dict[int, float]:
    """Seat → until when its player is away, for the players away now."""
    away = {}
    for s in match.seats:
        member = prefs.get(s.user_id) if s.user_id is not None else None
        if member is not None and member.away_until is not None and member.away(now):
            away[s.seat] = member.away_until
    return away
