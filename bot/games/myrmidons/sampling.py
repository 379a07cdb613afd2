"""A full Myrmidons state consistent with one seat's view, for a computer opponent that decides from that view.

What the viewer cannot see is drawn at random, subject to everything the view shows:

- values shown in the view (own pieces, pieces face up, both pieces of a fight in the last action's report);
- an army the viewer knows (her own, or both armies unless drafted): its types are exactly the ones placed;
- a drafted army the viewer does not know: the types seen so far, and fresh distinct types for the rest;
- the Commander is never an unseen eliminated piece (losing it ends the game, and the fight that did it is the
  last action, which shows its values); a piece that moved n squares in the last action has movement ≥ n, and
  the Commander moves exactly one square.

With the `memory` option, values shown in earlier fights have gone face down again and are in no view (that is
the option), so a sample keeps only those of the last action.

A deployment not yet made stays not made; an army not yet drafted stays undrafted. The seed, which no view
shows, is drawn too: it only matters for the first player, who is drawn once both armies stand.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Iterable, Sequence

from bot.engine.base import JSON, Outcome
from .army import ARMY_SIZE, BY_CODE, COMMANDER_CODE, TYPE_CODES, canonical_army
from .board import CELLS, EMPTY, FILES, LINE_TO, NAMES, PER_SEAT, SEAT_LETTERS, Piece, piece_index
from .state import State

SQUARE = {name: sq for sq, name in enumerate(NAMES)}


def sample_state(view: JSON, rng: random.Random, *, players_habits: bool = False) -> State:
    """A full state consistent with `view`. With `players_habits`, what the view leaves open is guessed as players
    tend to choose it (`_COMMANDER_PRIOR`, `_DRAFT_PRIOR`) instead of uniformly: the computer's search levels guess
    so, while its easy level and the Explore board guess without such habits."""
    pieces_json = {p["id"]: p for p in view["cells"].values()} | {p["id"]: p for p in view["eliminated_pieces"]}
    squares = [EMPTY] * (2 * PER_SEAT)
    revealed = [False] * (2 * PER_SEAT)
    travelled = [0] * (2 * PER_SEAT)
    actions = [0] * (2 * PER_SEAT)
    attacks = [0] * (2 * PER_SEAT)
    for p in pieces_json.values():
        index = _index_of(p["id"])
        revealed[index] = p["revealed"]
        travelled[index] = p.get("travelled", 0)
        actions[index] = p.get("actions", 0)
        attacks[index] = p.get("attacks", 0)
        if "square" in p:
            squares[index] = SQUARE[p["square"]]
    known = {p["id"]: p["code"] for p in pieces_json.values() if p["known"]}
    reach = _reach(view["last_action"])
    for p in pieces_json.values():  # every move so far, not only the last: a piece is as fast as it ever went
        reach[p["id"]] = max(reach.get(p["id"], 0), p.get("travelled", 0))
    for fight in (view["last_action"] or {}).get("fights", ()):
        known[fight["attacker"]["id"]] = fight["attacker"]["code"]
        known[fight["defender"]["id"]] = fight["defender"]["code"]

    armies: list[tuple[str, ...] | None] = []
    pieces: list[Piece | None] = [None] * (2 * PER_SEAT)
    for seat in (0, 1):
        army_json = view["armies"][seat]
        army = None if army_json is None else tuple(t["code"] for t in army_json if t["code"] != COMMANDER_CODE)
        setup = view["setup"][seat]
        if not setup["deployed"]:
            if setup["army_chosen"] and army is None:  # drafted in secret: any five types will do
                army = canonical_army(rng.sample(TYPE_CODES, ARMY_SIZE))
            armies.append(canonical_army(army) if army else None)
            continue
        ids = [f"{SEAT_LETTERS[seat]}{n}" for n in range(1, PER_SEAT + 1)]
        gone = {i for i in ids if squares[_index_of(i)] == EMPTY}
        codes = _assign(ids, known, army, gone, reach, rng, players_habits)
        armies.append(canonical_army([c for c in codes.values() if c != COMMANDER_CODE]))
        for number, piece_id in enumerate(ids, start=1):
            pieces[piece_index(seat, number)] = Piece(seat, number, BY_CODE[codes[piece_id]])

    board = [EMPTY] * CELLS
    for index, sq in enumerate(squares):
        if sq != EMPTY:
            board[sq] = index
    return State(
        seed=rng.randrange(1 << 31),
        army_option=view["options"]["army"],
        memory=view["options"]["memory"] == "on",
        armies=tuple(armies),
        pieces=tuple(pieces),
        board=tuple(board),
        squares=tuple(squares),
        revealed=tuple(revealed),
        turn=EMPTY if view["turn"] is None else view["turn"],
        first=EMPTY if view["first_player"] is None else view["first_player"],
        ply=view["ply"],
        last_move=view["last_move"],
        report=view["last_action"],
        outcome=Outcome.from_json(view["outcome"]),
        left=view["left"],
        travelled=tuple(travelled),
        actions=tuple(actions),
        attacks=tuple(attacks),
    )


# How likely a Commander is to start on each file, a→f (any scale). A corner Commander has one square to flee to
# and is trapped by a single enemy landing beside it, so players rarely put it there; that is public reasoning,
# and the file a piece started on is public too (pieces are numbered by the file they were deployed on).
_COMMANDER_PRIOR = (0.3, 1.0, 0.8, 0.8, 1.0, 0.3)


def draft_worth(code: str) -> float:
    """What drafting a type is worth to a player (and to the computer, which drafts by it): sword takes pieces,
    movement reaches the far rank, a thick shield only holds. Movement counts 0.85 of a sword point, not 0.8: with
    0.8 the fast 3/1/5, the 4/2/3 and the 5/3/1 tied, and the hard level, drafting by name among the ties, left
    out the 3/1/5 in a third of its drafts and won 78 % of those games against 84 % and 93 % with it."""
    kind = BY_CODE[code]
    return 1.0 * kind.sword + 0.85 * kind.move + 0.6 * kind.shield


def deployment_worth(codes: Sequence[str]) -> float:
    """What a deployment (codes by file a→f) is worth to a player (and to the computer, which deploys by it): more
    with the Commander off the corners (a corner Commander has one square to flee to, and a fast enemy landing in
    front of it traps it), flanked by strong swords that kill whatever lands next to it, and with the hardest and
    furthest strikers on central files."""
    where = list(codes).index(COMMANDER_CODE)
    value = (-3.0, 1.0, 0.5, 0.5, 1.0, -3.0)[where]
    for file, code in enumerate(codes):
        if code == COMMANDER_CODE:
            continue
        kind = BY_CODE[code]
        if abs(file - where) == 1:
            value += 0.4 * kind.sword
        centrality = 2.5 - abs(file - 2.5)
        value += 0.05 * centrality * (kind.sword + 0.5 * kind.move)
    return value


# How likely a player is to draft each type (any scale): an unseen draft is guessed hard-hitting and fast far more
# often than slow and thick (the weights run from 1 for 5/1/3, the best worth, down to about 1/55 for 1/5/3),
# without ruling anything out: what fights show is known, whatever the guess. docs/performance.md says why.
_BEST_WORTH = max(map(draft_worth, TYPE_CODES))
_DRAFT_PRIOR = {code: math.exp(2.5 * (draft_worth(code) - _BEST_WORTH)) for code in TYPE_CODES}


def _file_of(piece_id: str) -> int:
    return (int(piece_id[1:]) - 1) % FILES


def _weighted_shuffle(items: list, weight: Callable[[Any], float], rng: random.Random) -> None:
    """Reorder `items` in place so that each comes first with a chance in proportion to its weight, and so on
    down the list (Efraimidis and Spirakis: sort by u ** (1 / weight))."""
    items.sort(key=lambda item: -rng.random() ** (1.0 / weight(item)))


def _index_of(piece_id: str) -> int:
    return piece_index(SEAT_LETTERS.index(piece_id[0]), int(piece_id[1:]))


def _reach(report: JSON | None) -> dict[str, int]:
    """How far each piece of the last action went: its movement is at least that."""
    reach: dict[str, int] = {}
    for path in (report or {}).get("paths", ()):
        src, dst = SQUARE[path["from"]], SQUARE[path["to"]]
        reach[path["piece"]] = max(reach.get(path["piece"], 0), LINE_TO[(src, dst)][1])
    return reach


def _assign(
    ids: list[str], known: dict[str, str], army: Iterable[str] | None, gone: set[str], reach: dict[str, int],
    rng: random.Random, players_habits: bool = False,
) -> dict[str, str]:
    """A type for every piece of one seat: the known ones as shown, the others drawn so that every constraint of
    the module docstring holds. The Commander's piece is drawn first, among the pieces that may be it; the rest is
    a backtracking search over at most six pieces, so it finds an answer whenever one exists."""
    codes = {i: known[i] for i in ids if i in known}
    unknown = [i for i in ids if i not in codes]
    others = set(army) if army is not None else set(TYPE_CODES)  # a drafted army nobody has shown: any type
    pool = sorted(others - set(codes.values()))
    if COMMANDER_CODE in codes.values():
        commander_at: list[str | None] = [None]
    else:
        commander_at = [i for i in unknown if i not in gone and reach.get(i, 1) <= 1]
        if players_habits:  # the first that a fill admits is the sample's Commander
            _weighted_shuffle(commander_at, lambda i: _COMMANDER_PRIOR[_file_of(i)], rng)
        else:
            rng.shuffle(commander_at)

    def fill(rest: list[str], used: set[str], found: dict[str, str]) -> bool:
        if not rest:
            return True
        candidates = [c for c in pool if c not in used and BY_CODE[c].move >= reach.get(rest[0], 0)]
        if players_habits and army is None:  # an unseen draft; a known army's types are all equally likely here
            _weighted_shuffle(candidates, _DRAFT_PRIOR.__getitem__, rng)
        else:
            rng.shuffle(candidates)
        for code in candidates:
            found[rest[0]] = code
            if fill(rest[1:], used | {code}, found):
                return True
        found.pop(rest[0], None)
        return False

    for commander in commander_at:
        found = dict(codes)
        if commander is not None:
            found[commander] = COMMANDER_CODE
        if fill([i for i in unknown if i != commander], set(), found):
            return found
    raise ValueError("no army fits this view")
