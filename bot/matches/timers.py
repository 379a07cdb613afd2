"""One dispatcher for every deadline. Deadlines are rows of the `timers` table, so they survive restarts; the
dispatcher sleeps until the earliest, fires what is due and sleeps again. A thousand running clocks cost one task,
not a thousand.

Several bot processes may share the timers: each dispatcher claims what is due in batches, with a lease it keeps
renewing while the batch's handlers run, and marks each timer done when its handler finished. A claim whose lease
ran out (a process that died, a handler that failed) is due again for every dispatcher, so a timer is fired once
by whoever claims it, and again only when its first firing never finished. A process cannot be told of every
timer another one writes, so with a shared database each dispatcher also looks periodically.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import secrets
import socket
from typing import Awaitable, Callable

from bot.domain import Timer
from bot.storage import Repository
from bot.storage.timer_claims import TimerClaims

from . import damage, errors

log = logging.getLogger(__name__)

Handler = Callable[[Timer], Awaitable[None]]
RETRY_AFTER_FAILURE = 60.0  # seconds after a failure of its own (a mistake: it would fail again at once)
# Seconds after the database was lost (PostgreSQL restarting takes seconds): the deadlines due meanwhile are late
# by no more than this (and the half second every sleep adds).
RETRY_AFTER_UNAVAILABLE = 2.0
LEASE_SECONDS = 60.0  # how long a claim holds when its process stops renewing it (it died)
RENEW_EVERY = LEASE_SECONDS / 3  # seconds of real time between renewals of a running batch's lease
BATCH = 32  # timers claimed at once: a look's share, leaving the rest to other processes
SWEEP_SECONDS = 30.0  # with a shared database: the longest a dispatcher sleeps without looking


def claims_of(repo: Repository) -> TimerClaims:
    """The timer claims of the store's database (on PostgreSQL shared by every process, with a listener)."""
    return repo.timer_claims()


def claimant_name() -> str:
    """Who claims: this host and process, and a random part (a pid is reused after a restart)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class TimerDispatcher:
    def __init__(self, repo: Repository, clock: Callable[[], float], claims: TimerClaims | None = None, *,
                 others: bool | None = None):
        """`others`: whether other processes run shards of the bot on this database (None: not known)."""
        self.repo = repo
        self.clock = clock
        self.claims = claims or claims_of(repo)
        self.claimant = claimant_name()
        self._batches = itertools.count(1)
        # A dispatcher alone on its database knows every timer written (each writer wakes it); sharing one, it also
        # looks this often for timers other processes wrote (and claims whose lease ran out).
        # Alone on the database, every timer is written here and wakes the dispatcher (an idle bot stays idle).
        self.sweep_every: float | None = SWEEP_SECONDS if self.claims.shared and others is not False else None
        # Other processes' timers are heard (PostgreSQL's NOTIFY) only where other processes run: a process running
        # every shard writes every timer itself.
        self.listening = bool(others)
        # Run at each look while sweeping (a shared database): what else a dead process may have left undone.
        self.sweeps: list[Callable[[], Awaitable[None]]] = []
        self._handlers: dict[str, Handler] = {}
        self.on_fire: Callable[[float], None] | None = None  # told how late each timer fires (bot/metrics.py)
        self._task: asyncio.Task | None = None
        self._sleeping = False  # only a sleeping dispatcher may be restarted: a handler is never interrupted
        self._wake_at: float | None = None  # when the sleeping dispatcher will look again
        self._dirty = False  # a timer was written while the dispatcher was busy: look again before sleeping
        self._give_back = False  # the database was lost during a look: its claims are given back at the next one
        self._stopped = False

    async def arm_unless_claimed(self, kind: str, ref_id: int, due_at: float, seat: int = -1) -> None:
        """Arm a timer unless a dispatcher holds it: a process starting does not take another's work away."""
        await self.claims.arm_unless_claimed(kind, ref_id, due_at, seat)

    def on(self, kind: str, handler: Handler) -> None:
        self._handlers[kind] = handler

    def start(self) -> None:
        self._stopped = False
        self.wake()

    async def release_stale(self) -> None:
        """At start-up: claims left by this process's own previous run fire at once (only on a database no other
        process uses; elsewhere they fire when their lease runs out)."""
        await self.claims.release_stale()

    def wake(self, due_at: float | None = None) -> None:
        """Re-read the earliest deadline (call after adding or moving a timer; `due_at`: the earliest time just
        written, when the caller knows it). Never interrupts a handler.

        A timer due no earlier than the sleeping dispatcher's next look needs no wake-up: it will be found then.
        That is the common case (a move starts the next player's days-long clock), and it saves two queries a
        move; a timer moved later or deleted costs at most one needless look when its old time comes."""
        if self._stopped:
            return
        if self._task is not None and not self._task.done():
            if not self._sleeping:
                self._dirty = True
                return
            if due_at is not None and self._wake_at is not None and due_at >= self._wake_at:
                return
            self._task.cancel()
        self._task = asyncio.create_task(self._run(), name="timer-dispatcher")

    async def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        try:  # what this process claimed and did not fire is due again at once, for another process
            await self.claims.release(self.claimant)
        except Exception:
            log.exception("could not give back this process's timer claims; they fire after their lease")
        await self.claims.close()

    async def fire_due(self) -> int:
        """Fire every timer that is due now, batch by batch; returns how many fired."""
        fired = 0
        while True:
            token = f"{self.claimant}#{next(self._batches)}"
            now = self.clock()
            batch = await self.claims.claim_due(token, now, now + LEASE_SECONDS, BATCH)
            if not batch:
                return fired
            renewing = asyncio.create_task(self._renew(token), name="timer-lease")
            try:
                # Timers of different matches (or challenges, leagues) fire side by side: a handler mostly waits
                # for the database. One match's timers fire in order, one after the other.
                by_ref: dict[int, list[Timer]] = {}
                for timer in batch:
                    by_ref.setdefault(timer.ref_id, []).append(timer)
                outcomes = await asyncio.gather(*(self._fire_in_order(token, timers) for timers in by_ref.values()),
                                                return_exceptions=True)
            finally:
                renewing.cancel()
            for outcome in outcomes:  # raised once every handler of the batch is done: none runs on unclaimed
                if isinstance(outcome, BaseException):
                    raise outcome
                fired += outcome

    async def _fire_in_order(self, token: str, timers: list[Timer]) -> int:
        fired = 0
        for timer in timers:
            if await self._fire(token, timer):
                fired += 1
        return fired

    async def _fire(self, token: str, timer: Timer) -> bool:
        """Run one claimed timer's handler and mark it done. A handler that fails, or stops with the bot, leaves
        its claim to run out: then the timer fires again, here or in another process. One that lost the database
        (PostgreSQL restarting) ends the look: the next look, seconds later, gives its claim back first."""
        handler = self._handlers.get(timer.kind)
        if handler is None:
            log.warning("timer %s of unknown kind %s dropped", timer.id, timer.kind)
        else:
            if self.on_fire is not None:
                self.on_fire(self.clock() - timer.due_at)
            try:
                await handler(timer)
            except asyncio.CancelledError:
                raise
            except errors.ShuttingDown:
                return False
            except errors.DatabaseUnavailable:  # the whole look is tried again soon (_run), this claim given back
                raise
            except errors.DamagedMatch as damaged:  # set aside: its timers wait, this one with them (not done)
                await damage.set_aside(self.repo, damaged, self.clock())
                await self.repo.damaged.park_timers(damaged.match_id)
                return False
            except errors.StaleBoard:  # the match moved on as it fired (a move in the same instant): look again
                log.info("timer kind=%s ref=%s seat=%s met a newer version; it fires again when its claim runs out",
                         timer.kind, timer.ref_id, timer.seat)
                return False
            except Exception:
                log.exception("timer kind=%s ref=%s seat=%s failed; it fires again when its claim runs out",
                              timer.kind, timer.ref_id, timer.seat)
                return False
        await self.claims.complete(token, timer, self.clock())
        return handler is not None

    def _heard(self, due_at: float) -> None:
        """Another process wrote a timer due at `due_at` (or gave one back)."""
        self.wake(due_at)

    async def _renew(self, token: str) -> None:
        """While a batch's handlers run (a computer's think takes seconds), its claims stay this process's."""
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                await self.claims.extend(token, self.clock() + LEASE_SECONDS)
            except Exception:
                log.exception("could not renew a timer lease")

    async def _look(self) -> float | None:
        """Fire what is due; the time of the next look, if any."""
        if self._give_back:  # what the lost database left claimed and not done fires now, not after its lease
            await self.claims.release(self.claimant)
            self._give_back = False
        if self.listening:
            await self.claims.listen(self._heard)
        await self.fire_due()
        due = await self.claims.next_due()
        if self.sweep_every is not None:
            for sweep in self.sweeps:
                try:
                    await sweep()
                except Exception:  # a sweep's failure must not hold up the timers: it runs again next look
                    log.exception("a periodic sweep failed")
            next_sweep = self.clock() + self.sweep_every
            due = next_sweep if due is None else min(due, next_sweep)
        return due

    async def _run(self) -> None:
        while not self._stopped:
            self._dirty = False
            try:
                # Each look is a task of its own that ends when it is done, so whoever waits for the bot to be
                # idle (SimCord's settle, in the tests) sees it finish, where the dispatcher itself never ends.
                due = await asyncio.create_task(self._look(), name="timer-look")
            except asyncio.CancelledError:
                raise
            except errors.DatabaseUnavailable as exc:
                self._give_back = True
                log.warning("timer dispatcher: %s; looking again in %.0f s", exc, RETRY_AFTER_UNAVAILABLE)
                due = self.clock() + RETRY_AFTER_UNAVAILABLE
            except Exception:
                log.exception("timer dispatcher failed; retrying in a minute")
                due = self.clock() + RETRY_AFTER_FAILURE
            if self._dirty:
                continue  # a timer was written while we looked
            if due is None:
                return  # nothing pending: the task ends, and the next timer written starts it again
            self._sleeping = True
            self._wake_at = max(due, self.clock())  # the sleep below ends half a second after this
            try:
                await asyncio.sleep(max(0.0, due - self.clock()) + 0.5)
            finally:
                self._sleeping = False
                self._wake_at = None
