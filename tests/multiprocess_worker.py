"""One bot process of the multi-process test (tests/test_multiprocess_postgres.py): a match service with its timer
dispatcher, acting as one shard of two on a PostgreSQL database. It plays random legal moves in the test's matches
(mostly its own shard's, some of the other's), leaves the idle ones to run out of time, presents every event the
way the board presenter records it, and writes what it did as JSON.

    python tests/multiprocess_worker.py PLAN.json OUT.json
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
import sys
from pathlib import Path

from bot.composition import build_match_service
from bot.matches import MatchService, errors, timers
from bot.matches.events import MatchStarted, MovePlayed, SetupProgress
from bot.matches.scope import ProcessScope, shard_of
from bot.storage.opening import open_repository
from shared_clock import SharedClock

OTHER_SHARD_SHARE = 0.2  # of the moves: sent through this process for a match of the other process's shard
PLAYERS = 8  # members acting at the same moment in each process


class BoardRecorder:
    """Stands for the board presenter: each event that shows a board "posts" one (a message id of this process's
    own range) and records it as the match's board, as BoardPresenter.post does."""

    def __init__(self, service: MatchService, shard: int):
        self.service = service
        self.ids = itertools.count((shard + 1) * 10**12)
        self.posted: list[tuple[int, int, int]] = []  # (match, version, message)

    async def __call__(self, event) -> bool:
        if not isinstance(event, (MatchStarted, MovePlayed, SetupProgress)):
            return True
        match = await self.service.get_match(event.match.id)
        if match.version != event.match.version:
            return True  # superseded: the later version's board shows it
        message = next(self.ids)
        if await self.service.record_board(match, message, announced=True):
            self.posted.append((match.id, match.version, message))
        return True


async def play(plan: dict, shard: int) -> dict:
    # every process reads the same clock, which runs on the turns both processes' players take (shared_clock.py)
    clock = SharedClock(Path(plan["clock"]), plan["base"], plan["tick"], slot=shard)

    repo = await open_repository(plan["dsn"])
    service = build_match_service(repo, clock=clock, scope=ProcessScope((shard,), 2))
    fired: list[tuple[int, float, str]] = []
    for kind, handler in list(service.timers._handlers.items()):
        async def counted(timer, handler=handler):
            await handler(timer)
            fired.append((timer.id, timer.due_at, timer.kind))  # done (one that failed fires again later)
        service.timers.on(kind, counted)
    # The dispatcher sleeps real seconds for what the clock says is left, and this clock runs on the players' turns:
    # it looks every half second instead, as its periodic look (and fires what is due once more at the end).
    service.timers.sweep_every = 0.0
    service.timers.listening = True  # one of two processes
    timers.LEASE_SECONDS = 1000 * plan["turns"] * plan["tick"]  # no lease runs out during a run: a claim is kept
    boards = BoardRecorder(service, shard)
    service.bus.subscribe(boards)
    await service.start()

    idle = set(plan["idle"])
    playing = [m for m in plan["matches"] if m not in idle]
    abandoned = set(plan["abandoned"])
    counts = {"moves": 0, "refused": 0}
    turns, abandon_after = plan["turns"], plan["abandon_after"]
    clock.ready_and_wait()

    async def player(rng: random.Random) -> None:
        while clock.turns(shard) < turns:
            clock.advance()
            match_id = rng.choice(playing)
            if match_id in abandoned and clock.turns() > abandon_after:  # its players walked away: it runs out
                await asyncio.sleep(0)
                continue
            match = await service.get_match(match_id)
            mine = shard_of(match.guild_id, 2) == shard
            acting = service.to_act(match) if match.active else []
            if not acting or (not mine and rng.random() > OTHER_SHARD_SHARE):
                await asyncio.sleep(0)
                continue
            seat = rng.choice(acting)
            legal = service.game_of(match).legal_moves(service.state_of(match), seat)
            try:
                await service.submit_move(match_id, match.user_of(seat), rng.choice(list(legal)),
                                          expected_version=match.version)
                counts["moves"] += 1
            except errors.UserError:  # the other process moved first, or the time ran out meanwhile
                counts["refused"] += 1

    # Several members act at once in each process, as on Discord: one waits for the database while others think.
    await asyncio.gather(*(player(random.Random(shard * 100 + i)) for i in range(PLAYERS)))
    end = clock()
    while await service.timers.fire_due():  # what fell due before this process's last turn: fired now
        pass
    await service.drain()
    await repo.close()
    return {"fired": fired, "boards": boards.posted, **counts, "clock_at_end": end}


def main() -> int:
    plan_path, out_path = Path(sys.argv[1]), Path(sys.argv[2])
    plan = json.loads(plan_path.read_text())
    logging.basicConfig(level=logging.WARNING)
    report = asyncio.run(play(plan, plan["shard"]))
    out_path.write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
