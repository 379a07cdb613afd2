"""A match's thread and board posts: where they are, which post is the current board, and posting it again."""

from __future__ import annotations

import logging

from bot.domain import Match
from bot.i18n import N_

from . import errors
from .actions import MatchActions, TurnReport
from .events import BoardRequested, MovePlayed

log = logging.getLogger(__name__)


class Boards:
    def __init__(self, actions: MatchActions):
        self.actions = actions
        self.repo = actions.repo

    async def announce_unannounced(self) -> None:
        """Announce again every match whose last change a crash cut off before its board was out."""
        for match in await self.repo.unannounced_matches():
            log.info("match=%s guild=%s version %s was not announced; announcing it now", match.id,
                     match.guild_id, match.version)
            self.actions.bus.publish(MovePlayed(match, "repair", -1, None))

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        await self.repo.set_thread(match_id, thread_id)

    async def record_board(self, match: Match, message_id: int, *, announced: bool) -> bool:
        """Record a board post of `match.version` as its current board (with `announced`: that version is shown).
        False when a newer version's board is out already: this post is then an old one and must not act."""
        return await self.repo.record_board(match.id, match.version, message_id, announced=announced)

    async def mark_announced(self, match_id: int, version: int) -> None:
        await self.repo.mark_announced(match_id, version)

    async def repost_board(self, match_id: int, user_id: int, guild_id: int | None) -> TurnReport:
        """Post a match's board again. Rate-limited per member; a player's request pings whoever must act, anyone
        else's pings nobody."""
        actions = self.actions
        match = await actions.match_for(match_id, user_id, guild_id)
        if match.thread_id is None:
            raise errors.UserError(N_("That match's thread is gone, so I can't post its board."))
        actions.limiter.check("board", user_id)
        player = match.seat_of(user_id) is not None
        presented = actions.bus.publish(BoardRequested(match, ping=player))
        return TurnReport(match, "board", match.seat_of(user_id) or -1, presented=presented)
