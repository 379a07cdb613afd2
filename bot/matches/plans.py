"""Planned replies: a player's answers, chosen in advance on her Explore board, to the moves she expects.

Two-player matches only, made after her move while her opponent is to act. A plan is a small tree: for each
opponent move she expects, her reply and, below it, the next level (at most MAX_LEVELS deep). When the opponent
plays a planned move and the position is exactly the one she planned for (her view of it is the same), the reply
is played at once through the service's normal move path, so it uses no clock time; the thread says it was
planned, and the next level becomes the plan. Any other move, a take-back, a resignation: the plan is dropped.
Never planned: a move whose result depends on what she can't see, a secret setup move, 3–4 player matches.

Plans are stored (they survive restarts) and shown to their owner only, until a reply is played.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from bot.engine.text import Text
from bot.i18n import N_
from bot.domain import Match
from bot.storage.plans import PlanStore, StoredPlan

from . import errors
from .bus import EventBus
from .events import BoardRepaired, MatchEvent, MovePlayed, Played
from .explore import PLAN_LEVELS, Explorer, ExploreStep, Sandbox
from .locks import KeyedLocks
from .service import MatchService

log = logging.getLogger(__name__)

MAX_LEVELS = PLAN_LEVELS

# Why a member may not plan replies now; a refused save says so with "Nothing was saved." (whole sentences, so
# each language can word them).
NOT_A_PLAYER = N_("Only the match's players can plan replies.")
MATCH_OVER = N_("This match is over: there is nothing left to plan.")
NOT_TWO_PLAYERS = N_("Planned replies are for two-player matches only.")
IN_SECRET_SETUP = N_("Replies can't be planned during a secret setup.")
YOUR_TURN = N_("Plan replies after your move, while your opponent is to move. It's your turn now.")
NOT_SAVED = {
    NOT_A_PLAYER: N_("Only the match's players can plan replies. Nothing was saved."),
    MATCH_OVER: N_("This match is over: there is nothing left to plan. Nothing was saved."),
    NOT_TWO_PLAYERS: N_("Planned replies are for two-player matches only. Nothing was saved."),
    IN_SECRET_SETUP: N_("Replies can't be planned during a secret setup. Nothing was saved."),
    YOUR_TURN: N_("Plan replies after your move, while your opponent is to move. It's your turn now. "
                  "Nothing was saved."),
}


@dataclass(frozen=True)
class PlannedReplyPlayed:
    """A planned reply was played: `reply` answered the opponent's `expected` move."""

    match: Match
    seat: int
    expected: str
    reply: str
    lang: str = field(kw_only=True)  # the server's: everyone reads the note


def view_digest(view: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest()[:32]


class Planner:
    def __init__(self, service: MatchService, explorer: Explorer, store: PlanStore, bus: EventBus[MatchEvent]):
        self.service = service
        self.explorer = explorer
        self.store = store
        self.bus = bus
        # One plan decision at a time per match: a restart's catch-up never races that match's events.
        self._locks = KeyedLocks()
        # Matches that may hold a plan: a move of any other match costs no read (plans are rare, moves are not).
        # Filled at start-up from the stored plans and by every saved plan; a match leaves it once a move finds none.
        self._planned: set[int] = set()
        bus.subscribe(self._on_event)

    # --- making a plan -----------------------------------------------------------------------------------

    def refusal(self, match: Match, user_id: int) -> str | None:
        """Why `user_id` may not plan replies in `match` now; None when she may."""
        seat = match.seat_of(user_id)
        if seat is None:
            return NOT_A_PLAYER
        if not match.active:
            return MATCH_OVER
        if len(match.seats) != 2:
            return NOT_TWO_PLAYERS
        if self.service.in_secret_setup(match):
            return IN_SECRET_SETUP
        if seat in self.service.to_act(match):
            return YOUR_TURN
        return None

    async def start(self, sandbox_id: str, user_id: int) -> ExploreStep:
        """Turn the user's Explore board into a plan board, at the match's position."""
        sandbox = self.explorer.sandbox(sandbox_id, user_id)
        match = await self.service.get_match(sandbox.match_id)
        refusal = self.refusal(match, user_id)
        if refusal:
            raise errors.UserError(refusal)
        if sandbox.finished or match.version != sandbox.match_version:
            raise errors.UserError(N_("The match moved on since you opened this board: press **Explore** on the "
                                      "new board to plan from there."))
        sandbox.planning = True
        return self.explorer.reset(sandbox_id, user_id)

    async def save(self, sandbox_id: str, user_id: int) -> ExploreStep:
        """Add the board's line to her plan; the board starts again for the next line."""
        await self.save_line(self.explorer.sandbox(sandbox_id, user_id))
        return self.explorer.reset(sandbox_id, user_id)

    async def clear_from(self, sandbox_id: str, user_id: int) -> tuple[bool, ExploreStep]:
        """Forget her plan (True if there was one); the board starts again."""
        sandbox = self.explorer.sandbox(sandbox_id, user_id)
        had_plan = await self.clear(sandbox.match_id, user_id)
        return had_plan, self.explorer.reset(sandbox_id, user_id)

    async def save_line(self, sandbox: Sandbox) -> StoredPlan:
        """Add the sandbox's line (opponent move, her reply, … at most MAX_LEVELS pairs) to her plan."""
        match = await self.service.get_match(sandbox.match_id)
        refusal = self.refusal(match, sandbox.user_id)
        if refusal:
            raise errors.UserError(NOT_SAVED[refusal])
        if match.version != sandbox.match_version:
            raise errors.UserError(N_("The match moved on since you opened this board: press **Plan replies** on "
                                      "the new board. Nothing was saved."))
        seat = match.player_seat(sandbox.user_id)  # refusal() found her seat
        line = sandbox.line
        if not line or len(line) % 2:
            raise errors.UserError(N_("A plan needs your reply after each opponent move you expect: play your answer, "
                                      "then **Save plan**. Nothing was saved."))
        if any(m.assumed or m.revealing for m in line):
            raise errors.UserError(N_("This line depends on hidden information, so it can't be planned."))
        game = sandbox.game
        tree = await self._tree(match, seat)
        level = tree
        for index in range(0, len(line), 2):
            expected, reply = line[index], line[index + 1]
            if expected.seat == seat or reply.seat != seat:
                raise errors.UserError(N_("A plan alternates your opponent's move and your reply. Nothing was saved."))
            digest = view_digest(game.view(sandbox.states[index + 1], seat))
            branch = level.get(expected.move)
            if branch is None or branch["reply"] != reply.move or branch["expect"] != digest:
                branch = level[expected.move] = {"reply": reply.move, "expect": digest, "then": {}}
            level = branch["then"]
        plan = StoredPlan(match.id, seat, sandbox.user_id, match.version, tree)
        self._planned.add(match.id)  # before the write: a move arriving meanwhile looks at the store
        await self.store.save(plan, self.service.clock())
        log.info("match=%s guild=%s user=%s seat=%s saved a plan", match.id, match.guild_id, sandbox.user_id, seat)
        return plan

    async def _tree(self, match: Match, seat: int) -> dict[str, Any]:
        plan = await self.store.get(match.id, seat)
        return plan.tree if plan is not None and plan.version == match.version else {}

    async def current(self, match_id: int, user_id: int) -> StoredPlan | None:
        """Her plan for the match as it stands now (a plan for an older position is gone)."""
        match = await self.service.get_match(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            return None
        plan = await self.store.get(match.id, seat)
        return plan if plan is not None and plan.version == match.version else None

    async def clear(self, match_id: int, user_id: int) -> bool:
        match = await self.service.get_match(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise errors.UserError(N_("Only the match's players can plan replies."))
        return await self.store.drop(match.id, seat)

    # --- playing it --------------------------------------------------------------------------------------

    async def resume(self) -> None:
        """At start-up: a plan whose expected move was played just before a stop gets its reply now."""
        stored = sorted({plan.match_id for plan in await self.store.every_plan()})
        self._planned.update(stored)
        for match_id in stored:
            async with self._locks.hold(match_id):
                try:
                    await self._catch_up(match_id)
                except errors.DamagedMatch as damaged:  # set aside: its plans wait with it, the others go on
                    await self.service.set_aside(damaged)

    async def _catch_up(self, match_id: int) -> None:
        match = await self.service.get_match(match_id)
        for plan in await self.store.of_match(match_id):
            if match.version == plan.version + 1:
                await self._answer(match, plan)
            elif match.version > plan.version or not match.active:
                await self._drop(match, plan, "the match moved on while the bot was down")

    async def _on_event(self, event: Any) -> bool:
        if isinstance(event, (MovePlayed, BoardRepaired)) and event.match.id in self._planned:
            async with self._locks.hold(event.match.id):
                await self._played(event)
        return True

    async def _played(self, event: MovePlayed | BoardRepaired) -> None:
        plans = await self.store.of_match(event.match.id)
        if not plans:
            self._planned.discard(event.match.id)
        for plan in plans:
            if event.match.version <= plan.version:
                continue  # the move that made the plan's position (or its own reply), not an answer to it
            kind = event.kind if isinstance(event, MovePlayed) else None
            if kind in (Played.MOVE, None) and event.match.version == plan.version + 1:
                await self._answer(event.match, plan)
            else:
                await self._drop(event.match, plan, f"{kind.value if kind else 'repair'} instead of a planned move")

    async def _answer(self, played: Match, plan: StoredPlan) -> None:
        match = await self.service.get_match(played.id)
        last = await self.service.moves_of(match)
        branch = plan.tree.get(last[-1].move) if last and last[-1].seat != plan.seat else None
        if not match.active or match.version != plan.version + 1 or branch is None:
            await self._drop(match, plan, "an unplanned move")
            return
        if view_digest(self.service.view(match, plan.seat)) != branch["expect"]:
            await self._drop(match, plan, "a position other than the planned one")
            return
        expected = last[-1].move
        try:
            report = await self.service.submit_move(match.id, plan.user_id, branch["reply"],
                                                    expected_version=match.version)
        except errors.ShuttingDown:
            return  # kept: the next start plays it (resume)
        except errors.UserError as exc:
            await self._drop(match, plan, f"the reply could not be played: {exc}")
            return
        after = report.match
        rest = None
        if after.active and branch["then"]:
            rest = StoredPlan(after.id, plan.seat, plan.user_id, after.version, branch["then"])
        await self.store.fired(after.id, plan.seat, after.version, rest, self.service.clock())
        log.info("match=%s guild=%s seat=%s planned reply played version=%s", after.id, after.guild_id, plan.seat,
                 after.version)
        # ignore: the match bus carries this event of plans.py beside the MatchEvent types, for PlanPresenter
        self.bus.publish(PlannedReplyPlayed(after, plan.seat, expected, branch["reply"],  # type: ignore[arg-type]
                                                    lang=await self.service.language(after.guild_id)))

    async def _drop(self, match: Match, plan: StoredPlan, why: str) -> None:
        if await self.store.drop(match.id, plan.seat):
            log.info("match=%s guild=%s seat=%s plan dropped: %s", match.id, match.guild_id, plan.seat, why)


def plan_lines(plan: StoredPlan | None, names: list[str]) -> list[str]:
    """The plan as its owner reads it, one line per planned reply."""
    if plan is None or not plan.tree:
        return [Text("(no plan)")]
    opponent = names[1 - plan.seat] if len(names) == 2 else Text("your opponent")
    lines: list[str] = []

    def walk(level: dict[str, Any], depth: int) -> None:
        for expected, branch in level.items():
            lines.append(Text("{indent}• if {opponent} plays `{expected}` → you play `{reply}`",
                              indent="  " * depth, opponent=opponent, expected=expected, reply=branch["reply"]))
            walk(branch["then"], depth + 1)

    walk(plan.tree, 0)
    return lines


__all__ = ["MAX_LEVELS", "PlannedReplyPlayed", "Planner", "plan_lines", "view_digest"]
