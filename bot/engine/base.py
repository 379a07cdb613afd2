"""The engine contract every game implements, and the types it shares.

An engine is a pure rules library: it knows nothing of Discord, images, storage or asyncio. The match service
drives every game through the methods of `Game` only, so adding a game means adding an engine, a renderer and,
if it has secrets, its setup prompt — nothing else changes.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Collection, Sequence

from .text import Text

JSON = dict[str, Any]
Event = dict[str, Any]
"""A JSON-safe dict: {"type": "capture", "visible_to": None | [seats], ...}. None means public."""


class MoveSyntaxError(ValueError):
    """The text is not a move of this game at all. The message can be shown to a user as it is."""


class IllegalMoveError(ValueError):
    """The text is a move, but not a legal one for that seat now. The message can be shown to a user as it is."""


@dataclass(frozen=True)
class OptionSpec:
    """One option a challenger may set. `choices` lists the allowed values (strings); `per_seat` options take one
    value per seat (a list), as Mycenae's armies do."""

    key: str
    description: str
    default: Any
    choices: tuple[str, ...] = ()
    per_seat: bool = False


@dataclass(frozen=True)
class GameInfo:
    key: str
    title: str
    min_players: int
    max_players: int
    hidden_information: bool
    summary: str
    options: tuple[OptionSpec, ...] = ()
    seat_names: tuple[str, ...] = ()  # names by contract seat for two players; games may say more in view()

    def option(self, key: str) -> OptionSpec:
        for spec in self.options:
            if spec.key == key:
                return spec
        raise KeyError(key)


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `winners` is empty for a draw; `reason` is a short phrase a caption can show as it is
    (a `Text`, so it can be shown translated; its template and params are kept in the JSON as `reason_text`)."""

    winners: tuple[int, ...]
    reason: str

    def to_json(self) -> JSON:
        data: JSON = {"winners": list(self.winners), "reason": str(self.reason)}
        if isinstance(self.reason, Text):
            data["reason_text"] = self.reason.to_json()
        return data

    @classmethod
    def from_json(cls, data: JSON | None) -> Outcome | None:
        if data is None:
            return None
        reason = Text.from_json(data["reason_text"]) if data.get("reason_text") else data["reason"]
        return cls(tuple(data["winners"]), reason)


@dataclass(frozen=True)
class PickerOption:
    label: str  # what the user reads in the select menu (≤ 100 chars)
    value: str  # the token appended to the chosen path (≤ 100 chars)
    description: str = ""


@dataclass(frozen=True)
class Choices:
    """One step of the step-by-step move picker.

    `options` are the possible next tokens after the path chosen so far; `move` is the complete canonical move
    the path already forms (or None). Both may be set at once: an unload of one piece is a move, and more pieces
    may still be added.
    """

    prompt: str
    options: list[PickerOption] = field(default_factory=list)
    move: str | None = None


def event(type_: str, visible_to: Sequence[int] | None = None, **data: Any) -> Event:
    """Build an event; visible_to=None makes it public."""
    return {"type": type_, "visible_to": None if visible_to is None else list(visible_to), **data}


def is_visible(ev: Event, viewer: int | None) -> bool:
    seats = ev.get("visible_to")
    return seats is None or (viewer is not None and viewer in seats)


def narrate(game: Game, events: Sequence[Event], viewer: int | None, restated: Collection[str]) -> list[str]:
    """What `game.describe` says of the events `viewer` may see (None: the public), leaving out the `restated`
    types: the line the narration goes into already states them."""
    lines = []
    for ev in events:
        if is_visible(ev, viewer) and ev.get("type") not in restated:
            text = game.describe(ev)
            if text:
                lines.append(text)
    return lines


def seeded_rng(seed: int, *salt: object) -> random.Random:
    """A deterministic RNG for one decision of one match: the same seed and salt always give the same draws."""
    return random.Random(json.dumps([seed, *[str(s) for s in salt]]))


class Game(ABC):
    """The engine contract of `docs/design.md`. States are opaque to callers and never mutated by `apply`."""

    info: GameInfo
    RULES_VERSION: int = 1

    # --- the contract -------------------------------------------------------------------------------------

    @abstractmethod
    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> Any: ...

    @abstractmethod
    def to_act(self, state: Any) -> list[int]:
        """Seats that may act now; [] once the game is over; several only during a simultaneous secret setup."""

    @abstractmethod
    def legal_moves(self, state: Any, seat: int) -> list[str]:
        """Every legal move of `seat` now, in canonical notation (empty when the seat may not act)."""

    @abstractmethod
    def apply(self, state: Any, seat: int, move: str) -> tuple[Any, list[Event]]:
        """Return the new state and the events. Raises MoveSyntaxError / IllegalMoveError; `state` is untouched."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None: ...

    @abstractmethod
    def view(self, state: Any, viewer: int | None) -> JSON:
        """Everything `viewer` may know (None: the public). The only way state leaves the engine.

        Every view carries at least: "game", "num_players", "viewer", "to_act", "last_move" (the last public
        move or None), "ply", and "outcome" (None or {"winners": [...], "reason": "..."}).
        """

    @abstractmethod
    def dump(self, state: Any) -> JSON:
        """A JSON-safe dict stamped with {"game": key, "rules_version": N}."""

    @abstractmethod
    def load(self, data: JSON) -> Any: ...

    # --- facts the match layer asks about; the defaults work for every engine, games answer them directly -----

    def canonical(self, state: Any, seat: int, text: str) -> str:
        """The canonical notation of a typed move of `seat` now (`B1-B3` → `b1-b3`, a capture written with `-` →
        `x`). Raises MoveSyntaxError / IllegalMoveError exactly as `apply` would."""
        text = text.strip()
        new_state, _ = self.apply(state, seat, text)
        if self.is_private_move(text):
            return text
        return self.view(new_state, None).get("last_move") or text

    def in_secret_setup(self, state: Any) -> bool:
        """True while the seats to act make secret setup moves (a deployment, a cargo assignment). Such moves are
        independent of each other: one player's setup never makes another's stale."""
        for seat in self.to_act(state):
            moves = self.legal_moves(state, seat)
            if moves and self.is_private_move(moves[0]):
                return True
        return False

    def prepare(self) -> None:
        """Build now what the engine would otherwise build on its first use (tables, catalogues), so that a
        process's first call is not its slowest. Default: nothing to build."""

    def in_play(self, state: Any) -> list[int]:
        """Seats still in the game (not knocked out, not resigned); [] once the game is over."""
        if self.outcome(state) is not None:
            return []
        return list(range(self.view(state, None)["num_players"]))

    def eliminate(self, state: Any, seat: int, reason: str) -> tuple[Any, list[Event]]:
        """`seat` leaves the game (resignation, time-out). With two seats in play the other wins, and `reason`
        (e.g. "bob resigned") is the outcome's reason; with more, the seat is out as its rules page says and the
        game goes on. Raises IllegalMoveError when the seat is not in play."""
        raise NotImplementedError(f"{self.info.key} does not implement eliminate")

    def standings(self, state: Any) -> list[list[int]]:
        """The finishing order of a finished game, best first, tied seats grouped: winners, then the rest."""
        result = self.outcome(state)
        seats = list(range(self.view(state, None)["num_players"]))
        if result is None or not result.winners:
            return [seats]
        rest = [s for s in seats if s not in result.winners]
        return [list(result.winners)] + ([rest] if rest else [])

    def revealed_view(self, state: Any) -> JSON:
        """The view of a position of a finished match with every secret shown (every army, all cargo), the same
        for everyone: for the pictures and the replay once the match is over, never before (the match layer
        asks for it only then). A game that hides nothing shows its public view."""
        return self.view(state, None)

    def sample_state(self, view: JSON, rng: random.Random) -> Any:
        """A full state consistent with `view` (what `view["viewer"]` knows): `self.view(result, viewer) == view`.
        Perfect-information games rebuild the exact state; the computer opponent samples the unknown."""
        raise NotImplementedError(f"{self.info.key} does not implement sample_state")

    def likelihood(self, view: JSON, state: Any) -> float:
        """How well `state`, drawn by `sample_state` from `view`, fits what the view's viewer watched the others do
        with what she cannot see (relative: only ratios between draws from one view matter). The computer's search
        and the Explore board weigh their draws by it. 1 for every draw where a game has no model of its players'
        habits; never reads more than the view and the drawn state."""
        return 1.0

    # --- helpers every game gets for free; override where a game can do better -----------------------------

    def forced_move(self, state: Any, seat: int) -> str | None:
        """A move the match layer plays on the seat's behalf, and says so (Myriath's `pass` when no tile can be
        placed); None when the player has a real choice."""
        return None

    def preview(self, state: Any, seat: int, move: str) -> JSON | None:
        """The seat's view after `move`, for the picker's preview before Confirm; None where the picture would
        show something the player may only learn by committing to the move.

        The default shows previews only for games without hidden information and for secret setup moves (which
        touch nothing but the player's own pieces); hidden-information games override it to allow the safe ones.
        """
        if self.info.hidden_information and not self.is_private_move(move):
            return None
        new_state, _ = self.apply(state, seat, move)
        return self.view(new_state, seat)

    def clear_caches(self) -> None:
        """Forget move lists remembered between calls, so a benchmark can time cold calls (tables built once at
        start-up, like Myriath's geometry, stay)."""

    def is_private_move(self, move: str) -> bool:
        """True for secret setup moves (a deployment, a cargo assignment): their text stays hidden from the other
        players until the game ends, wherever the match layer shows or logs it."""
        return False

    def render_text(self, view: JSON) -> str:
        """The board of a view as plain text, for the terminal tool and for debugging."""
        return json.dumps(view, indent=1)

    def describe(self, ev: Event) -> str | None:
        """One narration line for an event (already filtered for visibility by the caller), or None."""
        return None

    def move_steps(self, move: str) -> tuple[str, ...]:
        """Split a canonical move into the tokens the picker offers one step at a time (default: one step)."""
        return (move,)

    def step_prompt(self, chosen: Sequence[str]) -> str:
        return Text("Choose your move") if not chosen else Text("Then")

    def choices(self, state: Any, seat: int, chosen: Sequence[str] = ()) -> Choices:
        """The next step of the picker, derived from `legal_moves` and `move_steps`.

        Games whose move lists are huge (Mycenae's unloads, Myriath's placements) override this so a menu is
        built without listing every move.
        """
        chosen = tuple(chosen)
        depth = len(chosen)
        seen: dict[str, None] = {}
        complete: str | None = None
        for move in self.legal_moves(state, seat):
            steps = self.move_steps(move)
            if steps[:depth] != chosen:
                continue
            if len(steps) == depth:
                complete = move
            else:
                seen.setdefault(steps[depth])
        options = [PickerOption(label=token, value=token) for token in seen]
        return Choices(prompt=self.step_prompt(chosen), options=options, move=complete)

    def choices_seen_by(self, state: Any, seat: int, chosen: Sequence[str], viewer: int | None) -> Choices:
        """The picker for `seat` in a position where `viewer` knows only her view (an Explore sandbox, whose
        hidden parts are drawn at random): its options never name what she can't see, and do not depend on it.
        Where legality does, it offers what any position fitting her view allows; Explore sorts out the rest.
        Perfect-information games: `choices` itself."""
        return self.choices(state, seat, chosen)

    def matching_moves(self, state: Any, seat: int, typed: str, limit: int = 25) -> list[str]:
        """Legal moves of `seat` that start with (or else contain) what the user typed, for autocomplete."""
        typed = typed.lstrip().lower()  # a trailing space is meaningful: "order N " must not list NE orders
        moves = self.legal_moves(state, seat)
        if not typed:
            return moves[:limit]
        starts = [m for m in moves if m.lower().startswith(typed)]
        if len(starts) >= limit:
            return starts[:limit]
        contains = [m for m in moves if typed in m.lower() and not m.lower().startswith(typed)]
        return (starts + contains)[:limit]

    def check_stamp(self, data: JSON) -> None:
        """Refuse a dump from another game or an unknown rules version rather than misreading it."""
        if data.get("game") != self.info.key:
            raise ValueError(f"not a {self.info.key} state: {data.get('game')!r}")
        if data.get("rules_version") != self.RULES_VERSION:
            raise ValueError(
                f"{self.info.key} state has rules version {data.get('rules_version')}, expected {self.RULES_VERSION}"
            )

    def stamp(self) -> JSON:
        return {"game": self.info.key, "rules_version": self.RULES_VERSION}


class TwoSeatGame(Game):
    """A game for exactly two seats that nobody leaves but by ending it: both seats are in play until the outcome,
    then the winner ranks above the loser (a draw ties them). Its state has an `outcome` (an Outcome or None)."""

    def in_play(self, state: Any) -> list[int]:
        return [] if state.outcome is not None else [0, 1]

    def standings(self, state: Any) -> list[list[int]]:
        if state.outcome is None or not state.outcome.winners:
            return [[0, 1]]
        winner = state.outcome.winners[0]
        return [[winner], [1 - winner]]

    def check_can_leave(self, state: Any, seat: int) -> None:
        """What `eliminate` refuses: a finished game, or a seat that is not there."""
        if seat not in self.in_play(state):
            raise IllegalMoveError(Text("The game is over") if state.outcome else
                                   Text("There is no seat {seat}", seat=seat))
