"""Mycenae's state, the starting position, the repetition digest, and `position()` for tests."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Sequence

from bot.engine.base import JSON, Outcome
from .board import (
    ARMY_CHOICES,
    CARRIED_BY_LETTER,
    CORNERS,
    DEFAULT_ARMIES,
    HORSE,
    HORSE_SQUARES,
    PLAIN_HOME,
    corners_for,
    piece,
)
from .notation import _square

@dataclass(frozen=True)
class State:
    """Never mutated: `apply` builds a new one (the dicts are copied, never changed in place)."""

    num_players: int
    armies: tuple[str, ...]
    board: bytes  # 64 pieces (0 = empty)
    cargo: dict[int, tuple[int, ...]]  # every Mycenaean knight's square -> what it carries (sorted piece codes)
    known: dict[int, tuple[int, ...]]  # the same knights -> the part of the cargo the public has seen go in
    out: tuple[bool, ...]
    waiting: tuple[int, ...] = ()  # Mycenae seats still choosing their cargo
    turn: int = 0
    pending: tuple[int, int, str] | None = None  # (requester, player asked, load) awaiting consent
    refused: tuple[str, ...] = ()  # requests refused during this turn
    ply: int = 0
    quiet: int = 0  # completed turns since the last capture, burn or pawn move
    history: tuple[str, ...] = ()  # position digests at turn starts since the last capture, burn or knock-out
    last_move: str | None = None
    last_squares: tuple[int, ...] = ()
    last_mover: int | None = None
    revealed: tuple[JSON, ...] = ()  # public records of destroyed cargo
    outcome: Outcome | None = None
    # Knights that may hold pieces nobody but their owner has seen: the setup's knights, as long as their first
    # owner has them. Promoted knights and knights taken over start empty, and everything loaded is seen.
    sealed: tuple[int, ...] = ()
    out_order: tuple[int, ...] = ()  # seats in the order they went out (knocked out or left)
    # Every Mycenaean knight's square -> how many times it has moved (absent: never). Public, as the moves are:
    # a player keeps the knight that holds her king out of harm's way, and the computer's guess weighs that
    # (posterior.py).
    hops: dict[int, int] = field(default_factory=dict)

    @property
    def corners(self) -> tuple[int, ...]:
        return corners_for(self.num_players)


def _army_options(num_players: int, options: JSON | None) -> tuple[str, ...]:
    """One army per seat. A shorter list (such as the two-player default) is filled up with plain armies."""
    armies = (options or {}).get("armies") or DEFAULT_ARMIES
    if isinstance(armies, str) or len(armies) > num_players:
        raise ValueError(f"armies needs one entry per player ({num_players}), each mycenae or plain")
    armies = tuple(str(a).strip().lower() for a in armies) + ("plain",) * (num_players - len(armies))
    if any(a not in ARMY_CHOICES for a in armies):
        raise ValueError(f"unknown army in {list(armies)}; choose mycenae or plain")
    return armies


def _home_board(num_players: int, armies: Sequence[str]) -> bytearray:
    board = bytearray(64)
    for seat, corner in enumerate(corners_for(num_players)):
        if armies[seat] == "mycenae":
            for sq in HORSE_SQUARES[corner]:
                board[sq] = piece(seat, HORSE)
        else:
            for i, j, kind in PLAIN_HOME:
                board[CORNERS[corner].square(i, j)] = piece(seat, kind)
    return board


def _horses(board: bytes | bytearray) -> list[int]:
    return [sq for sq in range(64) if board[sq] & 7 == HORSE]


def _position_digest(board: bytes | bytearray, cargo: dict[int, tuple[int, ...]], turn: int,
                     out: Sequence[bool]) -> str:
    """What threefold repetition compares: board, every cargo, players out, side to move."""
    h = hashlib.blake2b(bytes(board), digest_size=8)
    for sq in sorted(cargo):
        h.update(bytes((sq, len(cargo[sq]), *cargo[sq])))
    h.update(bytes((turn, *out)))
    return h.hexdigest()


def position(
    board: str,
    num_players: int = 2,
    turn: int = 0,
    cargo: dict[str, str] | None = None,
    armies: Sequence[str] | None = None,
    out: Sequence[int] = (),
    known: dict[str, str] | None = None,
) -> State:
    """Build a mid-game state from a text board (tests, debugging).

    `board`: 8 lines, rank 8 first, 8 cells each separated by spaces: `.` empty, otherwise the owner's contract
    seat and a letter, `0K 2P 1N` (N = plain knight), `0M` for a Mycenaean knight. `cargo` maps knight squares to
    what they carry, e.g. {"c4": "0K 0P 2B"}; `known` does the same for the publicly known part (default: none).
    """
    rows = [line.split() for line in board.strip().splitlines()]
    if len(rows) != 8 or any(len(row) != 8 for row in rows):
        raise ValueError("a board has 8 rows of 8 cells")
    cells = bytearray(64)
    for r, row in enumerate(rows):
        for f, cell in enumerate(row):
            if cell != ".":
                cells[f * 8 + 7 - r] = piece(int(cell[0]), "KRBNPM".index(cell[1]) + 1)

    def codes(text: str) -> tuple[int, ...]:
        return tuple(sorted(piece(int(w[0]), CARRIED_BY_LETTER[w[1]]) for w in text.split()))

    horses = _horses(cells)
    loads = {sq: () for sq in horses} | {_square(k): codes(v) for k, v in (cargo or {}).items()}
    seen = {sq: () for sq in horses} | {_square(k): codes(v) for k, v in (known or {}).items()}
    if set(loads) != set(horses) or set(seen) != set(horses):
        raise ValueError("cargo given for a square without a Mycenaean knight")
    outs = tuple(seat in out for seat in range(num_players))
    armies = tuple(armies or DEFAULT_ARMIES + ("plain",) * (num_players - 2))
    return State(
        num_players, armies, bytes(cells), loads, seen, outs, turn=turn,
        history=(_position_digest(cells, loads, turn, outs),), sealed=tuple(horses),
    )
