"""Myrmidons rules: legal single moves and orders, checking a move, carrying it out (fights, repelled lines),
and the win conditions."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from bot.engine.base import JSON, IllegalMoveError, Outcome
from bot.engine.grid import DIRECTION_NAMES
from bot.engine.text import Text
from .army import ARMY_SIZE, COMMANDER_CODE, TYPE_CODES
from .board import (
    EMPTY,
    HOME_SQUARES,
    LINE_TO,
    LOSING_LOSSES,
    NAMES,
    NEIGHBOURS,
    PER_SEAT,
    RAYS,
    SEAT_NAMES,
    Piece,
    front_key,
    line_key,
    owner_of,
)
from .notation import Army, Deploy, Order, Step
from .state import State

def _blocked(board: Sequence[int], seat: int, src: int, direction: int, distance: int) -> str | None:
    """Why a piece of `seat` on `src` cannot go `distance` squares along `direction` on `board`, or None."""
    ray = RAYS[src][direction]
    if distance > len(ray):
        return Text("{square} would leave the board", square=NAMES[src])
    for sq in ray[: distance - 1]:
        if board[sq] != EMPTY:
            return Text("the way from {src} is blocked at {square} (no jumping)", src=NAMES[src], square=NAMES[sq])
    target = board[ray[distance - 1]]
    if target != EMPTY and owner_of(target) == seat:
        return Text("{square} holds one of your own pieces", square=NAMES[ray[distance - 1]])
    return None


def single_moves(state: State, seat: int) -> list[Step]:
    moves = []
    board = state.board
    for index in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
        src = state.squares[index]
        if src == EMPTY:
            continue
        reach = state.piece(index).kind.move
        for ray in RAYS[src]:
            for sq in ray[:reach]:
                occupant = board[sq]
                if occupant == EMPTY:
                    moves.append(Step(src, sq))
                    continue
                if owner_of(occupant) != seat:
                    moves.append(Step(src, sq))  # an attack
                break
    return moves


def _line_options(
    board: list[int], state: State, seat: int, direction: int, line: Sequence[int], commander_sq: int
) -> list[tuple[tuple[int, int], ...]]:
    """Every legal way the candidates on one line (front to back) can take part, judged as if attacks win."""
    results: list[tuple[tuple[int, int], ...]] = []
    items: list[tuple[int, int]] = []

    def extend(i: int) -> None:
        if i == len(line):
            results.append(tuple(items))
            return
        src = line[i]
        index = board[src]
        if src != commander_sq:  # the Commander always moves; the others may stay
            extend(i + 1)
        reach = 1 if src == commander_sq else state.piece(index).kind.move
        for sq in RAYS[src][direction][:reach]:
            occupant = board[sq]
            if occupant != EMPTY and owner_of(occupant) == seat:
                break
            board[src], board[sq] = EMPTY, index  # as if it got there (an attack wins)
            items.append((src, sq))
            extend(i + 1)
            items.pop()
            board[src], board[sq] = index, occupant
            if occupant != EMPTY:
                break

    extend(0)
    return results


def orders(state: State, seat: int) -> list[Order]:
    """Every legal order. Participants on different lines never interfere, so each line is solved alone and
    the orders are the combinations of one option per line."""
    commander = state.commander(seat)
    commander_sq = state.squares[commander] if commander != EMPTY else EMPTY
    if commander_sq == EMPTY:
        return []
    friends = [sq for sq in NEIGHBOURS[commander_sq] if state.board[sq] != EMPTY and owner_of(state.board[sq]) == seat]
    if not friends:
        return []
    board = list(state.board)
    result = []
    for direction in range(8):
        lines: dict[int, list[int]] = {}
        for sq in sorted([commander_sq, *friends], key=lambda s: front_key(direction, s)):
            lines.setdefault(line_key(direction, sq), []).append(sq)
        per_line = [_line_options(board, state, seat, direction, line, commander_sq) for line in lines.values()]
        for combination in itertools.product(*per_line):
            items = [item for option in combination for item in option]
            if len(items) >= 2:
                result.append(Order(direction, tuple(sorted(items, key=lambda it: front_key(direction, it[0])))))
    return result


def has_an_action(state: State, seat: int) -> bool:
    # An order's front participant on each line makes a plain single move, so no single move means no order.
    return bool(single_moves(state, seat))


@lru_cache(maxsize=64)
def deployments(army: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(str(Deploy(p)) for p in itertools.permutations((COMMANDER_CODE, *army)))


@lru_cache(maxsize=1)
def draft_moves() -> tuple[str, ...]:
    return tuple(str(Army(c)) for c in itertools.combinations(TYPE_CODES, ARMY_SIZE))

# --- apply ---------------------------------------------------------------------------------------------------


def check_step(state: State, seat: int, move: Step) -> None:
    index = state.board[move.src]
    if index == EMPTY or owner_of(index) != seat:
        raise IllegalMoveError(Text("{square} is not your piece", square=NAMES[move.src]))
    line = LINE_TO.get((move.src, move.dst))
    if line is None:
        raise IllegalMoveError(Text("{move} is not a straight line (move orthogonally or diagonally)", move=str(move)))
    direction, distance = line
    piece = state.piece(index)
    if distance > piece.kind.move:
        raise IllegalMoveError(Text("your {piece} on {square} moves at most {count}", piece=piece.kind.name,
                                    square=NAMES[move.src], count=piece.kind.move))
    problem = _blocked(state.board, seat, move.src, direction, distance)
    if problem:
        raise IllegalMoveError(Text("{move}: {problem}", move=str(move), problem=problem))


def check_order(state: State, seat: int, move: Order) -> tuple[tuple[int, int], ...]:
    """Raise IllegalMoveError unless `move` is a legal order; return its items front to back."""
    commander = state.commander(seat)
    commander_sq = state.squares[commander] if commander != EMPTY else EMPTY
    sources = [src for src, _ in move.items]
    if len(set(sources)) != len(sources):
        raise IllegalMoveError(Text("each myrmidon may appear only once in an order"))
    for src in sources:
        if state.board[src] == EMPTY or owner_of(state.board[src]) != seat:
            raise IllegalMoveError(Text("{square} is not your piece", square=NAMES[src]))
    if commander_sq not in sources:
        raise IllegalMoveError(Text("an order must include your Commander"))
    if len(sources) < 2:
        raise IllegalMoveError(Text("an order needs your Commander and at least one other myrmidon next to it"))
    name = DIRECTION_NAMES[move.direction]
    for src, dst in move.items:
        if src != commander_sq and src not in NEIGHBOURS[commander_sq]:
            raise IllegalMoveError(Text("{square} is not next to your Commander", square=NAMES[src]))
        line = LINE_TO.get((src, dst))
        if line is None or line[0] != move.direction:
            raise IllegalMoveError(Text("{move} does not go {direction}", move=f"{NAMES[src]}-{NAMES[dst]}",
                                        direction=name))
        if src == commander_sq and line[1] != 1:
            raise IllegalMoveError(Text("{move}: in an order the Commander moves exactly 1 square",
                                        move=f"{NAMES[src]}-{NAMES[dst]}"))
        kind = state.piece(state.board[src]).kind
        if line[1] > kind.move:
            raise IllegalMoveError(Text("{move}: your {piece} moves at most {count}", move=f"{NAMES[src]}-{NAMES[dst]}",
                                        piece=kind.name, count=kind.move))
    board = list(state.board)
    items = move.front_to_back()
    for src, dst in items:
        problem = _blocked(board, seat, src, move.direction, LINE_TO[(src, dst)][1])
        if problem:
            raise IllegalMoveError(Text("{move}: {problem}", move=f"{NAMES[src]}-{NAMES[dst]}", problem=problem))
        board[dst], board[src] = board[src], EMPTY
    return items


@dataclass
class _Action:
    """The board being changed by one move or order, and the public record of what happened."""

    state: State
    seat: int
    board: list[int]
    squares: list[int]
    revealed: list[bool]
    paths: list[JSON]
    fights: list[JSON]
    eliminated: list[int]

    @classmethod
    def start(cls, state: State, seat: int) -> _Action:
        return cls(state, seat, list(state.board), list(state.squares), list(state.revealed), [], [], [])

    def march(self, src: int, dst: int) -> None:
        """One participant goes from src towards dst, fighting at dst or stopping behind a repelled friend."""
        index = self.board[src]
        direction, distance = LINE_TO[(src, dst)]
        path = RAYS[src][direction][:distance]
        end, result = src, "moved"
        for sq in path:
            occupant = self.board[sq]
            if occupant == EMPTY:
                end = sq
                continue
            if owner_of(occupant) == self.seat:
                result = "blocked"  # a friend ahead was repelled: stop just behind it, no fight
            else:
                result = self._fight(index, occupant, sq, end)
                if result == "win":
                    end = sq
            break
        self.board[src] = EMPTY
        self.board[end] = index
        self.squares[index] = end
        self.paths.append(
            {
                "piece": self.state.piece(index).id,
                "from": NAMES[src],
                "to": NAMES[dst],
                "end": NAMES[end],
                "path": [NAMES[src], *(NAMES[sq] for sq in path)],
                "result": result,
            }
        )

    def _fight(self, attacker: int, defender: int, sq: int, back: int) -> str:
        pieces = self.state.piece
        won = pieces(attacker).kind.sword >= pieces(defender).kind.shield
        if won:
            self.board[sq] = EMPTY
            self.squares[defender] = EMPTY
            self.eliminated.append(defender)
        if not self.state.memory:
            self.revealed[attacker] = self.revealed[defender] = True
        self.fights.append(
            {
                "square": NAMES[sq],
                "attacker": _piece_values(pieces(attacker)),
                "defender": _piece_values(pieces(defender)),
                "result": "win" if won else "repelled",
                "attacker_end": NAMES[sq] if won else NAMES[back],
            }
        )
        return "win" if won else "repelled"

    def report(self, kind: str, direction: int | None) -> JSON:
        return {
            "kind": kind,
            "seat": self.seat,
            "direction": None if direction is None else DIRECTION_NAMES[direction],
            "paths": self.paths,
            "fights": self.fights,
            "eliminated": [self.state.piece(i).id for i in self.eliminated],
            "repelled": [p["end"] for p in self.paths if p["result"] in ("repelled", "blocked")],
        }


def _piece_values(piece: Piece) -> JSON:
    """A piece with its values: only ever built for a fight (public) or for a viewer allowed to see them."""
    return {"id": piece.id, "owner": piece.owner, "commander": piece.kind.is_commander, **piece.kind.to_json()}


def winner_after_action(state: State, seat: int, eliminated: Sequence[int]) -> Outcome | None:
    enemy = 1 - seat
    if any(state.piece(i).kind.is_commander for i in eliminated):
        return Outcome((seat,), Text("{side} eliminated the enemy Commander", side=Text(SEAT_NAMES[seat])))
    if eliminated and state.losses(enemy) >= LOSING_LOSSES:
        return Outcome((seat,), Text("{side} eliminated {count} enemy piece",
                                     plural="{side} eliminated {count} enemy pieces", side=Text(SEAT_NAMES[seat]),
                                     count=LOSING_LOSSES))
    return None


def start_of_turn(state: State, seat: int) -> Outcome | None:
    """Checked before `seat` acts: a piece on the enemy home rank wins; having no action loses."""
    goal = HOME_SQUARES[1 - seat]
    if any(state.board[sq] != EMPTY and owner_of(state.board[sq]) == seat for sq in goal):
        return Outcome((seat,), Text("{side} holds the enemy home rank", side=Text(SEAT_NAMES[seat])))
    if not has_an_action(state, seat):
        return Outcome((1 - seat,), Text("{side} has no legal action", side=Text(SEAT_NAMES[seat])))
    return None
