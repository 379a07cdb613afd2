"""Archimedes (Scott Marley and Philip Cohen, 1988): queen-moving ships, three attackers sink a ship, and a race
into the enemy port.

The rules are those of `docs/rules/archimedes.md`. The board is 64 cells in a `bytes` object, index
`rank * 8 + file` (a1 = 0, h8 = 63); each cell is EMPTY, or the owner's seat + 1. Move generation and the attack
counts walk precomputed rays, so listing every move of a position is a few hundred small loop steps.

Tests build positions with `position_from_text` (a compact picture of the board) or `position_from_squares`.
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass
from typing import Sequence

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
from bot.engine.text import Text, join

# --- types and constants -------------------------------------------------------------------------------------

SIZE = 8
CELLS = SIZE * SIZE
EMPTY = 0
SEAT_NAMES = ("White", "Black")
SHIP_LETTERS = ("W", "B")  # the text board's letter for each seat's ships
SHIPS_PER_SEAT = 12
VULNERABLE_AT = 3  # a ship attacked by this many enemy ships is destroyed
PORTS = (0, CELLS - 1)  # home port of each seat: White's is a1, Black's h8
START_SQUARES = (
    "a2 a3 a4 b1 b2 b3 b4 c1 c2 c3 d1 d2".split(),
    "h7 h6 h5 g8 g7 g6 g5 f8 f7 f6 e8 e7".split(),
)


def _index(file: int, rank: int) -> int:
    return rank * SIZE + file


NAMES: tuple[str, ...] = tuple(f"{chr(ord('a') + i % SIZE)}{i // SIZE + 1}" for i in range(CELLS))
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}


def _ray(start: int, step: tuple[int, int]) -> tuple[int, ...]:
    """The squares from `start` (excluded) along `step` up to the edge of the board."""
    return tuple(_index(f, r) for f, r in grid_ray((start % SIZE, start // SIZE), step, SIZE, SIZE))


# RAYS[sq]: the non-empty rays leaving sq, in the eight queen directions.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for ray in (_ray(sq, step) for step in DIRECTIONS) if ray) for sq in range(CELLS)
)
# BETWEEN[(a, b)]: the squares strictly between two squares on one line; missing when they share no line.
BETWEEN: dict[tuple[int, int], tuple[int, ...]] = {
    (sq, ray[i]): ray[:i] for sq in range(CELLS) for ray in RAYS[sq] for i in range(len(ray))
}
# MOVE_TEXT[a * 64 + b]: the canonical text "a-b", built once so move listing is only appends.
MOVE_TEXT: tuple[str, ...] = tuple(f"{NAMES[a]}-{NAMES[b]}" for a in range(CELLS) for b in range(CELLS))

# --- metadata ------------------------------------------------------------------------------------------------

INFO = GameInfo(
    key="archimedes",
    title="Archimedes",
    min_players=2,
    max_players=2,
    hidden_information=False,
    summary=(
        "Two fleets of twelve ships sail an 8 by 8 sea, White's from the a1 corner and Black's from h8. Every turn "
        "you move one ship like a chess queen. Ships that face each other along a rank, file or diagonal with "
        "nothing between them attack each other, and a ship attacked by three or more enemy ships is sunk at the "
        "end of its opponent's move; each sinking opens lines and can sink more ships in a chain. A sunk ship can "
        "be relaunched from your own port when it is empty, sailing straight out in the same turn. Win by taking "
        "a ship into the enemy port and keeping it there through your opponent's reply, or by leaving your "
        "opponent without a move."
    ),
    options=(),
    seat_names=SEAT_NAMES,
)

# --- notation ------------------------------------------------------------------------------------------------

_MOVE = re.compile(r"\s*(\S+?)\s*-\s*(\S+?)\s*")


@dataclass(frozen=True)
class Move:
    """A ship sailing from `src` to `dst`. A rebuild is the same move written from the mover's own port."""

    src: int
    dst: int

    def __str__(self) -> str:
        return format_move(self)


def parse_move(text: str) -> Move:
    """'d2-d6' -> Move; case and spaces around the squares and the dash are forgiven."""
    m = _MOVE.fullmatch(text)
    if not m:
        raise MoveSyntaxError(Text("'{text}' is not an Archimedes move (write from-to, like d2-d6)", text=text.strip()))
    src, dst = (parse_square(part, SIZE, SIZE) for part in m.groups())
    return Move(_index(*src), _index(*dst))


def format_move(move: Move) -> str:
    return MOVE_TEXT[move.src * CELLS + move.dst]


# --- state ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LastMove:
    seat: int
    src: int
    dst: int
    rebuild: bool
    destroyed: tuple[tuple[int, int], ...]  # (square, owner seat), wave by wave

    def to_json(self) -> JSON:
        return {
            "move": MOVE_TEXT[self.src * CELLS + self.dst],
            "seat": self.seat,
            "from": NAMES[self.src],
            "to": NAMES[self.dst],
            "rebuild": self.rebuild,
            "destroyed": [{"square": NAMES[sq], "seat": owner} for sq, owner in self.destroyed],
        }

    @classmethod
    def from_json(cls, data: JSON | None) -> LastMove | None:
        if data is None:
            return None
        destroyed = tuple((INDEX[d["square"]], int(d["seat"])) for d in data["destroyed"])
        return cls(int(data["seat"]), INDEX[data["from"]], INDEX[data["to"]], bool(data["rebuild"]), destroyed)


@dataclass(frozen=True)
class State:
    board: bytes
    reserve: tuple[int, int]  # destroyed ships per seat, available for rebuilding
    to_move: int
    ply: int = 0
    last: LastMove | None = None
    outcome: Outcome | None = None  # decided at the start of `to_move`'s turn
    left: int | None = None  # the seat that resigned or ran out of time; the outcome then says why


def initial_board() -> bytes:
    board = bytearray(CELLS)
    for seat, squares in enumerate(START_SQUARES):
        for name in squares:
            board[INDEX[name]] = seat + 1
    return bytes(board)


def position_from_text(
    text: str, to_move: int = 0, reserve: tuple[int, int] | None = None, ply: int = 0
) -> State:
    """A state from a picture of the board: eight rows from rank 8 down to rank 1, `W` a White ship, `B` a Black
    ship, `.` (or `*`, as render_text marks an empty port) an empty square; other spaces are ignored.

    `reserve` defaults to the ships missing from the board (12 minus those shown). The end of the game is checked
    as at the start of `to_move`'s turn.
    """
    rows = ["".join(line.split()) for line in text.strip().splitlines() if line.strip()]
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("a board picture has 8 rows of 8 squares")
    board = _board_from_rows(rows[::-1])
    if reserve is None:
        reserve = (max(0, SHIPS_PER_SEAT - board.count(1)), max(0, SHIPS_PER_SEAT - board.count(2)))
    return _with_outcome(State(board, (reserve[0], reserve[1]), to_move, ply))


def position_from_squares(
    white: Sequence[str] | str,
    black: Sequence[str] | str,
    to_move: int = 0,
    reserve: tuple[int, int] | None = None,
    ply: int = 0,
) -> State:
    """A state from the squares of each side's ships ("a2 b3" or ["a2", "b3"]); see position_from_text."""
    board = bytearray(CELLS)
    for seat, squares in enumerate((white, black)):
        for name in squares.split() if isinstance(squares, str) else squares:
            board[INDEX[name]] = seat + 1
    rows = _board_rows(bytes(board))
    return position_from_text("\n".join(rows[::-1]), to_move, reserve, ply)


def _board_from_rows(rows: Sequence[str]) -> bytes:
    """Rows from rank 1 up, as `_board_rows` writes them."""
    board = bytearray(CELLS)
    for rank, row in enumerate(rows):
        for file, char in enumerate(row):
            if char in SHIP_LETTERS:
                board[_index(file, rank)] = SHIP_LETTERS.index(char) + 1
            elif char not in ".*":
                raise ValueError(f"unknown square {char!r} on the board picture")
    for seat, port in enumerate(PORTS):
        if board[port] == seat + 1:
            raise ValueError(f"a {SEAT_NAMES[seat]} ship may never stand on its own port {NAMES[port]}")
    if board.count(1) > SHIPS_PER_SEAT or board.count(2) > SHIPS_PER_SEAT:
        raise ValueError(f"each side has at most {SHIPS_PER_SEAT} ships")
    return bytes(board)


def _board_rows(board: bytes) -> list[str]:
    """Rows from rank 1 up, '.' empty, 'W'/'B' ships."""
    letters = ".WB"
    return ["".join(letters[board[_index(f, r)]] for f in range(SIZE)) for r in range(SIZE)]


# --- move generation -----------------------------------------------------------------------------------------


def _ship_squares(board: bytes | bytearray, code: int) -> list[int]:
    squares = []
    sq = board.find(code)
    while sq >= 0:
        squares.append(sq)
        sq = board.find(code, sq + 1)
    return squares


def can_rebuild(board: bytes, reserve: tuple[int, int], seat: int) -> bool:
    """A destroyed ship waits in reserve and the port is empty (the exit is checked by the move itself)."""
    return reserve[seat] > 0 and board[PORTS[seat]] == EMPTY


def generate(board: bytes, reserve: tuple[int, int], seat: int) -> list[str]:
    """Every legal move of `seat`, sorted (so by file, then rank, of the ship and then of the destination)."""
    home = PORTS[seat]
    origins = _ship_squares(board, seat + 1)
    if can_rebuild(board, reserve, seat):
        origins.append(home)  # the rebuilt ship leaves the port like any ship; it can never end there
    moves: list[str] = []
    append = moves.append
    for src in origins:
        base = src * CELLS
        for ray in RAYS[src]:
            for dst in ray:
                if board[dst]:
                    break
                if dst != home:
                    append(MOVE_TEXT[base + dst])
    moves.sort()
    return moves


def has_a_move(board: bytes, reserve: tuple[int, int], seat: int) -> bool:
    """Cheaper than generate: a ship (or a rebuild) has a move iff a neighbouring square other than the home port
    is empty. The port is a corner, so no ray runs through it."""
    home = PORTS[seat]
    origins = _ship_squares(board, seat + 1)
    if can_rebuild(board, reserve, seat):
        origins.append(home)
    return any(board[ray[0]] == EMPTY and ray[0] != home for src in origins for ray in RAYS[src])


def illegal_reason(state: State, seat: int, move: Move) -> str | None:
    """Why `seat` may not play `move` now (a sentence for the user), or None when it is legal."""
    board, src, dst = state.board, move.src, move.dst
    home = PORTS[seat]
    if src == home:  # the port never holds its owner's ship, so a move from it is a rebuild
        if state.reserve[seat] == 0:
            return Text("You have no destroyed ship to rebuild at your port {square}", square=NAMES[home])
        if board[home] != EMPTY:
            return Text("Your port {square} is occupied, so you cannot rebuild", square=NAMES[home])
    elif board[src] == EMPTY:
        return Text("There is no ship on {square}", square=NAMES[src])
    elif board[src] != seat + 1:
        return Text("{square} is not your ship", square=NAMES[src])
    if dst == src:
        return "A ship must move (a rebuilt ship must leave the port)"
    if dst == home:
        return Text("A ship may never end its move on its own port {square}", square=NAMES[home])
    between = BETWEEN.get((src, dst))
    if between is None:
        return Text("{src} to {dst} is not a straight line (ships move like a chess queen)", src=NAMES[src],
                    dst=NAMES[dst])
    if board[dst] != EMPTY:
        return Text("{square} is occupied", square=NAMES[dst])
    for sq in between:
        if board[sq] != EMPTY:
            return Text("The way from {src} to {dst} is blocked at {square}", src=NAMES[src], dst=NAMES[dst],
                            square=NAMES[sq])
    return None


# --- apply ---------------------------------------------------------------------------------------------------


def attackers(board: bytes, sq: int, attacker_seat: int) -> list[int]:
    """The ships of `attacker_seat` that attack square `sq`: the first ship along each of the eight lines, when
    it is theirs (a ship of either side in between blocks the line)."""
    code = attacker_seat + 1
    found = []
    for ray in RAYS[sq]:
        for target in ray:
            if board[target]:
                if board[target] == code:
                    found.append(target)
                break
    return found


def is_vulnerable(board: bytes | bytearray, sq: int, attacker_code: int) -> bool:
    count = 0
    for ray in RAYS[sq]:
        for target in ray:
            cell = board[target]
            if cell:
                if cell == attacker_code:
                    count += 1
                    if count >= VULNERABLE_AT:
                        return True
                break
    return False


def destroy_vulnerable(board: bytearray, mover: int) -> list[list[int]]:
    """Remove every vulnerable ship of the mover's opponent, all at once, then again as long as the removals
    expose more: the waves of removed squares. The mover's own ships are never removed by its own move.

    Every opponent ship is checked, not only those near the move: a ship the opponent left vulnerable last turn
    is removed now if it still is."""
    attacker, victim = mover + 1, 2 - mover
    waves: list[list[int]] = []
    while True:
        doomed = [sq for sq in _ship_squares(board, victim) if is_vulnerable(board, sq, attacker)]
        if not doomed:
            return waves
        for sq in doomed:
            board[sq] = EMPTY
        waves.append(doomed)


def play(state: State, seat: int, move: Move) -> tuple[State, list[list[int]]]:
    """The state after a legal move, and the destruction waves it caused."""
    board = bytearray(state.board)
    reserve = list(state.reserve)
    rebuild = move.src == PORTS[seat]
    if rebuild:
        reserve[seat] -= 1
    else:
        board[move.src] = EMPTY
    board[move.dst] = seat + 1
    waves = destroy_vulnerable(board, seat)
    opponent = 1 - seat
    reserve[opponent] += sum(len(wave) for wave in waves)
    destroyed = tuple((sq, opponent) for wave in waves for sq in wave)
    last = LastMove(seat, move.src, move.dst, rebuild, destroyed)
    new = State(bytes(board), (reserve[0], reserve[1]), opponent, state.ply + 1, last)
    return _with_outcome(new), waves


# --- end check -----------------------------------------------------------------------------------------------


def end_of_game(board: bytes, reserve: tuple[int, int], to_move: int) -> Outcome | None:
    """The checks made at the start of `to_move`'s turn: a ship of theirs on the enemy port has survived the
    reply and wins; otherwise a player without a legal move loses."""
    enemy = 1 - to_move
    if board[PORTS[enemy]] == to_move + 1:
        return Outcome((to_move,), Text("{side}'s ship held {enemy}'s port", side=Text(SEAT_NAMES[to_move]),
                                        enemy=Text(SEAT_NAMES[enemy])))
    if not has_a_move(board, reserve, to_move):
        return Outcome((enemy,), Text("{side} has no legal move", side=Text(SEAT_NAMES[to_move])))
    return None


def _with_outcome(state: State) -> State:
    outcome = end_of_game(state.board, state.reserve, state.to_move)
    return state if outcome is None else dataclasses.replace(state, outcome=outcome)


# --- the engine ----------------------------------------------------------------------------------------------


class ArchimedesGame(TwoSeatGame):
    info = INFO

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if num_players != 2:
            raise ValueError("Archimedes is played by exactly 2 players")
        if options:
            raise ValueError("Archimedes has no options")
        return State(initial_board(), (0, 0), 0)

    def to_act(self, state: State) -> list[int]:
        return [] if state.outcome else [state.to_move]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if state.outcome or seat != state.to_move:
            return []
        return generate(state.board, state.reserve, seat)

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list[Event]]:
        parsed = self._checked(state, seat, move)
        new, waves = play(state, seat, parsed)
        return new, self._events(new, seat, parsed, waves)

    def canonical(self, state: State, seat: int, text: str) -> str:
        return format_move(self._checked(state, seat, text))

    @staticmethod
    def _checked(state: State, seat: int, move: str) -> Move:
        parsed = parse_move(move)
        if state.outcome:
            raise IllegalMoveError(Text("The game is over"))
        if seat != state.to_move:
            raise IllegalMoveError(Text("It is not your turn"))
        reason = illegal_reason(state, seat, parsed)
        if reason:
            raise IllegalMoveError(reason)
        return parsed

    def in_secret_setup(self, state: State) -> bool:
        return False

    def eliminate(self, state: State, seat: int, reason: str) -> tuple[State, list[Event]]:
        self.check_can_leave(state, seat)
        new = dataclasses.replace(state, outcome=Outcome((1 - seat,), reason), left=seat)
        return new, [event("out", seat=seat, reason=reason), event("win", winners=[1 - seat], reason=reason)]

    def sample_state(self, view: JSON, rng: random.Random) -> State:
        """Everything is public: the view holds the whole state."""
        rows = ["".join("." if c is None else ".WB"[c + 1] for c in row) for row in view["board"]]  # rank 1 first
        return State(
            _board_from_rows(rows), (view["reserve"][0], view["reserve"][1]), view["to_move"], view["ply"],
            LastMove.from_json(view["last"]), Outcome.from_json(view["outcome"]), view["left"],
        )

    @staticmethod
    def _events(new: State, seat: int, move: Move, waves: list[list[int]]) -> list[Event]:
        assert new.last is not None
        kind = "rebuild" if new.last.rebuild else "move"
        text = format_move(move)
        events = [event(kind, None, seat=seat, move=text, **{"from": NAMES[move.src], "to": NAMES[move.dst]})]
        for number, wave in enumerate(waves, start=1):
            squares = sorted(NAMES[sq] for sq in wave)
            events.append(event("destroy", seat=1 - seat, squares=squares, wave=number, by=seat))
        if new.outcome:
            events.append(event("win", winners=list(new.outcome.winners), reason=new.outcome.reason))
        return events

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    # --- view ------------------------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> JSON:
        board = state.board
        return {
            "game": INFO.key,
            "num_players": 2,
            "viewer": viewer,
            "to_act": self.to_act(state),
            "last_move": format_move(Move(state.last.src, state.last.dst)) if state.last else None,
            "ply": state.ply,
            "outcome": state.outcome.to_json() if state.outcome else None,
            "seat_names": list(SEAT_NAMES),
            "to_move": state.to_move,
            "left": state.left,
            "files": SIZE,
            "ranks": SIZE,
            "board": [
                [board[_index(f, r)] - 1 if board[_index(f, r)] else None for f in range(SIZE)] for r in range(SIZE)
            ],
            "ports": [NAMES[port] for port in PORTS],
            "ships": [board.count(1), board.count(2)],
            "reserve": list(state.reserve),
            "last": state.last.to_json() if state.last else None,
        }

    # --- dump / load -----------------------------------------------------------------------------------------

    def dump(self, state: State) -> JSON:
        return {
            **self.stamp(),
            "board": _board_rows(state.board),  # rank 1 first
            "reserve": list(state.reserve),
            "to_move": state.to_move,
            "ply": state.ply,
            "last": state.last.to_json() if state.last else None,
            "outcome": state.outcome.to_json() if state.outcome else None,
            "left": state.left,
        }

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        reserve = data["reserve"]
        if data["to_move"] not in (0, 1) or not all(0 <= int(n) <= SHIPS_PER_SEAT for n in reserve):
            raise ValueError("not a valid Archimedes state")
        return State(
            _board_from_rows(data["board"]),
            (int(reserve[0]), int(reserve[1])),
            int(data["to_move"]),
            int(data["ply"]),
            LastMove.from_json(data["last"]),
            Outcome.from_json(data["outcome"]),
            data.get("left"),  # older dumps have no "left": nobody left
        )

    # --- text board ------------------------------------------------------------------------------------------

    def render_text(self, view: JSON) -> str:
        """W and B ships, '.' empty, '*' an empty port; files a-h below, rank 8 at the top."""
        ports = set(view["ports"])
        lines = []
        for r in range(SIZE - 1, -1, -1):
            cells = []
            for f, owner in enumerate(view["board"][r]):
                if owner is not None:
                    cells.append(SHIP_LETTERS[owner])
                else:
                    cells.append("*" if NAMES[_index(f, r)] in ports else ".")
            lines.append(f"{r + 1} {' '.join(cells)}")
        lines.append("  " + " ".join("abcdefgh"))
        names = view["seat_names"]
        lines.append(
            " | ".join(
                f"{names[s]} ({SHIP_LETTERS[s]}, port {view['ports'][s]}): {view['ships'][s]} ships, "
                f"{view['reserve'][s]} in reserve"
                for s in range(2)
            )
        )
        last = view["last"]
        if last:
            sunk = ", ".join(d["square"] for d in last["destroyed"])
            verb = "rebuilt and sailed" if last["rebuild"] else "played"
            destroying = f", destroying {sunk}" if sunk else ""
            lines.append(f"Last: {names[last['seat']]} {verb} {last['move']}{destroying}")
        if view["outcome"]:
            lines.append(f"Game over: {view['outcome']['reason']}")
        else:
            lines.append(f"{names[view['to_act'][0]]} to move")
        return "\n".join(lines)

    def describe(self, ev: Event) -> str | None:
        kind = ev.get("type")
        if kind == "move":
            return f"{SEAT_NAMES[ev['seat']]} {ev['move']}"  # a side's name and a move: nothing to translate
        if kind == "rebuild":
            return Text("{side} rebuilds a ship at {src} and sails it to {dst}", side=Text(SEAT_NAMES[ev["seat"]]),
                        src=ev["from"], dst=ev["to"])
        if kind == "destroy":
            side, squares = Text(SEAT_NAMES[ev["seat"]]), ", ".join(ev["squares"])
            lost = (Text("{side} loses the ships on {squares}", side=side, squares=squares) if len(ev["squares"]) > 1
                    else Text("{side} loses the ship on {squares}", side=side, squares=squares))
            if ev.get("wave", 1) > 1:
                return Text("{lost} (chain, wave {wave})", lost=lost, wave=ev["wave"])
            return lost
        if kind == "win":
            winners = join([Text(SEAT_NAMES[w]) for w in ev["winners"]], " & ")
            return Text("{side} wins: {reason}", side=winners, reason=ev["reason"])
        return None

    # --- move picker -----------------------------------------------------------------------------------------

    def move_steps(self, move: str) -> tuple[str, ...]:
        src, dst = move.split("-")
        return (src, dst)

    def step_prompt(self, chosen: Sequence[str]) -> str:
        if not chosen:
            return Text("Choose a ship to move (or your port, to rebuild a ship)")
        return Text("Move from {square} to", square=chosen[0])

    def choices(self, state: State, seat: int, chosen: Sequence[str] = ()) -> Choices:
        """Like the default picker, but a port is labelled as a rebuild and each ship says how far it can go."""
        chosen = tuple(chosen)
        moves = self.legal_moves(state, seat)
        home = NAMES[PORTS[seat]]
        if not chosen:
            counts: dict[str, int] = {}
            for move in moves:
                src = move.split("-")[0]
                counts[src] = counts.get(src, 0) + 1
            options = [_origin_option(src, n, rebuild=src == home) for src, n in counts.items()]
            return Choices(prompt=self.step_prompt(chosen), options=options)
        src = chosen[0]
        if len(chosen) == 1:
            options = [
                PickerOption(label=dst, value=dst) for s, dst in (m.split("-") for m in moves) if s == src
            ]
            prompt = (Text("Rebuild at {square} and sail the new ship to", square=src) if src == home
                      else self.step_prompt(chosen))
            return Choices(prompt=prompt, options=options)
        move = f"{chosen[0]}-{chosen[1]}"
        return Choices(prompt=Text("Confirm the move"), move=move if len(chosen) == 2 and move in moves else None)


def _origin_option(src: str, destinations: int, rebuild: bool) -> PickerOption:
    description = Text("{count} square to sail to", plural="{count} squares to sail to", count=destinations)
    if rebuild:
        return PickerOption(label=Text("Rebuild from port {square}", square=src), value=src, description=description)
    return PickerOption(label=src, value=src, description=description)


GAME = ArchimedesGame()
