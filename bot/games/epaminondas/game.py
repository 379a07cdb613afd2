"""Epaminondas (Robert Abbott, 1975): phalanxes of pieces march across a 14×12 board.

The rules are those of `docs/rules/epaminondas.md`. The board is 168 cells in a `bytes` object, index
`rank * 14 + file` (a1 = 0, n12 = 167); each cell is EMPTY, or the owner's seat + 1. Move generation walks
precomputed rays, so listing every move of a position is a few hundred small loop steps.

Tests build positions with `position_from_text` (a compact picture of the board) or `position_from_squares`.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Iterator, Sequence

from bot.engine.base import (
    JSON,
    Choices,
    Event,
    GameInfo,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    PickerOption,
    TwoSeatGame,
    event,
)
from bot.engine.grid import DIRECTIONS, parse_square
from bot.engine.grid import ray as grid_ray
from bot.engine.text import Text

# --- types and constants -------------------------------------------------------------------------------------

FILES, RANKS = 14, 12
CELLS = FILES * RANKS
EMPTY = 0
SEAT_NAMES = ("Light", "Dark")
HOME_RANK = (0, RANKS - 1)  # 0-based home rank of each seat: Light's is rank 1, Dark's rank 12


def _index(file: int, rank: int) -> int:
    return rank * FILES + file


NAMES: tuple[str, ...] = tuple(f"{chr(ord('a') + i % FILES)}{i // FILES + 1}" for i in range(CELLS))
# Tails are listed by file, then rank: the order of grid.square_key, so move lists read column by column.
SQUARE_ORDER: tuple[int, ...] = tuple(_index(f, r) for f in range(FILES) for r in range(RANKS))


def _ray(start: int, step: tuple[int, int]) -> tuple[int, ...]:
    """The squares from `start` along `step` up to the edge, `start` itself included."""
    square = (start % FILES, start // FILES)
    return (start,) + tuple(_index(f, r) for f, r in grid_ray(square, step, FILES, RANKS))


# LINES[sq][d]: the line through sq in direction d, starting at sq (so LINES[sq][d][0] == sq).
LINES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(sq, step) for step in DIRECTIONS) for sq in range(CELLS)
)
# LINE_TO[(tail, dest)] = (direction, steps): every square pair on one line, for validating typed moves.
LINE_TO: dict[tuple[int, int], tuple[int, int]] = {
    (sq, line[i]): (d, i) for sq in range(CELLS) for d, line in enumerate(LINES[sq]) for i in range(1, len(line))
}

# --- metadata ------------------------------------------------------------------------------------------------

INFO = GameInfo(
    key="epaminondas",
    title="Epaminondas",
    min_players=2,
    max_players=2,
    hidden_information=False,
    summary=(
        "Two armies of 28 face each other across a 14 by 12 board. Pieces standing in an unbroken straight line "
        "form a phalanx that slides along its own line, up to as many squares as it has pieces; a single piece "
        "steps like a chess king. Ram an enemy line that is strictly shorter than yours and every piece of it "
        "is taken. Pieces that reach the enemy's back row count as crossings: if at the start of your turn you "
        "have more pieces on the enemy's back row than the enemy has on yours, you win. You also win when your "
        "opponent has no pieces or no move left."
    ),
    seat_names=SEAT_NAMES,
)

# --- notation ------------------------------------------------------------------------------------------------

_MOVE_TEXT = re.compile(r"([a-z]\d{1,3})\s*([-x])\s*([a-z]\d{1,3})")


@dataclass(frozen=True)
class Move:
    """`tail` is the rearmost moving piece, `dest` where the head lands (a capture's first captured piece)."""

    tail: int
    dest: int
    capture: bool

    def __str__(self) -> str:
        return format_move(self)


def parse_move(text: str) -> Move:
    """'b1-b3' / 'B1xB5 ' -> Move; case and spaces around the squares do not matter."""
    m = _MOVE_TEXT.fullmatch(text.strip().lower())
    if not m:
        raise MoveSyntaxError(Text(
            "'{text}' is not a move: write the tail square, '-' (or 'x' to capture) and where the head "
            "lands, like b1-b3", text=text.strip()))
    tail = parse_square(m.group(1), FILES, RANKS)
    dest = parse_square(m.group(3), FILES, RANKS)
    return Move(_index(*tail), _index(*dest), m.group(2) == "x")


def format_move(move: Move) -> str:
    return f"{NAMES[move.tail]}{'x' if move.capture else '-'}{NAMES[move.dest]}"


# --- state ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LastMove:
    move: str
    seat: int
    from_squares: tuple[int, ...]  # tail to head, before the move
    to_squares: tuple[int, ...]  # tail to head, after the move
    captured: tuple[int, ...]

    def to_json(self) -> JSON:
        return {
            "move": self.move,
            "seat": self.seat,
            "from": [NAMES[sq] for sq in self.from_squares],
            "to": [NAMES[sq] for sq in self.to_squares],
            "captured": [NAMES[sq] for sq in self.captured],
        }

    @classmethod
    def from_json(cls, data: JSON | None) -> LastMove | None:
        if data is None:
            return None

        def squares(names: list[str]) -> tuple[int, ...]:
            return tuple(_index(*parse_square(name, FILES, RANKS)) for name in names)

        return cls(data["move"], data["seat"], squares(data["from"]), squares(data["to"]), squares(data["captured"]))


@dataclass(frozen=True)
class State:
    board: bytes  # CELLS cells: EMPTY or seat + 1
    to_move: int
    ply: int = 0
    last: LastMove | None = None
    outcome: Outcome | None = None  # derived from board and to_move when the state is made (see _with_outcome)
    left: int | None = None  # the seat that resigned or ran out of time; the outcome then says why


def initial_board() -> bytes:
    board = bytearray(CELLS)
    for file in range(FILES):
        for rank in (0, 1):
            board[_index(file, rank)] = 1
        for rank in (RANKS - 2, RANKS - 1):
            board[_index(file, rank)] = 2
    return bytes(board)


def position_from_text(text: str, to_move: int = 0, ply: int = 0) -> State:
    """Build a state from a picture of the board: 12 lines of 14 cells, rank 12 first, 'L' for Light, 'D' for
    Dark, '.' for empty. Blank lines, spaces and anything after a '|' on a line are ignored, so a picture may
    carry rank labels on its right.
    """
    rows = [line.split("|")[0].replace(" ", "") for line in text.strip("\n").splitlines()]
    return _with_outcome(State(_board_from_rows([row for row in rows if row]), to_move, ply))


def _board_from_rows(rows: Sequence[str]) -> bytes:
    if len(rows) != RANKS or any(len(row) != FILES for row in rows):
        raise ValueError(f"a board picture has {RANKS} rows of {FILES} cells")
    board = bytearray(CELLS)
    for i, row in enumerate(rows):
        rank = RANKS - 1 - i
        for file, cell in enumerate(row):
            board[_index(file, rank)] = {".": EMPTY, "L": 1, "D": 2}[cell]
    return bytes(board)


def _board_rows(board: bytes) -> list[str]:
    """The inverse of _board_from_rows: rank 12 first."""
    return ["".join(".LD"[board[_index(f, r)]] for f in range(FILES)) for r in range(RANKS - 1, -1, -1)]


def position_from_squares(light: Sequence[str], dark: Sequence[str], to_move: int = 0, ply: int = 0) -> State:
    """Build a state from the squares of each side's pieces, e.g. (["b2", "b3"], ["b5"])."""
    board = bytearray(CELLS)
    for seat, squares in enumerate((light, dark)):
        for name in squares:
            board[_index(*parse_square(name, FILES, RANKS))] = seat + 1
    return _with_outcome(State(bytes(board), to_move, ply))


# --- move generation -----------------------------------------------------------------------------------------


def generate(board: bytes, seat: int) -> Iterator[tuple[int, int, int]]:
    """Every legal move of `seat` as (tail, dest, captured count); a count of 0 is a plain move.

    For each tail and direction the moving group is the tail and the own pieces in front of it; its head may
    advance over empty squares, at most as many squares as the group has pieces, and stops on an enemy line
    that is strictly shorter (a capture) or before anything else.
    """
    me = seat + 1
    them = 2 - seat
    for tail in SQUARE_ORDER:
        if board[tail] != me:
            continue
        for line in LINES[tail]:
            length = len(line)
            n = 1
            while n < length and board[line[n]] == me:
                n += 1
            i = n  # line[i] is the square the head would reach with s = i - n + 1
            last = min(length, 2 * n)
            while i < last:
                sq = line[i]
                cell = board[sq]
                if cell == EMPTY:
                    yield tail, sq, 0
                    i += 1
                    continue
                if cell == them:
                    k = 1
                    j = i + 1
                    while k < n and j < length and board[line[j]] == them:
                        k += 1
                        j += 1
                    if k < n:
                        yield tail, sq, k
                break


def has_a_move(board: bytes, seat: int) -> bool:
    return next(generate(board, seat), None) is not None


def count_moves(board: bytes, seat: int) -> int:
    """The number of legal moves, for perft without building strings."""
    return sum(1 for _ in generate(board, seat))


# --- apply ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Resolved:
    """A legal move worked out on the board. `line` starts at the tail and runs the way the group moves; the
    group is its first `n` squares, it moves `s` squares, and takes the `k` enemy pieces where the head lands."""

    move: Move
    line: tuple[int, ...]
    n: int
    s: int
    k: int

    @property
    def from_squares(self) -> tuple[int, ...]:
        return self.line[: self.n]

    @property
    def to_squares(self) -> tuple[int, ...]:
        return self.line[self.s : self.s + self.n]

    @property
    def captured(self) -> tuple[int, ...]:
        first = self.n - 1 + self.s
        return self.line[first : first + self.k]


def resolve(board: bytes, seat: int, move: Move) -> Resolved:
    """Check `move` for `seat` against the rules and work out what it does; IllegalMoveError says why not."""
    me, them = seat + 1, 2 - seat
    tail, dest = NAMES[move.tail], NAMES[move.dest]
    if board[move.tail] == EMPTY:
        raise IllegalMoveError(Text("{square} is empty", square=tail))
    if board[move.tail] != me:
        raise IllegalMoveError(Text("{square} is not your piece", square=tail))
    if (move.tail, move.dest) not in LINE_TO:
        raise IllegalMoveError(Text("{tail} and {dest} are not on one straight line", tail=tail, dest=dest))
    direction, distance = LINE_TO[(move.tail, move.dest)]
    line = LINES[move.tail][direction]
    n = 1
    while n < len(line) and board[line[n]] == me:
        n += 1
    s = distance - (n - 1)
    if s < 1:
        raise IllegalMoveError(Text("{square} is your own piece", square=dest))
    if s > n:
        raise IllegalMoveError(Text("Too far: a single piece moves at most 1 square") if n == 1 else
                               Text("Too far: a phalanx of {count} pieces moves at most {count} squares", count=n))
    for sq in line[n : distance]:
        if board[sq] != EMPTY:
            raise IllegalMoveError(Text("{square} blocks the way", square=NAMES[sq]))
    target = board[move.dest]
    if target == me:
        raise IllegalMoveError(Text("{square} is your own piece", square=dest))
    if target == EMPTY:
        if move.capture:
            raise IllegalMoveError(Text("{dest} is empty, nothing to capture: write {tail}-{dest}", tail=tail,
                                        dest=dest))
        return Resolved(move, line, n, s, 0)
    k = 1
    while distance + k < len(line) and board[line[distance + k]] == them:
        k += 1
    if n == 1:
        raise IllegalMoveError(Text("A single piece can never capture"))
    if k >= n:
        raise IllegalMoveError(Text(
            "Your {count} piece cannot capture a line of {line}: it must be strictly shorter",
            plural="Your {count} pieces cannot capture a line of {line}: it must be strictly shorter", count=n, line=k))
    if not move.capture:
        raise IllegalMoveError(Text("{dest} holds an enemy piece: write {tail}x{dest} to capture it", tail=tail,
                                    dest=dest))
    return Resolved(move, line, n, s, k)


def play(state: State, seat: int, resolved: Resolved) -> State:
    board = bytearray(state.board)
    for sq in resolved.from_squares:
        board[sq] = EMPTY
    for sq in resolved.captured:
        board[sq] = EMPTY
    for sq in resolved.to_squares:
        board[sq] = seat + 1
    last = LastMove(
        str(resolved.move), seat, resolved.from_squares, resolved.to_squares, resolved.captured
    )
    return _with_outcome(State(bytes(board), 1 - seat, state.ply + 1, last))


# --- end check -----------------------------------------------------------------------------------------------

_HOME_ROWS = tuple(range(_index(0, rank), _index(0, rank) + FILES) for rank in HOME_RANK)


def crossings(board: bytes) -> tuple[int, int]:
    """Light's pieces on Dark's home row, Dark's pieces on Light's home row."""
    return (
        sum(1 for sq in _HOME_ROWS[1] if board[sq] == 1),
        sum(1 for sq in _HOME_ROWS[0] if board[sq] == 2),
    )


def piece_counts(board: bytes) -> tuple[int, int]:
    return board.count(1), board.count(2)


def end_of_game(board: bytes, to_move: int) -> Outcome | None:
    """The checks made at the start of `to_move`'s turn, in the order of the rules: crossing, then no pieces or
    no legal move."""
    across = crossings(board)
    mine, theirs = across[to_move], across[1 - to_move]
    name, other = Text(SEAT_NAMES[to_move]), 1 - to_move
    if mine > theirs:
        return Outcome((to_move,), Text("{side} has more pieces across ({mine} to {theirs})", side=name, mine=mine,
                                        theirs=theirs))
    if piece_counts(board)[to_move] == 0:
        return Outcome((other,), Text("{side} has no pieces left", side=name))
    if not has_a_move(board, to_move):
        return Outcome((other,), Text("{side} has no legal move", side=name))
    return None


def _with_outcome(state: State) -> State:
    return State(state.board, state.to_move, state.ply, state.last, end_of_game(state.board, state.to_move))


# --- the engine ----------------------------------------------------------------------------------------------


class EpaminondasGame(TwoSeatGame):
    info = INFO

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if num_players != 2:
            raise ValueError("Epaminondas is played by exactly 2 players")
        return _with_outcome(State(initial_board(), 0))

    def to_act(self, state: State) -> list[int]:
        return [] if state.outcome else [state.to_move]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if state.outcome or seat != state.to_move:
            return []
        names = NAMES
        return [
            f"{names[tail]}{'x' if k else '-'}{names[dest]}" for tail, dest, k in generate(state.board, seat)
        ]

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list[Event]]:
        resolved = self._resolve(state, seat, move)
        new = play(state, seat, resolved)
        return new, self._events(new, seat, resolved)

    def canonical(self, state: State, seat: int, text: str) -> str:
        return str(self._resolve(state, seat, text).move)

    @staticmethod
    def _resolve(state: State, seat: int, move: str) -> Resolved:
        parsed = parse_move(move)
        if state.outcome:
            raise IllegalMoveError(Text("The game is over"))
        if seat != state.to_move:
            raise IllegalMoveError(Text("It is not your turn"))
        return resolve(state.board, seat, parsed)

    def in_secret_setup(self, state: State) -> bool:
        return False

    def eliminate(self, state: State, seat: int, reason: str) -> tuple[State, list[Event]]:
        self.check_can_leave(state, seat)
        outcome = Outcome((1 - seat,), reason)
        new = replace(state, outcome=outcome, left=seat)
        return new, [event("out", seat=seat, reason=reason), event("win", winner=1 - seat, reason=reason)]

    def sample_state(self, view: JSON, rng: random.Random) -> State:
        """Everything is public: the view holds the whole state."""
        rows = ["".join("." if c is None else "LD"[c] for c in row) for row in reversed(view["board"])]  # rank 12 first
        board = _board_from_rows(rows)
        last = LastMove.from_json(view["last"])
        state = State(board, view["to_move"], view["ply"], last, left=view["left"])
        if view["left"] is not None:
            return replace(state, outcome=Outcome.from_json(view["outcome"]))
        return _with_outcome(state)

    @staticmethod
    def _events(new: State, seat: int, resolved: Resolved) -> list[Event]:
        text = str(resolved.move)
        events = [
            event(
                "move", None,
                seat=seat,
                move=text,
                tail=NAMES[resolved.move.tail],
                dest=NAMES[resolved.move.dest],
                **{
                    "from": [NAMES[sq] for sq in resolved.from_squares],
                    "to": [NAMES[sq] for sq in resolved.to_squares],
                },
            )
        ]
        if resolved.k:
            captured = [NAMES[sq] for sq in resolved.captured]
            events.append(event("capture", seat=seat, move=text, squares=captured, count=len(captured)))
        if new.outcome:
            events.append(event("win", winner=new.outcome.winners[0], reason=new.outcome.reason))
        return events

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    # --- view --------------------------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> JSON:
        board = state.board
        return {
            "game": INFO.key,
            "num_players": 2,
            "viewer": viewer,
            "to_act": self.to_act(state),
            "last_move": state.last.move if state.last else None,
            "ply": state.ply,
            "outcome": state.outcome.to_json() if state.outcome else None,
            "seat_names": list(SEAT_NAMES),
            "to_move": state.to_move,
            "left": state.left,
            "files": FILES,
            "ranks": RANKS,
            "board": [
                [board[_index(f, r)] - 1 if board[_index(f, r)] else None for f in range(FILES)]
                for r in range(RANKS)
            ],
            "home_rows": [rank + 1 for rank in HOME_RANK],
            "counts": list(piece_counts(board)),
            "crossings": list(crossings(board)),
            "last": state.last.to_json() if state.last else None,
        }

    # --- dump / load -------------------------------------------------------------------------------------------

    def dump(self, state: State) -> JSON:
        return {
            **self.stamp(),
            "board": _board_rows(state.board),
            "to_move": state.to_move,
            "ply": state.ply,
            "last": state.last.to_json() if state.last else None,
            "left": [state.left, state.outcome.reason] if state.left is not None and state.outcome else None,
        }

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        board = _board_from_rows(data["board"])
        state = State(board, data["to_move"], data["ply"], LastMove.from_json(data["last"]))
        if data.get("left"):  # older dumps have no "left": nobody left
            seat, reason = data["left"]
            return replace(state, outcome=Outcome((1 - seat,), reason), left=seat)
        return _with_outcome(state)

    # --- text board --------------------------------------------------------------------------------------------

    def render_text(self, view: JSON) -> str:
        files = "    " + " ".join(chr(ord("a") + f) for f in range(FILES))
        lines = [files]
        for r in range(RANKS - 1, -1, -1):
            cells = " ".join("." if v is None else "LD"[v] for v in view["board"][r])
            lines.append(f"{r + 1:>2}  {cells}  {r + 1}")
        lines.append(files)
        names = view["seat_names"]
        counts, across = view["counts"], view["crossings"]
        lines.append(
            f"{names[0]} (L): {counts[0]} pieces, {across[0]} across | "
            f"{names[1]} (D): {counts[1]} pieces, {across[1]} across"
        )
        if view["last_move"]:
            lines.append(f"Last move: {view['last_move']}")
        if view["outcome"]:
            lines.append(f"Game over: {view['outcome']['reason']}")
        else:
            lines.append(f"{names[view['to_act'][0]]} to move")
        return "\n".join(lines)

    def describe(self, ev: Event) -> str | None:
        kind = ev["type"]
        if kind == "move":
            pieces = len(ev["from"])
            side = Text(SEAT_NAMES[ev["seat"]])
            if pieces > 1:
                return Text("{side} plays {move} ({count} pieces)", side=side, move=ev["move"], count=pieces)
            return Text("{side} plays {move}", side=side, move=ev["move"])
        if kind == "capture":
            return Text("captures {count} piece: {squares}", plural="captures {count} pieces: {squares}",
                        count=ev["count"], squares=", ".join(ev["squares"]))
        if kind == "win":
            return Text("{reason}: {side} wins", reason=ev["reason"],
                        side=Text(SEAT_NAMES[ev["winner"]]))
        return None

    # --- move picker -------------------------------------------------------------------------------------------

    def move_steps(self, move: str) -> tuple[str, ...]:
        """'b1-b3' -> ('b1', '-b3'): the piece, then where; the tokens joined give the move back."""
        for i, ch in enumerate(move):
            if ch in "-x":
                return move[:i], move[i:]
        return (move,)

    def step_prompt(self, chosen: Sequence[str]) -> str:
        if not chosen:
            return Text("Which piece moves? For a phalanx, pick its rear piece")
        if len(chosen) == 1:
            return Text("Where to?")
        return Text("Confirm the move")

    def choices(self, state: State, seat: int, chosen: Sequence[str] = ()) -> Choices:
        chosen = tuple(chosen)
        prompt = self.step_prompt(chosen)
        if state.outcome or seat != state.to_move or len(chosen) > 2:
            return Choices(prompt)
        moves = list(generate(state.board, seat))
        if not chosen:
            per_tail: dict[int, int] = {}
            for tail, _, _ in moves:
                per_tail[tail] = per_tail.get(tail, 0) + 1
            options = [
                PickerOption(NAMES[t], NAMES[t], Text("{count} move", plural="{count} moves", count=c))
                for t, c in per_tail.items()
            ]
            return Choices(prompt, options)
        mine = [(dest, k) for tail, dest, k in moves if NAMES[tail] == chosen[0]]
        if len(chosen) == 1:
            options = [_destination_option(dest, k) for dest, k in mine]
            return Choices(prompt, options)
        text = chosen[0] + chosen[1]
        legal = any(chosen[1] == ("x" if k else "-") + NAMES[dest] for dest, k in mine)
        return Choices(prompt, [], text if legal else None)


def _destination_option(dest: int, captured: int) -> PickerOption:
    if captured:
        return PickerOption(Text("x {square} (captures {count})", square=NAMES[dest], count=captured),
                            "x" + NAMES[dest])
    return PickerOption(NAMES[dest], "-" + NAMES[dest])


GAME = EpaminondasGame()
