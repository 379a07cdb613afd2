"""Myrmidons (Néstor Romeral Andrés): two hidden armies of six on a 6×7 board.

The rules are those of `shared/rules/myrmidons.md`. Squares are indices `rank * 6 + file` (a1 = 0, f7 = 41).
Pieces are indices too: seat * 6 + (number - 1), where a piece's number is the file of the home square it was
deployed on (a = 1 … f = 6). A piece's id ("S1" … "S6", "N1" … "N6") is therefore public and says nothing about
its values. The state keeps the true values of every piece; `view` is the one place that decides who sees them.

Tests build positions with `position` (a compact picture of the board).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Sequence, Union

from ..base import (
    JSON,
    Choices,
    Event,
    Game,
    GameInfo,
    IllegalMoveError,
    MoveSyntaxError,
    OptionSpec,
    Outcome,
    PickerOption,
    event,
    seeded_rng,
)
from ..grid import DIRECTION_NAMES, DIRECTIONS, parse_square
from ..grid import ray as grid_ray
from .army import (
    ARMY_SIZE,
    BY_CODE,
    COMMANDER_CODE,
    STANDARD_ARMY,
    TYPE_CODES,
    TYPES,
    MyrmidonType,
    canonical_army,
)

# --- types and constants -------------------------------------------------------------------------------------

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


# --- metadata ------------------------------------------------------------------------------------------------

INFO = GameInfo(
    key="myrmidons",
    title="Myrmidons",
    min_players=2,
    max_players=2,
    hidden_information=True,
    summary=(
        "Two armies of six myrmidons on a 6 by 7 board. Every piece looks alike to the opponent, but each has its "
        "own sword, shield and movement; one of them is the weak Commander. Deploy your army in secret on your "
        "home row, then each turn move one myrmidon in a straight line, or give an order: the Commander and "
        "friends next to it march together in one direction. Ending on an enemy starts a fight that reveals both "
        "pieces: a sword at least as high as the shield removes the defender, otherwise the attacker is thrown "
        "back. Win by eliminating the enemy Commander or four enemy pieces, or by starting your turn with a piece "
        "on the enemy's home row."
    ),
    options=(
        OptionSpec(
            "army",
            "standard: both use the default army; draft: each secretly picks 5 of the 19 types; "
            "random: 5 types drawn at random, the same for both",
            "standard",
            ARMY_CHOICES,
        ),
        OptionSpec("memory", "on: pieces revealed by a fight turn face down again after it", "off", MEMORY_CHOICES),
    ),
    seat_names=SEAT_NAMES,
)

# --- notation ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Army:
    """`army 5/1/3,4/4/1,…`: the secret choice of five types in a draft (any order; listed in table order)."""

    types: tuple[str, ...]

    def __str__(self) -> str:
        return "army " + ",".join(canonical_army(self.types))


@dataclass(frozen=True)
class Deploy:
    """`deploy 2/5/2,4/4/1,C,…`: the secret deployment, listing the home rank from file a to file f."""

    codes: tuple[str, ...]

    def __str__(self) -> str:
        return "deploy " + ",".join(self.codes)


@dataclass(frozen=True)
class Step:
    """`c1-c4`: one myrmidon moves (and fights when c4 holds an enemy)."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"{NAMES[self.src]}-{NAMES[self.dst]}"


@dataclass(frozen=True)
class Order:
    """`order NE b1-c2 a1-d4`: the Commander and friends next to it move along one direction."""

    direction: int
    items: tuple[tuple[int, int], ...]  # (from, to), as written; `front_to_back` is the canonical sequence

    def front_to_back(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(self.items, key=lambda item: front_key(self.direction, item[0])))

    def __str__(self) -> str:
        items = " ".join(f"{NAMES[a]}-{NAMES[b]}" for a, b in self.front_to_back())
        return f"order {DIRECTION_NAMES[self.direction]} {items}"


Move = Union[Army, Deploy, Step, Order]


def _square(text: str) -> int:
    file, rank = parse_square(text, FILES, RANKS)
    return _index(file, rank)


def _pair(text: str) -> tuple[int, int]:
    parts = text.split("-")
    if len(parts) != 2:
        raise MoveSyntaxError(f"'{text}' is not a move (write the two squares like c1-c4)")
    return _square(parts[0]), _square(parts[1])


def _code(text: str) -> str:
    code = text.strip().upper()
    if code not in BY_CODE:
        raise MoveSyntaxError(
            f"'{text.strip()}' is not a myrmidon type (write C for the Commander, or sword/shield/movement "
            "adding up to 9, like 5/1/3)"
        )
    return code


def _codes(text: str) -> tuple[str, ...]:
    if not text.strip():
        raise MoveSyntaxError("list the pieces, separated by commas")
    return tuple(_code(part) for part in text.split(","))


def parse_move(text: str) -> Move:
    """Parse any move of the game; raises MoveSyntaxError when the text is not one."""
    words = text.strip().split(None, 1)
    if not words:
        raise MoveSyntaxError("Type a move, like c1-c4, or an order like order N c1-c2 b1-b3")
    head, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    if head == "deploy":
        return Deploy(_codes(rest))
    if head == "army":
        return Army(_codes(rest))
    if head == "order":
        parts = rest.replace(",", " ").split()
        if not parts or parts[0].upper() not in DIRECTION_NAMES:
            raise MoveSyntaxError("An order starts with a direction: N, NE, E, SE, S, SW, W or NW")
        if len(parts) < 2:
            raise MoveSyntaxError("An order lists its participants' moves, like order N c1-c2 b1-b4")
        return Order(DIRECTION_NAMES.index(parts[0].upper()), tuple(_pair(p) for p in parts[1:]))
    if len(words) > 1:
        raise MoveSyntaxError(f"'{text.strip()}' is not a move (a move looks like c1-c4)")
    return Step(*_pair(words[0]))


def format_move(move: Move) -> str:
    return str(move)


def deploy_move(codes: Sequence[str]) -> str:
    """The canonical deployment for `codes` listed from file a to file f ("C" for the Commander)."""
    return str(Deploy(tuple(_code(c) for c in codes)))


def army_move(codes: Iterable[str]) -> str:
    """The canonical draft move for five types, in any order."""
    return str(Army(tuple(_code(c) for c in codes)))


def order_move(direction: str, items: Iterable[tuple[str, str]]) -> str:
    """The canonical order for a direction name and (from, to) square names, in any order."""
    return str(Order(DIRECTION_NAMES.index(direction.upper()), tuple((_square(a), _square(b)) for a, b in items)))


def is_setup_move(text: str) -> bool:
    words = text.strip().split(None, 1)
    return bool(words) and words[0].lower() in ("deploy", "army")


# --- state ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    seed: int
    army_option: str
    memory: bool
    armies: tuple[tuple[str, ...] | None, ...]  # per seat: its five types in table order, None until drafted
    pieces: tuple[Piece | None, ...]  # per piece index; None until that seat has deployed
    board: tuple[int, ...]  # per square: a piece index or EMPTY
    squares: tuple[int, ...]  # per piece index: its square, EMPTY before deployment and once eliminated
    revealed: tuple[bool, ...]  # per piece index: face up for everyone
    turn: int  # the seat to move, EMPTY during setup and once the game is over
    first: int  # the seat that moved first, EMPTY until both have deployed
    ply: int
    last_move: str | None  # the last public move
    report: JSON | None  # what the last move or order did, in public terms: the view's "last_action"
    outcome: Outcome | None

    def deployed(self, seat: int) -> bool:
        return self.pieces[piece_index(seat, 1)] is not None

    def in_setup(self) -> bool:
        return self.first == EMPTY

    def losses(self, seat: int) -> int:
        """How many of `seat`'s pieces have been eliminated."""
        return sum(
            1
            for i in range(seat * PER_SEAT, (seat + 1) * PER_SEAT)
            if self.pieces[i] is not None and self.squares[i] == EMPTY
        )

    def commander(self, seat: int) -> int:
        for i in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
            piece = self.pieces[i]
            if piece is not None and piece.kind.is_commander:
                return i
        return EMPTY


def _army_for(option: str, seed: int) -> tuple[str, ...] | None:
    if option == "standard":
        return STANDARD_ARMY
    if option == "random":
        return canonical_army(seeded_rng(seed, "army").sample(TYPE_CODES, ARMY_SIZE))
    return None  # draft: each seat chooses


def initial_state(seed: int, army_option: str = "standard", memory: bool = False) -> State:
    army = _army_for(army_option, seed)
    return State(
        seed=seed,
        army_option=army_option,
        memory=memory,
        armies=(army, army),
        pieces=(None,) * (2 * PER_SEAT),
        board=(EMPTY,) * CELLS,
        squares=(EMPTY,) * (2 * PER_SEAT),
        revealed=(False,) * (2 * PER_SEAT),
        turn=EMPTY,
        first=EMPTY,
        ply=0,
        last_move=None,
        report=None,
        outcome=None,
    )


def position(
    text: str,
    to_move: int = 0,
    *,
    memory: bool = False,
    eliminated: tuple[int, int] = (0, 0),
    army_option: str = "standard",
    seed: int = 0,
) -> State:
    """A play-phase state from a picture of the board, for tests and experiments.

    Seven lines, rank 7 first, six tokens per line: `.` for an empty square, `sC` / `nC` for a South / North
    Commander, `s513` / `n252` for a myrmidon with sword 5, shield 1, movement 3 (an owner letter and the three
    digits); a trailing `*` marks a piece already revealed. `eliminated` adds that many already-eliminated pieces
    per seat (they count towards the four that lose). Pieces are numbered per seat from a1 onwards, rank by rank.
    """
    rows = [line.split() for line in text.strip().splitlines() if line.strip()]
    if len(rows) != RANKS or any(len(row) != FILES for row in rows):
        raise ValueError(f"a position has {RANKS} lines of {FILES} tokens")
    pieces: list[Piece | None] = [None] * (2 * PER_SEAT)
    squares = [EMPTY] * (2 * PER_SEAT)
    revealed = [False] * (2 * PER_SEAT)
    board = [EMPTY] * CELLS
    counts = [0, 0]
    for sq in range(CELLS):
        token = rows[RANKS - 1 - sq // FILES][sq % FILES]
        if token == ".":
            continue
        seat = "sn".index(token[0].lower())
        body = token[1:].rstrip("*")
        code = COMMANDER_CODE if body.upper() == "C" else "/".join(body)
        counts[seat] += 1
        index = piece_index(seat, counts[seat])
        pieces[index] = Piece(seat, counts[seat], BY_CODE[code])
        squares[index], board[sq], revealed[index] = sq, index, token.endswith("*")
    for seat in (0, 1):
        for _ in range(eliminated[seat]):
            counts[seat] += 1
            pieces[piece_index(seat, counts[seat])] = Piece(seat, counts[seat], BY_CODE["3/3/3"])
    armies = tuple(
        canonical_army({p.kind.code for p in pieces if p and p.owner == seat and not p.kind.is_commander})
        for seat in (0, 1)
    )
    return State(
        seed=seed,
        army_option=army_option,
        memory=memory,
        armies=armies,
        pieces=tuple(pieces),
        board=tuple(board),
        squares=tuple(squares),
        revealed=tuple(revealed),
        turn=to_move,
        first=to_move,
        ply=0,
        last_move=None,
        report=None,
        outcome=None,
    )


# --- move generation -----------------------------------------------------------------------------------------


def _blocked(board: Sequence[int], seat: int, src: int, direction: int, distance: int) -> str | None:
    """Why a piece of `seat` on `src` cannot go `distance` squares along `direction` on `board`, or None."""
    ray = RAYS[src][direction]
    if distance > len(ray):
        return f"{NAMES[src]} would leave the board"
    for sq in ray[: distance - 1]:
        if board[sq] != EMPTY:
            return f"the way from {NAMES[src]} is blocked at {NAMES[sq]} (no jumping)"
    target = board[ray[distance - 1]]
    if target != EMPTY and owner_of(target) == seat:
        return f"{NAMES[ray[distance - 1]]} holds one of your own pieces"
    return None


def single_moves(state: State, seat: int) -> list[Step]:
    moves = []
    board = state.board
    for index in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
        src = state.squares[index]
        if src == EMPTY:
            continue
        reach = state.pieces[index].kind.move
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
        reach = 1 if src == commander_sq else state.pieces[index].kind.move
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
        raise IllegalMoveError(f"{NAMES[move.src]} is not your piece")
    line = LINE_TO.get((move.src, move.dst))
    if line is None:
        raise IllegalMoveError(f"{move} is not a straight line (move orthogonally or diagonally)")
    direction, distance = line
    piece = state.pieces[index]
    if distance > piece.kind.move:
        raise IllegalMoveError(f"your {piece.kind.name} on {NAMES[move.src]} moves at most {piece.kind.move}")
    problem = _blocked(state.board, seat, move.src, direction, distance)
    if problem:
        raise IllegalMoveError(f"{move}: {problem}")


def check_order(state: State, seat: int, move: Order) -> tuple[tuple[int, int], ...]:
    """Raise IllegalMoveError unless `move` is a legal order; return its items front to back."""
    commander = state.commander(seat)
    commander_sq = state.squares[commander] if commander != EMPTY else EMPTY
    sources = [src for src, _ in move.items]
    if len(set(sources)) != len(sources):
        raise IllegalMoveError("each myrmidon may appear only once in an order")
    for src in sources:
        if state.board[src] == EMPTY or owner_of(state.board[src]) != seat:
            raise IllegalMoveError(f"{NAMES[src]} is not your piece")
    if commander_sq not in sources:
        raise IllegalMoveError("an order must include your Commander")
    if len(sources) < 2:
        raise IllegalMoveError("an order needs your Commander and at least one other myrmidon next to it")
    name = DIRECTION_NAMES[move.direction]
    for src, dst in move.items:
        if src != commander_sq and src not in NEIGHBOURS[commander_sq]:
            raise IllegalMoveError(f"{NAMES[src]} is not next to your Commander")
        line = LINE_TO.get((src, dst))
        if line is None or line[0] != move.direction:
            raise IllegalMoveError(f"{NAMES[src]}-{NAMES[dst]} does not go {name}")
        if src == commander_sq and line[1] != 1:
            raise IllegalMoveError(f"{NAMES[src]}-{NAMES[dst]}: in an order the Commander moves exactly 1 square")
        kind = state.pieces[state.board[src]].kind
        if line[1] > kind.move:
            raise IllegalMoveError(f"{NAMES[src]}-{NAMES[dst]}: your {kind.name} moves at most {kind.move}")
    board = list(state.board)
    items = move.front_to_back()
    for src, dst in items:
        problem = _blocked(board, seat, src, move.direction, LINE_TO[(src, dst)][1])
        if problem:
            raise IllegalMoveError(f"{NAMES[src]}-{NAMES[dst]}: {problem}")
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
                "piece": self.state.pieces[index].id,
                "from": NAMES[src],
                "to": NAMES[dst],
                "end": NAMES[end],
                "path": [NAMES[src], *(NAMES[sq] for sq in path)],
                "result": result,
            }
        )

    def _fight(self, attacker: int, defender: int, sq: int, back: int) -> str:
        pieces = self.state.pieces
        won = pieces[attacker].kind.sword >= pieces[defender].kind.shield
        if won:
            self.board[sq] = EMPTY
            self.squares[defender] = EMPTY
            self.eliminated.append(defender)
        if not self.state.memory:
            self.revealed[attacker] = self.revealed[defender] = True
        self.fights.append(
            {
                "square": NAMES[sq],
                "attacker": _piece_values(pieces[attacker]),
                "defender": _piece_values(pieces[defender]),
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
            "eliminated": [self.state.pieces[i].id for i in self.eliminated],
            "repelled": [p["end"] for p in self.paths if p["result"] in ("repelled", "blocked")],
        }


def _piece_values(piece: Piece) -> JSON:
    """A piece with its values: only ever built for a fight (public) or for a viewer allowed to see them."""
    return {"id": piece.id, "owner": piece.owner, "commander": piece.kind.is_commander, **piece.kind.to_json()}


def winner_after_action(state: State, seat: int, eliminated: Sequence[int]) -> Outcome | None:
    enemy = 1 - seat
    if any(state.pieces[i].kind.is_commander for i in eliminated):
        return Outcome((seat,), f"{SEAT_NAMES[seat]} eliminated the enemy Commander")
    if eliminated and state.losses(enemy) >= LOSING_LOSSES:
        return Outcome((seat,), f"{SEAT_NAMES[seat]} eliminated {LOSING_LOSSES} enemy pieces")
    return None


def start_of_turn(state: State, seat: int) -> Outcome | None:
    """Checked before `seat` acts: a piece on the enemy home rank wins; having no action loses."""
    goal = HOME_SQUARES[1 - seat]
    if any(state.board[sq] != EMPTY and owner_of(state.board[sq]) == seat for sq in goal):
        return Outcome((seat,), f"{SEAT_NAMES[seat]} holds the enemy home rank")
    if not has_an_action(state, seat):
        return Outcome((1 - seat,), f"{SEAT_NAMES[seat]} has no legal action")
    return None


# --- the game ------------------------------------------------------------------------------------------------


class MyrmidonsGame(Game):
    info = INFO

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if num_players != 2:
            raise ValueError("Myrmidons is for 2 players")
        options = options or {}
        army = options.get("army", "standard")
        if army not in ARMY_CHOICES:
            raise ValueError(f"army must be one of {', '.join(ARMY_CHOICES)}")
        memory = options.get("memory", "off")
        memory = {"on": True, "off": False, True: True, False: False}.get(memory)
        if memory is None:
            raise ValueError("memory must be on or off")
        return initial_state(seed, army, memory)

    def to_act(self, state: State) -> list[int]:
        if state.outcome is not None:
            return []
        if state.in_setup():
            return [seat for seat in (0, 1) if not state.deployed(seat)]
        return [state.turn]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.in_setup():
            army = state.armies[seat]
            return list(draft_moves() if army is None else deployments(army))
        return [str(m) for m in single_moves(state, seat)] + [str(o) for o in orders(state, seat)]

    def is_private_move(self, move: str) -> bool:
        return is_setup_move(move)

    def preview(self, state: State, seat: int, move: str) -> dict | None:
        """The picker's picture before Confirm. A fight is learnt only by committing to it (its result and the
        defender's values), so moves with a fight get none; and the deployment that completes the setup is shown
        as still in setup, because the first player it draws must not be known while the player can still
        change her mind."""
        new_state, events = self.apply(state, seat, move)
        if any(ev["type"] == "fight" for ev in events):
            return None
        view = self.view(new_state, seat)
        if is_setup_move(move) and view["phase"] != "setup":
            view.update(phase="setup", to_act=[], turn=None, first_player=None)
        return view

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list[Event]]:
        parsed = parse_move(move)
        if state.outcome is not None:
            raise IllegalMoveError("The game is over")
        if seat not in self.to_act(state):
            if state.in_setup() and state.deployed(seat):
                raise IllegalMoveError("Your deployment is final: wait for your opponent to deploy")
            raise IllegalMoveError("It is not your turn")
        if isinstance(parsed, Army):
            return self._choose_army(state, seat, parsed)
        if isinstance(parsed, Deploy):
            return self._deploy(state, seat, parsed)
        if state.in_setup():
            raise IllegalMoveError("Deploy your army first")
        if isinstance(parsed, Step):
            check_step(state, seat, parsed)
            return self._act(state, seat, "move", None, ((parsed.src, parsed.dst),), str(parsed))
        items = check_order(state, seat, parsed)
        return self._act(state, seat, "order", parsed.direction, items, str(parsed))

    def _choose_army(self, state: State, seat: int, move: Army) -> tuple[State, list[Event]]:
        if state.army_option != "draft" or not state.in_setup():
            raise IllegalMoveError("Armies are only chosen at the start of a draft game")
        if state.armies[seat] is not None:
            raise IllegalMoveError("You have already chosen your army")
        if COMMANDER_CODE in move.types:
            raise IllegalMoveError("The Commander is always in your army: choose 5 other types")
        if len(set(move.types)) != len(move.types):
            raise IllegalMoveError("Choose 5 different types")
        if len(move.types) != ARMY_SIZE:
            raise IllegalMoveError(f"Choose exactly {ARMY_SIZE} types (you chose {len(move.types)})")
        army = canonical_army(move.types)
        armies = tuple(army if s == seat else a for s, a in enumerate(state.armies))
        new = replace(state, armies=armies, ply=state.ply + 1)
        return new, [
            event("army", [seat], seat=seat, move=str(move), types=[BY_CODE[c].to_json() for c in army]),
            event("army_chosen", None, seat=seat),
        ]

    def _deploy(self, state: State, seat: int, move: Deploy) -> tuple[State, list[Event]]:
        if not state.in_setup():
            raise IllegalMoveError("The armies are already deployed")
        army = state.armies[seat]
        if army is None:
            raise IllegalMoveError("Choose your army first (army followed by 5 types)")
        expected = sorted((COMMANDER_CODE, *army))
        if sorted(move.codes) != expected:
            raise IllegalMoveError(
                f"Deploy each of your {PER_SEAT} pieces once, files a to f: "
                f"{', '.join(expected)} (you wrote {', '.join(move.codes)})"
            )
        pieces, board, squares = list(state.pieces), list(state.board), list(state.squares)
        for number, (code, sq) in enumerate(zip(move.codes, HOME_SQUARES[seat]), start=1):
            index = piece_index(seat, number)
            pieces[index] = Piece(seat, number, BY_CODE[code])
            board[sq], squares[index] = index, sq
        new = replace(
            state, pieces=tuple(pieces), board=tuple(board), squares=tuple(squares), ply=state.ply + 1
        )
        events = [
            event("deploy", [seat], seat=seat, move=str(move),
                  squares={NAMES[sq]: code for code, sq in zip(move.codes, HOME_SQUARES[seat])}),
            event("deployed", None, seat=seat),
        ]
        if new.deployed(1 - seat):
            # Drawn only now, so nothing public could tell who starts before both armies stood.
            first = seeded_rng(state.seed, "first player").randrange(2)
            new = replace(new, first=first, turn=first)
            events.append(event("start", None, first=first))
        return new, events

    def _act(
        self, state: State, seat: int, kind: str, direction: int | None, items: Sequence[tuple[int, int]], text: str
    ) -> tuple[State, list[Event]]:
        action = _Action.start(state, seat)
        for src, dst in items:
            action.march(src, dst)
        report = action.report(kind, direction)
        new = replace(
            state,
            board=tuple(action.board),
            squares=tuple(action.squares),
            revealed=tuple(action.revealed),
            turn=1 - seat,
            ply=state.ply + 1,
            last_move=text,
            report=report,
        )
        events = self._action_events(state, seat, kind, text, report)
        outcome = winner_after_action(new, seat, action.eliminated) or start_of_turn(new, 1 - seat)
        if outcome is not None:
            new = replace(new, outcome=outcome, turn=EMPTY)
            events.append(event("win", None, winners=list(outcome.winners), reason=outcome.reason))
        return new, events

    @staticmethod
    def _action_events(state: State, seat: int, kind: str, text: str, report: JSON) -> list[Event]:
        if kind == "move":
            events = [event("move", None, seat=seat, move=text, **report["paths"][0])]
        else:
            events = [event("order", None, seat=seat, move=text, direction=report["direction"],
                            participants=report["paths"])]
        for fight in report["fights"]:
            events.append(event("fight", None, seat=seat, **fight))
        for fight in report["fights"]:
            if fight["result"] == "win":
                loser = fight["defender"]
                events.append(event("eliminate", None, piece=loser["id"], owner=loser["owner"],
                                    square=fight["square"], by=fight["attacker"]["id"]))
        return events

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    # --- view ------------------------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> JSON:
        over = state.outcome is not None

        def sees(index: int) -> bool:  # never more, not even after the end: the rules say "never"
            return state.revealed[index] or owner_of(index) == viewer

        def piece_json(index: int) -> JSON:
            piece = state.pieces[index]
            data = {"id": piece.id, "owner": piece.owner, "revealed": state.revealed[index], "known": sees(index)}
            if sees(index):
                return {**data, **_piece_values(piece)}
            return {**data, "commander": None, "code": None, "name": None, "sword": None, "shield": None, "move": None}

        cells = {
            NAMES[sq]: {"square": NAMES[sq], **piece_json(index)}
            for index, sq in enumerate(state.squares)
            if sq != EMPTY
        }
        eliminated_pieces = [
            piece_json(i) for i, p in enumerate(state.pieces) if p is not None and state.squares[i] == EMPTY
        ]
        own_commander = state.commander(viewer) if viewer is not None else EMPTY
        return {
            "game": INFO.key,
            "num_players": 2,
            "viewer": viewer,
            "to_act": self.to_act(state),
            "last_move": state.last_move,
            "ply": state.ply,
            "outcome": state.outcome.to_json() if over else None,
            "seat_names": list(SEAT_NAMES),
            "files": FILES,
            "ranks": RANKS,
            "home_ranks": [r + 1 for r in HOME_RANK],
            "options": {"army": state.army_option, "memory": "on" if state.memory else "off"},
            "phase": "over" if over else "setup" if state.in_setup() else "play",
            "turn": None if state.turn == EMPTY else state.turn,
            "first_player": None if state.first == EMPTY else state.first,
            "setup": [
                {"army_chosen": state.armies[s] is not None, "deployed": state.deployed(s)} for s in (0, 1)
            ],
            "cells": cells,
            "eliminated": [state.losses(0), state.losses(1)],
            "eliminated_pieces": eliminated_pieces,
            "armies": [self._army_json(state, s, viewer) for s in (0, 1)],
            "undeployed": self._undeployed(state, viewer),
            "commander": (
                NAMES[state.squares[own_commander]]
                if own_commander != EMPTY and state.squares[own_commander] != EMPTY
                else None
            ),
            "last_action": state.report,
        }

    @staticmethod
    def _army_json(state: State, seat: int, viewer: int | None) -> list[JSON] | None:
        """A seat's army (Commander first) when the viewer may know it: her own, or an army both share."""
        army = state.armies[seat]
        known = seat == viewer or state.army_option != "draft"
        if army is None or not known:
            return None
        return [BY_CODE[c].to_json() for c in (COMMANDER_CODE, *army)]

    @staticmethod
    def _undeployed(state: State, viewer: int | None) -> list[JSON]:
        if viewer is None or not state.in_setup() or state.deployed(viewer) or state.armies[viewer] is None:
            return []
        return [BY_CODE[c].to_json() for c in (COMMANDER_CODE, *state.armies[viewer])]

    # --- dump / load -----------------------------------------------------------------------------------------

    def dump(self, state: State) -> JSON:
        return {
            **self.stamp(),
            "seed": state.seed,
            "army_option": state.army_option,
            "memory": state.memory,
            "armies": [None if a is None else list(a) for a in state.armies],
            "pieces": [None if p is None else p.kind.code for p in state.pieces],
            "squares": [None if sq == EMPTY else NAMES[sq] for sq in state.squares],
            "revealed": list(state.revealed),
            "turn": state.turn,
            "first": state.first,
            "ply": state.ply,
            "last_move": state.last_move,
            "report": state.report,
            "outcome": state.outcome.to_json() if state.outcome else None,
        }

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        pieces = tuple(
            None if code is None else Piece(owner_of(i), i % PER_SEAT + 1, BY_CODE[code])
            for i, code in enumerate(data["pieces"])
        )
        squares = tuple(EMPTY if name is None else NAMES.index(name) for name in data["squares"])
        board = [EMPTY] * CELLS
        for index, sq in enumerate(squares):
            if sq != EMPTY:
                board[sq] = index
        return State(
            seed=data["seed"],
            army_option=data["army_option"],
            memory=data["memory"],
            armies=tuple(None if a is None else tuple(a) for a in data["armies"]),
            pieces=pieces,
            board=tuple(board),
            squares=squares,
            revealed=tuple(data["revealed"]),
            turn=data["turn"],
            first=data["first"],
            ply=data["ply"],
            last_move=data["last_move"],
            report=data["report"],
            outcome=Outcome.from_json(data["outcome"]),
        )

    # --- text board ------------------------------------------------------------------------------------------

    def render_text(self, view: JSON) -> str:
        lines = []
        for rank in range(RANKS, 0, -1):
            row = []
            for file in range(FILES):
                cell = view["cells"].get(f"{chr(ord('a') + file)}{rank}")
                row.append(_cell_text(cell))
            lines.append(f"{rank} " + " ".join(row))
        lines.append("  " + " ".join(f"{chr(ord('a') + f):^5}" for f in range(FILES)))
        lines.append(f"eliminated: South {view['eliminated'][0]}, North {view['eliminated'][1]}")
        if view["phase"] == "setup":
            status = ", ".join(
                f"{SEAT_NAMES[s]} {'deployed' if st['deployed'] else 'deploying'}" for s, st in enumerate(view["setup"])
            )
            lines.append(f"setup: {status}")
            if view["undeployed"]:
                lines.append("to deploy: " + ", ".join(f"{t['name']} {t['code']}" for t in view["undeployed"]))
        elif view["phase"] == "play":
            lines.append(f"{SEAT_NAMES[view['turn']]} to move")
        action = view["last_action"]
        if action:
            lines.append(f"last: {view['last_move']}")
            for fight in action["fights"]:
                lines.append("  " + _fight_text(fight))
        if view["outcome"]:
            lines.append(f"over: {view['outcome']['reason']}")
        return "\n".join(lines)

    # --- narration -------------------------------------------------------------------------------------------

    def describe(self, ev: Event) -> str | None:
        kind = ev["type"]
        if kind == "army_chosen":
            return f"{SEAT_NAMES[ev['seat']]} has chosen an army."
        if kind == "army":
            return "Your army: " + ", ".join(f"{t['name']} {t['code']}" for t in ev["types"])
        if kind == "deployed":
            return f"{SEAT_NAMES[ev['seat']]} has deployed."
        if kind == "deploy":
            return "You deployed " + ", ".join(f"{sq} {BY_CODE[c].name}" for sq, c in ev["squares"].items())
        if kind == "start":
            return f"Both armies stand ready. {SEAT_NAMES[ev['first']]} moves first."
        if kind == "move":
            return f"{SEAT_NAMES[ev['seat']]}: {ev['move']}"
        if kind == "order":
            return f"{SEAT_NAMES[ev['seat']]} gives an order: {ev['move']}"
        if kind == "fight":
            return _fight_text(ev)
        if kind == "eliminate":
            return f"{SEAT_NAMES[ev['owner']]}'s {ev['piece']} on {ev['square']} is eliminated."
        if kind == "win":
            return f"{ev['reason']}."
        return None

    # --- picker ----------------------------------------------------------------------------------------------

    def move_steps(self, move: str) -> tuple[str, ...]:
        parsed = parse_move(move)
        if isinstance(parsed, (Army, Deploy)):
            return tuple(canonical_army(parsed.types)) if isinstance(parsed, Army) else parsed.codes
        if isinstance(parsed, Step):
            return (NAMES[parsed.src], NAMES[parsed.dst])
        items = tuple(f"{NAMES[a]}-{NAMES[b]}" for a, b in parsed.front_to_back())
        return ("order", DIRECTION_NAMES[parsed.direction], *items)

    def step_prompt(self, chosen: Sequence[str]) -> str:
        if not chosen:
            return "Choose a myrmidon to move, or give an order"
        if chosen[0] == "order":
            if len(chosen) == 1:
                return "Order: which direction?"
            return "Add a participant and its distance (the Commander moves 1)"
        return f"Move {chosen[0]} to"

    def choices(self, state: State, seat: int, chosen: Sequence[str] = ()) -> Choices:
        chosen = tuple(chosen)
        if seat not in self.to_act(state):
            return Choices(prompt="It is not your turn")
        if state.in_setup():
            if state.armies[seat] is None:
                return _draft_choices(chosen)
            return _deploy_choices(seat, state.armies[seat], chosen)
        if chosen and chosen[0] == "order":
            return _order_choices(state, seat, chosen)
        return _step_choices(state, seat, chosen)


def _cell_text(cell: JSON | None) -> str:
    if cell is None:
        return "  .  "
    letter = SEAT_LETTERS[cell["owner"]]
    if not cell["known"]:
        return f"{letter} ???"
    if cell["commander"]:
        return f"{letter} Cmd"
    return f"{letter}{cell['sword']}{cell['shield']}{cell['move']}" + ("*" if cell["revealed"] else " ")


def _fight_text(fight: JSON) -> str:
    a, d = fight["attacker"], fight["defender"]
    outcome = "wins" if fight["result"] == "win" else f"is repelled to {fight['attacker_end']}"
    return (
        f"Fight on {fight['square']}: {a['id']} {a['name']} {a['code']} attacks "
        f"{d['id']} {d['name']} {d['code']} and {outcome}."
    )


def _type_label(t: MyrmidonType) -> str:
    return f"{t.name} ({t.code})" if not t.is_commander else "Commander (1/1/1)"


def _draft_choices(chosen: tuple[str, ...]) -> Choices:
    if len(chosen) >= ARMY_SIZE:
        valid = len(chosen) == len(set(chosen)) == ARMY_SIZE and set(chosen) <= set(TYPE_CODES)
        return Choices(prompt="Your army", move=army_move(chosen) if valid else None)
    options = [
        PickerOption(label=_type_label(t), value=t.code, description=f"sword {t.sword}, shield {t.shield}, move {t.move}")
        for t in TYPES
        if t.code not in chosen
    ]
    return Choices(prompt=f"Choose type {len(chosen) + 1} of {ARMY_SIZE} for your army", options=options)


def _deploy_choices(seat: int, army: tuple[str, ...], chosen: tuple[str, ...]) -> Choices:
    remaining = [c for c in (COMMANDER_CODE, *army)]
    for code in chosen:
        if code not in remaining:
            return Choices(prompt="That piece is already placed")
        remaining.remove(code)
    if not remaining:
        return Choices(prompt="Your deployment", move=deploy_move(chosen))
    square = NAMES[HOME_SQUARES[seat][len(chosen)]]
    options = [PickerOption(label=f"{square}: {_type_label(BY_CODE[c])}", value=c) for c in remaining]
    return Choices(prompt=f"Which piece stands on {square}?", options=options)


def _step_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    moves = single_moves(state, seat)
    prompt = "Choose a myrmidon to move, or give an order" if not chosen else f"Move {chosen[0]} to"
    if not chosen:
        options = []
        for src in dict.fromkeys(m.src for m in moves):
            kind = state.pieces[state.board[src]].kind
            options.append(PickerOption(label=f"{NAMES[src]}: {_type_label(kind)}", value=NAMES[src]))
        if orders(state, seat):
            options.append(PickerOption(label="Give an order with the Commander", value="order"))
        return Choices(prompt=prompt, options=options)
    if len(chosen) == 1:
        options = []
        for m in moves:
            if NAMES[m.src] == chosen[0]:
                attack = state.board[m.dst] != EMPTY
                label = f"{NAMES[m.dst]} (attack)" if attack else NAMES[m.dst]
                options.append(PickerOption(label=label, value=NAMES[m.dst]))
        return Choices(prompt=prompt, options=options)
    move = f"{chosen[0]}-{chosen[1]}" if len(chosen) == 2 else None
    legal = move is not None and any(str(m) == move for m in moves)
    return Choices(prompt=prompt, move=move if legal else None)


def _order_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    every = orders(state, seat)
    if len(chosen) == 1:
        names = dict.fromkeys(DIRECTION_NAMES[o.direction] for o in every)
        return Choices(prompt="Order: which direction?", options=[PickerOption(label=n, value=n) for n in names])
    direction = chosen[1]
    picked = set(chosen[2:])
    # Participants may be picked in any order: offer every item of a legal order holding all picked so far.
    fitting = [
        (o, items)
        for o in every
        if DIRECTION_NAMES[o.direction] == direction
        and picked <= (items := {f"{NAMES[a]}-{NAMES[b]}" for a, b in o.items})
    ]
    complete = next((str(o) for o, items in fitting if items == picked), None)
    offered: dict[str, None] = {}
    for o, items in fitting:
        for a, b in o.items:
            token = f"{NAMES[a]}-{NAMES[b]}"
            if token not in picked:
                offered.setdefault(token)
    options = [_participant_option(state, token) for token in sorted(offered)]
    prompt = "Add a participant and its distance (the Commander moves 1)"
    if complete:
        prompt = "Confirm the order, or add another participant"
    return Choices(prompt=prompt, options=options, move=complete)


def _participant_option(state: State, token: str) -> PickerOption:
    src, dst = _pair(token)
    distance = LINE_TO[(src, dst)][1]
    kind = state.pieces[state.board[src]].kind
    attack = " (attack)" if state.board[dst] != EMPTY else ""
    label = f"{NAMES[src]} {kind.name} → {NAMES[dst]}, {distance} square{'s' if distance > 1 else ''}{attack}"
    return PickerOption(label=label, value=token)


GAME = MyrmidonsGame()
