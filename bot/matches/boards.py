"""A match's thread and board posts: where they are, which post is the current board, and posting it again."""

from __future__ import annotations

import logging

from bot.domain import Match, Timer
from bot.i18n import N_
from bot.storage.outbox import OutboxRow

from . import errors
from .actions import MatchActions, TurnReport
from .events import BoardRepaired, BoardRequested, MatchEnded
from .scope import REPAIR_AFTER, ProcessScope

log = logging.getLogger(__name__)

BOARD_REPAIR = "board_repair"  # a board a stopped process left unposted, repaired once nobody can be posting it
# What a stopped process's outbox rows announce beyond the board a repair posts: presented when its board was not
# out (they follow the board, so they were not out either).
AFTER_THE_BOARD = (MatchEnded,)


class Boards:
    def __init__(self, actions: MatchActions, scope: ProcessScope = ProcessScope()):
        self.actions = actions
        self.repo = actions.repo
        self.outbox = actions.outbox
        self.scope = scope
        self._repaired: set[tuple[int, int]] = set()  # (match, version) whose board this process repaired
        actions.timers.on(BOARD_REPAIR, self._repair_board)
        actions.timers.sweeps.append(self.sweep_outbox)

    async def announce_unannounced(self) -> None:
        """Announce again every match of this process's shards whose last change a crash cut off before its board
        was out, and present the rest of what the stopped process left in the outbox."""
        timers, clock = self.actions.timers, self.actions.clock
        left = await self._left_by_match()
        for match in await self.repo.unannounced_matches():
            if not self.scope.owns(match.guild_id):
                continue  # the process running that server's shard repairs it
            if timers.claims.shared and match.updated_at > clock() - REPAIR_AFTER:
                # Another process may be posting this board right now: look again once that would be done.
                await self.repo.set_timer(BOARD_REPAIR, match.id, match.updated_at + REPAIR_AFTER)
                timers.wake(match.updated_at + REPAIR_AFTER)
                left.pop(match.id, None)
                continue
            await self._repair(match, left.pop(match.id, []))
        for rows in left.values():
            if self.scope.owns(rows[0].guild_id) and not self._young(rows):
                # Their boards are out, so the stop came after them: what followed may be out too, and a second
                # replay post would be worse than none. Forgotten unseen.
                self.outbox.replay(rows, keep=())

    async def sweep_outbox(self) -> None:
        """With a shared database, periodically: announce what a process that died left in the outbox for this
        process's servers (a /move in DMs and a timer run anywhere), once no live process can still be at it."""
        for rows in (await self._left_by_match()).values():
            if not self.scope.owns(rows[0].guild_id) or self._young(rows) or self.outbox.presenting(rows):
                continue
            match = await self.repo.get_match(rows[0].match_id)
            if match is not None and match.updated_at <= self.actions.clock() - REPAIR_AFTER:
                await self._announce_left(match, rows)  # else it moved a moment ago: whoever moved it announces it

    async def _left_by_match(self) -> dict[int, list[OutboxRow]]:
        left: dict[int, list[OutboxRow]] = {}
        for row in await self.outbox.pending():
            left.setdefault(row.match_id, []).append(row)
        return left

    def _young(self, rows: list[OutboxRow]) -> bool:
        """Another process may be presenting these rows right now (it wrote them a moment ago)."""
        shared = self.actions.timers.claims.shared
        return shared and bool(rows) and rows[-1].created_at > self.actions.clock() - REPAIR_AFTER

    async def _repair(self, match: Match, left: list[OutboxRow]) -> None:
        """Post (or adopt) the board a stop cut off, then what the stopped process left in the outbox beyond it:
        the board post is what exactly once is kept for, by finding a post the stop left unrecorded. Once per
        version in this process (a repair timer and a sweep may both find it)."""
        if (match.id, match.version) in self._repaired:
            return
        self._repaired.add((match.id, match.version))
        log.info("match=%s guild=%s version %s was not announced; announcing it now", match.id, match.guild_id,
                 match.version)
        actions = self.actions
        actions.bus.publish(BoardRepaired(match, board=await actions.board(match),
                                          lang=await actions.language(match.guild_id)))
        self.outbox.replay(left, keep=AFTER_THE_BOARD)

    async def _repair_board(self, timer: Timer) -> None:
        match = await self.repo.get_match(timer.ref_id)
        if match is None:
            return
        left = await self.outbox.of_match(match.id)
        await self._announce_left(match, [] if self._young(left) else left)

    async def _announce_left(self, match: Match, rows: list[OutboxRow]) -> None:
        """What a stopped process left of `match`: its board repaired if it is not out (with what follows the
        board), else its rows forgotten."""
        if match.announced_version < match.version and match.thread_id is not None:
            await self._repair(match, rows)
        else:
            self.outbox.replay(rows, keep=())

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
