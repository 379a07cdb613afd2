"""The Myrmidons board: squares, rays, the front-to-back order of an order, and piece indices.

Squares are indices `rank * 6 + file` (a1 = 0, f7 = 41). Pieces are indices too: seat * 6 + (number - 1), where a
piece's number is the file of the home square it was deployed on (a = 1 … f = 6). A piece's id ("S1" … "N6") is
therefore public and says nothing about its values.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.grid import DIRECTIONS
from bot.engine.grid import ray as grid_ray
from .army import MyrmidonType

FILES, RANKS = 6, 7
CELLS = FILES * RANKS
EMPTY = -1
PER_SEAT = 6  # pieces per army: the Commander and ARMY_SIZE others
SEAT_NAMES = ("South", "North")
SEAT_LETTERS = ("S", "N")
HOME_RANK = (0, RANKS - 1)  # 0-based home rank of each seat; a seat's goal is the other seat's home rank
LOSING_LOSSES = 4  # eliminated pieces that lose the game
ARMY_CHOICES = ("standard", "draft", "random")
MEMORY_CHOICES = ("off", "on")


def _index(file: int, rank: int) -> int:
    return rank * FILES + file


NAMES: tuple[str, ...] = tuple(f"{chr(ord('a') + i % FILES)}{i // FILES + 1}" for i in range(CELLS))
HOME_SQUARES: tuple[tuple[int, ...], ...] = tuple(tuple(_index(f, r) for f in range(FILES)) for r in HOME_RANK)


def _ray(start: int, step: tuple[int, int]) -> tuple[int, ...]:
    """The squares from `start` along `step` up to the edge, `start` excluded."""
    return tuple(_index(f, r) for f, r in grid_ray((start % FILES, start // FILES), step, FILES, RANKS))


# RAYS[sq][d]: the squares a piece on sq passes through going in direction d (DIRECTIONS order: N NE E … NW).
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_ray(sq, s) for s in DIRECTIONS) for sq in range(CELLS))
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(r[0] for r in RAYS[sq] if r) for sq in range(CELLS))
# LINE_TO[(src, dst)] = (direction, distance) for every pair of squares on one straight line.
LINE_TO: dict[tuple[int, int], tuple[int, int]] = {
    (sq, to): (d, i + 1) for sq in range(CELLS) for d, ray in enumerate(RAYS[sq]) for i, to in enumerate(ray)
}


def front_key(direction: int, sq: int) -> tuple[int, int, int]:
    """Sort key of an order's participants: furthest along the direction first, ties by file a→f, then rank."""
    dx, dy = DIRECTIONS[direction]
    file, rank = sq % FILES, sq // FILES
    return (-(file * dx + rank * dy), file, rank)


def line_key(direction: int, sq: int) -> int:
    """Squares share a line along `direction` exactly when this (a cross product) is equal."""
    dx, dy = DIRECTIONS[direction]
    return (sq % FILES) * dy - (sq // FILES) * dx


@dataclass(frozen=True)
class Piece:
    owner: int
    number: int  # 1..6: the file of the home square it was deployed on
    kind: MyrmidonType

    @property
    def id(self) -> str:
        return f"{SEAT_LETTERS[self.owner]}{self.number}"


def piece_index(owner: int, number: int) -> int:
    return owner * PER_SEAT + number - 1


def owner_of(index: int) -> int:
    return index // PER_SEAT
