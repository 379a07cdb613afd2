"""A clock for several processes that advances with the work they do, never with the wall clock.

Each process counts its players' turns in its own slot of a small shared file (one writer per slot, so no
count is lost); the time is `base + (the sum of the slots) * tick`. However busy the machine, a given number of
turns always spans the same time of the matches' clocks, so what runs out during a run (and what does not) does
not depend on how fast the processes happen to be. A barrier in the same file starts the processes together.
"""

from __future__ import annotations

import mmap
import struct
import time
from pathlib import Path

SLOTS = 2  # processes
_LAYOUT = "<" + "q" * (2 * SLOTS)  # each process's turns, then its "ready" flag


def create(path: Path) -> None:
    path.write_bytes(b"\0" * struct.calcsize(_LAYOUT))


class SharedClock:
    def __init__(self, path: Path, base: float, tick: float, slot: int | None = None):
        self.base, self.tick, self.slot = base, tick, slot
        self._file = open(path, "r+b")
        self._map = mmap.mmap(self._file.fileno(), struct.calcsize(_LAYOUT))

    def _values(self) -> tuple[int, ...]:
        return struct.unpack_from(_LAYOUT, self._map)

    def turns(self, slot: int | None = None) -> int:
        values = self._values()
        return sum(values[:SLOTS]) if slot is None else values[slot]

    def __call__(self) -> float:
        return self.base + self.turns() * self.tick

    def advance(self) -> None:
        assert self.slot is not None, "a reader's clock does not advance"
        struct.pack_into("<q", self._map, 8 * self.slot, self.turns(self.slot) + 1)

    def ready_and_wait(self, timeout: float = 120.0) -> None:
        """Say this process is ready, then wait for the others (a start, not a measurement: the timeout only
        keeps a broken run from hanging)."""
        assert self.slot is not None
        struct.pack_into("<q", self._map, 8 * (SLOTS + self.slot), 1)
        give_up = time.monotonic() + timeout
        while not all(self._values()[SLOTS:]):
            if time.monotonic() > give_up:
                raise TimeoutError("the other process never got ready")
            time.sleep(0.01)

    def close(self) -> None:
        self._map.close()
        self._file.close()
