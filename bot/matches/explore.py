"""Explore: a private sandbox where anyone tries lines from a match's position. It never changes the match.

A sandbox is built only from what its explorer may know: a player's own view, anyone else's the public view.
The position is rebuilt from that view with the engine's `sample_state` (the computer opponent's determinisation):
perfect-information games get the exact position back; in a hidden-information game what the explorer can't see
is drawn at random, so it is nobody's real secret. A move whose result depends on something unseen (a Myrmidons
fight, a Mycenae burn or unload of unknown cargo) is tried in many such draws; when they disagree, the explorer
chooses the result to assume, and the line marks it as assumed. Once a match is over its full record is known:
a sandbox can start at any move of it, from the exact position.

Sandboxes live in memory only, each for SANDBOX_TTL seconds after its last use, at most MAX_SANDBOXES at once.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

from bot.games import Choices, Event, Game, IllegalMoveError, MoveSyntaxError, is_visible, narrate
from bot.games.engines import get_game, revealing_events
from bot.games.record import RecordError, replay_moves
from bot.engine.text import Text, join
from bot.i18n import N_

from . import errors
from .service import MatchService

SANDBOX_TTL = 3600.0  # an hour after its last step; the README says so
MAX_SANDBOXES = 2000
MAX_LINE = 60  # moves a line may hold: far beyond what anyone reads ahead, and a GIF that stays small
SAMPLES = 48  # determinisations tried for a move whose result may depend on what the explorer can't see
MAX_DRAWS = 16 * SAMPLES  # tried at most for a move that what she can't see may rule out (a picker offers it)
MAX_RESULTS = 25  # one select menu
PLAN_LEVELS = 3  # planned replies: an expected opponent move and the answer to it, at most three times over
LABEL_LIMIT = 100  # a select option's label
RESTATED = frozenset({"move", "order"})  # events that only repeat the move's own text, which the line shows


class SandboxExpired(errors.UserError):
    def __init__(self) -> None:
        super().__init__(f"This Explore board has expired (they last {int(SANDBOX_TTL // 60)} minutes after "
                         "their last step). Press **Explore** on the board, or use `/explore`, to start again.")


@dataclass(frozen=True)
class LineMove:
    seat: int
    move: str
    assumed: str | None  # the result the explorer chose, where it depended on what she can't see
    revealing: bool  # showed something hidden (a fight's values, cargo) or was a secret setup move


@dataclass(frozen=True)
class Result:
    """One way a move may turn out, as the explorer would see it."""

    label: str
    state: Any
    events: list[Event]
    share: float = 1.0  # how likely it is, by the explorer's view and what she watched the others do


@dataclass
class Sandbox:
    id: str
    match_id: int
    user_id: int
    viewer: int | None  # whose knowledge it holds: the explorer's seat, or None (the public)
    game: Game
    names: list[str]
    title: str
    start_move: int  # how many moves of the match lead to its first position
    finished: bool  # started from a finished match's full record: exact positions, nothing assumed
    rng: random.Random
    states: list[Any]  # the first position, then one after each move of the line
    line: list[LineMove] = field(default_factory=list)
    path: list[str] = field(default_factory=list)  # picker steps chosen towards the next move
    pending: tuple[int, str, list[Result]] | None = None  # a move waiting for the explorer to choose its result
    page: int = 0
    used_at: float = 0.0
    match_version: int = 0  # the match version it was opened at
    planning: bool = False  # the line being built is a plan of replies (bot/matches/plans.py)

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def assumed(self) -> bool:
        return any(m.assumed for m in self.line)


@dataclass(frozen=True)
class ExploreStep:
    """What an Explore board shows now."""

    sandbox: Sandbox
    view: dict[str, Any]  # the explorer's view of the sandbox position
    seat: int | None  # the seat whose move the picker offers; None once the line's game is over
    choices: Choices | None  # None while a result waits to be chosen, or at the end
    results: list[str]  # the labels of the results to choose between ([] unless one is pending), likeliest first
    line_text: str
    shares: list[float] = field(default_factory=list)  # how likely each of `results` is


@dataclass(frozen=True)
class SharedLine:
    """A line as it may be shown to everyone in the match thread."""

    match_id: int
    explorer: int
    text: str
    views: list[dict[str, Any]]  # public views, the first position then one per move
    names: list[str]


class Explorer:
    def __init__(self, service: MatchService, clock: Callable[[], float] = time.monotonic):
        self.service = service
        self.clock = clock
        self._sandboxes: OrderedDict[str, Sandbox] = OrderedDict()

    # --- opening -----------------------------------------------------------------------------------------

    async def open(self, match_id: int, user_id: int, guild_id: int | None, move: int | None = None) -> ExploreStep:
        """A new sandbox at the match's position as `user_id` may see it, or (a finished match) after `move`
        moves of its full record."""
        match = await self.service.match_for(match_id, user_id, guild_id)
        game = get_game(match.game)
        viewer = match.seat_of(user_id)
        rng = random.Random(secrets.randbits(64))
        if move is not None and match.active:
            raise errors.UserError(N_("`move:` works once the match is over, when its whole record is known. "
                                      "Leave it out to explore from the position now."))
        entries = await self.service.moves_of(match)
        if match.active:
            try:
                state = game.sample_state(self.service.view(match, viewer), rng)
            except NotImplementedError:
                raise errors.UserError(N_("{game} can't be explored yet."), game=game.info.title) from None
            start = len(entries)
        else:
            try:
                run = replay_moves(game, len(match.seats), match.seed, match.options, entries, names=match.names)
            except RecordError:
                raise errors.UserError(N_("This match's moves no longer replay under the current rules, so it "
                                          "can't be explored.")) from None
            last = len(run.states) - 1
            start = last if move is None else move
            if not 0 <= start <= last:
                raise errors.UserError(N_("Match #{match} has moves 0 to {last}: `move:` {start} is not one of them "
                                          "(0 is the start)."), match=match.id, last=last, start=start)
            state = run.states[start]
        sandbox = Sandbox(
            id=secrets.token_hex(6), match_id=match.id, user_id=user_id, viewer=viewer, game=game,
            names=list(match.names), title=game.info.title, start_move=start, finished=not match.active, rng=rng,
            states=[state], used_at=self.clock(), match_version=match.version,
        )
        self._keep(sandbox)
        return self._step(sandbox)

    def _keep(self, sandbox: Sandbox) -> None:
        self._sandboxes[sandbox.id] = sandbox
        now = self.clock()
        while self._sandboxes:
            oldest = next(iter(self._sandboxes.values()))
            if len(self._sandboxes) <= MAX_SANDBOXES and now - oldest.used_at <= SANDBOX_TTL:
                break
            self._sandboxes.popitem(last=False)

    def sandbox(self, sandbox_id: str, user_id: int) -> Sandbox:
        """The user's sandbox, refreshed; an expired (or another bot run's) sandbox says so."""
        sandbox = self._sandboxes.get(sandbox_id)
        if sandbox is None or self.clock() - sandbox.used_at > SANDBOX_TTL:
            self._sandboxes.pop(sandbox_id, None)
            raise SandboxExpired()
        if sandbox.user_id != user_id:
            raise errors.UserError(N_("This Explore board belongs to someone else. Press **Explore** for your own."))
        sandbox.used_at = self.clock()
        self._sandboxes.move_to_end(sandbox_id)
        return sandbox

    # --- steps -------------------------------------------------------------------------------------------

    def step(self, sandbox_id: str, user_id: int) -> ExploreStep:
        return self._step(self.sandbox(sandbox_id, user_id))

    def choose(self, sandbox_id: str, user_id: int, token: str) -> ExploreStep:
        """The next picker step; a path that forms a complete move with nothing more to add is played."""
        sandbox = self.sandbox(sandbox_id, user_id)
        current = self._step(sandbox)
        if current.choices is None or token not in {o.value for o in current.choices.options}:
            raise errors.UserError(N_("That choice belongs to an earlier step of this Explore board. Pick again."))
        sandbox.path.append(token)
        after = self._step(sandbox)
        if after.seat is not None and after.choices is not None and after.choices.move and not after.choices.options:
            try:
                return self._play(sandbox, after.seat, after.choices.move)
            except errors.UserError:
                sandbox.path.pop()  # a refused move leaves the board as it was
                raise
        sandbox.page = 0
        return after

    def play(self, sandbox_id: str, user_id: int) -> ExploreStep:
        sandbox = self.sandbox(sandbox_id, user_id)
        current = self._step(sandbox)
        if current.seat is None or current.choices is None or current.choices.move is None:
            raise errors.UserError(N_("That is not a complete move yet: keep choosing."))
        return self._play(sandbox, current.seat, current.choices.move)

    def choose_result(self, sandbox_id: str, user_id: int, index: int) -> ExploreStep:
        sandbox = self.sandbox(sandbox_id, user_id)
        if sandbox.pending is None or not 0 <= index < len(sandbox.pending[2]):
            raise errors.UserError(N_("There is no result to choose now. Pick again."))
        seat, move, results = sandbox.pending
        self._extend(sandbox, seat, move, results[index], assumed=results[index].label)
        return self._step(sandbox)

    def back(self, sandbox_id: str, user_id: int) -> ExploreStep:
        """◀: undo the last thing done — a result waiting to be chosen, a picker step, or the line's last move."""
        sandbox = self.sandbox(sandbox_id, user_id)
        if sandbox.pending is not None:
            sandbox.pending = None
        elif sandbox.path:
            sandbox.path.pop()
        elif sandbox.line:
            sandbox.line.pop()
            sandbox.states.pop()
        sandbox.page = 0
        return self._step(sandbox)

    def reset(self, sandbox_id: str, user_id: int) -> ExploreStep:
        """⟲: back to the first position; in a hidden-information game, with what the explorer can't see drawn
        again (which results a move may have follows the draws, never what the board shows her)."""
        sandbox = self.sandbox(sandbox_id, user_id)
        sandbox.line.clear()
        del sandbox.states[1:]
        game = sandbox.game
        if game.info.hidden_information and not sandbox.finished:
            sandbox.states[0] = game.sample_state(game.view(sandbox.states[0], sandbox.viewer), sandbox.rng)
        sandbox.path.clear()
        sandbox.pending = None
        sandbox.page = 0
        return self._step(sandbox)

    def turn_page(self, sandbox_id: str, user_id: int, delta: int) -> ExploreStep:
        sandbox = self.sandbox(sandbox_id, user_id)
        sandbox.page = max(0, sandbox.page + delta)
        return self._step(sandbox)

    def _step(self, sandbox: Sandbox) -> ExploreStep:
        game, state = sandbox.game, sandbox.state
        view = game.view(state, sandbox.viewer)
        results = [r.label for r in sandbox.pending[2]] if sandbox.pending else []
        shares = [r.share for r in sandbox.pending[2]] if sandbox.pending else []
        acting = game.to_act(state) if game.outcome(state) is None else []
        seat = None
        choices = None
        longest = 2 * PLAN_LEVELS if sandbox.planning else MAX_LINE
        if acting and not sandbox.pending and len(sandbox.line) < longest:
            seat = sandbox.viewer if sandbox.viewer in acting else acting[0]
            choices = (game.choices(state, seat, list(sandbox.path)) if sandbox.finished else
                       game.choices_seen_by(state, seat, list(sandbox.path), sandbox.viewer))
        return ExploreStep(sandbox, view, seat, choices, results, self.line_text(sandbox), shares)

    def _play(self, sandbox: Sandbox, seat: int, move: str) -> ExploreStep:
        results = results_of(sandbox, seat, move)
        if not results:
            raise errors.UserError(N_("None of the positions drawn from what you can see allows `{move}`. Pick "
                                      "another move; nothing was changed."), move=move)
        if sandbox.planning:
            _check_plannable(sandbox, move, results)  # refused before anything changes
        sandbox.path.clear()
        sandbox.page = 0
        if len(results) == 1:
            self._extend(sandbox, seat, move, results[0], assumed=None)
        else:
            sandbox.pending = (seat, move, results)
        return self._step(sandbox)

    def _extend(self, sandbox: Sandbox, seat: int, move: str, result: Result, assumed: str | None) -> None:
        game = sandbox.game
        revealing_types = revealing_events(game.info.key)
        revealing = game.is_private_move(move) or any(
            e.get("type") in revealing_types or not is_visible(e, None) for e in result.events)
        sandbox.line.append(LineMove(seat, move, assumed, revealing))
        sandbox.states.append(result.state)
        sandbox.pending = None

    # --- the line as text, and sharing it ----------------------------------------------------------------

    def line_text(self, sandbox: Sandbox, *, public: bool = False) -> str:
        """The line as text (a `Text`: shown in the reader's language)."""
        if not sandbox.line:
            return Text("(no moves yet)")
        parts = []
        for number, entry in enumerate(sandbox.line, start=sandbox.start_move + 1):
            name = sandbox.names[entry.seat] if entry.seat < len(sandbox.names) else f"seat {entry.seat + 1}"
            part: str
            if public and sandbox.game.is_private_move(entry.move):
                part = Text("{number}. {player} (secret setup)", number=number, player=name)
            else:
                part = f"{number}. {name} `{entry.move}`"
            if entry.assumed:
                part = Text("{move} [assumed: {result}]", move=part, result=entry.assumed)
            parts.append(part)
        return join(parts, " · ")

    async def share(self, sandbox_id: str, user_id: int) -> SharedLine:
        """The line as everyone may see it: public pictures, and its text. Refused while the match runs when the
        line shows something hidden, because the explorer's own secrets would be in it."""
        sandbox = self.sandbox(sandbox_id, user_id)
        if not sandbox.line:
            raise errors.UserError(N_("There is no line to share yet: play a move on the Explore board first."))
        match = await self.service.get_match(sandbox.match_id)
        if match.active and any(m.revealing for m in sandbox.line):
            raise errors.UserError(N_("This line shows hidden things (a fight, cargo or a secret setup), and sharing "
                                      "it would show your own secrets with them, so it can't be shared while the "
                                      "match runs. Nothing was posted."))
        game = sandbox.game
        views = [game.view(state, None) for state in sandbox.states]
        who = sandbox.names[sandbox.viewer] if sandbox.viewer is not None else None
        line, start = self.line_text(sandbox, public=True), sandbox.start_move
        if who:
            text = (Text("🔭 A line explored from the start by **{player}** (not played): {line}", player=who,
                         line=line) if not start else
                    Text("🔭 A line explored from move {move} by **{player}** (not played): {line}", move=start,
                         player=who, line=line))
        else:
            text = (Text("🔭 A line explored from the start (not played): {line}", line=line) if not start else
                    Text("🔭 A line explored from move {move} (not played): {line}", move=start, line=line))
        return SharedLine(sandbox.match_id, user_id, text, views, sandbox.names)


def results_of(sandbox: Sandbox, seat: int, move: str) -> list[Result]:
    """The ways `move` may turn out as the explorer would see them: one for a perfect-information game or a
    known position; where it depends on what she can't see, one per distinct outcome over many draws, the likeliest
    first with its share: each draw counts by how well it fits what she watched the others do (`Game.likelihood`,
    the computer's posterior), so a fight against a piece kept at home all game offers "it was the Commander"
    before the rest. The picker offers a hidden piece every move its unseen values might allow: draws that rule
    the move out are skipped, and the line goes on from one that allows it (what she then sees is the same in all
    of them)."""
    game = sandbox.game
    outcomes: OrderedDict[str, Result] = OrderedDict()
    weights: dict[str, float] = {}
    view = game.view(sandbox.state, sandbox.viewer)
    for tried, candidate in enumerate(_candidates(sandbox)):
        if tried > SAMPLES and outcomes:
            break
        try:
            new_state, events = game.apply(candidate, seat, move)
        except (IllegalMoveError, MoveSyntaxError):
            continue  # an unseen value that rules the move out: not a way it can turn out
        key = json.dumps(game.view(new_state, sandbox.viewer), sort_keys=True, default=str)
        if key not in outcomes:
            label = join(narrate(game, events, sandbox.viewer, RESTATED), " ") or move  # shown cut to LABEL_LIMIT
            outcomes[key] = Result(label, new_state, events)
        weights[key] = weights.get(key, 0.0) + game.likelihood(view, candidate)
    total = sum(weights.values()) or 1.0
    ranked = sorted(outcomes, key=lambda k: -weights[k])  # a stable sort: equal weights keep the order drawn
    results = [replace(outcomes[k], share=weights[k] / total) for k in ranked][:MAX_RESULTS]
    seen: dict[str, int] = {}
    for i, result in enumerate(results):  # two outcomes told alike still need two menu entries
        seen[result.label] = seen.get(result.label, 0) + 1
        if seen[result.label] > 1:
            results[i] = replace(result, label=Text("{result} ({count})", result=result.label,
                                                    count=seen[result.label]))
    return results


def _candidates(sandbox: Sandbox) -> Iterator[Any]:
    """The sandbox's position, then (hidden information) positions drawn from the explorer's view of it: SAMPLES
    are tried, and up to MAX_DRAWS while none allows the move (four pawns unloaded from one of three knights fit
    one draw in 81)."""
    game, state = sandbox.game, sandbox.state
    yield state
    if game.info.hidden_information and not sandbox.finished:
        view = game.view(state, sandbox.viewer)
        for _ in range(MAX_DRAWS):
            yield game.sample_state(view, sandbox.rng)


def _check_plannable(sandbox: Sandbox, move: str, results: list[Result]) -> None:
    """A plan holds only moves whose result the planner can know: no secret setup, nothing hidden revealed."""
    game = sandbox.game
    revealing_types = revealing_events(game.info.key)
    if game.is_private_move(move) or len(results) != 1 or any(
            e.get("type") in revealing_types or not is_visible(e, None) for e in results[0].events):
        raise errors.UserError(N_("`{move}` depends on hidden information, so it can't be part of a plan. "
                                  "Pick another move; nothing was changed."), move=move)


def picture_banner(sandbox: Sandbox) -> Text:
    moves, match = len(sandbox.line), sandbox.match_id
    if sandbox.planning:
        if not moves:
            return Text("PLAN · match #{match} · the position · not played", match=match)
        return Text("PLAN · match #{match} · {count} move ahead · not played",
                    plural="PLAN · match #{match} · {count} moves ahead · not played", match=match, count=moves)
    if not moves:
        return Text("EXPLORE · match #{match} · the position · not played", match=match)
    return Text("EXPLORE · match #{match} · {count} move ahead · not played",
                plural="EXPLORE · match #{match} · {count} moves ahead · not played", match=match, count=moves)


def assumed_notice(sandbox: Sandbox) -> str | None:
    """What the explorer should know about the positions she sees."""
    if sandbox.finished or not sandbox.game.info.hidden_information:
        return None
    return Text("What you can't see is drawn at random from what you can: it is nobody's real secret. A result that "
                "depends on it is yours to choose, and is marked as assumed.")


__all__ = ["Explorer", "ExploreStep", "LineMove", "SANDBOX_TTL", "SandboxExpired", "SharedLine", "assumed_notice",
           "picture_banner"]
