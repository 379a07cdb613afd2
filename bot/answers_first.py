"""Answers first: the event loop acknowledges every interaction before it does anything that can wait.

Discord fails an interaction it hears nothing of within 3 seconds, and a player waits on the acknowledgement
("thinking…", a greyed button) before anything else. Under a burst (thousands of matches moving at once) the
event loop holds thousands of tasks ready to run: reads come back, group commits finish, pictures return, and
each continues with its engine step, its announcement or its post. A new interaction's handler joins the end of
that queue, behind all of them. So everything that can wait passes a gate (`turn`) before its next step: the
service before each action, the database after each read or write, the pictures after each render. While an
interaction that has arrived is not yet acknowledged, the gate holds them back; once none is, it lets them on
a few steps per pass of the event loop, so a newly arrived interaction always finds only those few ahead of it.
They go on in the order they came to the gate: letting work under way go before new actions was measured
slower (the database's writer then waited for the event loop, where in order the two overlap).

With no interaction waiting and nothing held back (every quiet moment), `turn` returns at once without yielding:
it costs nothing outside a burst.

Python's full garbage collection can wait too: it walks every object the bot holds and, with thousands of
matches in flight, stops the event loop for 50-120 ms whenever enough allocations have been counted, which under a
burst is often. `QuietCollections` leaves the young generations to Python and runs the full collections itself, at
a quiet moment (or, under load that never lets up, after many more young collections all the same).

An interaction arrives when its gateway event is parsed (`arrived`; bot/app.py) and is answered when its first
response is sent (`answered`; bot/views/common.py). The handler of an unanswered interaction passes the gate (its
own answer is what the rest waits for); an arrival nobody answers holds nothing back for longer than `HOLD`.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import time
import weakref
from collections import deque
from typing import Any, Callable

log = logging.getLogger(__name__)

# Held steps let go per pass of the event loop: a newly arrived interaction's handler waits behind at most these
# (each a step of a few hundred microseconds at most); more per pass is fewer passes, so more moves a second.
RELEASED_PER_PASS = 4
HOLD = 0.5  # seconds an arrival holds back the rest at most (a handler that answers late, or not at all)

# Interactions that wait for an acknowledgement: application commands, components and modal submissions.
# (An autocomplete's answer is its choices, which its handler sends as soon as it has them.)
ACKNOWLEDGED_TYPES = (2, 3, 5)

# The interaction whose handler runs in this task (and the tasks it starts): set while its gateway event is parsed,
# which is when discord.py creates the handler's task, copying this context.
ARRIVAL: contextvars.ContextVar[int | None] = contextvars.ContextVar("strategos_arrival", default=None)


class AnswersFirst:
    """The gate of one event loop (`gate()` finds it)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._pending: dict[int, float] = {}  # arrived, unanswered interaction → when it stops holding (arrival order)
        self._held: deque[asyncio.Future[None]] = deque()  # steps held back, in the order they came
        self._release_scheduled = False
        self._expiry: asyncio.TimerHandle | None = None
        self.when_quiet: list[Callable[[], None]] = []  # told each time the last held step goes on

    # --- interactions ---------------------------------------------------------------------------------------

    def arrived(self, key: int) -> None:
        """An interaction arrived (`key`: its id): hold back what can wait until it is answered."""
        self._pending[key] = self._loop.time() + HOLD
        if self._expiry is None:
            self._expiry = self._loop.call_at(self._pending[key], self._expire)

    def answered(self, key: int) -> None:
        """The interaction `key` has its first response (a no-op for one that never arrived here)."""
        if self._pending.pop(key, None) is not None and not self._pending:
            if self._expiry is not None:  # nothing left to expire (a timer left behind would keep the loop busy)
                self._expiry.cancel()
                self._expiry = None
            if self.quiet:
                self._now_quiet()
            else:
                self._schedule_release()

    @property
    def quiet(self) -> bool:
        """No interaction waits for its answer and nothing is held back."""
        return not self._pending and not self._held

    # --- work that can wait ---------------------------------------------------------------------------------

    async def turn(self) -> None:
        """Wait while any arrived interaction waits for its answer, then for this step's turn (a few steps per
        pass of the event loop while others are held). Returns at once when nothing waits."""
        if self.quiet:
            return
        arrival = ARRIVAL.get()
        if arrival is not None and arrival in self._pending:
            return  # the handler of an interaction still to be answered: its answer is what the rest waits for
        waiter: asyncio.Future[None] = self._loop.create_future()
        self._held.append(waiter)
        if not self._pending:
            self._schedule_release()
        try:
            await waiter
        except asyncio.CancelledError:
            if not waiter.done():  # never released: let the next one go in its place
                self._held.remove(waiter)
            raise

    def _schedule_release(self) -> None:
        if not self._release_scheduled and self._held:
            self._release_scheduled = True
            self._loop.call_soon(self._release_one)

    def _release_one(self) -> None:
        """Let a few held steps go, and the next few at the following pass of the event loop: an interaction
        arriving meanwhile has its handler queued behind those few, not behind every held step."""
        self._release_scheduled = False
        if self._pending:
            return  # answered() or _expire() starts again once none waits
        released = 0
        while self._held and released < RELEASED_PER_PASS:
            waiter = self._held.popleft()
            if not waiter.done():
                waiter.set_result(None)
                released += 1
        if self.quiet:
            self._now_quiet()
        else:
            self._schedule_release()

    def _now_quiet(self) -> None:
        for hook in self.when_quiet:
            hook()

    def _expire(self) -> None:
        """Arrivals unanswered for HOLD stop holding the rest back."""
        self._expiry = None
        now = self._loop.time()
        while self._pending:
            key, until = next(iter(self._pending.items()))
            if until > now:
                self._expiry = self._loop.call_at(until, self._expire)
                return
            del self._pending[key]
        if self.quiet:
            self._now_quiet()
        else:
            self._schedule_release()


_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AnswersFirst] = weakref.WeakKeyDictionary()


def gate() -> AnswersFirst:
    """The running event loop's gate (tests run many loops in turn, each with its own)."""
    loop = asyncio.get_running_loop()
    found = _GATES.get(loop)
    if found is None:
        found = _GATES[loop] = AnswersFirst(loop)
    return found


async def turn() -> None:
    """`gate().turn()`: wait here while an interaction waits for its answer (see AnswersFirst.turn)."""
    await gate().turn()


def watch_arrivals(parsers: dict[str, Callable[[Any], None]]) -> None:
    """Register each interaction as its gateway event is parsed, before discord.py starts its handler (whose task
    then carries the interaction's id in ARRIVAL). `parsers`: discord.py's table of gateway event parsers (the
    client's connection state), which its websocket reads each event's parser from."""
    parse = parsers["INTERACTION_CREATE"]

    def arriving(data: Any) -> None:
        if data.get("type") not in ACKNOWLEDGED_TYPES:
            parse(data)
            return
        key = int(data["id"])
        gate().arrived(key)
        token = ARRIVAL.set(key)
        try:
            parse(data)
        finally:
            ARRIVAL.reset(token)

    parsers["INTERACTION_CREATE"] = arriving


class QuietCollections:
    """Full garbage collections at quiet moments instead of at Python's count (see the module's docstring). One per
    bot; Python's counts are the process's, so they change with the first bot started and come back with the last
    stopped (tests run several bots in one process).

    Python counts young collections (of generation 1) and makes a full one after `DUE_AFTER` of them. Here a full
    collection falls due at the same count, but runs only when the bot is quiet: at once if it is, else when the
    last held step goes on or the last interaction is answered; and after `OVERDUE_AFTER`, quiet or not (cycles
    must not pile up without end under load that never lets up). No timer: a bot that allocates nothing has
    nothing to collect."""

    DUE_AFTER = 10  # young collections before a full one falls due (Python's own default)
    OVERDUE_AFTER = 200  # young collections before a full one runs, quiet or not
    NEVER = 1_000_000_000  # Python's count of young collections before a full one: never reached
    _running = 0  # bots started in this process
    _pythons: tuple[int, int, int] = gc.get_threshold()

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._gate: AnswersFirst | None = None
        self.young = 0  # young collections since the last full one
        self._scheduled = False

    def start(self) -> None:
        """From now on (the bot is started: what it has loaded is kept apart from every later collection)."""
        if self._loop is not None:
            return
        if QuietCollections._running == 0:
            gc.freeze()
            QuietCollections._pythons = gc.get_threshold()
            young, middle, _ = QuietCollections._pythons
            gc.set_threshold(young, middle, self.NEVER)
        QuietCollections._running += 1
        self._loop = asyncio.get_running_loop()
        self._gate = gate()
        self._gate.when_quiet.append(self._now_quiet)
        gc.callbacks.append(self._counted)

    def stop(self) -> None:
        """Python's own counts again once no bot runs (the process may go on without them: tests)."""
        if self._loop is None:
            return
        gc.callbacks.remove(self._counted)
        assert self._gate is not None  # set with the loop
        self._gate.when_quiet.remove(self._now_quiet)
        self._loop = self._gate = None
        QuietCollections._running -= 1
        if QuietCollections._running == 0:
            gc.set_threshold(*QuietCollections._pythons)
            gc.unfreeze()

    def _counted(self, phase: str, info: dict[str, int]) -> None:
        """Python's garbage collector calls this around each collection, in whichever thread allocated."""
        if phase != "stop" or info.get("generation") != 1:
            return
        self.young += 1
        quiet = self._gate is not None and self._gate.quiet
        if self.young >= (self.DUE_AFTER if quiet else self.OVERDUE_AFTER):
            self._schedule()

    def _now_quiet(self) -> None:
        if self.young >= self.DUE_AFTER:
            self._schedule()

    def _schedule(self) -> None:
        if self._scheduled or self._loop is None:
            return
        self._scheduled = True
        try:
            self._loop.call_soon_threadsafe(self._collect)
        except RuntimeError:  # the loop is closed: nothing runs there any more
            self._scheduled = False

    def _collect(self) -> None:
        self._scheduled = False
        if self._loop is None or self.young < self.DUE_AFTER:
            return
        if self.young < self.OVERDUE_AFTER and self._gate is not None and not self._gate.quiet:
            return  # busy again: the next quiet moment
        started = time.perf_counter()
        self.young = 0
        gc.collect()
        log.debug("full garbage collection: %.0f ms", (time.perf_counter() - started) * 1000)
