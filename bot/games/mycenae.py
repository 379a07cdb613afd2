"""Mycenae: corner chess for two to four players in which the Mycenae army rides hidden inside wooden horses.

The rules are those of `shared/rules/mycenae.md`. Decisions this module takes where the page is silent (each one
is tested in tests/test_mycenae*.py):

- Seat names are the players' corners ("a1", "a8", "h8", "h1"; with two players "a1" and "h8").
- The `armies` option may be shorter than the number of players (its default is the two-player list): the
  missing seats play plain.
- A pawn always moves towards its *current* owner's far edge and promotes to its current owner's types, so a pawn
  taken over turns round. (Keeps one pawn letter per owner, which the unload notation needs.) A taken-over pawn
  that already stands on its new owner's promotion edge simply cannot move.
- A pawn on its owner's first row steps one square forward or captures as usual; only the double step is missing.
- The power lives in the horse: whoever owns a Mycenaean knight (also after a take-over) may load, unload and burn
  with it, and it never captures.
- A load may name the mover's own pieces together with the pieces of one other player; it is then a request.
- "Carries at least one piece" (for a burn) counts guests too.
- A player with no legal action on her turn is out like a player whose king was lost: her king is removed and, with
  three or more players, the player who moved last takes over the rest. A player out by his own move (possible
  only through a take-over chain) has all his pieces removed.
- The 50-move rule counts completed turns (a refused request is no turn) and fires after 50 × (players still in)
  turns without a capture, a burn or a pawn move. Repetition compares board, all cargo, players out and the side
  to move at the start of each turn.

Tests and debugging build positions from a text board with `position()`.

Squares are numbered file * 8 + rank (a1 = 0, a2 = 1, ..., h8 = 63), so sorting the numbers sorts "by file, then
rank" as the notation wants. A piece is one small int: owner << 3 | kind.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Any, Iterator, Sequence

from .base import (
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
)
from .grid import DIAGONAL, DIRECTIONS, KNIGHT_JUMPS, ORTHOGONAL, parse_square, square_name
from .grid import ray as grid_ray

# --- types and constants ----------------------------------------------------------------------------------------

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


# --- metadata ---------------------------------------------------------------------------------------------------

INFO = GameInfo(
    key="mycenae",
    title="Mycenae",
    min_players=2,
    max_players=4,
    hidden_information=True,
    summary=(
        "Corner chess for two to four players on an 8×8 board: no check, capture the king. The Mycenae army starts "
        "hidden inside three Mycenaean knights that cannot capture but carry pieces: each turn move a piece, load "
        "adjacent pieces into a knight, unload them around it, or burn a loaded knight to destroy it, its cargo and "
        "everything orthogonally next to it. Nobody but its owner knows what a knight carries. The last king wins."
    ),
    options=(
        OptionSpec(
            key="armies",
            description="Each player's army: mycenae (hidden cargo in three knights) or plain (K, R, B, N, 4 pawns)",
            default=DEFAULT_ARMIES,
            choices=ARMY_CHOICES,
            per_seat=True,
        ),
    ),
    seat_names=("a1", "h8"),
)

# --- notation ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PieceMove:
    origin: int
    target: int
    capture: bool
    promotion: str = ""  # "R", "B" or "N"

    def __str__(self) -> str:
        text = (TAKE_TEXT if self.capture else STEP_TEXT)[self.origin][self.target]
        return f"{text}={self.promotion}" if self.promotion else text


@dataclass(frozen=True)
class Load:
    knight: int
    squares: tuple[int, ...]  # sorted

    def __str__(self) -> str:
        return _load_text(self.knight, self.squares)


@dataclass(frozen=True)
class Unload:
    knight: int
    placements: tuple[tuple[int, str], ...]  # (square, letter), sorted by square

    def __str__(self) -> str:
        return f"unload {NAMES[self.knight]} " + " ".join(f"{letter}@{NAMES[sq]}" for sq, letter in self.placements)


@dataclass(frozen=True)
class Burn:
    knight: int

    def __str__(self) -> str:
        return f"burn {NAMES[self.knight]}"


@dataclass(frozen=True)
class CargoSetup:
    loads: tuple[tuple[int, tuple[str, ...]], ...]  # (knight square, letters in K R B P order) as written

    def __str__(self) -> str:
        return "cargo " + " ".join(f"{NAMES[sq]}:{','.join(letters)}" for sq, letters in self.loads)


@dataclass(frozen=True)
class Answer:
    consent: bool

    def __str__(self) -> str:
        return "consent" if self.consent else "refuse"


Move = PieceMove | Load | Unload | Burn | CargoSetup | Answer

_PIECE_MOVE = re.compile(r"([a-z]\d{1,2})\s*([-x])\s*([a-z]\d{1,2})\s*(?:=?\s*([a-z]))?")
_PLACEMENT = re.compile(r"([a-z])@([a-z]\d{1,2})")
_CARGO_ITEM = re.compile(r"([a-z]\d{1,2}):([a-z](?:,[a-z])*)")
HELP = "Write a move like b1-b5, b1xb5, a7-a8=R, load c4 b3 d5, unload c4 K@b5 P@d5 or burn c4"


def _square(text: str) -> int:
    f, r = parse_square(text, 8, 8)
    return f * 8 + r


def _load_text(knight: int, squares: Sequence[int]) -> str:
    return f"load {NAMES[knight]} " + " ".join(NAMES[sq] for sq in squares)


def _cargo_letters(text: str) -> tuple[str, ...]:
    letters = text.upper().split(",")
    if any(letter not in CARRIED_BY_LETTER for letter in letters):
        raise MoveSyntaxError(f"'{text}': a knight carries K, R, B or P")
    return tuple(sorted(letters, key="KRBP".index))


def parse_move(text: str) -> Move:
    """Text -> move; case and extra spaces are forgiven, the canonical form is what str() gives back."""
    words = text.split()
    if not words:
        raise MoveSyntaxError(HELP)
    head, rest = words[0].lower(), words[1:]
    if head in ("consent", "refuse") and not rest:
        return Answer(head == "consent")
    if head == "burn" and len(rest) == 1:
        return Burn(_square(rest[0]))
    if head == "load" and len(rest) >= 2:
        squares = [_square(w) for w in rest[1:]]
        if len(set(squares)) != len(squares):
            raise MoveSyntaxError("A load names each square once")
        return Load(_square(rest[0]), tuple(sorted(squares)))
    if head == "unload" and len(rest) >= 2:
        placements = []
        for w in rest[1:]:
            m = _PLACEMENT.fullmatch(w.lower())
            if not m or m.group(1).upper() not in CARRIED_BY_LETTER:
                raise MoveSyntaxError(f"'{w}' is not a placement (write a piece letter K, R, B or P, @ and a square)")
            placements.append((_square(m.group(2)), m.group(1).upper()))
        if len({sq for sq, _ in placements}) != len(placements):
            raise MoveSyntaxError("An unload places each piece on a different square")
        return Unload(_square(rest[0]), tuple(sorted(placements)))
    if head == "cargo" and rest:
        loads = []
        for w in rest:
            m = _CARGO_ITEM.fullmatch(w.lower())
            if not m:
                raise MoveSyntaxError(f"'{w}' is not a knight's cargo (write it like b2:K,P)")
            loads.append((_square(m.group(1)), _cargo_letters(m.group(2))))
        return CargoSetup(tuple(loads))
    m = _PIECE_MOVE.fullmatch(text.strip().lower())
    if not m:
        raise MoveSyntaxError(f"'{text.strip()}' is not a move. {HELP}")
    promotion = (m.group(4) or "").upper()
    if promotion and promotion not in PROMOTION_LETTERS:
        raise MoveSyntaxError("A pawn promotes to R, B or N")
    return PieceMove(_square(m.group(1)), _square(m.group(3)), m.group(2) == "x", promotion)


# --- state ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    """Never mutated: `apply` builds a new one (the dicts are copied, never changed in place)."""

    num_players: int
    armies: tuple[str, ...]
    board: bytes  # 64 pieces (0 = empty)
    cargo: dict[int, tuple[int, ...]]  # every Mycenaean knight's square -> what it carries (sorted piece codes)
    known: dict[int, tuple[int, ...]]  # the same knights -> the part of the cargo the public has seen go in
    out: tuple[bool, ...]
    waiting: tuple[int, ...] = ()  # Mycenae seats still choosing their cargo
    turn: int = 0
    pending: tuple[int, int, str] | None = None  # (requester, player asked, load) awaiting consent
    refused: tuple[str, ...] = ()  # requests refused during this turn
    ply: int = 0
    quiet: int = 0  # completed turns since the last capture, burn or pawn move
    history: tuple[str, ...] = ()  # position digests at turn starts since the last capture, burn or knock-out
    last_move: str | None = None
    last_squares: tuple[int, ...] = ()
    last_mover: int | None = None
    revealed: tuple[JSON, ...] = ()  # public records of destroyed cargo
    outcome: Outcome | None = None

    @property
    def corners(self) -> tuple[int, ...]:
        return corners_for(self.num_players)


def _army_options(num_players: int, options: JSON | None) -> tuple[str, ...]:
    """One army per seat. A shorter list (such as the two-player default) is filled up with plain armies."""
    armies = (options or {}).get("armies") or DEFAULT_ARMIES
    if isinstance(armies, str) or len(armies) > num_players:
        raise ValueError(f"armies needs one entry per player ({num_players}), each mycenae or plain")
    armies = tuple(str(a).strip().lower() for a in armies) + ("plain",) * (num_players - len(armies))
    if any(a not in ARMY_CHOICES for a in armies):
        raise ValueError(f"unknown army in {list(armies)}; choose mycenae or plain")
    return armies


def _home_board(num_players: int, armies: Sequence[str]) -> bytearray:
    board = bytearray(64)
    for seat, corner in enumerate(corners_for(num_players)):
        if armies[seat] == "mycenae":
            for sq in HORSE_SQUARES[corner]:
                board[sq] = piece(seat, HORSE)
        else:
            for i, j, kind in PLAIN_HOME:
                board[CORNERS[corner].square(i, j)] = piece(seat, kind)
    return board


def _horses(board: bytes | bytearray) -> list[int]:
    return [sq for sq in range(64) if board[sq] & 7 == HORSE]


def _position_digest(board: bytes | bytearray, cargo: dict[int, tuple[int, ...]], turn: int,
                     out: Sequence[bool]) -> str:
    """What threefold repetition compares: board, every cargo, players out, side to move."""
    h = hashlib.blake2b(bytes(board), digest_size=8)
    for sq in sorted(cargo):
        h.update(bytes((sq, len(cargo[sq]), *cargo[sq])))
    h.update(bytes((turn, *out)))
    return h.hexdigest()


def position(
    board: str,
    num_players: int = 2,
    turn: int = 0,
    cargo: dict[str, str] | None = None,
    armies: Sequence[str] | None = None,
    out: Sequence[int] = (),
    known: dict[str, str] | None = None,
) -> State:
    """Build a mid-game state from a text board (tests, debugging).

    `board`: 8 lines, rank 8 first, 8 cells each separated by spaces: `.` empty, otherwise the owner's contract
    seat and a letter, `0K 2P 1N` (N = plain knight), `0M` for a Mycenaean knight. `cargo` maps knight squares to
    what they carry, e.g. {"c4": "0K 0P 2B"}; `known` does the same for the publicly known part (default: none).
    """
    rows = [line.split() for line in board.strip().splitlines()]
    if len(rows) != 8 or any(len(row) != 8 for row in rows):
        raise ValueError("a board has 8 rows of 8 cells")
    cells = bytearray(64)
    for r, row in enumerate(rows):
        for f, cell in enumerate(row):
            if cell != ".":
                cells[f * 8 + 7 - r] = piece(int(cell[0]), "KRBNPM".index(cell[1]) + 1)

    def codes(text: str) -> tuple[int, ...]:
        return tuple(sorted(piece(int(w[0]), CARRIED_BY_LETTER[w[1]]) for w in text.split()))

    horses = _horses(cells)
    loads = {sq: () for sq in horses} | {_square(k): codes(v) for k, v in (cargo or {}).items()}
    seen = {sq: () for sq in horses} | {_square(k): codes(v) for k, v in (known or {}).items()}
    if set(loads) != set(horses) or set(seen) != set(horses):
        raise ValueError("cargo given for a square without a Mycenaean knight")
    outs = tuple(seat in out for seat in range(num_players))
    armies = tuple(armies or DEFAULT_ARMIES + ("plain",) * (num_players - 2))
    return State(
        num_players, armies, bytes(cells), loads, seen, outs, turn=turn,
        history=(_position_digest(cells, loads, turn, outs),),
    )


# --- move generation --------------------------------------------------------------------------------------------
# The functions below read a position through .board, .cargo, .num_players, .corners and .refused, so they serve
# both a State and the mutable _Work copy inside apply.


def _targets(board: bytes | bytearray, sq: int, code: int, corners: Sequence[int]) -> Iterator[tuple[int, bool]]:
    """(square, captures?) for every ordinary move of the piece `code` standing on sq."""
    kind, me = code & 7, code >> 3
    if kind == PAWN:
        t = corners[me]
        step = PAWN_STEP[t][sq]
        if step >= 0 and not board[step]:
            yield step, False
            two = PAWN_DOUBLE[t][sq]
            if two >= 0 and not board[two]:
                yield two, False
        for x in PAWN_TAKES[t][sq]:
            if board[x] and board[x] >> 3 != me:
                yield x, True
    elif kind in (KING, KNIGHT, HORSE):
        for x in NEIGHBOURS[sq] if kind == KING else JUMPS[sq]:
            v = board[x]
            if not v:
                yield x, False
            elif v >> 3 != me and kind != HORSE:  # a Mycenaean knight never captures
                yield x, True
    else:
        for ray in ROOK_RAYS[sq] if kind == ROOK else BISHOP_RAYS[sq]:
            for x in ray:
                v = board[x]
                if not v:
                    yield x, False
                    continue
                if v >> 3 != me:
                    yield x, True
                break


def _promotes(code: int, target: int, corners: Sequence[int]) -> bool:
    return code & 7 == PAWN and ROW[corners[code >> 3]][target] == 7


def _piece_moves(pos: Any, seat: int) -> list[str]:
    board, corners, moves = pos.board, pos.corners, []
    for sq in range(64):
        code = board[sq]
        if not code or code >> 3 != seat:
            continue
        for to, capture in _targets(board, sq, code, corners):
            text = (TAKE_TEXT if capture else STEP_TEXT)[sq][to]
            if _promotes(code, to, corners):
                moves.extend(f"{text}={letter}" for letter in PROMOTION_LETTERS)
            else:
                moves.append(text)
    return moves


def _loadable(board: bytes | bytearray, knight: int) -> list[int]:
    """Squares around a knight holding a piece that can be carried (anything but a knight)."""
    return [x for x in NEIGHBOURS[knight] if board[x] and board[x] & 7 not in (KNIGHT, HORSE)]


def _load_moves(pos: Any, seat: int, knight: int) -> list[str]:
    """Loads of one's own pieces, then (three or more players) requests naming one other player's pieces."""
    board = pos.board
    candidates = _loadable(board, knight)
    own = [x for x in candidates if board[x] >> 3 == seat]
    moves = [_load_text(knight, subset) for subset in _subsets(own)]
    if pos.num_players >= 3:
        for other in sorted({board[x] >> 3 for x in candidates} - {seat}):
            pool = sorted(own + [x for x in candidates if board[x] >> 3 == other])
            for subset in _subsets(pool):
                if any(board[x] >> 3 == other for x in subset):
                    text = _load_text(knight, subset)
                    if text not in pos.refused:
                        moves.append(text)
    return moves


def _subsets(items: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Non-empty subsets, each in the order of `items`."""
    for mask in range(1, 1 << len(items)):
        yield tuple(x for i, x in enumerate(items) if mask >> i & 1)


def _own_counts(codes: Sequence[int], seat: int) -> tuple[int, int, int, int]:
    """How many K, R, B, P of `seat` a cargo holds (the pieces `seat` may unload from it)."""
    counts = [0, 0, 0, 0]
    for code in codes:
        if code >> 3 == seat:
            counts[CARRIED.index(code & 7)] += 1
    return counts[0], counts[1], counts[2], counts[3]


def _unload_spec(pos: Any, seat: int, knight: int) -> tuple[tuple[int, ...], tuple[int, int, int, int], int] | None:
    """(empty squares around, counts of seat's pieces inside, seat's corner) if seat may unload something."""
    counts = _own_counts(pos.cargo.get(knight, ()), seat)
    if not any(counts):
        return None
    board = pos.board
    empties = tuple(x for x in NEIGHBOURS[knight] if not board[x])
    corner = pos.corners[seat]
    if not empties or not any(counts[:3]) and all(ROW[corner][x] == 7 for x in empties):
        return None
    return empties, counts, corner


@lru_cache(maxsize=8)  # a few recent knights: the picker's and autocomplete's repeated calls; 40,000 texts ≈ 4 MB
def _unload_texts(
    knight: int, empties: tuple[int, ...], counts: tuple[int, int, int, int], corner: int
) -> tuple[str, ...]:
    """Every unload of `counts` pieces from `knight` onto `empties`, canonical (placements in square order).

    Built square by square with one list of partial texts per multiset of pieces still inside: each level is a
    few list comprehensions of string concatenations, so 40,000 unloads take about 10 ms.
    """
    head = f"unload {NAMES[knight]}"
    layers: dict[tuple[int, ...], list[str]] = {counts: [head]}
    for sq in empties:
        pawn_ok = ROW[corner][sq] != 7
        tokens = [f" {letter}@{NAMES[sq]}" for letter in "KRBP"]
        grown: dict[tuple[int, ...], list[str]] = {}
        for left, texts in layers.items():
            grown.setdefault(left, []).extend(texts)  # leave sq empty
            for i in range(3 if not pawn_ok else 4):
                if left[i]:
                    fewer = left[:i] + (left[i] - 1,) + left[i + 1 :]
                    token = tokens[i]
                    grown.setdefault(fewer, []).extend([text + token for text in texts])
        layers = grown
    texts = [text for group in layers.values() for text in group]
    texts.remove(head)  # placing nothing is no move
    return tuple(texts)


def _iter_unloads(
    knight: int, empties: tuple[int, ...], counts: tuple[int, ...], corner: int, prefix: str
) -> Iterator[str]:
    """The unloads whose lower-cased text starts with `prefix`, lazily: only the matching branches are walked."""

    def walk(i: int, text: str, left: tuple[int, ...], placed: bool) -> Iterator[str]:
        low = text.lower()
        if not (low.startswith(prefix) or prefix.startswith(low)):
            return
        if i == len(empties):
            if placed and low.startswith(prefix):
                yield text
            return
        sq = empties[i]
        for k in range(4):
            if left[k] and (k < 3 or ROW[corner][sq] != 7):
                fewer = left[:k] + (left[k] - 1,) + left[k + 1 :]
                yield from walk(i + 1, f"{text} {'KRBP'[k]}@{NAMES[sq]}", fewer, True)
        yield from walk(i + 1, text, left, placed)

    yield from walk(0, f"unload {NAMES[knight]}", counts, False)


def _burn_victims(board: bytes | bytearray, knight: int) -> list[int]:
    return [knight] + [x for x in ORTHO[knight] if board[x]]


def _burn_kills_own_king(pos: Any, seat: int, knight: int) -> bool:
    king = piece(seat, KING)
    for sq in _burn_victims(pos.board, knight):
        if pos.board[sq] == king or king in pos.cargo.get(sq, ()):
            return True
    return False


def _can_burn(pos: Any, seat: int, knight: int) -> bool:
    return bool(pos.cargo.get(knight)) and not _burn_kills_own_king(pos, seat, knight)


def _own_horses(pos: Any, seat: int) -> list[int]:
    code = piece(seat, HORSE)
    return [sq for sq in range(64) if pos.board[sq] == code]


def _guest_horses(pos: Any, seat: int) -> list[int]:
    """Other players' knights that carry some of seat's pieces (which only seat may unload)."""
    return sorted(
        sq for sq, codes in pos.cargo.items() if pos.board[sq] >> 3 != seat and any(c >> 3 == seat for c in codes)
    )


def _turn_moves(pos: Any, seat: int) -> list[str]:
    """Every legal move of `seat` on an ordinary turn: piece moves, then each knight's loads, unloads and burn."""
    moves = _piece_moves(pos, seat)
    for knight in _own_horses(pos, seat):
        moves += _load_moves(pos, seat, knight)
        spec = _unload_spec(pos, seat, knight)
        if spec:
            moves += _unload_texts(knight, *spec)
        if _can_burn(pos, seat, knight):
            moves.append(f"burn {NAMES[knight]}")
    for knight in _guest_horses(pos, seat):
        spec = _unload_spec(pos, seat, knight)
        if spec:
            moves += _unload_texts(knight, *spec)
    return moves


def _piece_can_move(pos: Any, sq: int) -> bool:
    return next(_targets(pos.board, sq, pos.board[sq], pos.corners), None) is not None


def _horse_actions(pos: Any, seat: int, knight: int) -> list[str]:
    """The knight actions of `seat` with the knight on `knight` (for the picker): load, unload, burn."""
    actions = []
    if pos.board[knight] >> 3 == seat:
        if _load_moves_exist(pos, seat, knight):
            actions.append("load")
        if _unload_spec(pos, seat, knight):
            actions.append("unload")
        if _can_burn(pos, seat, knight):
            actions.append("burn")
    elif _unload_spec(pos, seat, knight):
        actions.append("unload")
    return actions


def _load_moves_exist(pos: Any, seat: int, knight: int) -> bool:
    candidates = _loadable(pos.board, knight)
    if any(pos.board[x] >> 3 == seat for x in candidates):
        return True
    if pos.num_players < 3 or not candidates:
        return False
    return bool(not pos.refused or _load_moves(pos, seat, knight))


def _has_action(pos: Any, seat: int) -> bool:
    board = pos.board
    for sq in range(64):
        if board[sq] and board[sq] >> 3 == seat:
            if _piece_can_move(pos, sq) or board[sq] & 7 == HORSE and _horse_actions(pos, seat, sq):
                return True
    return any(_unload_spec(pos, seat, knight) for knight in _guest_horses(pos, seat))


@lru_cache(maxsize=4)
def _cargo_moves(corner: int) -> tuple[str, ...]:
    """The 540 ways to spread K, R, B, B, P, P, P over the three knights, canonical."""
    moves = []
    for k, r in product(range(3), repeat=2):
        for bishops in combinations_with_replacement(range(3), 2):
            for pawns in combinations_with_replacement(range(3), 3):
                moves.append(_cargo_text(corner, (k, r, *bishops, *pawns)))
    return tuple(moves)


def _cargo_text(corner: int, knight_of_each: Sequence[int]) -> str:
    """`knight_of_each[i]` is the knight (0..2, in the seat's order) carrying SETUP_CARGO[i]."""
    parts = []
    for index, sq in enumerate(HORSE_SQUARES[corner]):
        letters = [LETTER[kind] for kind, k in zip(SETUP_CARGO, knight_of_each) if k == index]
        if letters:
            parts.append(f"{NAMES[sq]}:{','.join(letters)}")
    return "cargo " + " ".join(parts)


# --- apply ------------------------------------------------------------------------------------------------------


def _pieces_json(codes: Sequence[int]) -> list[JSON]:
    return [{"owner": c >> 3, "type": LETTER[c & 7]} for c in codes]


class _Work:
    """A mutable copy of a state for the length of one `apply`; `Mycenae._freeze` turns it back into a State."""

    def __init__(self, state: State, mover: int):
        self.num_players = state.num_players
        self.armies = state.armies
        self.corners = state.corners
        self.board = bytearray(state.board)
        self.cargo = dict(state.cargo)
        self.known = dict(state.known)
        self.out = list(state.out)
        self.refused = state.refused
        self.revealed = list(state.revealed)
        self.mover = mover
        self.ply = state.ply + 1
        self.events: list[Event] = []
        self.highlight: list[int] = []
        self.progress = False  # a capture, a burn or a pawn move: resets the 50-move count
        self.irreversible = False  # material lost or a player out: earlier positions cannot come back
        self.knockouts: list[str] = []
        self.outcome: Outcome | None = None

    def seat_name(self, seat: int) -> str:
        return CORNERS[self.corners[seat]].name

    def active(self) -> list[int]:
        return [s for s in range(self.num_players) if not self.out[s]]

    def next_seat(self, after: int) -> int:
        for step in range(1, self.num_players + 1):
            seat = (after + step) % self.num_players
            if not self.out[seat]:
                return seat
        return after

    # --- the board ---

    def put_horse_cargo(self, sq: int, codes: tuple[int, ...], seen: tuple[int, ...]) -> None:
        self.cargo[sq] = codes
        self.known[sq] = seen

    def move_piece(self, origin: int, target: int) -> None:
        code = self.board[origin]
        self.board[target], self.board[origin] = code, 0
        if code & 7 == HORSE:  # the cargo travels with its knight
            self.put_horse_cargo(target, self.cargo.pop(origin), self.known.pop(origin))

    def destroy_cargo(self, sq: int, cause: str) -> None:
        """The cargo of the knight on sq is destroyed and shown to everyone."""
        codes = self.cargo.pop(sq, ())
        self.known.pop(sq, None)
        record = {"ply": self.ply, "square": NAMES[sq], "owner": self.board[sq] >> 3, "cause": cause,
                  "pieces": _pieces_json(codes)}
        self.revealed.append(record)
        self.events.append(event("cargo_destroyed", **record))
        if codes:
            self.irreversible = True

    def remove(self, sq: int, cause: str) -> JSON:
        """Take the piece on sq off the board for good (its cargo too)."""
        code = self.board[sq]
        if code & 7 == HORSE:
            self.destroy_cargo(sq, cause)
        self.board[sq] = 0
        self.irreversible = True
        return {"square": NAMES[sq], "owner": code >> 3, "type": LETTER[code & 7], "mycenaean": code & 7 == HORSE}

    def remove_carried(self, sq: int, code: int) -> None:
        self.cargo[sq] = _without(self.cargo[sq], code)
        if code in self.known[sq]:
            self.known[sq] = _without(self.known[sq], code)

    # --- knock-outs ---

    def has_king(self, seat: int) -> bool:
        king = piece(seat, KING)
        return king in self.board or any(king in codes for codes in self.cargo.values())

    def units(self, seat: int) -> int:
        on_board = sum(1 for c in self.board if c and c >> 3 == seat)
        return on_board + sum(1 for codes in self.cargo.values() for c in codes if c >> 3 == seat)

    def lost(self, seat: int) -> str | None:
        if not self.has_king(seat):
            return "lost the king"
        if self.units(seat) == 1:
            return "was reduced to a single unit"
        return None

    def settle(self) -> None:
        """Judge who is out after a move: the others first (a mover left as the last king wins), then the mover;
        repeat while take-overs destroy more cargo."""
        mover_judged = False
        while self.outcome is None:
            newly = [(s, why) for s in self.active() if s != self.mover and (why := self.lost(s))]
            if not newly and not mover_judged:
                mover_judged = True
                if not self.out[self.mover] and (why := self.lost(self.mover)):
                    newly = [(self.mover, why)]
            if not newly:
                return
            for seat, why in newly:
                self.knock_out(seat, why)
            if len(self.active()) <= 1:
                self.finish_by_knockout()
                return
            for seat, why in newly:
                self.dispose(seat, why)

    def knock_out(self, seat: int, why: str) -> None:
        self.out[seat] = True
        self.irreversible = True
        self.knockouts.append(f"{self.seat_name(seat)} {why}")
        self.events.append(event("out", seat=seat, corner=self.seat_name(seat), reason=why))

    def finish_by_knockout(self) -> None:
        active = self.active()
        winners = tuple(active[:1])
        self.outcome = Outcome(winners, "; ".join(self.knockouts) or "last king standing")
        self.events.append(event("game_over", winners=list(winners), reason=self.outcome.reason))

    def dispose(self, seat: int, why: str) -> None:
        """What happens to the pieces of a player who is out."""
        if why == "was reduced to a single unit":
            self.remove_all(seat, "removed")  # his last unit
            return
        heir = self.mover
        if self.num_players >= 3 and heir != seat and not self.out[heir]:
            self.take_over(seat, heir)
        else:
            self.remove_all(seat, "removed")

    def remove_king(self, seat: int) -> None:
        king = piece(seat, KING)
        for sq in range(64):
            if self.board[sq] == king:
                self.events.append(event("removed", seat=seat, pieces=[self.remove(sq, "removed")]))
        for sq, codes in list(self.cargo.items()):
            if king in codes:
                self.remove_carried(sq, king)
                self.events.append(event("removed", seat=seat, pieces=[{"square": NAMES[sq], "owner": seat,
                                                                        "type": "K", "carried": True}]))
                self.irreversible = True

    def remove_all(self, seat: int, cause: str) -> None:
        gone = [self.remove(sq, cause) for sq in range(64) if self.board[sq] and self.board[sq] >> 3 == seat]
        for sq, codes in list(self.cargo.items()):
            for code in [c for c in codes if c >> 3 == seat]:
                self.remove_carried(sq, code)
                gone.append({"square": NAMES[sq], "owner": seat, "type": LETTER[code & 7], "carried": True})
        if gone:
            self.irreversible = True
            self.events.append(event("removed", seat=seat, pieces=gone))

    def take_over(self, seat: int, heir: int) -> None:
        """The heir takes every remaining piece of `seat`; knights taken over lose their cargo."""
        for sq in range(64):
            code = self.board[sq]
            if code and code >> 3 == seat:
                if code & 7 == HORSE:
                    self.destroy_cargo(sq, "taken over")
                    self.put_horse_cargo(sq, (), ())
                self.board[sq] = piece(heir, code & 7)
        for sq in list(self.cargo):
            self.cargo[sq] = _reowned(self.cargo[sq], seat, heir)
            self.known[sq] = _reowned(self.known[sq], seat, heir)
        self.events.append(event("takeover", seat=heir, corner=self.seat_name(heir), taken=seat,
                                 taken_corner=self.seat_name(seat)))

    def drop_stuck(self, seat: int, heir: int) -> None:
        """A player with no legal action on her turn is out; the player who moved last takes over the rest."""
        self.knock_out(seat, "had no legal action")
        if len(self.active()) <= 1:
            self.finish_by_knockout()
            return
        self.remove_king(seat)
        if self.num_players >= 3 and heir != seat and not self.out[heir]:
            self.take_over(seat, heir)
        else:
            self.remove_all(seat, "removed")
        self.mover = heir
        self.settle()

    def start_turn(self, seat: int) -> int:
        """Hand the turn to `seat` (or the next player with a legal action); returns who is to move."""
        while self.outcome is None and not _has_action(self, seat):
            self.drop_stuck(seat, self.mover)
            seat = self.next_seat(seat)
        return seat

    # --- the moves ---

    def piece_move(self, move: PieceMove) -> str:
        seat, board = self.mover, self.board
        code = board[move.origin]
        if not code:
            raise IllegalMoveError(f"There is no piece on {NAMES[move.origin]}")
        if code >> 3 != seat:
            raise IllegalMoveError(f"{NAMES[move.origin]} is not your piece")
        kind = code & 7
        targets = dict(_targets(board, move.origin, code, self.corners))
        if move.target not in targets:
            if kind == HORSE and board[move.target] and board[move.target] >> 3 != seat:
                raise IllegalMoveError("A Mycenaean knight cannot capture")
            raise IllegalMoveError(f"The {PIECE_NAME[kind].lower()} on {NAMES[move.origin]} cannot move to "
                                   f"{NAMES[move.target]}")
        promotes = _promotes(code, move.target, self.corners)
        if promotes and not move.promotion:
            raise IllegalMoveError("A pawn reaching the far edge promotes: add =R, =B or =N")
        if move.promotion and not promotes:
            raise IllegalMoveError("Only a pawn reaching its far edge promotes")
        capture = targets[move.target]
        text = str(PieceMove(move.origin, move.target, capture, move.promotion))
        if capture:
            victim = board[move.target]
            self.events.append(event("capture", seat=seat, square=NAMES[move.target], victim=victim >> 3,
                                     victim_corner=self.seat_name(victim >> 3), piece=LETTER[victim & 7],
                                     mycenaean=victim & 7 == HORSE))
            self.remove(move.target, "captured")
            self.progress = True
        self.move_piece(move.origin, move.target)
        self.events.append(event("move", seat=seat, corner=self.seat_name(seat), move=text,
                                 origin=NAMES[move.origin], target=NAMES[move.target], piece=LETTER[kind],
                                 mycenaean=kind == HORSE))
        if kind == PAWN:
            self.progress = True
        if move.promotion:
            self.promote(move.target, move.promotion)
        self.highlight = [move.origin, move.target]
        return text

    def promote(self, sq: int, letter: str) -> None:
        seat = self.mover
        kind = {"R": ROOK, "B": BISHOP}.get(letter) or (HORSE if self.armies[seat] == "mycenae" else KNIGHT)
        self.board[sq] = piece(seat, kind)
        if kind == HORSE:  # a new, empty Mycenaean knight
            self.put_horse_cargo(sq, (), ())
        self.events.append(event("promotion", seat=seat, square=NAMES[sq], piece=letter, mycenaean=kind == HORSE))

    def own_knight(self, sq: int, action: str) -> None:
        code = self.board[sq]
        if code & 7 != HORSE:
            raise IllegalMoveError(f"There is no Mycenaean knight on {NAMES[sq]}")
        if code >> 3 != self.mover:
            raise IllegalMoveError(f"Only its owner may {action} the knight on {NAMES[sq]}")

    def check_load(self, move: Load) -> int | None:
        """Validate a load; returns the other player whose pieces it names (a request), or None."""
        self.own_knight(move.knight, "load")
        others = set()
        for sq in move.squares:
            code = self.board[sq]
            if sq not in NEIGHBOURS[move.knight]:
                raise IllegalMoveError(f"{NAMES[sq]} is not next to the knight on {NAMES[move.knight]}")
            if not code:
                raise IllegalMoveError(f"There is no piece on {NAMES[sq]}")
            if code & 7 in (KNIGHT, HORSE):
                raise IllegalMoveError("Knights cannot carry knights")
            if code >> 3 != self.mover:
                others.add(code >> 3)
        if not others:
            return None
        if self.num_players < 3:
            raise IllegalMoveError("With two players you may load only your own pieces")
        if len(others) > 1:
            raise IllegalMoveError("A load may name the pieces of one other player only")
        if str(move) in self.refused:
            raise IllegalMoveError("That request was refused this turn")
        return others.pop()

    def load(self, move: Load) -> str:
        codes = [self.board[sq] for sq in move.squares]
        for sq in move.squares:
            self.board[sq] = 0
        self.cargo[move.knight] = tuple(sorted(self.cargo[move.knight] + tuple(codes)))
        self.known[move.knight] = tuple(sorted(self.known[move.knight] + tuple(codes)))
        text = str(move)
        self.events.append(event("load", seat=self.mover, corner=self.seat_name(self.mover), move=text,
                                 knight=NAMES[move.knight],
                                 pieces=[{"square": NAMES[sq], "owner": c >> 3, "type": LETTER[c & 7]}
                                         for sq, c in zip(move.squares, codes)]))
        self.highlight = [move.knight, *move.squares]
        return text

    def unload(self, move: Unload) -> str:
        seat, knight = self.mover, move.knight
        if self.board[knight] & 7 != HORSE:
            raise IllegalMoveError(f"There is no Mycenaean knight on {NAMES[knight]}")
        inside = self.cargo[knight]
        mine = [c for c in inside if c >> 3 == seat]
        if not mine:  # says nothing about another player's secret: only seat's own pieces count
            raise IllegalMoveError(f"The knight on {NAMES[knight]} carries none of your pieces")
        for sq, letter in move.placements:
            if sq not in NEIGHBOURS[knight]:
                raise IllegalMoveError(f"{NAMES[sq]} is not next to the knight on {NAMES[knight]}")
            if self.board[sq]:
                raise IllegalMoveError(f"{NAMES[sq]} is not empty (unloading never captures)")
            if letter == "P" and ROW[self.corners[seat]][sq] == 7:
                raise IllegalMoveError("A pawn may not be unloaded onto its promotion edge")
        left = list(mine)
        for _, letter in move.placements:
            code = piece(seat, CARRIED_BY_LETTER[letter])
            if code not in left:
                raise IllegalMoveError(f"The knight on {NAMES[knight]} does not carry that many of your pieces "
                                       f"of type {letter}")
            left.remove(code)
        for sq, letter in move.placements:
            code = piece(seat, CARRIED_BY_LETTER[letter])
            self.remove_carried(knight, code)
            self.board[sq] = code
        text = str(move)
        self.events.append(event("unload", seat=seat, corner=self.seat_name(seat), move=text, knight=NAMES[knight],
                                 pieces=[{"square": NAMES[sq], "owner": seat, "type": letter}
                                         for sq, letter in move.placements]))
        self.highlight = [knight, *(sq for sq, _ in move.placements)]
        return text

    def burn(self, move: Burn) -> str:
        knight = move.knight
        self.own_knight(knight, "burn")
        if not self.cargo[knight]:
            raise IllegalMoveError("Only a knight that carries something can burn")
        if _burn_kills_own_king(self, self.mover, knight):
            raise IllegalMoveError("That burn would destroy your own king")
        victims = _burn_victims(self.board, knight)
        text = str(move)
        self.events.append(event("burn", seat=self.mover, corner=self.seat_name(self.mover), move=text,
                                 knight=NAMES[knight]))
        destroyed = [self.remove(sq, "burnt") for sq in victims]
        self.events.append(event("destroyed", seat=self.mover, knight=NAMES[knight], pieces=destroyed))
        self.progress = True
        self.highlight = victims
        return text


def _without(codes: tuple[int, ...], code: int) -> tuple[int, ...]:
    i = codes.index(code)
    return codes[:i] + codes[i + 1 :]


def _reowned(codes: tuple[int, ...], seat: int, heir: int) -> tuple[int, ...]:
    if not any(c >> 3 == seat for c in codes):
        return codes
    return tuple(sorted(piece(heir, c & 7) if c >> 3 == seat else c for c in codes))


# --- the game ---------------------------------------------------------------------------------------------------


class Mycenae(Game):
    info = INFO
    RULES_VERSION = 1

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if not INFO.min_players <= num_players <= INFO.max_players:
            raise ValueError("Mycenae is for two to four players")
        armies = _army_options(num_players, options)
        board = _home_board(num_players, armies)
        horses = {sq: () for sq in _horses(board)}
        waiting = tuple(s for s in range(num_players) if armies[s] == "mycenae")
        out = (False,) * num_players
        history = () if waiting else (_position_digest(board, horses, 0, out),)
        return State(num_players, armies, bytes(board), horses, dict(horses), out, waiting=waiting, history=history)

    def to_act(self, state: State) -> list[int]:
        if state.outcome is not None:
            return []
        if state.waiting:
            return list(state.waiting)
        if state.pending:
            return [state.pending[1]]
        return [state.turn]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.waiting:
            return list(_cargo_moves(state.corners[seat]))
        if state.pending:
            return ["consent", "refuse"]
        return _turn_moves(state, seat)

    def is_private_move(self, move: str) -> bool:
        return move.strip().lower().startswith("cargo")

    def parse(self, text: str) -> Move:
        return parse_move(text)

    # --- apply ---

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list[Event]]:
        if state.outcome is not None:
            raise IllegalMoveError("The game is over")
        parsed = parse_move(move)
        if seat not in self.to_act(state):
            if state.waiting and 0 <= seat < state.num_players and state.armies[seat] == "mycenae":
                raise IllegalMoveError("You have chosen your cargo; wait for the others")
            raise IllegalMoveError("It is not your turn")
        if state.waiting:
            if not isinstance(parsed, CargoSetup):
                raise IllegalMoveError("First choose what your knights carry (cargo b2:K,P d2:R,B c1:B,P,P)")
            return self._apply_cargo(state, seat, parsed)
        if isinstance(parsed, CargoSetup):
            raise IllegalMoveError("The cargo was chosen before the first move")
        if state.pending:
            if not isinstance(parsed, Answer):
                raise IllegalMoveError("Answer the request first: consent or refuse")
            return self._apply_answer(state, seat, parsed)
        if isinstance(parsed, Answer):
            raise IllegalMoveError("There is no request to answer")
        work = _Work(state, seat)
        if isinstance(parsed, PieceMove):
            text = work.piece_move(parsed)
        elif isinstance(parsed, Load):
            asked = work.check_load(parsed)
            if asked is not None:
                return self._request(state, seat, asked, str(parsed))
            text = work.load(parsed)
        elif isinstance(parsed, Unload):
            text = work.unload(parsed)
        else:
            text = work.burn(parsed)
        return self._end_turn(state, work, text)

    def _apply_cargo(self, state: State, seat: int, move: CargoSetup) -> tuple[State, list[Event]]:
        corner = state.corners[seat]
        order = HORSE_SQUARES[corner]
        loads: dict[int, tuple[str, ...]] = {}
        for sq, letters in move.loads:
            if sq not in order:
                raise IllegalMoveError(f"Your knights start on {', '.join(NAMES[s] for s in order)}")
            if sq in loads:
                raise IllegalMoveError(f"{NAMES[sq]} is listed twice")
            loads[sq] = letters
        if sorted(letter for letters in loads.values() for letter in letters) != sorted("KRBBPPP"):
            raise IllegalMoveError("Spread exactly K, R, B, B, P, P, P over your knights")
        text = "cargo " + " ".join(f"{NAMES[sq]}:{','.join(loads[sq])}" for sq in order if sq in loads)
        cargo = dict(state.cargo)
        for sq in order:
            cargo[sq] = tuple(sorted(piece(seat, CARRIED_BY_LETTER[letter]) for letter in loads.get(sq, ())))
        waiting = tuple(s for s in state.waiting if s != seat)
        history = () if waiting else (_position_digest(state.board, cargo, 0, state.out),)
        events = [event("cargo", visible_to=[seat], seat=seat, move=text,
                        cargo={NAMES[sq]: list(loads[sq]) for sq in order if sq in loads})]
        return replace(state, cargo=cargo, waiting=waiting, ply=state.ply + 1, history=history), events

    def _request(self, state: State, seat: int, asked: int, text: str) -> tuple[State, list[Event]]:
        load = parse_move(text)
        ev = event("request", seat=seat, corner=CORNERS[state.corners[seat]].name, asked=asked,
                   asked_corner=CORNERS[state.corners[asked]].name, move=text,
                   knight=NAMES[load.knight], squares=[NAMES[sq] for sq in load.squares])
        return replace(state, pending=(seat, asked, text), ply=state.ply + 1, last_move=text,
                        last_squares=(load.knight, *load.squares), last_mover=seat), [ev]

    def _apply_answer(self, state: State, seat: int, answer: Answer) -> tuple[State, list[Event]]:
        requester, _, text = state.pending
        if answer.consent:
            work = _Work(replace(state, pending=None), requester)
            work.events.append(event("consent", seat=seat, corner=work.seat_name(seat), requester=requester,
                                     move=text))
            work.load(parse_move(text))
            return self._end_turn(state, work, "consent")
        work = _Work(replace(state, pending=None, refused=state.refused + (text,)), seat)
        work.events.append(event("refuse", seat=seat, corner=work.seat_name(seat), requester=requester,
                                 move=text))
        turn = work.start_turn(requester)  # the requester acts again (and is out if nothing is left to her)
        refused = work.refused if turn == requester else ()
        return self._freeze(state, work, "refuse", turn, state.quiet, state.history, refused), work.events

    def _end_turn(self, state: State, work: _Work, text: str) -> tuple[State, list[Event]]:
        work.settle()
        turn = state.turn
        if work.outcome is None:
            work.refused = ()
            turn = work.start_turn(work.next_seat(work.mover))
        quiet = 0 if work.progress else state.quiet + 1
        history = () if work.irreversible else state.history
        if work.outcome is None:
            digest = _position_digest(work.board, work.cargo, turn, work.out)
            history += (digest,)
            if quiet >= 50 * len(work.active()):
                self._draw(work, "fifty-move rule: 50 moves by every player without a capture, burn or pawn move")
            elif history.count(digest) >= 3:
                self._draw(work, "threefold repetition")
        return self._freeze(state, work, text, turn, quiet, history), work.events

    @staticmethod
    def _draw(work: _Work, reason: str) -> None:
        work.outcome = Outcome((), reason)
        work.events.append(event("game_over", winners=[], reason=reason))

    @staticmethod
    def _freeze(state: State, work: _Work, text: str, turn: int, quiet: int, history: tuple[str, ...],
                refused: tuple[str, ...] = ()) -> State:
        return State(
            state.num_players, state.armies, bytes(work.board), work.cargo, work.known, tuple(work.out),
            turn=turn, refused=refused, ply=work.ply, quiet=quiet, history=history, last_move=text,
            last_squares=tuple(work.highlight) if work.highlight else state.last_squares,
            last_mover=work.mover, revealed=tuple(work.revealed), outcome=work.outcome,
        )

    # --- end check ---

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    # --- view ---

    def view(self, state: State, viewer: int | None) -> JSON:
        corners = state.corners
        seat_names = [CORNERS[c].name for c in corners]
        board = [
            {"square": NAMES[sq], "owner": code >> 3, "type": LETTER[code & 7], "mycenaean": code & 7 == HORSE}
            for sq, code in enumerate(state.board) if code
        ]
        own_cargo = {
            NAMES[sq]: _pieces_json(codes) for sq, codes in sorted(state.cargo.items())
            if viewer is not None and state.board[sq] >> 3 == viewer
        }
        pending = None
        if state.pending:
            requester, asked, text = state.pending
            load = parse_move(text)
            pending = {"requester": requester, "asked": asked, "move": text, "knight": NAMES[load.knight],
                       "squares": [NAMES[sq] for sq in load.squares]}
        active = sum(1 for o in state.out if not o)
        return {
            "game": INFO.key,
            "num_players": state.num_players,
            "viewer": viewer,
            "to_act": self.to_act(state),
            "last_move": state.last_move,
            "last_squares": [NAMES[sq] for sq in state.last_squares],
            "ply": state.ply,
            "outcome": state.outcome.to_json() if state.outcome else None,
            "seat_names": seat_names,
            "corners": seat_names,
            "armies": list(state.armies),
            "pawn_forward": [list(CORNERS[c].forward) for c in corners],
            "promotions": [
                {"R": "Rook", "B": "Bishop", "N": "Mycenaean knight (empty)" if army == "mycenae" else "Knight"}
                for army in state.armies
            ],
            "board": board,
            "cargo": own_cargo,
            "known_cargo": {NAMES[sq]: _pieces_json(codes) for sq, codes in sorted(state.known.items())},
            "revealed": [dict(r) for r in state.revealed],
            "out": [s for s in range(state.num_players) if state.out[s]],
            "turn": None if state.waiting or state.outcome else state.turn,
            "setup": {
                "waiting": list(state.waiting),
                "pieces": [LETTER[k] for k in SETUP_CARGO],
                "knights": {str(s): [NAMES[sq] for sq in HORSE_SQUARES[corners[s]]]
                            for s in range(state.num_players) if state.armies[s] == "mycenae"},
            },
            "pending": pending,
            "refused": list(state.refused),
            "quiet_turns": state.quiet,
            "quiet_limit": 50 * active,
        }

    # --- dump / load ---

    def dump(self, state: State) -> JSON:
        return {
            **self.stamp(),
            "num_players": state.num_players,
            "armies": list(state.armies),
            "board": state.board.hex(),
            "cargo": [[sq, list(codes)] for sq, codes in sorted(state.cargo.items())],
            "known": [[sq, list(codes)] for sq, codes in sorted(state.known.items())],
            "out": list(state.out),
            "waiting": list(state.waiting),
            "turn": state.turn,
            "pending": list(state.pending) if state.pending else None,
            "refused": list(state.refused),
            "ply": state.ply,
            "quiet": state.quiet,
            "history": list(state.history),
            "last_move": state.last_move,
            "last_squares": list(state.last_squares),
            "last_mover": state.last_mover,
            "revealed": [dict(r) for r in state.revealed],
            "outcome": state.outcome.to_json() if state.outcome else None,
        }

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        return State(
            num_players=data["num_players"],
            armies=tuple(data["armies"]),
            board=bytes.fromhex(data["board"]),
            cargo={sq: tuple(codes) for sq, codes in data["cargo"]},
            known={sq: tuple(codes) for sq, codes in data["known"]},
            out=tuple(data["out"]),
            waiting=tuple(data["waiting"]),
            turn=data["turn"],
            pending=tuple(data["pending"]) if data["pending"] else None,
            refused=tuple(data["refused"]),
            ply=data["ply"],
            quiet=data["quiet"],
            history=tuple(data["history"]),
            last_move=data["last_move"],
            last_squares=tuple(data["last_squares"]),
            last_mover=data["last_mover"],
            revealed=tuple(dict(r) for r in data["revealed"]),
            outcome=Outcome.from_json(data["outcome"]),
        )

    # --- the move picker ---

    def move_steps(self, move: str) -> tuple[str, ...]:
        m = parse_move(move)
        if isinstance(m, PieceMove):
            return (NAMES[m.origin], NAMES[m.target]) + ((m.promotion,) if m.promotion else ())
        if isinstance(m, Load):
            return (NAMES[m.knight], "load", *(NAMES[sq] for sq in m.squares))
        if isinstance(m, Unload):
            return (NAMES[m.knight], "unload", *(t for sq, letter in m.placements for t in (letter, NAMES[sq])))
        if isinstance(m, Burn):
            return (NAMES[m.knight], "burn")
        if isinstance(m, CargoSetup):
            where = {}
            for sq, letters in m.loads:
                for letter in letters:
                    where.setdefault(letter, []).append(NAMES[sq])
            return tuple(where[LETTER[k]].pop(0) for k in SETUP_CARGO)
        return (str(m),)

    def choices(self, state: State, seat: int, chosen: Sequence[str] = ()) -> Choices:
        chosen = tuple(chosen)
        if seat not in self.to_act(state):
            return Choices("It is not your turn")
        if state.waiting:
            return _cargo_choices(state, seat, chosen)
        if state.pending:
            if not chosen:
                requester = CORNERS[state.corners[state.pending[0]]].name
                return Choices(f"{requester} asks: {state.pending[2]}", [
                    PickerOption("Consent", "consent", "Let the pieces be loaded"),
                    PickerOption("Refuse", "refuse", "Nothing moves; they act again"),
                ])
            ok = len(chosen) == 1 and chosen[0] in ("consent", "refuse")
            return Choices("Confirm", move=chosen[0] if ok else None)
        return _turn_choices(state, seat, chosen)

    def matching_moves(self, state: State, seat: int, typed: str, limit: int = 25) -> list[str]:
        """Autocomplete: moves starting with what was typed (unloads found branch by branch, never all listed),
        then moves containing it."""
        if seat not in self.to_act(state) or state.waiting or state.pending:
            return super().matching_moves(state, seat, typed, limit)
        typed = " ".join(typed.strip().lower().split())
        found: list[str] = []
        for family in _move_families(state, seat):
            if callable(family):
                found.extend(_take(family(typed), limit - len(found)))
            else:
                found.extend(m for m in family if m.lower().startswith(typed))
            if len(found) >= limit:
                return found[:limit]
        if not typed or _starts_with_command(typed):
            return found[:limit]  # no move has a command word anywhere but at its start ("load" aside)
        starts = set(found)
        for m in _turn_moves(state, seat):  # e.g. "K@e5" typed: unload lists are cached for the next keystroke
            if typed in m.lower() and m not in starts:
                found.append(m)
                if len(found) >= limit:
                    break
        return found[:limit]

    # --- text board ---

    def render_text(self, view: JSON) -> str:
        cells = {p["square"]: f"{p['owner']}{'M' if p['mycenaean'] else p['type']}" for p in view["board"]}
        lines = []
        for rank in range(8, 0, -1):
            row = " ".join(cells.get(f"{f}{rank}", " .") for f in "abcdefgh")
            lines.append(f"{rank} {row}")
        lines.append("   " + "  ".join("abcdefgh"))
        names = view["seat_names"]
        lines.append("seats: " + ", ".join(f"{s}={n} ({a})" for s, (n, a) in enumerate(zip(names, view["armies"]))))
        if view["setup"]["waiting"]:
            lines.append(f"choosing cargo: {view['setup']['waiting']}")
        for sq, pieces in view["cargo"].items():
            lines.append(f"your knight {sq} carries: {_pieces_text(pieces) or 'nothing'}")
        for sq, pieces in view["known_cargo"].items():
            if pieces:
                lines.append(f"seen loaded into {sq}: {_pieces_text(pieces)}")
        if view["pending"]:
            p = view["pending"]
            lines.append(f"{names[p['requester']]} asks {names[p['asked']]}: {p['move']}")
        if view["out"]:
            lines.append(f"out: {', '.join(names[s] for s in view['out'])}")
        lines.append(f"last move: {view['last_move']}   to act: {view['to_act']}   "
                     f"quiet turns {view['quiet_turns']}/{view['quiet_limit']}")
        return "\n".join(lines)

    # --- narration ---

    def describe(self, ev: Event) -> str | None:
        kind = ev["type"]
        if kind in ("move", "load", "unload", "burn"):
            return f"{ev['corner']}: {ev['move']}"
        if kind == "capture":
            kind = HORSE if ev["mycenaean"] else "KRBNP".index(ev["piece"]) + 1
            return f"{ev['square']}: {ev['victim_corner']}'s {PIECE_NAME[kind].lower()} is captured"
        if kind == "promotion":
            return f"{ev['square']} promotes to {'a Mycenaean knight' if ev['mycenaean'] else ev['piece']}"
        if kind == "destroyed":
            return f"burnt: {', '.join(p['type'] + '@' + p['square'] for p in ev['pieces'])}"
        if kind == "cargo_destroyed":
            return f"the knight on {ev['square']} carried {_pieces_text(ev['pieces']) or 'nothing'}"
        if kind == "request":
            return f"{ev['corner']} asks {ev['asked_corner']} to consent: {ev['move']}"
        if kind in ("consent", "refuse"):
            return f"{ev['corner']} {'consents' if kind == 'consent' else 'refuses'}"
        if kind == "out":
            return f"{ev['corner']} {ev['reason']} and is out"
        if kind == "takeover":
            return f"{ev['corner']} takes over the pieces of {ev['taken_corner']}"
        if kind == "removed":
            return f"removed: {', '.join(p['type'] + '@' + p['square'] for p in ev['pieces'])}"
        if kind == "game_over":
            return f"game over: {ev['reason']}"
        return None


def _pieces_text(pieces: Sequence[JSON]) -> str:
    return " ".join(f"{p['owner']}{p['type']}" for p in pieces)


def _take(it: Iterator[str], n: int) -> list[str]:
    out = []
    if n <= 0:
        return out
    for m in it:
        out.append(m)
        if len(out) >= n:
            break
    return out


COMMANDS = ("unload", "load", "burn", "consent", "refuse", "cargo")


def _starts_with_command(typed: str) -> bool:
    """`unl`, `load c4`, `burn`: text that can only be the start of a move (a square like b1 is not)."""
    head = typed.split(" ")[0]
    if len(head) < 2 or head[1].isdigit():
        return False
    return any(word.startswith(head) or head.startswith(word) for word in COMMANDS)


def _move_families(state: State, seat: int) -> Iterator[Any]:
    """The move list in pieces: plain lists, and for unloads a function prefix -> lazy matching moves."""
    yield _piece_moves(state, seat)
    for knight in _own_horses(state, seat):
        yield _load_moves(state, seat, knight)
        spec = _unload_spec(state, seat, knight)
        if spec:
            yield lambda typed, k=knight, s=spec: _iter_unloads(k, *s, typed)
        if _can_burn(state, seat, knight):
            yield [f"burn {NAMES[knight]}"]
    for knight in _guest_horses(state, seat):
        spec = _unload_spec(state, seat, knight)
        if spec:
            yield lambda typed, k=knight, s=spec: _iter_unloads(k, *s, typed)


# --- picker steps -----------------------------------------------------------------------------------------------


def _cargo_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    """One step per carried piece: which knight carries the King, the Rook, each Bishop, each Pawn. Repeated
    pieces pick knights in the seat's order (second Bishop not before the first), so each spread has one path."""
    order = [NAMES[sq] for sq in HORSE_SQUARES[state.corners[seat]]]
    if len(chosen) > len(SETUP_CARGO) or any(c not in order for c in chosen):
        return Choices("That choice is not available")
    for i in range(1, len(chosen)):
        if SETUP_CARGO[i] == SETUP_CARGO[i - 1] and order.index(chosen[i]) < order.index(chosen[i - 1]):
            return Choices("That choice is not available")
    if len(chosen) == len(SETUP_CARGO):
        return Choices("Your cargo", move=_cargo_text(state.corners[seat], [order.index(c) for c in chosen]))
    i = len(chosen)
    kind = SETUP_CARGO[i]
    first = order.index(chosen[i - 1]) if i and SETUP_CARGO[i - 1] == kind else 0
    nth = SETUP_CARGO[:i].count(kind) + 1
    label = PIECE_NAME[kind] + (f" {nth}" if SETUP_CARGO.count(kind) > 1 else "")
    options = [PickerOption(f"{label} in the knight on {sq}", sq) for sq in order[first:]]
    return Choices(f"Which knight carries your {label}?", options)


def _turn_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    board = state.board
    if not chosen:
        return _first_step(state, seat)
    try:
        origin = _square(chosen[0])
    except MoveSyntaxError:
        return Choices("That choice is not available")
    code = board[origin]
    own = code and code >> 3 == seat
    actions = _horse_actions(state, seat, origin) if code & 7 == HORSE else []
    rest = chosen[1:]
    if rest and rest[0] in ("load", "unload", "burn"):
        if rest[0] not in actions:
            return Choices("That choice is not available")
        if rest[0] == "burn":
            return Choices("Burn", move=f"burn {NAMES[origin]}") if len(rest) == 1 else Choices("Not available")
        if rest[0] == "load":
            return _load_choices(state, seat, origin, rest[1:])
        return _unload_choices(state, seat, origin, rest[1:])
    if not own:
        if actions and not rest:
            return Choices(f"The knight on {NAMES[origin]} carries some of your pieces",
                           [PickerOption("Unload your pieces", "unload")])
        return Choices("That choice is not available")
    targets = dict(sorted(_targets(board, origin, code, state.corners)))
    if not rest:
        options = [PickerOption(_destination_label(board, to, cap), NAMES[to]) for to, cap in targets.items()]
        labels = {"load": "Load pieces into it", "unload": "Unload pieces", "burn": "Burn it (destroys it, its "
                  "cargo and the 4 orthogonal neighbours)"}
        options += [PickerOption(labels[a], a) for a in actions]
        return Choices(f"Where does the {PIECE_NAME[code & 7].lower()} on {NAMES[origin]} go?", options)
    try:
        target = _square(rest[0])
    except MoveSyntaxError:
        return Choices("That choice is not available")
    if target not in targets:
        return Choices("That choice is not available")
    text = (TAKE_TEXT if targets[target] else STEP_TEXT)[origin][target]
    if not _promotes(code, target, state.corners):
        return Choices("Confirm", move=text) if len(rest) == 1 else Choices("That choice is not available")
    if len(rest) == 1:
        knight = "Mycenaean knight (new, empty)" if state.armies[seat] == "mycenae" else "Knight"
        names = {"R": "Rook", "B": "Bishop", "N": knight}
        return Choices("Promote to", [PickerOption(names[p], p) for p in PROMOTION_LETTERS])
    if len(rest) == 2 and rest[1] in PROMOTION_LETTERS:
        return Choices("Confirm", move=f"{text}={rest[1]}")
    return Choices("That choice is not available")


def _destination_label(board: bytes, target: int, capture: bool) -> str:
    if not capture:
        return f"→ {NAMES[target]}"
    return f"x{NAMES[target]} takes {PIECE_NAME[board[target] & 7]}"


def _first_step(state: State, seat: int) -> Choices:
    board, options = state.board, []
    for sq in range(64):
        code = board[sq]
        if not code:
            continue
        if code >> 3 == seat:
            if _piece_can_move(state, sq) or code & 7 == HORSE and _horse_actions(state, seat, sq):
                options.append(PickerOption(f"{NAMES[sq]} {PIECE_NAME[code & 7]}", NAMES[sq]))
        elif code & 7 == HORSE and _unload_spec(state, seat, sq):
            options.append(PickerOption(f"{NAMES[sq]} unload your pieces from this knight", NAMES[sq]))
    return Choices("Choose a piece or a knight", options)


def _load_choices(state: State, seat: int, knight: int, picked: tuple[str, ...]) -> Choices:
    board = state.board
    candidates = _loadable(board, knight)
    try:
        squares = [_square(p) for p in picked]
    except MoveSyntaxError:
        return Choices("That choice is not available")
    if len(set(squares)) != len(squares) or any(sq not in candidates for sq in squares):
        return Choices("That choice is not available")
    others = {board[sq] >> 3 for sq in squares} - {seat}
    if len(others) > 1 or others and state.num_players < 3:
        return Choices("That choice is not available")
    move = None
    if squares:
        text = _load_text(knight, sorted(squares))
        move = text if text not in state.refused else None
    options = []
    for sq in candidates:
        owner = board[sq] >> 3
        if sq in squares or owner != seat and (state.num_players < 3 or others and owner not in others):
            continue
        if not _load_completable(state, seat, knight, squares + [sq]):
            continue  # every load through this piece was refused this turn
        whose = "yours" if owner == seat else f"of {CORNERS[state.corners[owner]].name}, asks consent"
        options.append(PickerOption(f"{NAMES[sq]} {PIECE_NAME[board[sq] & 7]} ({whose})", NAMES[sq]))
    prompt = "Load which piece?" if not squares else "Load another piece, or confirm"
    return Choices(prompt, options, move)


def _load_completable(state: State, seat: int, knight: int, squares: list[int]) -> bool:
    """Can the chosen squares still grow into a load that was not refused this turn?"""
    board = state.board
    others = {board[sq] >> 3 for sq in squares} - {seat}
    if not others or not state.refused:
        return True  # loading one's own pieces is never a request
    other = others.pop()
    pool = [x for x in _loadable(board, knight) if board[x] >> 3 in (seat, other)]
    chosen = set(squares)
    refused_supersets = 0
    for text in state.refused:
        load = parse_move(text)
        if load.knight == knight and chosen <= set(load.squares) <= set(pool):
            refused_supersets += 1
    return refused_supersets < 1 << (len(pool) - len(chosen))


def _unload_choices(state: State, seat: int, knight: int, picked: tuple[str, ...]) -> Choices:
    spec = _unload_spec(state, seat, knight)
    if spec is None:
        return Choices("That choice is not available")
    empties, counts, corner = spec
    left, free, placements = list(counts), list(empties), []
    for i in range(0, len(picked), 2):
        letter = picked[i]
        if letter not in CARRIED_BY_LETTER or not left["KRBP".index(letter)]:
            return Choices("That choice is not available")
        if i + 1 < len(picked):
            try:
                sq = _square(picked[i + 1])
            except MoveSyntaxError:
                return Choices("That choice is not available")
            if sq not in free or letter == "P" and ROW[corner][sq] == 7:
                return Choices("That choice is not available")
            free.remove(sq)
            left["KRBP".index(letter)] -= 1
            placements.append((sq, letter))
    if len(picked) % 2:  # a piece chosen: where does it go?
        letter = picked[-1]
        spots = [sq for sq in free if letter != "P" or ROW[corner][sq] != 7]
        return Choices(f"Place the {PIECE_NAME[CARRIED_BY_LETTER[letter]].lower()} where?",
                       [PickerOption(NAMES[sq], NAMES[sq]) for sq in spots])
    move = str(Unload(knight, tuple(sorted(placements)))) if placements else None
    options = [
        PickerOption(PIECE_NAME[CARRIED_BY_LETTER[letter]], letter) for k, letter in enumerate("KRBP")
        if left[k] and any(letter != "P" or ROW[corner][sq] != 7 for sq in free)
    ]
    prompt = "Unload which piece?" if not placements else "Unload another piece, or confirm"
    return Choices(prompt, options, move)


GAME = Mycenae()
