"""Announcements follow commits: the events a unit committed are written with it (the outbox) and presented by
the process that wrote them, even when the command that wrote them is cancelled.

A unit that changes a match carries its events, serialized here, under a token naming the unit (see
`MatchActions.conclude`; a match's start and a challenge's end: bot/matches/challenges.py). When the command goes on normally it hands the same events to the bus at once (no read:
the answer to a /move never waits for this), and the row is deleted once they were presented. When the command
is cancelled after its unit may have been written, the dispatcher adopts the token: it reads what that unit
recorded, if anything, and presents it. A row a crash or a stop left behind is presented by the process that
repairs that server's boards (bot/matches/boards.py): at its next start, and with a shared database also by its
periodic sweep once the row is old enough that its writer cannot still be presenting it. There a board already out
is adopted (a post its writer made but did not record is found in the thread), never posted twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import itertools
import json
import logging
from typing import Any, Awaitable, Callable, Sequence, TypeVar

from bot.domain import ChallengeSeat, OutboxEntry, Seat
from bot.games import Text
from bot.storage.outbox import OutboxRow, OutboxStore

from . import errors
from . import events as events_module
from . import league_events
from .bus import Delivery, EventBus
from .events import MatchEvent

log = logging.getLogger(__name__)

T = TypeVar("T")
Entry = Callable[[Sequence[Any]], OutboxEntry]  # the outbox entry of these events, under a unit's token

# Every record an event may carry, by name: the events themselves and what they hold.
_TYPES: dict[str, type] = {
    cls.__name__: cls for cls in (*vars(events_module).values(), *vars(league_events).values(), Seat, ChallengeSeat)
    if isinstance(cls, type) and (dataclasses.is_dataclass(cls) or issubclass(cls, enum.Enum))
}


def dump_events(events: Sequence[MatchEvent]) -> str:
    """Events as JSON that `load_events` turns back into equal events."""
    return json.dumps([_encode(event) for event in events], separators=(",", ":"))


def load_events(text: str) -> list[MatchEvent]:
    return [_decode(value) for value in json.loads(text)]


def _encode(value: Any) -> Any:
    if isinstance(value, Text):
        return {"~text": value.to_json()}
    if isinstance(value, enum.Enum):
        return {"~enum": [_known(type(value)), value.value]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"~type": _known(type(value)), **{f.name: _encode(getattr(value, f.name))
                                                 for f in dataclasses.fields(value) if f.init}}
    if isinstance(value, tuple):
        return {"~tuple": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("~") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"~items": [[_encode(k), _encode(v)] for k, v in value.items()]}
    raise TypeError(f"{type(value).__name__} cannot be written to the outbox")


def league_rows(rows: list[OutboxRow]) -> dict[int, list[OutboxRow]]:
    """Rows of leagues' changes, by league."""
    by_league: dict[int, list[OutboxRow]] = {}
    for row in rows:
        by_league.setdefault(row.league_id or 0, []).append(row)
    return by_league


def _known(cls: type) -> str:
    if _TYPES.get(cls.__name__) is not cls:
        raise TypeError(f"{cls.__name__} cannot be written to the outbox: add it to its types")
    return cls.__name__


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "~type" in value:
        cls = _TYPES[value["~type"]]
        return cls(**{k: _decode(v) for k, v in value.items() if k != "~type"})
    if "~enum" in value:
        name, raw = value["~enum"]
        return _TYPES[name](raw)
    if "~text" in value:
        return Text.from_json(value["~text"])
    if "~tuple" in value:
        return tuple(_decode(v) for v in value["~tuple"])
    if "~items" in value:
        return {_decode(k): _decode(v) for k, v in value["~items"]}
    return {k: _decode(v) for k, v in value.items()}


def events_of(rows: list[OutboxRow]) -> list[MatchEvent]:
    """What the rows announce, in order."""
    return [event for row in rows for event in load_events(row.events)]


def recovered(event: MatchEvent) -> MatchEvent:
    """`event` as a process presents it that recovers it (a match's start, a challenge's end: see their
    `recovered`)."""
    if not hasattr(event, "recovered"):
        return event
    # ignore: the checker tries every MatchEvent type; only those with a `recovered` field get here
    return dataclasses.replace(event, recovered=True)  # type: ignore[arg-type]


class Outbox:
    """This process's side of the outbox: names units, presents what they recorded, forgets it once presented."""

    def __init__(self, store: OutboxStore, bus: EventBus, claimant: str):
        self.store = store
        self.bus = bus
        self._claimant = claimant
        self._units = itertools.count(1)
        self._tasks: set[asyncio.Task] = set()
        self._presenting: set[str] = set()  # the tokens of rows this process is presenting (or replaying) now

    def token(self) -> str:
        """A name for the unit(s) of one action, which no other action has."""
        return f"{self._claimant}#a{next(self._units)}"

    @staticmethod
    def entry(token: str, events: Sequence[MatchEvent], now: float) -> OutboxEntry:
        """What a unit decided at `now` records of its events."""
        return OutboxEntry(token, dump_events(events), now)

    def deliver(self, token: str, events: Sequence[MatchEvent]) -> Delivery | None:
        """Present the events a unit just committed under `token` (in order, after whatever of their match is
        being presented), then forget its row. The first event's delivery: what the command may wait for."""
        deliveries = [self.bus.publish(event) for event in events]
        self._presenting.add(token)
        self._spawn(self._forget_after(token, deliveries), f"outbox-{token}")
        return deliveries[0] if deliveries else None

    async def written(self, write: Callable[[Entry], Awaitable[T]], now: float) -> tuple[T, Delivery | None]:
        """Run `write`, whose unit records the events it announces through the maker it is given (none: nothing
        to announce, the unit was refused), and present them at once; a command cancelled meanwhile leaves them
        to the outbox. What `write` returns, and the first event's delivery."""
        token, made = self.token(), list[Any]()

        def entry(events: Sequence[Any]) -> OutboxEntry:
            made.extend(events)
            return self.entry(token, events, now)

        try:
            result = await write(entry)
        except asyncio.CancelledError:  # the unit may have been written: the outbox presents what it recorded
            self.adopt(token)
            raise
        return result, self.deliver(token, made) if made else None

    def adopt(self, token: str, after: asyncio.Future | None = None) -> None:
        """The command that wrote (or was writing) `token` was cancelled before presenting it: once `after` (the
        rest of its writes) is done, present whatever the unit recorded. Nothing happens if it was not written."""
        self._presenting.add(token)
        self._spawn(self._adopt(token, after), f"outbox-adopt-{token}")

    def replay(self, rows: list[OutboxRow], *, keep: tuple[type, ...]) -> None:
        """Present the events of rows a stopped process left (only those of the types `keep`: a repair presents
        the board), then forget the rows."""
        self.present(rows, [event for event in events_of(rows) if isinstance(event, keep)])

    def present(self, rows: list[OutboxRow], events: list[MatchEvent]) -> None:
        """Present `events` in place of what rows a stopped process left announce, then forget the rows."""
        if not rows:
            return
        deliveries = [self.bus.publish(recovered(event)) for event in events]
        self._presenting.update(row.token for row in rows)
        self._spawn(self._forget_rows_after(rows, deliveries), f"outbox-replay-{rows[0].id}")

    async def pending(self) -> list[OutboxRow]:
        """Every row not presented yet, oldest first, whoever wrote it."""
        return await self.store.pending()

    async def of_leagues(self) -> list[OutboxRow]:
        """Every row of a league's change not presented yet, oldest first."""
        return await self.store.of_leagues()

    async def of_match(self, match_id: int) -> list[OutboxRow]:
        return await self.store.of_match(match_id)

    def presenting(self, rows: list[OutboxRow]) -> bool:
        """Whether this process is presenting any of these rows right now."""
        return any(row.token in self._presenting for row in rows)

    async def idle(self) -> None:
        """Wait until every announcement handed over was presented and forgotten (shutdown, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _forget_after(self, token: str, deliveries: list[Delivery]) -> None:
        try:
            await asyncio.gather(*deliveries)
            await self.store.done(token)
        finally:
            self._presenting.discard(token)

    async def _forget_rows_after(self, rows: list[OutboxRow], deliveries: list[Delivery]) -> None:
        try:
            await asyncio.gather(*deliveries)
            await self.store.done_rows([row.id for row in rows])
        finally:
            self._presenting.difference_update(row.token for row in rows)

    async def _adopt(self, token: str, after: asyncio.Future | None) -> None:
        try:
            if after is not None:
                await asyncio.wait([after])
            rows = await self.store.of_token(token)
            if rows:
                log.info("match=%s league=%s presenting what a cancelled command committed", rows[0].match_id,
                         rows[0].league_id)
                await self._forget_after(token, [self.bus.publish(recovered(event)) for event in events_of(rows)])
        finally:
            self._presenting.discard(token)

    def _spawn(self, coro: Any, name: str) -> None:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Task) -> None:
    failure = None if task.cancelled() else task.exception()
    if isinstance(failure, errors.DatabaseUnavailable):  # PostgreSQL restarting: one line, it is no mistake
        log.warning("announcing from the outbox met a lost database (the row is presented at the next start or "
                    "sweep): %s", failure)
    elif failure is not None:
        log.error("announcing from the outbox failed (the row is presented at the next start or sweep)",
                  exc_info=failure)
