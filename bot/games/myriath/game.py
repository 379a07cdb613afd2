"""Myriath (Martijn Althuizen): 2–4 players lay tiles in the channels of a street grid and score for every half
of a tile end that touches another tile.

The rules are those of `docs/rules/myriath.md`; the geometry lives in `geometry.py` and the published values
(board, areas, tile set, colours) in `data.py`. A state keeps, besides the tile list, the occupied triangles as
bit masks (all, and per seat) and `tri_tile` (which tile lies in each triangle), so legality and scoring are a few
integer operations. Move generation starts from the triangles of other players that still have a free
neighbour: only a tile with an end edge right there can connect, and `geometry.Area.touching` lists those.

Tests build positions with `position(num_players, [(seat, "c3NE:A.Wr"), ...], to_move=...)`.

A player who leaves (resigns or runs out of time, `eliminate`) — the rules page does not foresee it, so:

- Her tiles stay on the board as they are: they still count as another player's tile for the contact rule and
  still score by the scoring rules (for whoever touches them, and 0.5 for her when a new tile touches one of her
  ends, as for any tile). She places nothing more and is skipped in the turn order; she cannot win.
- The game ends when every player still in has passed in succession (a pass she made no longer counts), or at
  once when a single player is left, who wins with the reason given. Otherwise the highest score among the
  players still in wins.
- A player who leaves during the setup before placing her octagon shortens the setup by one turn.
- `standings`: winners, then the others still in by score (ties grouped), then those who left, the later first.
  Leaving never ranks above playing on, so nobody gains a place by resigning.
- The seed (it only drew the starting player, which the view shows) is not in the view: `sample_state` rebuilds
  everything else exactly and leaves the seed at 0.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from bot.engine.base import (
    JSON,
    Choices,
    Event,
    Game,
    GameInfo,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    event,
    seeded_rng,
)
from bot.engine.grid import parse_square
from bot.engine.text import Text, join
from . import geometry as geo
from .data import OCTAGON, PLAYING_AREA, SEAT_COLOURS, TILE_SET
from .picker import picker_step

# --- types and constants -------------------------------------------------------------------------------------

SEAT_NAMES = tuple(name for name, _ in SEAT_COLOURS)
STARTING_HALVES = (0, 0, 1, 2)  # by turn position: the 3rd player starts with ½, the 4th with 1
PASS = "pass"
FULL_SUPPLY = tuple(k.count for k in TILE_SET)
OCTAGON_KIND = next(i for i, k in enumerate(TILE_SET) if k.key == OCTAGON)


def points_text(halves: int) -> str:
    """3½, 4, ½."""
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def points_number(halves: int) -> int | float:
    return halves // 2 if halves % 2 == 0 else halves / 2


# --- metadata ------------------------------------------------------------------------------------------------

INFO = GameInfo(
    key="myriath",
    title="Myriath",
    min_players=2,
    max_players=4,
    hidden_information=False,
    summary=(
        "Two to four players lay tiles in the channels of a street-grid board. Each player first places an "
        "octagon around a printed square; after that every tile must touch another player's tile with one of its "
        "ends. A tile end is an arrow (two half edges) or a whole edge; each half of an end that touches another "
        "tile scores half a point for its owner, whoever placed the touching tile, and corners score nothing. "
        "A player who cannot place passes; when everybody has passed in a row the highest score wins, and equal "
        "highest scores share the win. Later players start with a small bonus."
    ),
    seat_names=SEAT_NAMES[:2],
)

# --- notation ------------------------------------------------------------------------------------------------

_TILE_TEXT = re.compile(r"([a-z]\d{1,2})([nesw]+):(a|w[lr]?)\.(a|w[lr]?)")
_OCTAGON_TEXT = re.compile(r"o@([a-z]\d{1,2})")


@dataclass(frozen=True)
class TileMove:
    """A tile written from `start` along `dirs` (letters N E S W), with a cap at each end (A, Wl or Wr)."""

    start: int
    dirs: str
    caps: tuple[str, str]


@dataclass(frozen=True)
class OctagonMove:
    corner: int  # lower-left corner of the enclosed square


@dataclass(frozen=True)
class PassMove:
    pass


Move = TileMove | OctagonMove | PassMove


def _parse_point(text: str) -> int:
    f, r = parse_square(text, geo.SIZE, geo.SIZE)
    return geo.point(f, r)


def _cap(text: str) -> str:
    if text == "w":
        raise MoveSyntaxError(Text("a W cap needs its side: Wl (left) or Wr (right), seen from the end looking out"))
    return "A" if text == "a" else "W" + text[1]


def parse_move(text: str) -> Move:
    """'c3NE:A.Wr', 'O@c3', 'pass'; case and surrounding spaces do not matter."""
    lowered = text.strip().lower()
    if lowered == PASS:
        return PassMove()
    if m := _OCTAGON_TEXT.fullmatch(lowered):
        return OctagonMove(_parse_point(m.group(1)))
    if m := _TILE_TEXT.fullmatch(lowered):
        return TileMove(_parse_point(m.group(1)), m.group(2).upper(), (_cap(m.group(3)), _cap(m.group(4))))
    raise MoveSyntaxError(Text(
        "'{text}' is not a move: write a tile as start, directions and caps (like c3NE:A.Wr), "
        "the octagon as O@c3, or pass", text=text.strip()))


def format_move(move: Move) -> str:
    """The text as written (a tile is canonical only when written from its canonical end)."""
    if isinstance(move, PassMove):
        return PASS
    if isinstance(move, OctagonMove):
        return geo.octagon_text(move.corner)
    return geo.tile_text(move.start, move.dirs, *move.caps)


def canonical(text: str) -> str:
    """The canonical form of a move text (raises MoveSyntaxError / IllegalMoveError like apply)."""
    move = parse_move(text)
    return PASS if isinstance(move, PassMove) else geo.catalogue().placements[_placement_id(move)].notation


def _placement_id(move: TileMove | OctagonMove) -> int:
    """The placement a move names, or an IllegalMoveError saying why no tile lies like that."""
    written = format_move(move)
    found = geo.catalogue().by_text.get(written)
    if found is not None:
        return found
    if isinstance(move, OctagonMove):
        raise IllegalMoveError(Text("{move}: the ring around that square would leave the board", move=written))
    problem = geo.path_problem(move.start, move.dirs)
    if problem:
        raise IllegalMoveError(Text("{move}: {problem}", move=written, problem=problem))
    raise IllegalMoveError(Text("{move}: no tile has that shape with those caps (see the tile set in /rules)",
                                move=written))


# --- state ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    owner: int
    placement: int  # id in geometry.catalogue()


@dataclass(frozen=True)
class State:
    num_players: int
    seed: int
    start: int  # the starting player; seat to move is (start + ply) % num_players
    ply: int
    tiles: tuple[Tile, ...]  # in the order they were placed
    occupied: int  # bit mask of occupied triangles
    owned: tuple[int, ...]  # the same, per seat
    tri_tile: bytes  # per triangle: 0 when free, else 1 + index into tiles
    supplies: tuple[tuple[int, ...], ...]  # per seat, tiles left per kind in TILE_SET order
    scores: tuple[int, ...]  # in half points
    passes: int  # passes in a row
    last_move: str | None
    over: bool = False
    to_move: int = 0  # the seat to play: the next seat still in after the last mover
    left: tuple[int, ...] = ()  # seats that left the game (resigned, timed out), in the order they left
    end_reason: str | None = None  # set when the game ended because a single player was left

    @property
    def in_play(self) -> list[int]:
        return [] if self.over else [s for s in range(self.num_players) if s not in self.left]

    @property
    def in_setup(self) -> bool:
        """Setup is one octagon per player; a player who left before placing hers shortens it."""
        skipped = sum(1 for s in self.left if self.supplies[s][OCTAGON_KIND])
        return self.ply < self.num_players - skipped

    def next_seat(self, seat: int, backwards: bool = False) -> int:
        """The next seat after `seat` in turn order (or before it) that is still in the game."""
        for step in range(1, self.num_players + 1):
            nxt = (seat - step if backwards else seat + step) % self.num_players
            if nxt not in self.left:
                return nxt
        return seat

    def turn_position(self, seat: int) -> int:
        return (seat - self.start) % self.num_players


def _empty_state(num_players: int, seed: int, start: int, scores: tuple[int, ...]) -> State:
    return State(
        num_players=num_players,
        seed=seed,
        start=start,
        ply=0,
        tiles=(),
        occupied=0,
        owned=(0,) * num_players,
        tri_tile=bytes(geo.POINTS * 4),
        supplies=(FULL_SUPPLY,) * num_players,
        scores=scores,
        passes=0,
        last_move=None,
        to_move=start,
    )


def _with_tile(state: State, seat: int, pid: int) -> State:
    """The board and supply after `seat` lays placement `pid` (no checks, no scoring, no turn change)."""
    pl = geo.catalogue().placements[pid]
    tri_tile = bytearray(state.tri_tile)
    for t in pl.triangles:
        tri_tile[t] = len(state.tiles) + 1
    supply = list(state.supplies[seat])
    supply[geo.KIND_KEYS.index(pl.kind)] -= 1
    return replace(
        state,
        tiles=state.tiles + (Tile(seat, pid),),
        occupied=state.occupied | pl.mask,
        owned=tuple(m | pl.mask if s == seat else m for s, m in enumerate(state.owned)),
        tri_tile=bytes(tri_tile),
        supplies=tuple(tuple(supply) if s == seat else sup for s, sup in enumerate(state.supplies)),
    )


def position(
    num_players: int,
    tiles: Iterable[tuple[int, str]] = (),
    *,
    to_move: int = 0,
    scores: Sequence[float] | None = None,
    supplies: Sequence[dict[str, int]] | None = None,
    seed: int = 0,
) -> State:
    """A position for tests: `tiles` are (owner, move text) laid in order with no rule checked but overlap, no
    scoring, setup over. `to_move` is the seat to play (it is also taken as the starting player). `supplies`
    (kind key -> count per seat, missing kinds 0) replaces the supplies left after laying the tiles."""
    halves = tuple(int(s * 2) for s in scores) if scores is not None else (0,) * num_players
    state = replace(_empty_state(num_players, seed, to_move, halves), ply=num_players)
    for seat, text in tiles:
        move = parse_move(text)
        assert not isinstance(move, PassMove)
        pid = _placement_id(move)
        if geo.catalogue().masks[pid] & state.occupied:
            raise ValueError(f"{text} overlaps a tile already placed")
        state = _with_tile(state, seat, pid)
    if supplies is not None:
        state = replace(state, supplies=tuple(tuple(sup.get(k, 0) for k in geo.KIND_KEYS) for sup in supplies))
    return state


# --- move generation -----------------------------------------------------------------------------------------


def _legal_ids(state: State, seat: int) -> list[int]:
    """Ids of every placement `seat` may make now, in canonical notation order."""
    if state.over or seat != state.to_move:
        return []
    area = geo.area(state.num_players)
    masks = geo.catalogue().masks
    occupied = state.occupied
    if state.in_setup:
        return [pid for pid in area.octagons if not masks[pid] & occupied]
    supply = state.supplies[seat]
    kinds = geo.catalogue().kind_index
    others = occupied & ~state.owned[seat]
    free = area.usable_mask & ~occupied
    found: set[int] = set()
    touching = area.touching
    # t belongs to another player and a free neighbour lies on its clockwise (key 2t) or other side (2t + 1)
    for offset, anchors in ((0, others & geo.with_clockwise_neighbour(free)),
                            (1, others & geo.with_anticlockwise_neighbour(free))):
        while anchors:
            low = anchors & -anchors
            anchors ^= low
            for pid in touching[(low.bit_length() - 1) * 2 + offset]:
                if not masks[pid] & occupied and supply[kinds[pid]]:
                    found.add(pid)
    return sorted(found)


def _moves(state: State, seat: int) -> list[str]:
    if state.over or seat != state.to_move:
        return []
    ids = _legal_ids(state, seat)
    if not ids:
        return [PASS]
    placements = geo.catalogue().placements
    return [placements[pid].notation for pid in ids]


# --- apply ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contact:
    """A half-diagonal the new tile now shares with an older tile, and which of the two sides are end edges."""

    half_diagonal: int
    other_tile: int  # index into State.tiles
    new_end: bool
    other_end: bool


def _contacts(state: State, pid: int) -> list[Contact]:
    """What placement `pid` would touch in `state` (it must not overlap anything)."""
    placements = geo.catalogue().placements
    found = []
    for e in placements[pid].edges:
        index = state.tri_tile[e.other] - 1
        if index < 0:
            continue
        other = placements[state.tiles[index].placement]
        found.append(Contact(e.half_diagonal, index, e.end, e.half_diagonal in other.end_half_diagonals))
    return found


def _check_placement(state: State, seat: int, pid: int, text: str) -> list[Contact]:
    pl = geo.catalogue().placements[pid]
    area = geo.area(state.num_players)
    if state.in_setup and not pl.ring:
        raise IllegalMoveError(Text("First place your octagon around a printed square, like O@e5"))
    if not state.in_setup and pl.ring:
        raise IllegalMoveError(Text("Your octagon is already on the board"))
    if not area.fits(pl):
        if pl.ring:
            raise IllegalMoveError(Text("{move}: the ring around that square does not fit in the {size}×{size} "
                                        "playing area of a {players}-player game", move=text, size=area.squares,
                                        players=state.num_players))
        raise IllegalMoveError(Text("{move}: the tile does not fit in the {size}×{size} playing area of a "
                                    "{players}-player game", move=text, size=area.squares, players=state.num_players))
    kind = geo.KINDS[pl.kind]
    if not state.supplies[seat][geo.KIND_KEYS.index(pl.kind)]:
        raise IllegalMoveError(Text("You have no {tile} tile left", tile=kind.name))
    if pl.mask & state.occupied:
        t = next(t for t in pl.triangles if state.occupied >> t & 1)
        raise IllegalMoveError(Text("{move} overlaps the tile at {point}", move=text, point=geo.POINT_NAMES[t // 4]))
    contacts = _contacts(state, pid)
    if not pl.ring and not any(
        c.new_end and state.tiles[c.other_tile].owner != seat for c in contacts
    ):
        raise IllegalMoveError(Text("{move}: one of the tile's ends must touch another player's tile", move=text))
    return contacts


def _score(state: State, seat: int, contacts: list[Contact]) -> tuple[list[int], list[JSON]]:
    """Half points gained per seat, and the contacts as event data."""
    gains = [0] * state.num_players
    described = []
    for c in contacts:
        other_owner = state.tiles[c.other_tile].owner
        scorers = []
        if c.new_end:
            gains[seat] += 1
            scorers.append(seat)
        if c.other_end:
            gains[other_owner] += 1
            scorers.append(other_owner)
        at, side = geo.half_diagonal_name(c.half_diagonal)
        described.append(
            {"at": at, "half_diagonal": side, "tile": c.other_tile, "owner": other_owner,
             "new_end": c.new_end, "other_end": c.other_end, "scorers": scorers}
        )
    return gains, described


def _place(state: State, seat: int, pid: int) -> tuple[State, list[Event]]:
    pl = geo.catalogue().placements[pid]
    contacts = _check_placement(state, seat, pid, pl.notation)
    new_state = _with_tile(state, seat, pid)
    events = [event("place", seat=seat, owner=seat, move=pl.notation, tile=len(state.tiles), **_tile_json(pl))]
    if not state.in_setup:  # octagons have no ends, and nothing scores during setup anyway
        gains, described = _score(state, seat, contacts)
        if any(gains):
            new_state = replace(new_state, scores=tuple(s + g for s, g in zip(state.scores, gains)))
            events.append(
                event("score", seat=seat, gains=[points_number(g) for g in gains],
                      scores=[points_number(s) for s in new_state.scores], contacts=described)
            )
    new_state = replace(new_state, ply=state.ply + 1, passes=0, last_move=pl.notation, to_move=state.next_seat(seat))
    return new_state, events


def _parse_for(state: State, seat: int, text: str) -> Move:
    parsed = parse_move(text)
    if state.over:
        raise IllegalMoveError(Text("The game is over"))
    if seat != state.to_move:
        raise IllegalMoveError(Text("It is not your turn: {side} is to play", side=Text(SEAT_NAMES[state.to_move])))
    return parsed


def _check_pass(state: State, seat: int) -> None:
    possible = _legal_ids(state, seat)
    if possible:
        raise IllegalMoveError(Text("You cannot pass: {count} placements are possible (e.g. {move})",
                                    count=len(possible), move=geo.catalogue().placements[possible[0]].notation))


def _pass(state: State, seat: int) -> tuple[State, list[Event]]:
    _check_pass(state, seat)
    new_state = replace(state, ply=state.ply + 1, passes=state.passes + 1, last_move=PASS,
                        to_move=state.next_seat(seat))
    events = [event("pass", seat=seat, empty_supply=not any(state.supplies[seat]))]
    return _end_if_all_passed(new_state, events)


def _end_if_all_passed(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The game ends when every player still in has passed in succession."""
    if state.passes < len(state.in_play):
        return state, events
    return _finish(replace(state, over=True), events)


def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    outcome = _outcome(state)
    assert outcome is not None
    events.append(event("end", winners=list(outcome.winners), reason=outcome.reason,
                        scores=[points_number(s) for s in state.scores]))
    return state, events


def _leave(state: State, seat: int, reason: str) -> tuple[State, list[Event]]:
    """`seat` leaves: skipped from now on; her pass, if it is among the passes in a row, no longer counts."""
    if seat not in state.in_play:
        raise IllegalMoveError(Text("The game is over") if state.over else
                               Text("Seat {seat} is not in the game", seat=seat))
    passes = state.passes
    if seat != state.to_move and seat in _recent_passers(state):
        passes -= 1
    new_state = replace(state, left=state.left + (seat,), passes=passes)
    if seat == state.to_move:
        new_state = replace(new_state, to_move=new_state.next_seat(seat))
    events = [event("out", seat=seat, reason=reason)]
    if len(new_state.in_play) == 1:
        return _finish(replace(new_state, over=True, end_reason=reason), events)
    return _end_if_all_passed(new_state, events)


def _recent_passers(state: State) -> list[int]:
    """The seats whose passes make up `passes`: the players still in just before the one to move."""
    seats, seat = [], state.to_move
    for _ in range(state.passes):
        seat = state.next_seat(seat, backwards=True)
        seats.append(seat)
    return seats


# --- end check -----------------------------------------------------------------------------------------------


def _outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    staying = [s for s in range(state.num_players) if s not in state.left]  # a player who left cannot win
    if state.end_reason is not None:
        return Outcome(tuple(staying), state.end_reason)
    best = max(state.scores[s] for s in staying)
    winners = tuple(s for s in staying if state.scores[s] == best)
    if len(winners) > 1:
        return Outcome(winners, Text("shared win on {points} points", points=points_text(best)))
    return Outcome(winners, Text("most points ({points})", points=points_text(best)))


# --- view ----------------------------------------------------------------------------------------------------


def _tile_json(pl: geo.Placement) -> JSON:
    """Everything a renderer needs to draw one placement."""
    names = geo.POINT_NAMES
    data: JSON = {
        "kind": pl.kind,
        "points": [names[p] for p in pl.points],
        "segments": [[names[a], names[b]] for a, b in pl.segments],
        "triangles": [list(geo.triangle_name(t)) for t in pl.triangles],
        "caps": [],
        "corners": [],
    }
    ends = {pl.points[0]: pl.caps[0], pl.points[-1]: pl.caps[1]} if pl.caps else {}
    by_point: dict[int, list[geo.Edge]] = {}
    for e in pl.edges:
        by_point.setdefault(e.half_diagonal // 4, []).append(e)
    for p, edges in by_point.items():
        entry = {
            "at": names[p],
            "triangles": sorted({geo.SIDE_NAMES[e.own % 4] for e in edges}, key=geo.SIDE_NAMES.index),
            "edge": [geo.HALF_DIAGONAL_NAMES[e.half_diagonal % 4] for e in edges],
        }
        if p in ends:
            data["caps"].append({**entry, "cap": ends[p]})
        else:
            data["corners"].append(entry)
    return data


def _contacts_json(state: State) -> list[JSON]:
    """Every half-diagonal shared by two tiles, with which sides are end edges (a scoring half is highlighted)."""
    placements = geo.catalogue().placements
    out = []
    for index, tile in enumerate(state.tiles):
        pl = placements[tile.placement]
        for e in pl.edges:
            other = state.tri_tile[e.other] - 1
            if other > index:  # each contact once, from the older tile
                other_pl = placements[state.tiles[other].placement]
                at, side = geo.half_diagonal_name(e.half_diagonal)
                out.append({"at": at, "half_diagonal": side, "tiles": [index, other],
                            "ends": [e.end, e.half_diagonal in other_pl.end_half_diagonals]})
    return out


def _view(state: State, viewer: int | None) -> JSON:
    n = state.num_players
    area = geo.area(n)
    placements = geo.catalogue().placements
    outcome = _outcome(state)
    return {
        "game": INFO.key,
        "num_players": n,
        "viewer": viewer,
        "to_act": [] if state.over else [state.to_move],
        "to_move": state.to_move,
        "left": list(state.left),
        "last_move": state.last_move,
        "ply": state.ply,
        "outcome": outcome.to_json() if outcome else None,
        "seat_names": list(SEAT_NAMES[:n]),
        "seat_colours": [hex_ for _, hex_ in SEAT_COLOURS[:n]],
        "phase": "over" if state.over else "setup" if state.in_setup else "play",
        "turn_order": [(state.start + i) % n for i in range(n)],
        "scores": [points_number(s) for s in state.scores],
        "scores_text": [points_text(s) for s in state.scores],
        "passes_in_a_row": state.passes,
        "board": {"squares": geo.SIZE + 1, "intersections": geo.SIZE},
        "area": {
            "squares": area.squares,
            "first_square": area.first_square,
            "last_square": area.first_square + area.squares - 1,
            "first_intersection": geo.POINT_NAMES[geo.point(area.first_point, area.first_point)],
            "last_intersection": geo.POINT_NAMES[geo.point(area.last_point, area.last_point)],
        },
        "tile_kinds": [{"key": k.key, "name": k.name, "count": k.count} for k in TILE_SET],
        "supplies": [{k.key: sup[i] for i, k in enumerate(TILE_SET)} for sup in state.supplies],
        "tiles": [
            {"index": i, "owner": t.owner, "move": placements[t.placement].notation,
             **_tile_json(placements[t.placement])}
            for i, t in enumerate(state.tiles)
        ],
        "contacts": _contacts_json(state),
    }


# --- dump / load ---------------------------------------------------------------------------------------------


def _dump(state: State) -> JSON:
    placements = geo.catalogue().placements
    return {
        "num_players": state.num_players,
        "seed": state.seed,
        "start": state.start,
        "ply": state.ply,
        "tiles": [[t.owner, placements[t.placement].notation] for t in state.tiles],
        "scores": list(state.scores),  # half points
        "passes": state.passes,
        "last_move": state.last_move,
        "over": state.over,
        "to_move": state.to_move,
        "left": list(state.left),
        "end_reason": state.end_reason,
    }


def _load(data: JSON) -> State:
    n = data["num_players"]
    state = _empty_state(n, data["seed"], data["start"], tuple(data["scores"]))
    by_text = geo.catalogue().by_text
    for owner, text in data["tiles"]:
        state = _with_tile(state, owner, by_text[text])
    # Older dumps have no "to_move" (nobody had left, so the turn followed the ply) and nobody had left.
    to_move = data.get("to_move", (data["start"] + data["ply"]) % n)
    return replace(state, ply=data["ply"], passes=data["passes"], last_move=data["last_move"], over=data["over"],
                   to_move=to_move, left=tuple(data.get("left", ())), end_reason=data.get("end_reason"))


def _from_view(view: JSON) -> State:
    """The exact state a view shows (everything in Myriath is public), but for the seed, which no view holds."""
    n = view["num_players"]
    state = _empty_state(n, 0, view["turn_order"][0], ())
    by_text = geo.catalogue().by_text
    for tile in view["tiles"]:
        state = _with_tile(state, tile["owner"], by_text[tile["move"]])
    supplies = tuple(tuple(sup[k.key] for k in TILE_SET) for sup in view["supplies"])
    over = view["phase"] == "over"
    staying = [s for s in range(n) if s not in view["left"]]
    ended_by_leaving = over and len(staying) == 1
    return replace(
        state, ply=view["ply"], supplies=supplies, scores=tuple(int(x * 2) for x in view["scores"]),
        passes=view["passes_in_a_row"], last_move=view["last_move"], over=over, to_move=view["to_move"],
        left=tuple(view["left"]), end_reason=view["outcome"]["reason"] if ended_by_leaving else None,
    )


# --- text board ----------------------------------------------------------------------------------------------


def _render_text(view: JSON) -> str:
    """Intersections on even columns/rows, channels between. A segment shows its owner's initial; an
    intersection shows the cap (A/W) of an end lying there, '+' for a corner, '.' when free, ' ' outside."""
    size = view["board"]["intersections"]
    initials = [name[0] for name in view["seat_names"]]
    first = geo.coords(_parse_point(view["area"]["first_intersection"]))[0]
    last = geo.coords(_parse_point(view["area"]["last_intersection"]))[0]
    grid = [[" "] * (2 * size - 1) for _ in range(2 * size - 1)]
    for f in range(first, last + 1):
        for r in range(first, last + 1):
            grid[2 * r][2 * f] = "."
    for tile in view["tiles"]:
        for a, b in tile["segments"]:
            (fa, ra), (fb, rb) = geo.coords(_parse_point(a)), geo.coords(_parse_point(b))
            grid[ra + rb][fa + fb] = initials[tile["owner"]]
        for corner in tile["corners"]:
            f, r = geo.coords(_parse_point(corner["at"]))
            grid[2 * r][2 * f] = "+" if grid[2 * r][2 * f] == "." else "*"
        for cap in tile["caps"]:
            f, r = geo.coords(_parse_point(cap["at"]))
            grid[2 * r][2 * f] = cap["cap"][0] if grid[2 * r][2 * f] == "." else "*"
    files = " ".join(chr(ord("a") + f) for f in range(size))
    lines = [f"    {files}"]
    for row in range(2 * size - 2, -1, -1):
        label = f"{row // 2 + 1:>2}" if row % 2 == 0 else "  "
        lines.append(f"{label}  {''.join(grid[row])}")
    lines.append(f"    {files}")
    for seat, name in enumerate(view["seat_names"]):
        left = sum(view["supplies"][seat].values())
        mark = " <" if seat in view["to_act"] else ""
        lines.append(f"{initials[seat]} {name}: {view['scores_text'][seat]} points, {left} tiles left{mark}")
    return "\n".join(lines)


# --- the game ------------------------------------------------------------------------------------------------


class MyriathGame(Game):
    info = INFO

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if num_players not in PLAYING_AREA:
            raise ValueError(f"Myriath is played by {min(PLAYING_AREA)} to {max(PLAYING_AREA)} players")
        start = seeded_rng(seed, "myriath", "start").randrange(num_players)
        halves = tuple(STARTING_HALVES[(seat - start) % num_players] for seat in range(num_players))
        return _empty_state(num_players, seed, start, halves)

    def to_act(self, state: State) -> list[int]:
        return [] if state.over else [state.to_move]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        return _moves(state, seat)

    def forced_move(self, state: State, seat: int) -> str | None:
        """With no legal placement, `pass` is the only move: the match plays it for the player."""
        return "pass" if self.legal_moves(state, seat) == ["pass"] else None

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list[Event]]:
        parsed = _parse_for(state, seat, move)
        if isinstance(parsed, PassMove):
            return _pass(state, seat)
        return _place(state, seat, _placement_id(parsed))

    def canonical(self, state: State, seat: int, text: str) -> str:
        """A path written from either end becomes its canonical form, checked as `apply` checks it."""
        parsed = _parse_for(state, seat, text)
        if isinstance(parsed, PassMove):
            _check_pass(state, seat)
            return PASS
        pl = geo.catalogue().placements[_placement_id(parsed)]
        _check_placement(state, seat, pl.id, pl.notation)
        return pl.notation

    def in_secret_setup(self, state: State) -> bool:
        return False  # the octagons go down in public

    def in_play(self, state: State) -> list[int]:
        return state.in_play

    def eliminate(self, state: State, seat: int, reason: str) -> tuple[State, list[Event]]:
        return _leave(state, seat, reason)

    def standings(self, state: State) -> list[list[int]]:
        outcome = _outcome(state)
        winners = list(outcome.winners) if outcome else []
        rest = [s for s in range(state.num_players) if s not in state.left and s not in winners]
        groups = [winners] if winners else []
        for score in sorted({state.scores[s] for s in rest}, reverse=True):
            groups.append([s for s in rest if state.scores[s] == score])
        return groups + [[s] for s in reversed(state.left)]

    def prepare(self) -> None:
        geo.catalogue()  # every placement on the board: ~0.6 s of CPU, once per process

    def sample_state(self, view: JSON, rng: random.Random) -> State:
        return _from_view(view)

    def outcome(self, state: State) -> Outcome | None:
        return _outcome(state)

    def view(self, state: State, viewer: int | None) -> JSON:
        return _view(state, viewer)

    def dump(self, state: State) -> JSON:
        return {**self.stamp(), **_dump(state)}

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        return _load(data)

    def render_text(self, view: JSON) -> str:
        return _render_text(view)

    def describe(self, ev: Event) -> str | None:
        kind = ev["type"]
        if kind == "place":
            name = geo.KINDS[ev["kind"]].name
            side = Text(SEAT_NAMES[ev["seat"]])
            if ev["kind"] == OCTAGON:
                return Text("{side} places her octagon {move}", side=side, move=ev["move"])
            return Text("{side} places {tile} {move}", side=side, tile=name, move=ev["move"])
        if kind == "score":
            gains = [join([Text(SEAT_NAMES[s]), f"+{points_text(int(g * 2))}"], " ")
                     for s, g in enumerate(ev["gains"]) if g]
            return Text("Scores: {gains}", gains=join(gains, ", "))
        if kind == "pass":
            if ev["empty_supply"]:
                return Text("{side} has no tile left and passes", side=Text(SEAT_NAMES[ev["seat"]]))
            return Text("{side} cannot place a tile and passes", side=Text(SEAT_NAMES[ev["seat"]]))
        if kind == "out":
            return Text("{side} leaves the game ({reason})", side=Text(SEAT_NAMES[ev["seat"]]), reason=ev["reason"])
        if kind == "end":
            names = join([Text(SEAT_NAMES[s]) for s in ev["winners"]], " & ")
            if len(ev["winners"]) > 1:
                return Text("Game over: {sides} share the win ({reason})", sides=names, reason=ev["reason"])
            return Text("Game over: {side} wins ({reason})", side=names, reason=ev["reason"])
        return None

    # --- the picker: tile kind -> start (file, rank when many) -> path and caps (path, caps when many) -------

    def choices(self, state: State, seat: int, chosen: Sequence[str] = ()) -> Choices:
        return picker_step(state, seat, tuple(chosen), _legal_ids(state, seat))

    def matching_moves(self, state: State, seat: int, typed: str, limit: int = 25) -> list[str]:
        typed = typed.strip()
        try:  # a complete move written from its other end still autocompletes to its canonical form
            text = canonical(typed)
            if text in _moves(state, seat):
                return [text]
        except (MoveSyntaxError, IllegalMoveError):
            pass
        return super().matching_moves(state, seat, typed, limit)


GAME = MyriathGame()
