"""A match's thread and board posts: where they are, which post is the current board, and posting it again."""

from __future__ import annotations

import logging

from bot.domain import Match, Timer
from bot.i18n import N_

from . import errors
from .actions import MatchActions, TurnReport
from .events import BoardRepaired, BoardRequested
from .scope import REPAIR_AFTER, ProcessScope

log = logging.getLogger(__name__)

BOARD_REPAIR = "board_repair"  # a board a stopped process left unposted, repaired once nobody can be posting it


class Boards:
    def __init__(self, actions: MatchActions, scope: ProcessScope = ProcessScope()):
        self.actions = actions
        self.repo = actions.repo
        self.scope = scope
        actions.timers.on(BOARD_REPAIR, self._repair_board)

    async def announce_unannounced(self) -> None:
        """Announce again every match of this process's shards whose last change a crash cut off before its board
        was out."""
        timers, clock = self.actions.timers, self.actions.clock
        for match in await self.repo.unannounced_matches():
            if not self.scope.owns(match.guild_id):
                continue  # the process running that server's shard repairs it
            if timers.claims.shared and match.updated_at > clock() - REPAIR_AFTER:
                # Another process may be posting this board right now: look again once that would be done.
                await self.repo.set_timer(BOARD_REPAIR, match.id, match.updated_at + REPAIR_AFTER)
                timers.wake(match.updated_at + REPAIR_AFTER)
                continue
            await self._repair(match)

    async def _repair(self, match: Match) -> None:
        log.info("match=%s guild=%s version %s was not announced; announcing it now", match.id, match.guild_id,
                 match.version)
        actions = self.actions
        actions.bus.publish(BoardRepaired(match, board=await actions.board(match),
                                          lang=await actions.language(match.guild_id)))

    async def _repair_board(self, timer: Timer) -> None:
        match = await self.repo.get_match(timer.ref_id)
        if match is not None and match.announced_version < match.version and match.thread_id is not None:
            await self._repair(match)

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
        presented = actions.bus.publish(BoardRequested(match, ping=player, board=await actions.board(match),
                                                       lang=await actions.language(match.guild_id)))
        return TurnReport(match, "board", match.seat_of(user_id) or -1, presented=presented)
