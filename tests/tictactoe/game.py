"""The engine: the hider (seat 1) hides a coin in one hand in secret; the guesser (seat 0) guesses the hand in
public, which shows where the coin was: a right guess gives the guesser the first mark (X), a wrong one gives it
to the hider. Then tic-tac-toe on a1–c3: three marks in a row win, a full board is a draw."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.engine.base import (
    JSON,
    GameInfo,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    TwoSeatGame,
    event,
)

GUESSER, HIDER = 0, 1
HANDS = ("left", "right")
SQUARES = tuple(f"{file}{rank}" for rank in "123" for file in "abc")  # a1 b1 c1 a2 ... c3
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

INFO = GameInfo(key="tictactoe", title="Tic-tac-toe", min_players=2, max_players=2, hidden_information=True,
                summary="Guess the hand with the coin to move first, then three in a row.",
                seat_names=("Guesser", "Hider"))


@dataclass(frozen=True)
class State:
    hand: str | None = None  # the hider's secret until the guess
    guess: str | None = None
    board: tuple[int | None, ...] = (None,) * 9
    last_move: str | None = None  # the last public move
    ply: int = 0
    outcome: Outcome | None = None

    @property
    def first(self) -> int | None:
        """Who makes the first mark: known once the guess showed the coin."""
        if self.guess is None:
            return None
        return GUESSER if self.guess == self.hand else HIDER


class TicTacToeGame(TwoSeatGame):
    info = INFO

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if num_players != 2:
            raise ValueError("tic-tac-toe is for two players")
        return State()

    def to_act(self, state: State) -> list[int]:
        if state.outcome is not None:
            return []
        if state.hand is None:
            return [HIDER]
        if state.guess is None:
            return [GUESSER]
        marks = sum(cell is not None for cell in state.board)
        return [(state.first + marks) % 2]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.hand is None:
            return [f"hide {hand}" for hand in HANDS]
        if state.guess is None:
            return [f"guess {hand}" for hand in HANDS]
        return [square for square, cell in zip(SQUARES, state.board) if cell is None]

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list]:
        move = move.strip().lower()
        if move not in {*SQUARES, *(f"{verb} {hand}" for verb in ("hide", "guess") for hand in HANDS)}:
            raise MoveSyntaxError(f"`{move}` is not a move: a square (a1–c3), `hide left/right` or `guess left/right`")
        if move not in self.legal_moves(state, seat):
            raise IllegalMoveError(f"`{move}` is not a legal move for you now")
        if move.startswith("hide "):
            hand = move.split()[1]
            return replace(state, hand=hand, ply=state.ply + 1), [event("hide", [HIDER], hand=hand)]
        if move.startswith("guess "):
            after = replace(state, guess=move.split()[1], last_move=move, ply=state.ply + 1)
            return after, [event("coin", None, hand=state.hand, first=after.first)]
        board = list(state.board)
        board[SQUARES.index(move)] = seat
        after = replace(state, board=tuple(board), last_move=move, ply=state.ply + 1)
        if any(all(board[i] == seat for i in line) for line in LINES):
            after = replace(after, outcome=Outcome((seat,), "three in a row"))
        elif None not in board:
            after = replace(after, outcome=Outcome((), "a full board"))
        return after, [event("mark", None, square=move, seat=seat)]

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def view(self, state: State, viewer: int | None) -> JSON:
        shown = state.guess is not None or viewer == HIDER
        return {
            "game": INFO.key, "num_players": 2, "viewer": viewer, "to_act": self.to_act(state),
            "last_move": state.last_move, "ply": state.ply,
            "outcome": state.outcome.to_json() if state.outcome else None,
            "coin_hidden": state.hand is not None, "hand": state.hand if shown else None, "guess": state.guess,
            "first": state.first, "board": list(state.board),
        }

    def dump(self, state: State) -> JSON:
        return {**self.stamp(), "hand": state.hand, "guess": state.guess, "board": list(state.board),
                "last_move": state.last_move, "ply": state.ply,
                "outcome": state.outcome.to_json() if state.outcome else None}

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        return State(data["hand"], data["guess"], tuple(data["board"]), data["last_move"], data["ply"],
                     Outcome.from_json(data["outcome"]))

    def eliminate(self, state: State, seat: int, reason: str) -> tuple[State, list]:
        self.check_can_leave(state, seat)
        return replace(state, outcome=Outcome((1 - seat,), reason), ply=state.ply + 1), []

    def sample_state(self, view: JSON, rng: random.Random) -> State:
        hand = view["hand"] or (rng.choice(HANDS) if view["coin_hidden"] else None)
        outcome = Outcome.from_json(view["outcome"])
        return State(hand, view["guess"], tuple(view["board"]), view["last_move"], view["ply"], outcome)

    def is_private_move(self, move: str) -> bool:
        return move.strip().lower().startswith("hide ")

    def describe(self, ev: dict) -> str | None:
        if ev["type"] == "coin":
            return f"The coin was in the {ev['hand']} hand: {INFO.seat_names[ev['first']]} moves first."
        return None


GAME = TicTacToeGame()
