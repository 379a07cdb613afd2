"""The myrmidon types as data: the one table the rules, the notation and every display read.

The printed pieces of the original game are lost, so which types make up an army is data (rules page, points
marked "(data)"): change the table or `STANDARD_ARMY` here and nothing else needs to change.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MyrmidonType:
    code: str  # "C" for the Commander, else "sword/shield/movement", e.g. "5/1/3"
    name: str  # a short display name
    sword: int
    shield: int
    move: int

    @property
    def is_commander(self) -> bool:
        return self.code == COMMANDER_CODE

    def to_json(self) -> dict:
        return {"code": self.code, "name": self.name, "sword": self.sword, "shield": self.shield, "move": self.move}


COMMANDER_CODE = "C"
COMMANDER = MyrmidonType(COMMANDER_CODE, "Commander", 1, 1, 1)

# Every (sword, shield, movement) in 1..5 summing to 9 — exactly 19 — with its display name. The table's order
# (sword high to low, then shield high to low) is the canonical order of the types in an `army` move.
_NAMED_TYPES: tuple[tuple[tuple[int, int, int], str], ...] = (
    ((5, 3, 1), "Brute"),
    ((5, 2, 2), "Slayer"),
    ((5, 1, 3), "Raider"),
    ((4, 4, 1), "Hoplite"),
    ((4, 3, 2), "Veteran"),
    ((4, 2, 3), "Hunter"),
    ((4, 1, 4), "Skirmisher"),
    ((3, 5, 1), "Bulwark"),
    ((3, 4, 2), "Guard"),
    ((3, 3, 3), "Warrior"),
    ((3, 2, 4), "Peltast"),
    ((3, 1, 5), "Outrider"),
    ((2, 5, 2), "Shieldbearer"),
    ((2, 4, 3), "Sentinel"),
    ((2, 3, 4), "Ranger"),
    ((2, 2, 5), "Scout"),
    ((1, 5, 3), "Tower"),
    ((1, 4, 4), "Warden"),
    ((1, 3, 5), "Messenger"),
)


def type_code(sword: int, shield: int, move: int) -> str:
    return f"{sword}/{shield}/{move}"


TYPES: tuple[MyrmidonType, ...] = tuple(MyrmidonType(type_code(*t), name, *t) for t, name in _NAMED_TYPES)
TYPE_CODES: tuple[str, ...] = tuple(t.code for t in TYPES)
BY_CODE: dict[str, MyrmidonType] = {COMMANDER_CODE: COMMANDER, **{t.code: t for t in TYPES}}
TABLE_ORDER: dict[str, int] = {code: i for i, code in enumerate(TYPE_CODES)}

ARMY_SIZE = 5  # types besides the Commander
STANDARD_ARMY: tuple[str, ...] = ("5/1/3", "4/4/1", "3/2/4", "2/5/2", "1/3/5")


def canonical_army(codes) -> tuple[str, ...]:
    """The types of an army in table order (how `army` moves and views list them)."""
    return tuple(sorted(codes, key=TABLE_ORDER.__getitem__))


def _check_table() -> None:
    every_triple = {
        (s, h, m) for s in range(1, 6) for h in range(1, 6) for m in range(1, 6) if s + h + m == 9
    }
    named = [t for t, _ in _NAMED_TYPES]
    assert set(named) == every_triple and len(named) == len(every_triple) == 19, "the type table is incomplete"
    assert named == sorted(named, key=lambda t: (-t[0], -t[1])), "the type table is out of order"
    assert len({name for _, name in _NAMED_TYPES}) == 19, "type names must differ"
    assert all(code in BY_CODE for code in STANDARD_ARMY) and len(set(STANDARD_ARMY)) == ARMY_SIZE


_check_table()
