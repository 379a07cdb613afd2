"""Per-member rate limits, so nobody can make the bot ping others without end (challenges, board re-posts).

A sliding window per (action, member), in memory: limits protect against bursts, and a restart forgetting them
is harmless. Old entries are pruned, so memory stays bounded by the members active in the last window.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

from . import errors

# action: (how many, per how many seconds)
LIMITS: dict[str, tuple[int, float]] = {
    "challenge": (5, 60.0),
    "board": (3, 60.0),
}
MAX_TRACKED = 10_000


class RateLimiter:
    def __init__(self, clock: Callable[[], float], limits: dict[str, tuple[int, float]] | None = None):
        self.clock = clock
        self.limits = dict(LIMITS if limits is None else limits)
        self._hits: dict[tuple[str, int], deque[float]] = {}

    def check(self, action: str, user_id: int) -> None:
        """Count one use of `action` by the member, or raise RateLimited (and count nothing)."""
        count, window = self.limits[action]
        now = self.clock()
        hits = self._hits.setdefault((action, user_id), deque())
        while hits and hits[0] <= now - window:
            hits.popleft()
        if len(hits) >= count:
            raise errors.RateLimited(hits[0] + window - now)
        hits.append(now)
        if len(self._hits) > MAX_TRACKED:
            self._prune(now)

    def _prune(self, now: float) -> None:
        longest = max(window for _, window in self.limits.values())
        for key in [k for k, v in self._hits.items() if not v or v[-1] <= now - longest]:
            del self._hits[key]
