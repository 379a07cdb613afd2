"""Square names and directions shared by the grid games (files a.., ranks 1..; (0, 0) is a1)."""

from __future__ import annotations

import re
from functools import lru_cache

from .base import MoveSyntaxError

Square = tuple[int, int]  # (file, rank), 0-based

ORTHOGONAL: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: tuple[Square, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
# N, NE, E, SE, S, SW, W, NW: the compass order the notations use.
DIRECTIONS: tuple[Square, ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
KNIGHT_JUMPS: tuple[Square, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

_SQUARE = re.compile(r"([a-z])(\d{1,2})")


def square_name(sq: Square) -> str:
    return f"{chr(ord('a') + sq[0])}{sq[1] + 1}"


@lru_cache(maxsize=4096)  # every move text is parsed square by square, and boards have at most 144 squares
def parse_square(text: str, files: int, ranks: int) -> Square:
    """'c4' -> (2, 3); raises MoveSyntaxError naming the board size when the square is not on it."""
    m = _SQUARE.fullmatch(text.strip().lower())
    if not m:
        raise MoveSyntaxError(f"'{text}' is not a square (write a file letter and a rank number, like c4)")
    sq = (ord(m.group(1)) - ord("a"), int(m.group(2)) - 1)
    if not on_board(sq, files, ranks):
        last = chr(ord("a") + files - 1)
        raise MoveSyntaxError(f"'{text}' is off the board (files a–{last}, ranks 1–{ranks})")
    return sq


def on_board(sq: Square, files: int, ranks: int) -> bool:
    return 0 <= sq[0] < files and 0 <= sq[1] < ranks


def square_key(sq: Square) -> tuple[int, int]:
    """Sort key 'by file, then rank' used by the canonical notations."""
    return sq


def ray(start: Square, step: Square, files: int, ranks: int) -> tuple[Square, ...]:
    """The squares from `start` (excluded) along `step` up to the edge of a files × ranks board.

    Engines precompute their ray tables from this once, at import, in their own cell numbering."""
    squares = []
    file, rank = start[0] + step[0], start[1] + step[1]
    while 0 <= file < files and 0 <= rank < ranks:
        squares.append((file, rank))
        file, rank = file + step[0], rank + step[1]
    return tuple(squares)
