"""The bot's requests to Discord, paced under its limits, the most urgent first.

Discord lets a bot make 50 requests a second (its global limit) and about 5 new messages per 5 seconds in one
channel; interaction callbacks and interaction webhooks count against neither. A request over a limit is refused
with 429, and 10,000 refused or forbidden requests in 10 minutes get the bot's address banned for an hour.
discord.py keeps each route's own bucket from the headers Discord sends (it waits when one is spent) but sends into
the global limit blindly and learns of it from the 429s. So every limited request waits here for a turn first:
at most `rate` of them in any `per` seconds, a little under Discord's 50 (the time a request takes to arrive varies),
and, when more wait than may go, in the order of their urgency:

- `ANSWER`: what a player waits for right now (anything an interaction's own code sends; the default);
- `BOARD`: a match's board posts and the lines that go with them (the presenters);
- `COSMETIC`: edits that only tidy up (an old board's buttons greyed, a challenge post's status, an archived thread).

Within one urgency the turns go first come, first served. A 429 of the global limit stops every turn until its
`Retry-After`; and should refusals ever pile up (say a permission lost in many servers), the pace falls to one
request a second until the last 10 minutes hold fewer than `invalid_budget` of them, far below Discord's 10,000.

The turn is taken in aiohttp's request-start hook, which runs after discord.py's route bucket let the request
go and right before it is sent (the client's connector has no connection limit, so nothing waits in between).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import heapq
import itertools
import math
import re
from collections import deque
from contextvars import ContextVar
from typing import Any, Iterator

import aiohttp

RATE = 40  # limited requests per `PER` seconds: Discord allows 50, counted as they arrive (in clumps when busy)
PER = 1.0
MARGIN = 0.05  # a turn counts a little longer than Discord counts its request: arrivals are later, and vary
INVALID_WINDOW = 600.0  # Discord counts invalid requests over 10 minutes
INVALID_BUDGET = 500  # past this many in the window, the pace falls to one request a second
SLOW_RATE = 1
_EXEMPT = re.compile(r"/interactions/\d+/[^/]+/callback$|/webhooks/\d+/[^/]+(/|$)")


class Urgency(enum.IntEnum):
    ANSWER = 0
    BOARD = 1
    COSMETIC = 2


_urgency: ContextVar[Urgency] = ContextVar("strategos_discord_urgency", default=Urgency.ANSWER)


@contextlib.contextmanager
def urgency(level: Urgency) -> Iterator[None]:
    """The requests made inside (in this task) wait their turn as `level`."""
    token = _urgency.set(level)
    try:
        yield
    finally:
        _urgency.reset(token)


def is_exempt(path: str) -> bool:
    """An interaction callback, or a webhook's (interaction followups and their edits): outside the global limit."""
    return _EXEMPT.search(path) is not None


class Pacer:
    """Turns for limited requests: at most `rate` in any `per` seconds (the event loop's clock), most urgent first."""

    def __init__(self, rate: int = RATE, per: float = PER, *, invalid_budget: int = INVALID_BUDGET):
        self.rate, self.per, self.invalid_budget = rate, per, invalid_budget
        self._sent: deque[float] = deque()  # when each turn of the last `per` seconds was given
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._paused_until = -math.inf
        self._wake: asyncio.TimerHandle | None = None
        self._invalid: deque[float] = deque()  # when Discord answered 401, 403 or 429 (not of a shared bucket)
        self.turns = 0

    @classmethod
    def for_shards(cls, shards: int | None, of: int | None) -> Pacer:
        """A process's pacer when it runs `shards` of the bot's `of` shards: the global limit is the bot token's,
        shared by all its processes, so each takes its shards' share of it."""
        if not shards or not of or shards >= of:
            return cls()
        return cls(rate=max(1, RATE * shards // of))

    @property
    def waiting(self) -> int:
        return sum(not future.done() for _, _, future in self._waiting)

    def invalid_recently(self) -> int:
        now = asyncio.get_running_loop().time()
        while self._invalid and self._invalid[0] <= now - INVALID_WINDOW:
            self._invalid.popleft()
        return len(self._invalid)

    async def turn(self, level: Urgency = Urgency.ANSWER) -> None:
        """Return when a limited request of urgency `level` may be sent."""
        loop = asyncio.get_running_loop()
        if not self._waiting and self._free(loop.time()):
            self._take(loop.time())
            return
        future: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiting, (int(level), next(self._order), future))
        self._schedule()
        await future

    def refused(self, retry_after: float, *, everything: bool) -> None:
        """Discord refused a request (429): counted; `everything` (its global limit) stops every turn meanwhile."""
        now = asyncio.get_running_loop().time()
        self._invalid.append(now)
        if everything:
            self._paused_until = max(self._paused_until, now + retry_after)

    def forbidden(self) -> None:
        """Discord answered 401 or 403: an invalid request too."""
        self._invalid.append(asyncio.get_running_loop().time())

    def _limit(self) -> tuple[int, float]:
        if self.invalid_recently() >= self.invalid_budget:
            return SLOW_RATE, 1.0
        return self.rate, self.per

    def _free(self, now: float) -> bool:
        if now < self._paused_until:
            return False
        rate, per = self._limit()
        sent = self._sent
        while sent and sent[0] + per + MARGIN <= now + 1e-6:  # (a microsecond for the clock's rounding)
            sent.popleft()
        return len(sent) < rate

    def _take(self, now: float) -> None:
        self._sent.append(now)
        self.turns += 1

    def _release(self) -> None:
        self._wake = None
        now = asyncio.get_running_loop().time()
        while self._waiting and self._free(now):
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():  # else its request was given up while it waited
                self._take(now)
                future.set_result(None)
        while self._waiting and self._waiting[0][2].done():
            heapq.heappop(self._waiting)
        self._schedule()

    def _schedule(self) -> None:
        if not self._waiting or self._wake is not None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        rate, per = self._limit()
        at = self._sent[0] + per + MARGIN if len(self._sent) >= rate else now
        self._wake = loop.call_at(max(at, self._paused_until, now), self._release)

    def trace_config(self) -> aiohttp.TraceConfig:
        """The aiohttp hooks that make every limited request of a client session wait for its turn."""
        config = aiohttp.TraceConfig()

        async def started(session: Any, context: Any, params: aiohttp.TraceRequestStartParams) -> None:
            if not is_exempt(params.url.path):
                await self.turn(_urgency.get())

        async def ended(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
            status, headers = params.response.status, params.response.headers
            if status == 429 and headers.get("X-RateLimit-Scope") != "shared":
                retry_after = float(headers.get("Retry-After") or 1)
                self.refused(retry_after, everything=headers.get("X-RateLimit-Global") == "true")
            elif status in (401, 403):
                self.forbidden()

        config.on_request_start.append(started)
        config.on_request_end.append(ended)
        return config
