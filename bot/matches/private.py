"""The private channel to one player: a DM when she accepts DMs, otherwise kept until she presses My view.

The hidden-information games send secrets through here only, so "who saw what" has one place to check.
"""

from __future__ import annotations

import logging
from typing import Awaitable, Callable

from bot.storage import Match, PrivateMessage, Repository

log = logging.getLogger(__name__)

# (user_id, text, png or None, match id whose secret setup the DM should offer to open, or None)
#   -> True if the DM went out, False if Discord refused it (DMs closed).
DmSender = Callable[[int, str, "bytes | None", "int | None"], Awaitable[bool]]


class PrivateChannel:
    def __init__(self, repo: Repository, send_dm: DmSender, clock: Callable[[], float]):
        self.repo = repo
        self.send_dm = send_dm
        self.clock = clock

    async def send(
        self, match: Match, seat: int, content: str, *, image: bytes | None = None, setup_prompt: bool = False
    ) -> str:
        """Deliver to the player of `seat`; returns "dm" or "pending" (shown at her next My view).

        `setup_prompt` adds a button that opens her secret setup privately."""
        user_id = match.user_of(seat)
        delivered = await self.send_dm(user_id, content, image, match.id if setup_prompt else None)
        channel = "dm" if delivered else "pending"
        await self.repo.add_private_message(
            match_id=match.id, seat=seat, user_id=user_id, content=content, with_view=image is not None,
            channel=channel, now=self.clock(),
        )
        log.info("match=%s guild=%s user=%s seat=%s private message via %s", match.id, match.guild_id, user_id,
                 seat, channel)
        return channel

    async def take_pending(self, match: Match, user_id: int) -> list[PrivateMessage]:
        """Messages that could not be DMed, now shown ephemerally; each is handed out once."""
        pending = await self.repo.pending_private_messages(match.id, user_id)
        if pending:
            await self.repo.mark_private_delivered([m.id for m in pending], "ephemeral", self.clock())
        return pending
