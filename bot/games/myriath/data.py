"""Myriath's published values: board size, playing areas, tile set, seat colours.

The original pictures are lost, so these are the reconstruction of `docs/rules/myriath.md` (the parts marked
"(data)"). When the published values turn up, change them here only: the geometry, the move generator, the
picker and the view all read them from this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.text import Text

# Printed squares along each side; the channels cross in (BOARD_SQUARES - 1)² intersections, files a.. ranks 1..
BOARD_SQUARES = 12

# Players -> side of the central square of printed squares that forms the playing area.
PLAYING_AREA: dict[int, int] = {2: 8, 3: 10, 4: 12}


@dataclass(frozen=True)
class TileKind:
    """One kind of tile in a player's set.

    `turns` is the path's shape as its turns seen walking it: "" for one segment, "L" for an L, "LL" for a U
    (both turns the same way), "LR" for a Z (turns alternate). Mirror images and reversed walks count as the same
    shape (tiles may be flipped). `caps` are the two end types, "A" (arrow) or "W" (whole edge), in any order.
    The octagon is the one `ring` kind: four segments closed around a printed square, no ends.
    """

    key: str  # short id used in the picker and in views, e.g. "2AW"
    name: str  # what a player reads, e.g. "L (2 segments) A·W" (a Text, so it can be translated)
    count: int  # tiles of this kind in each player's set
    segments: int = 4
    turns: str = ""
    caps: str = ""
    ring: bool = False


OCTAGON = "O"

TILE_SET: tuple[TileKind, ...] = (
    TileKind(OCTAGON, Text("octagon"), 1, ring=True),
    TileKind("1AA", Text("1 segment A·A"), 5, segments=1, caps="AA"),
    TileKind("1AW", Text("1 segment A·W"), 3, segments=1, caps="AW"),
    TileKind("1WW", Text("1 segment W·W"), 2, segments=1, caps="WW"),
    TileKind("2AA", Text("L (2 segments) A·A"), 2, segments=2, turns="L", caps="AA"),
    TileKind("2AW", Text("L (2 segments) A·W"), 1, segments=2, turns="L", caps="AW"),
    TileKind("2WW", Text("L (2 segments) W·W"), 1, segments=2, turns="L", caps="WW"),
    TileKind("3UAA", Text("U (3 segments) A·A"), 2, segments=3, turns="LL", caps="AA"),
    TileKind("3ZAA", Text("Z (3 segments) A·A"), 2, segments=3, turns="LR", caps="AA"),
)

# Seat colours: the Okabe–Ito palette, which stays distinguishable with every common colour-vision deficiency.
# Seats 0 and 1 (the two-player game) get the pair that differs most. Renderers match on the hex values.
SEAT_COLOURS: tuple[tuple[str, str], ...] = (
    ("Vermilion", "#D55E00"),
    ("Blue", "#0072B2"),
    ("Yellow", "#F0E442"),
    ("Green", "#009E73"),
)
