"""Mycenae's board: piece codes, square tables, the four corners and what each seat's pieces do there.

Squares are numbered file * 8 + rank (a1 = 0, a2 = 1, ..., h8 = 63), so sorting the numbers sorts "by file, then
rank" as the notation wants. A piece is one small int: owner << 3 | kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from bot.engine.grid import DIAGONAL, DIRECTIONS, KNIGHT_JUMPS, ORTHOGONAL, square_name
from bot.engine.grid import ray as grid_ray

KING, ROOK, BISHOP, KNIGHT, PAWN, HORSE = 1, 2, 3, 4, 5, 6  # HORSE: a Mycenaean knight (the Trojan horse)
LETTER = {KING: "K", ROOK: "R", BISHOP: "B", KNIGHT: "N", PAWN: "P", HORSE: "N"}
PIECE_NAME = {KING: "King", ROOK: "Rook", BISHOP: "Bishop", KNIGHT: "Knight", PAWN: "Pawn", HORSE: "Mycenaean knight"}
CARRIED = (KING, ROOK, BISHOP, PAWN)  # what a horse can carry, in the notation's letter order K R B P
CARRIED_BY_LETTER = {"K": KING, "R": ROOK, "B": BISHOP, "P": PAWN}
SETUP_CARGO = (KING, ROOK, BISHOP, BISHOP, PAWN, PAWN, PAWN)
PROMOTION_LETTERS = ("R", "B", "N")
ARMY_CHOICES = ("mycenae", "plain")
DEFAULT_ARMIES = ("mycenae", "plain")  # two players; with three or four the rest are plain too


def piece(owner: int, kind: int) -> int:
    return owner << 3 | kind


NAMES = tuple(square_name((sq >> 3, sq & 7)) for sq in range(64))


def _squares_from(sq: int, steps: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    f, r = sq >> 3, sq & 7
    return tuple(sorted((f + df) * 8 + r + dr for df, dr in steps if 0 <= f + df < 8 and 0 <= r + dr < 8))


def _rays_from(sq: int, steps: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    rays = (tuple(f * 8 + r for f, r in grid_ray((sq >> 3, sq & 7), step, 8, 8)) for step in steps)
    return tuple(ray for ray in rays if ray)


NEIGHBOURS = tuple(_squares_from(sq, DIRECTIONS) for sq in range(64))  # the 8 around, sorted
ORTHO = tuple(_squares_from(sq, ORTHOGONAL) for sq in range(64))
JUMPS = tuple(_squares_from(sq, KNIGHT_JUMPS) for sq in range(64))
ROOK_RAYS = tuple(_rays_from(sq, ORTHOGONAL) for sq in range(64))
BISHOP_RAYS = tuple(_rays_from(sq, DIAGONAL) for sq in range(64))
STEP_TEXT = tuple(tuple(f"{NAMES[a]}-{NAMES[b]}" for b in range(64)) for a in range(64))
TAKE_TEXT = tuple(tuple(f"{NAMES[a]}x{NAMES[b]}" for b in range(64)) for a in range(64))


@dataclass(frozen=True)
class Corner:
    """One corner of the board: `edge` runs along the home edge away from the corner, `forward` is where its pawns
    go. A square of this corner's frame is (i along the edge, j forward)."""

    name: str
    origin: tuple[int, int]
    edge: tuple[int, int]
    forward: tuple[int, int]

    def square(self, i: int, j: int) -> int:
        f = self.origin[0] + i * self.edge[0] + j * self.forward[0]
        r = self.origin[1] + i * self.edge[1] + j * self.forward[1]
        return f * 8 + r

    def row(self, sq: int) -> int:
        """How far forward sq lies from this corner's home edge (0 = first row, 7 = promotion edge)."""
        return ((sq >> 3) - self.origin[0]) * self.forward[0] + ((sq & 7) - self.origin[1]) * self.forward[1]


# The rules page's seat table, clockwise from a1. Contract seats map onto it by `corners_for`.
CORNERS = (
    Corner("a1", (0, 0), (1, 0), (0, 1)),
    Corner("a8", (0, 7), (0, -1), (1, 0)),
    Corner("h8", (7, 7), (-1, 0), (0, -1)),
    Corner("h1", (7, 0), (0, 1), (-1, 0)),
)
PLAIN_HOME = ((0, 0, KING), (1, 0, ROOK), (2, 0, BISHOP), (3, 0, KNIGHT)) + tuple((i, 1, PAWN) for i in range(4))
HORSE_HOME = ((1, 1), (3, 1), (2, 0))  # seat 0: b2, d2, c1 — also the order of the cargo notation
HORSE_SQUARES = tuple(tuple(c.square(i, j) for i, j in HORSE_HOME) for c in CORNERS)
ROW = tuple(tuple(c.row(sq) for sq in range(64)) for c in CORNERS)


def _pawn_tables(c: Corner) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    step, double, takes = [], [], []
    for sq in range(64):
        f, r = sq >> 3, sq & 7
        fwd = (f + c.forward[0], r + c.forward[1])
        ok = 0 <= fwd[0] < 8 and 0 <= fwd[1] < 8
        step.append(fwd[0] * 8 + fwd[1] if ok else -1)
        two = (f + 2 * c.forward[0], r + 2 * c.forward[1])
        double.append(two[0] * 8 + two[1] if c.row(sq) == 1 else -1)
        sides = []
        for s in (1, -1):
            x = (fwd[0] + s * c.edge[0], fwd[1] + s * c.edge[1])
            if ok and 0 <= x[0] < 8 and 0 <= x[1] < 8:
                sides.append(x[0] * 8 + x[1])
        takes.append(tuple(sorted(sides)))
    return tuple(step), tuple(double), tuple(takes)


PAWN_STEP, PAWN_DOUBLE, PAWN_TAKES = zip(*(_pawn_tables(c) for c in CORNERS))


def corners_for(num_players: int) -> tuple[int, ...]:
    """Contract seat -> row of the seat table: two players sit at a1 and h8 (diagonally opposite)."""
    return (0, 2) if num_players == 2 else tuple(range(num_players))
