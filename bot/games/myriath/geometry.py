"""The street grid of Myriath and every way a tile can lie on it.

Indexing, shared by the engine and (through the view's names) the renderer:

- Intersections: (file, rank), 0-based, a1 = (0, 0); point id `p = file * SIZE + rank`, SIZE = 11.
- Sides and directions: N = 0, E = 1, S = 2, W = 3, clockwise. Direction d from p leads to the neighbour at
  DELTA[d]; the triangle of p on side d faces the segment leaving p in direction d.
- Triangle id `p * 4 + d`. Half-diagonal id `p * 4 + h`: the half-diagonal between triangles h and h + 1 (mod 4)
  of p, running from the centre of the intersection to its corner HALF_DIAGONAL_NAMES[h] (NE, SE, SW, NW).
  Triangles h and h + 2 are opposite: they meet only at the centre, which is not a contact.
- Printed squares: index 0..BOARD_SQUARES-1 per axis; square i lies between intersection lines i - 1 and i, so
  intersection (f, r) is surrounded by squares f..f+1 × r..r+1, and `O@p` surrounds square (f + 1, r + 1).

A `Placement` is one tile lying in one place: its path, caps, triangles (as a bit mask over triangle ids) and its
edges: the outer half-diagonals of its triangles, each marked as part of an end (cap) or of a corner.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

from bot.engine.text import Text

from .data import BOARD_SQUARES, PLAYING_AREA, TILE_SET, TileKind

# --- the grid ------------------------------------------------------------------------------------------------

SIZE = BOARD_SQUARES - 1  # intersections per file and per rank
POINTS = SIZE * SIZE
N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = "NESW"
HALF_DIAGONAL_NAMES = ("NE", "SE", "SW", "NW")
DELTA = ((0, 1), (1, 0), (0, -1), (-1, 0))
CAPS = ("A", "Wl", "Wr")


def point(file: int, rank: int) -> int:
    return file * SIZE + rank


def coords(p: int) -> tuple[int, int]:
    return divmod(p, SIZE)


POINT_NAMES: tuple[str, ...] = tuple(f"{chr(ord('a') + p // SIZE)}{p % SIZE + 1}" for p in range(POINTS))


def neighbour(p: int, d: int) -> int | None:
    f, r = coords(p)
    f, r = f + DELTA[d][0], r + DELTA[d][1]
    return point(f, r) if 0 <= f < SIZE and 0 <= r < SIZE else None


def triangle(p: int, side: int) -> int:
    return p * 4 + side


def half_diagonal(p: int, h: int) -> int:
    return p * 4 + h


def triangle_name(t: int) -> tuple[str, str]:
    return POINT_NAMES[t // 4], SIDE_NAMES[t % 4]


def half_diagonal_name(hd: int) -> tuple[str, str]:
    return POINT_NAMES[hd // 4], HALF_DIAGONAL_NAMES[hd % 4]


def half_diagonal_triangles(hd: int) -> tuple[int, int]:
    p, h = divmod(hd, 4)
    return triangle(p, h), triangle(p, (h + 1) % 4)


# Bit masks selecting the triangles of one side at every intersection, for rotating whole masks at once.
_SIDE_MASK = tuple(sum(1 << triangle(p, d) for p in range(POINTS)) for d in range(4))


def with_clockwise_neighbour(mask: int) -> int:
    """Triangles t whose clockwise neighbour t + 1 (same intersection) is in `mask`."""
    return ((mask >> 1) & ~_SIDE_MASK[W]) | ((mask & _SIDE_MASK[N]) << 3)


def with_anticlockwise_neighbour(mask: int) -> int:
    """Triangles t whose anticlockwise neighbour t - 1 (same intersection) is in `mask`."""
    return ((mask << 1) & ~_SIDE_MASK[N]) | ((mask & _SIDE_MASK[W]) >> 3)


# --- tile edges ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Edge:
    """One outer half-diagonal of a tile: `own` is the tile's triangle on it, `other` the triangle across."""

    half_diagonal: int
    own: int
    other: int
    end: bool  # part of a cap's edge (scores and connects) rather than of a corner


def _arrow_edges(p: int, side: int) -> tuple[Edge, Edge]:
    """An arrow occupies one triangle; both its sides are half edges."""
    t = triangle(p, side)
    return (
        Edge(half_diagonal(p, (side - 1) % 4), t, triangle(p, (side - 1) % 4), True),
        Edge(half_diagonal(p, side), t, triangle(p, (side + 1) % 4), True),
    )


def _pair_edges(p: int, a: int, b: int, end: bool) -> tuple[Edge, Edge]:
    """Two neighbouring triangles (a corner, or a whole edge): their outer sides form one straight diagonal."""
    lo = a if (a + 1) % 4 == b else b  # the pair is lo, lo + 1
    return (
        Edge(half_diagonal(p, (lo - 1) % 4), triangle(p, lo), triangle(p, (lo - 1) % 4), end),
        Edge(half_diagonal(p, (lo + 1) % 4), triangle(p, (lo + 1) % 4), triangle(p, (lo + 2) % 4), end),
    )


def cap_sides(inward: int, cap: str) -> tuple[int, ...]:
    """Sides occupied by a cap whose own segment leaves its intersection in direction `inward`.

    Standing on the end looking out of the tile you face `inward + 2`; your right hand is then `inward - 1` and
    your left `inward + 1` (clockwise order N, E, S, W)."""
    if cap == "A":
        return (inward,)
    return (inward, (inward + 1) % 4 if cap == "Wl" else (inward - 1) % 4)


def cap_edges(p: int, inward: int, cap: str) -> tuple[Edge, Edge]:
    sides = cap_sides(inward, cap)
    return _arrow_edges(p, inward) if len(sides) == 1 else _pair_edges(p, sides[0], sides[1], True)


# --- paths ---------------------------------------------------------------------------------------------------


def path_points(start: int, dirs: str) -> list[int | None]:
    """The intersections along a path (None once it leaves the board)."""
    points: list[int | None] = [start]
    for letter in dirs:
        last = points[-1]
        points.append(None if last is None else neighbour(last, SIDE_NAMES.index(letter)))
    return points


def path_problem(start: int, dirs: str) -> str | None:
    """Why no tile can lie along this path (None if one could, whatever its shape)."""
    points = path_points(start, dirs)
    for i in range(1, len(dirs)):
        a, b = SIDE_NAMES.index(dirs[i - 1]), SIDE_NAMES.index(dirs[i])
        at = POINT_NAMES[p] if (p := points[i]) is not None else Text("the edge")
        if a == b:
            return Text("a tile never runs straight through an intersection (at {point})", point=at)
        if (a + 2) % 4 == b:
            return Text("a tile cannot turn back on itself (at {point})", point=at)
    if None in points:
        return Text("the path leaves the board")
    if len(set(points)) < len(points):
        return Text("the path crosses itself")
    return None


_MIRROR = str.maketrans("LR", "RL")


def turns_of(dirs: str) -> str:
    """'R' for each clockwise turn, 'L' for each anticlockwise one."""
    sides = [SIDE_NAMES.index(c) for c in dirs]
    return "".join("R" if (b - a) % 4 == 1 else "L" for a, b in zip(sides, sides[1:]))


def shape_key(turns: str) -> str:
    """The same shape whatever the flip or the end it is walked from: mirror so it starts with L, then take the
    smaller of the two walking directions (walking backwards reverses the turns and swaps L and R)."""

    def lead_left(s: str) -> str:
        return s if not s or s[0] == "L" else s.translate(_MIRROR)

    return min(lead_left(turns), lead_left(turns[::-1].translate(_MIRROR)))


def reverse_dirs(dirs: str) -> str:
    return "".join(SIDE_NAMES[(SIDE_NAMES.index(c) + 2) % 4] for c in reversed(dirs))


def tile_text(start: int, dirs: str, cap0: str, cap1: str) -> str:
    return f"{POINT_NAMES[start]}{dirs}:{cap0}.{cap1}"


def octagon_text(corner: int) -> str:
    return f"O@{POINT_NAMES[corner]}"


# --- placements ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """One tile kind lying in one place. `points` run along the canonical writing (the ring: anticlockwise from
    its lower-left corner); `caps[0]` sits at points[0] and `caps[1]` at points[-1] (empty for the ring)."""

    id: int
    notation: str
    kind: str
    points: tuple[int, ...]
    caps: tuple[str, ...]
    triangles: tuple[int, ...]
    mask: int
    edges: tuple[Edge, ...]
    writings: tuple[tuple[int, str], ...]  # (start point, text after the start's name), one per end

    @property
    def ring(self) -> bool:
        return not self.caps

    @property
    def segments(self) -> tuple[tuple[int, int], ...]:
        pts = self.points + self.points[:1] if self.ring else self.points
        return tuple(zip(pts, pts[1:]))

    @property
    def end_half_diagonals(self) -> frozenset[int]:
        return frozenset(e.half_diagonal for e in self.edges if e.end)


def _tile_layout(points: list[int], dirs: str, caps: tuple[str, str]) -> tuple[list[int], list[Edge]]:
    """Triangles and edges of an open path with its two caps."""
    sides = [SIDE_NAMES.index(c) for c in dirs]
    triangles: list[int] = []
    edges: list[Edge] = []
    for i, p in enumerate(points):
        if i == 0:
            occupied, inward_edges = cap_sides(sides[0], caps[0]), cap_edges(p, sides[0], caps[0])
        elif i == len(points) - 1:
            inward = (sides[-1] + 2) % 4
            occupied, inward_edges = cap_sides(inward, caps[1]), cap_edges(p, inward, caps[1])
        else:  # a corner: the triangles facing the segment it came by and the one it leaves by
            occupied = ((sides[i - 1] + 2) % 4, sides[i])
            inward_edges = _pair_edges(p, *occupied, False)
        triangles += [triangle(p, s) for s in occupied]
        edges += inward_edges
    return triangles, edges


def _ring_layout(corner: int) -> tuple[list[int], list[int], list[Edge]] | None:
    f, r = coords(corner)
    if f + 1 >= SIZE or r + 1 >= SIZE:
        return None
    corners = [(point(f, r), (N, E)), (point(f + 1, r), (W, N)), (point(f + 1, r + 1), (S, W)),
               (point(f, r + 1), (E, S))]
    triangles = [triangle(p, s) for p, pair in corners for s in pair]
    edges = [e for p, pair in corners for e in _pair_edges(p, *pair, False)]
    return [p for p, _ in corners], triangles, edges


def _cap_pairs(caps: str) -> list[tuple[str, str]]:
    """Every (start cap, end cap) a tile with these cap letters can show, W caps on either side."""
    return [(a, b) for a in CAPS for b in CAPS if sorted(a[0] + b[0]) == sorted(caps)]


def _open_paths(segments: int):
    """Every path on the board with that many segments turning at each intersection, from each end."""
    for start in range(POINTS):
        for first in range(4):
            for turns in product((1, 3), repeat=segments - 1):
                sides = [first]
                for t in turns:
                    sides.append((sides[-1] + t) % 4)
                dirs = "".join(SIDE_NAMES[s] for s in sides)
                if path_problem(start, dirs) is None:
                    yield start, dirs


def _raw_placements(kind: TileKind):
    """(notation, points, caps, triangles, edges, writings) of every placement of one kind, once each."""
    if kind.ring:
        for corner in range(POINTS):
            layout = _ring_layout(corner)
            if layout:
                points, triangles, edges = layout
                yield octagon_text(corner), points, (), triangles, edges, ((corner, ""),)
        return
    wanted = shape_key(kind.turns)
    for start, dirs in _open_paths(kind.segments):
        if shape_key(turns_of(dirs)) != wanted:
            continue
        points = [p for p in path_points(start, dirs) if p is not None]
        back = reverse_dirs(dirs)
        for cap0, cap1 in _cap_pairs(kind.caps):
            text = tile_text(start, dirs, cap0, cap1)
            if text > tile_text(points[-1], back, cap1, cap0):
                continue  # listed from its other end
            triangles, edges = _tile_layout(points, dirs, (cap0, cap1))
            writings = ((start, f"{dirs}:{cap0}.{cap1}"), (points[-1], f"{back}:{cap1}.{cap0}"))
            yield text, points, (cap0, cap1), triangles, edges, writings


@dataclass(frozen=True)
class Catalogue:
    """Every placement on the whole board, ids in canonical code-point order of their notation."""

    placements: tuple[Placement, ...]
    by_text: dict[str, int]  # both writings of every placement -> id
    masks: tuple[int, ...]
    kind_index: tuple[int, ...]  # position of the placement's kind in TILE_SET


KIND_KEYS: tuple[str, ...] = tuple(k.key for k in TILE_SET)
KINDS: dict[str, TileKind] = {k.key: k for k in TILE_SET}


@cache
def catalogue() -> Catalogue:
    raw = [(kind.key, *item) for kind in TILE_SET for item in _raw_placements(kind)]
    raw.sort(key=lambda item: item[1])
    placements = tuple(
        Placement(i, text, key, tuple(points), caps, tuple(tris), sum(1 << t for t in tris), tuple(edges), writings)
        for i, (key, text, points, caps, tris, edges, writings) in enumerate(raw)
    )
    by_text: dict[str, int] = {}
    for pl in placements:
        by_text[pl.notation] = pl.id
        for start, rest in pl.writings:
            by_text[f"{POINT_NAMES[start]}{rest}" if rest else octagon_text(start)] = pl.id
    return Catalogue(
        placements,
        by_text,
        tuple(pl.mask for pl in placements),
        tuple(KIND_KEYS.index(pl.kind) for pl in placements),
    )


# --- playing areas -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Area:
    """The usable part of the board for one player count, with the move generator's lookup tables."""

    num_players: int
    squares: int  # side of the central block of printed squares
    first_square: int  # 0-based index of its first square on each axis
    first_point: int  # 0-based file/rank range of the usable intersections, inclusive
    last_point: int
    usable_mask: int  # usable triangles
    octagons: tuple[int, ...]  # ids of the rings that fit
    # touching[t * 2 + s]: ids of usable non-ring placements with an end edge across from triangle t, lying in
    # t's clockwise neighbour (s = 0) or anticlockwise neighbour (s = 1). A tile connects through t when t
    # belongs to another player.
    touching: tuple[tuple[int, ...], ...]

    def usable_point(self, p: int) -> bool:
        f, r = coords(p)
        return self.first_point <= f <= self.last_point and self.first_point <= r <= self.last_point

    def fits(self, pl: Placement) -> bool:
        return not pl.mask & ~self.usable_mask


@cache
def area(num_players: int) -> Area:
    squares = PLAYING_AREA[num_players]
    first_square = (BOARD_SQUARES - squares) // 2
    # an intersection is usable when the four squares around it (its own index and the next) are in the area
    first_point, last_point = first_square, first_square + squares - 2
    usable_points = [
        p for p in range(POINTS) if all(first_point <= c <= last_point for c in coords(p))
    ]
    usable_mask = sum(1 << triangle(p, s) for p in usable_points for s in range(4))
    cat = catalogue()
    fitting = [pl for pl in cat.placements if not pl.mask & ~usable_mask]
    touching: list[list[int]] = [[] for _ in range(POINTS * 8)]
    for pl in fitting:
        for e in pl.edges:
            if e.end:
                touching[e.other * 2 + (0 if e.own % 4 == (e.other + 1) % 4 else 1)].append(pl.id)
    return Area(
        num_players,
        squares,
        first_square,
        first_point,
        last_point,
        usable_mask,
        tuple(pl.id for pl in fitting if pl.ring),
        tuple(tuple(ids) for ids in touching),
    )
