"""What a player's own information proves about the opponent's hidden myrmidons.

Read from her view alone (the picture's audience is hers, so nothing here can say more than she may know):

- the types she has seen (her view shows them: face up after a fight, or in the last action's fight report);
- how far each hidden piece has moved in one step (public: everyone watched it move), so its movement is at least
  that, and a piece that went two squares or more is not the Commander (whose movement is 1);
- the opponent's army when she may know it (both armies unless drafted): the types still unseen are what the
  hidden pieces can be; a drafted army she was not shown leaves every type she has not seen.

A type is offered for a piece only if the opponent's pieces can all be given types at once with that piece being
it (every type at most once, the Commander among the pieces still on the board, since losing it ends the game):
a matching, so what one piece must be narrows the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .army import BY_CODE, COMMANDER_CODE, TYPE_CODES, canonical_army
from .board import SEAT_LETTERS

View = dict[str, Any]


@dataclass(frozen=True)
class HiddenPiece:
    square: str | None  # None for an eliminated piece whose values went face down again (the memory option)
    moved: int  # the farthest it has gone in one step
    could_be: tuple[str, ...]  # type codes, the Commander ("C") first, then table order


@dataclass(frozen=True)
class Knowledge:
    seat: int  # whose hidden pieces these are
    pieces: tuple[HiddenPiece, ...]  # on the board, by square
    unseen: tuple[str, ...]  # the types not yet seen, when her army is known; else ()
    army_known: bool


def knowledge(view: View) -> Knowledge | None:
    """What the view's viewer can prove about her opponent's hidden pieces; None for a public view, during the
    setup, or when every opponent piece is known."""
    viewer = view.get("viewer")
    if viewer is None or view["phase"] == "setup":
        return None
    seat = 1 - viewer
    mine = [p for p in (*view["cells"].values(), *view["eliminated_pieces"]) if p["owner"] == seat]
    seen = {p["id"]: p["code"] for p in mine if p["known"]}
    for fight in (view.get("last_action") or {}).get("fights", ()):
        for side in (fight["attacker"], fight["defender"]):
            if side["id"].startswith(SEAT_LETTERS[seat]) and side.get("code"):
                seen[side["id"]] = side["code"]
    hidden = [p for p in mine if p["id"] not in seen]
    if not hidden:
        return None
    army_json = view["armies"][seat]
    army_known = army_json is not None
    pool = [t["code"] for t in army_json] if army_known else [COMMANDER_CODE, *TYPE_CODES]
    pool = [code for code in pool if code not in seen.values()]
    moved = {p["id"]: p.get("travelled", 0) for p in hidden}
    on_board = {p["id"]: p["square"] for p in hidden if "square" in p}

    def fits(piece_id: str, code: str) -> bool:
        if code == COMMANDER_CODE:
            return piece_id in on_board and moved[piece_id] <= 1
        return BY_CODE[code].move >= moved[piece_id]

    ids = [p["id"] for p in hidden]
    commander_hidden = COMMANDER_CODE in pool
    could_be = {i: tuple(code for code in _order(pool) if fits(i, code)
                         and _assignable(ids, pool, fits, {i: code}, commander_hidden)) for i in ids}
    pieces = tuple(HiddenPiece(on_board.get(i), moved[i], could_be[i])
                   for i in sorted(ids, key=lambda i: _square_key(on_board.get(i))))
    unseen = tuple(_order(pool)) if army_known else ()
    return Knowledge(seat, pieces, unseen, army_known)


def _order(codes: list[str]) -> list[str]:
    rest = canonical_army([c for c in codes if c != COMMANDER_CODE])
    return ([COMMANDER_CODE] if COMMANDER_CODE in codes else []) + list(rest)


def _square_key(square: str | None) -> tuple[int, str, int]:
    return (1, "", 0) if square is None else (0, square[0], int(square[1:]))


def _assignable(ids: list[str], pool: list[str], fits, fixed: dict[str, str], commander_hidden: bool) -> bool:
    """Whether every hidden piece can get a distinct type of `pool` that fits it, with `fixed` as given, and the
    Commander given to one of them when it is unseen (Kuhn's augmenting paths: at most twelve pieces)."""
    taken: dict[str, str] = dict((code, piece) for piece, code in fixed.items())
    if commander_hidden and COMMANDER_CODE not in taken:
        # the Commander must sit on one of the free pieces: try each
        free = [i for i in ids if i not in fixed and fits(i, COMMANDER_CODE)]
        return any(_assignable(ids, pool, fits, {**fixed, i: COMMANDER_CODE}, False) for i in free)
    rest = [i for i in ids if i not in fixed]
    codes = [c for c in pool if c not in taken and c != COMMANDER_CODE]
    match: dict[str, str] = {}  # code -> piece

    def augment(piece: str, visited: set[str]) -> bool:
        for code in codes:
            if code in visited or not fits(piece, code):
                continue
            visited.add(code)
            if code not in match or augment(match[code], visited):
                match[code] = piece
                return True
        return False

    return all(augment(piece, set()) for piece in rest)
