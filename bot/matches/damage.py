"""A damaged match fails alone: found where it is read or loaded, it is set aside and the rest goes on.

Damaged means its stored record cannot be played from (bot/domain DamagedMatch): the store finds a JSON column that
does not decode or seats that are missing as it reads the match, the engine's load a state it refuses
(states.py); a check of the logs may set one aside as well (bot/storage/set_aside.py). Whoever meets one — an
action, a timer, the start-up's repairs, the computer — hands it to `set_aside`: the match is marked in the
database (its timers wait, its league round waits) and the operator reads one log line, once per match, however
often it is met again, across restarts too. Its players are told by the adapters, in one line.
"""

from __future__ import annotations

import contextlib
import logging
from typing import AsyncIterator, Callable

from bot.domain import DamagedMatch
from bot.storage import Repository

log = logging.getLogger(__name__)


async def set_aside(repo: Repository, damage: DamagedMatch, now: float) -> None:
    """Set the damaged match aside (once) and tell the operator (once)."""
    if damage.known:
        return
    if await repo.damaged.set_aside(damage.match_id, damage.reason, now):
        log.error("match=%s guild=%s is damaged and set aside: %s. Its players are told so, and everything else "
                  "goes on; see `python -m bot damaged list` (docs/operating.md, Damaged matches)",
                  damage.match_id, damage.guild_id, damage.reason)


@contextlib.asynccontextmanager
async def alone(repo: Repository, clock: Callable[[], float]) -> AsyncIterator[None]:
    """Run the block for one match: if that match turns out damaged, it is set aside and the caller goes on to the
    next (start-up repairs, a timer's handler)."""
    try:
        yield
    except DamagedMatch as damage:
        await set_aside(repo, damage, clock())
