"""One asyncio lock per key (a match, a league), kept only while someone holds or waits for it."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator, Hashable


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock = self._locks.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            # Locks of idle keys are dropped, so the table holds only what is being acted on.
            if not lock.locked() and not getattr(lock, "_waiters", None):
                self._locks.pop(key, None)
