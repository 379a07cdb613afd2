"""The engine: heaps a, b and c of 3, 4 and 5 counters. A move takes one or more counters from one heap, written
heap then count (`c2`: two from heap c); whoever takes the last counter wins."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.engine.base import JSON, GameInfo, IllegalMoveError, MoveSyntaxError, Outcome, TwoSeatGame, event
from bot.engine.text import Text

HEAPS = "abc"
START = (3, 4, 5)

INFO = GameInfo(key="nim", title="Nim", min_players=2, max_players=2, hidden_information=False,
                summary="Take counters from one heap at a time; whoever takes the last one wins.",
                seat_names=("First", "Second"))


@dataclass(frozen=True)
class State:
    heaps: tuple[int, ...] = START
    last_move: str | None = None
    ply: int = 0
    outcome: Outcome | None = None


class NimGame(TwoSeatGame):
    info = INFO

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if num_players != 2:
            raise ValueError("Nim is for two players")
        return State()

    def to_act(self, state: State) -> list[int]:
        return [] if state.outcome is not None else [state.ply % 2]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return [f"{heap}{count}" for heap, size in zip(HEAPS, state.heaps) for count in range(1, size + 1)]

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list]:
        move = move.strip().lower()
        if len(move) < 2 or move[0] not in HEAPS or not move[1:].isdigit():
            raise MoveSyntaxError(Text("`{move}` is not a move: a heap and a count, like `c2`", move=move))
        if move not in self.legal_moves(state, seat):
            raise IllegalMoveError(Text("`{move}` is not a legal move for you now", move=move))
        heaps = list(state.heaps)
        heaps[HEAPS.index(move[0])] -= int(move[1:])
        after = replace(state, heaps=tuple(heaps), last_move=move, ply=state.ply + 1)
        if not any(heaps):
            after = replace(after, outcome=Outcome((seat,), Text("took the last counter")))
        return after, [event("take", None, heap=move[0], count=int(move[1:]), seat=seat)]

    def canonical(self, state: State, seat: int, text: str) -> str:
        move = text.strip().lower()
        self.apply(state, seat, move)  # refuses what apply refuses
        return move

    def in_secret_setup(self, state: State) -> bool:
        return False

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def view(self, state: State, viewer: int | None) -> JSON:
        return {
            "game": INFO.key, "num_players": 2, "viewer": viewer, "to_act": self.to_act(state),
            "seat_names": list(INFO.seat_names), "last_move": state.last_move, "ply": state.ply,
            "outcome": state.outcome.to_json() if state.outcome else None, "heaps": list(state.heaps),
        }

    def dump(self, state: State) -> JSON:
        return {**self.stamp(), "heaps": list(state.heaps), "last_move": state.last_move, "ply": state.ply,
                "outcome": state.outcome.to_json() if state.outcome else None}

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        return State(tuple(data["heaps"]), data["last_move"], data["ply"], Outcome.from_json(data["outcome"]))

    def eliminate(self, state: State, seat: int, reason: str) -> tuple[State, list]:
        self.check_can_leave(state, seat)
        return replace(state, outcome=Outcome((1 - seat,), reason), ply=state.ply + 1), []

    def sample_state(self, view: JSON, rng: random.Random) -> State:
        return State(tuple(view["heaps"]), view["last_move"], view["ply"], Outcome.from_json(view["outcome"]))


GAME = NimGame()
