"""The private channel to one player: a DM when she accepts DMs, otherwise kept until she presses My view.

The hidden-information games send secrets through here only, so "who saw what" has one place to check.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

from bot.domain import Match, PrivateMessage
from bot.storage import Repository

log = logging.getLogger(__name__)

# (user_id, text, png or None, buttons to attach or None) -> True if the DM went out, False if Discord refused it
# (DMs closed). The buttons are the presenter's business: this layer only passes them on.
DmSender = Callable[[int, str, "bytes | None", Any], Awaitable[bool]]


class PrivateChannel:
    def __init__(self, repo: Repository, send_dm: DmSender, clock: Callable[[], float]):
        self.repo = repo
        self.send_dm = send_dm
        self.clock = clock

    async def send(
        self, match: Match, seat: int, content: str, *, image: bytes | None = None, buttons: Any = None
    ) -> str:
        """Deliver to the player of `seat`; returns "dm" or "pending" (shown at her next My view, which offers
        the same buttons while they still apply)."""
        user_id = match.user_of(seat)
        if user_id is None:
            return "none"  # a computer seat reads no messages
        delivered = await self.send_dm(user_id, content, image, buttons)
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
