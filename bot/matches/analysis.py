"""The analysis of a finished match: each player's three moves after which the hard computer's judgement of her
chances fell most, each with the move it preferred from her own view at the time.

A player of the finished match asks for it (/analysis); it is posted in the match thread when done. Every move is
judged from its mover's view before it (bot.ai.judge: the hard level's search, the played move searched beside
its own choices), so the judgement never uses what she could not know, even now that the match is over. It costs
about the hard level's two seconds of one core per move, so it runs in a worker process of its own, one analysis
at a time in this process, and each move waits while a computer opponent thinks about a live match: live games
come first. A request is kept in the database until its analysis is posted (bot/storage/analyses.py): a restart
in between makes and posts it after start-up (in the process whose shard holds the match's server), and an
analysis posted once is not made again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from bot.domain import LoggedMove, Match
from bot.engine.base import JSON, seeded_rng
from bot.games.record import MATCH_ACTIONS, replay_moves
from bot.i18n import N_
from bot.storage.analyses import AnalysisStore

from . import errors
from .bus import EventBus
from .events import AnalysisReady, MatchEvent
from .movelog import effective_moves
from .scope import ProcessScope
from .service import MatchService

log = logging.getLogger(__name__)

PER_PLAYER = 3  # moves marked per player
# The hard level's judgement of a move, handed in by the composition root (bot.games.registry.judge_move):
# judge(view, played, *, seed) -> (preferred, its value, the played move's value) or None. Module-level, so that it
# reaches the worker process by name.
JudgeMove = Callable[..., "tuple[str, float, float] | None"]


@dataclass(frozen=True)
class Position:
    number: int  # the move's number, as /history numbers it
    seat: int
    view: JSON  # the mover's own view before it
    played: str


@dataclass(frozen=True)
class Mistake:
    number: int
    seat: int
    played: str
    preferred: str
    drop: float  # how much the chance to win fell (0 to 1), as the hard level judged it


def positions(match: Match, moves: Sequence[LoggedMove]) -> list[Position]:
    """Every move a member played on the board (no set-up made in secret, no resignation or draw), with the view
    she played it from. Pure and slow: run it off the event loop."""
    entries = list(effective_moves(moves))
    run = replay_moves(match.game, len(match.seats), match.seed, match.options, entries, names=match.names)
    found = []
    for index, entry in enumerate(entries):
        if entry.private or entry.move in MATCH_ACTIONS or not match.seats[entry.seat].is_member:
            continue
        found.append(Position(index + 1, entry.seat, run.game.view(run.states[index], entry.seat), entry.move))
    return found


def worst(judged: Sequence[Mistake], per_player: int = PER_PLAYER) -> list[Mistake]:
    """Each player's `per_player` largest falls (none where her choice was as good as the preferred one), by
    seat, then move number."""
    picked: list[Mistake] = []
    for seat in sorted({m.seat for m in judged}):
        falls = sorted((m for m in judged if m.seat == seat and m.drop > 0 and m.played != m.preferred),
                       key=lambda m: (-m.drop, m.number))[:per_player]
        picked += sorted(falls, key=lambda m: m.number)
    return picked


class Analyses:
    level = "hard"  # the level that judges (the tests' simulated Discord judges with a quicker one)

    def __init__(self, service: MatchService, store: AnalysisStore, bus: EventBus[MatchEvent], judge: JudgeMove,
                 executor_factory: Callable[[], Executor], live_idle: Callable[[], Any],
                 scope: ProcessScope = ProcessScope()):
        """`live_idle()`: awaitable that returns once no computer opponent is thinking about a live match.
        `scope`: the servers whose requests this process takes up again at start-up."""
        self.service = service
        self.store = store
        self.bus = bus
        self.scope = scope
        self._judge = judge
        self._executor_factory = executor_factory
        self._executor: Executor | None = None
        self._live_idle = live_idle
        self._queue: asyncio.Queue[tuple[Match, str]] = asyncio.Queue()
        self._waiting: set[int] = set()  # matches queued here and not yet posted
        self._runner: asyncio.Task | None = None

    async def request(self, match_id: int, user_id: int, guild_id: int | None, lang: str) -> tuple[Match, int]:
        """Queue the analysis of a finished match asked for by one of its players; (the match, how many analyses
        are ahead of it)."""
        match = await self.service.finished_match(match_id, user_id, guild_id)
        if match.seat_of(user_id) is None:
            raise errors.UserError(N_("Only the players of match #{match} can ask for its analysis."),
                                   match=match.id)
        asked = await self.store.ask(match.id, match.guild_id, lang, user_id, self.service.clock())
        if asked == "posted":
            raise errors.UserError(N_("The analysis of match #{match} is already posted in its thread."),
                                   match=match.id)
        if asked == "waiting":
            raise errors.UserError(N_("Match #{match} is being analysed already: it will be posted in its "
                                             "thread."), match=match.id)
        ahead = len(self._waiting)
        self._queue_up(match, lang)
        return match, ahead

    async def resume(self) -> None:
        """At start-up: the analyses asked for before a stop and not yet posted, for this process's servers."""
        for request in await self.store.waiting():
            if not self.scope.owns(request.guild_id) or request.match_id in self._waiting:
                continue
            try:
                match = await self.service.get_match(request.match_id)
            except Exception:  # a match set aside as damaged, say: the others still go on
                log.exception("match=%s analysis not taken up again", request.match_id)
                continue
            self._queue_up(match, request.lang)

    def _queue_up(self, match: Match, lang: str) -> None:
        self._waiting.add(match.id)
        self._queue.put_nowait((match, lang))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run(), name="analyses")

    async def idle(self) -> None:
        """Wait until every analysis asked for is posted (shutdown, tests)."""
        while self._runner is not None and not self._runner.done():
            await asyncio.shield(self._runner)

    async def _run(self) -> None:
        while not self._queue.empty():
            match, lang = self._queue.get_nowait()
            try:
                mistakes = await self.analyse(match)
                if await self.bus.publish(AnalysisReady(match, tuple(mistakes),
                                                         view=self.service.view(match, None), lang=lang)):
                    await self.store.posted(match.id, self.service.clock())
                else:
                    await self.store.forget(match.id)  # not posted: she may ask again
            except asyncio.CancelledError:
                raise  # a stop: the request stays, and the next start makes it
            except Exception:
                log.exception("match=%s guild=%s analysis failed", match.id, match.guild_id)
                with contextlib.suppress(Exception):  # the database failing too: the next start tries again
                    await self.store.forget(match.id)
            finally:
                self._waiting.discard(match.id)

    async def analyse(self, match: Match) -> list[Mistake]:
        moves = await self.service.moves_of(match)
        loop = asyncio.get_running_loop()
        executor = self._worker()
        found = await loop.run_in_executor(executor, positions, match, moves)
        judged = []
        for position in found:
            await self._live_idle()  # live matches first: a computer opponent's think goes before this
            seed = seeded_rng(match.seed, "analysis", position.number).randrange(2**31)
            verdict = await loop.run_in_executor(
                executor, functools.partial(self._judge, position.view, position.played, level=self.level, seed=seed))
            if verdict is not None:
                preferred, best, played = verdict
                judged.append(Mistake(position.number, position.seat, position.played, preferred, best - played))
        return worst(judged)

    def _worker(self) -> Executor:
        if self._executor is None:
            self._executor = self._executor_factory()
        return self._executor

    def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
