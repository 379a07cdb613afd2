"""Reads of the same kind asked for in one turn of the event loop, sent to the database as one statement.

When many matches move at once, each action and each board post reads its match. One read each is one round trip
each: on PostgreSQL a trip to a server process the cores must schedule, on SQLite a hop to the reading thread, and
on both a wake-up of the event loop per answer. A `Batched` read collects the keys asked for until the event loop
turns, then reads them all with one statement per `chunk` keys and hands each caller its own rows. A lone read
still costs one statement; it waits for nothing but the end of the current turn.

Every read starts after it was asked for, so it sees every write committed before it was asked (the same as a read
of its own). A caller cancelled while waiting leaves the others' reads alone; a failed statement fails every read
it carried with the same error.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Hashable

FetchMany = Callable[[list[Any]], Awaitable[dict[Any, list[Any]]]]


class Batched:
    """`await batched.read(key)`: the rows `fetch_many(keys)` gave for `key` ([] for none)."""

    def __init__(self, fetch_many: FetchMany, chunk: int = 100) -> None:
        self._fetch_many = fetch_many
        self._chunk = chunk
        self._waiting: dict[Hashable, list[asyncio.Future]] = {}
        self._reading: set[asyncio.Task] = set()  # the loop keeps only weak references to tasks

    async def read(self, key: Hashable) -> list[Any]:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if not self._waiting:
            loop.call_soon(self._send)  # after everything else this turn of the loop asks for
        self._waiting.setdefault(key, []).append(future)
        return await future

    def _send(self) -> None:
        waiting, self._waiting = self._waiting, {}
        keys = list(waiting)
        for start in range(0, len(keys), self._chunk):
            part = {key: waiting[key] for key in keys[start:start + self._chunk]}
            task = asyncio.ensure_future(self._read_part(part))
            self._reading.add(task)
            task.add_done_callback(self._reading.discard)

    async def _read_part(self, part: dict[Hashable, list[asyncio.Future]]) -> None:
        try:
            rows = await self._fetch_many(list(part))
        except BaseException as exc:  # every read this statement carried fails as it did
            for futures in part.values():
                for future in futures:
                    if future.done():
                        continue
                    if isinstance(exc, asyncio.CancelledError):  # the loop is closing: so are the reads
                        future.cancel()
                    else:
                        future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for key, futures in part.items():
            for future in futures:
                if not future.done():  # its caller was cancelled meanwhile
                    future.set_result(rows.get(key, []))
