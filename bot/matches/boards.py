"""A match's thread and board posts: where they are, which post is the current board, and posting it again."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.domain import Match, Timer
from bot.i18n import N_
from bot.storage.outbox import OutboxRow

from . import errors
from .damage import alone
from .actions import MatchActions, TurnReport
from .events import BoardRepaired, BoardRequested, ChallengeEnded, MatchEnded, MatchStarted
from .outbox import events_of
from .scope import REPAIR_AFTER, ProcessScope

log = logging.getLogger(__name__)

BOARD_REPAIR = "board_repair"  # a board a stopped process left unposted, repaired once nobody can be posting it
# A match's start or a challenge's end a stopped process left unpresented (by match id, or minus the challenge's),
# presented once nobody can be presenting it.
START_OR_END_LEFT = "outbox_start_or_end"
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
        actions.timers.on(START_OR_END_LEFT, self._start_or_end_left)
        actions.timers.sweeps.append(self.sweep_outbox)

    async def announce_unannounced(self) -> None:
        """Announce again every match of this process's shards whose last change a crash cut off before its board
        was out, and present the rest of what the stopped process left in the outbox."""
        timers, clock = self.actions.timers, self.actions.clock
        left = await self._left_by_match()
        begun = await self._recover_starts_and_ends(left, look_again=True)
        for match in await self.repo.unannounced_matches():
            if not isinstance(match, Match):  # damaged: set aside, and its rows wait with it
                await self.actions.set_aside(match)
                left.pop(match.match_id, None)
                continue
            if not self.scope.owns(match.guild_id) or match.id in begun:
                continue  # the process running that server's shard repairs it
            if timers.claims.shared and match.updated_at > clock() - REPAIR_AFTER:
                # Another process may be posting this board right now: look again once that would be done.
                await self.repo.set_timer(BOARD_REPAIR, match.id, match.updated_at + REPAIR_AFTER)
                timers.wake(match.updated_at + REPAIR_AFTER)
                left.pop(match.id, None)
                continue
            async with alone(self.repo, clock):
                await self._repair(match, left.pop(match.id, []))
        for rows in left.values():
            if self.scope.owns(rows[0].guild_id) and not self._young(rows):
                # Their boards are out, so the stop came after them: what followed may be out too, and a second
                # replay post would be worse than none. Forgotten unseen.
                self.outbox.replay(rows, keep=())

    async def sweep_outbox(self) -> None:
        """With a shared database, periodically: announce what a process that died left in the outbox for this
        process's servers (a /move in DMs and a timer run anywhere), once no live process can still be at it."""
        left = await self._left_by_match()
        await self._recover_starts_and_ends(left)
        for rows in left.values():
            if not self.scope.owns(rows[0].guild_id) or self._young(rows) or self.outbox.presenting(rows):
                continue
            match_id = rows[0].match_id
            if match_id is None:  # a challenge's end: there is no match to look at
                continue
            async with alone(self.repo, self.actions.clock):
                match = await self.repo.get_match(match_id)
                if match is not None and match.updated_at <= self.actions.clock() - REPAIR_AFTER:
                    await self._announce_left(match, rows)  # else it moved a moment ago: whoever moved it does

    async def _left_by_match(self) -> dict[int, list[OutboxRow]]:
        """The rows left, by match (a challenge's end, which has none: by minus its challenge's id)."""
        left: dict[int, list[OutboxRow]] = {}
        for row in await self.outbox.pending():
            key = row.match_id if row.match_id is not None else -(row.challenge_id or 0)
            left.setdefault(key, []).append(row)
        return left

    async def _start_or_end_left(self, timer: Timer) -> None:
        rows = (await self._left_by_match()).get(timer.ref_id)
        if rows:
            await self._recover_starts_and_ends({timer.ref_id: rows})

    async def _recover_starts_and_ends(self, left: dict[int, list[OutboxRow]], *, look_again: bool = False
                                       ) -> set[int]:
        """Take from `left` the rows of challenges' ends and matches' starts, and present those of this process's
        servers that no live process can still be at: a challenge's post shows its end, a match's thread and its
        board (as the match is now: it covers what followed its start) are opened or adopted. With `look_again`
        (at start-up), rows another process may be presenting now are looked at again once it would be done.
        The keys taken."""
        begun: set[int] = set()
        for key, rows in list(left.items()):
            events = events_of(rows)
            started = [e for e in events if isinstance(e, MatchStarted)]
            if not started and not any(isinstance(e, ChallengeEnded) for e in events):
                continue
            del left[key]
            begun.add(key)
            if not self.scope.owns(rows[0].guild_id) or self.outbox.presenting(rows):
                continue
            if self._young(rows):
                if look_again:
                    await self.repo.set_timer(START_OR_END_LEFT, key, rows[-1].created_at + REPAIR_AFTER)
                    self.actions.timers.wake(rows[-1].created_at + REPAIR_AFTER)
                continue
            if not started:
                self.outbox.present(rows, events)
                continue
            async with alone(self.repo, self.actions.clock):
                match = await self.repo.get_match(key)
                if match is None:
                    self.outbox.present(rows, [])
                    continue
                log.info("match=%s guild=%s its start was not announced; announcing it now", match.id,
                         match.guild_id)
                self.outbox.present(rows, [replace(started[0], match=match, board=await self.actions.board(match))])
        return begun

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
