"""Mycenae's move generation. It reads a position through .board, .cargo, .corners and .refused,
so it serves both a State and the mutable copy `apply` works on."""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Any, Iterator, Sequence

from .board import (
    BISHOP_RAYS,
    CARRIED,
    HORSE,
    HORSE_SQUARES,
    JUMPS,
    KING,
    KNIGHT,
    LETTER,
    NAMES,
    NEIGHBOURS,
    ORTHO,
    PAWN,
    PAWN_DOUBLE,
    PAWN_STEP,
    PAWN_TAKES,
    PROMOTION_LETTERS,
    ROOK,
    ROOK_RAYS,
    ROW,
    SETUP_CARGO,
    STEP_TEXT,
    TAKE_TEXT,
    piece,
)
from .notation import _load_text

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
    board, corners = pos.board, pos.corners
    moves: list[str] = []
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
    """Loads of one's own pieces, then requests naming one other player's pieces (with any number of players)."""
    board = pos.board
    candidates = _loadable(board, knight)
    own = [x for x in candidates if board[x] >> 3 == seat]
    moves = [_load_text(knight, subset) for subset in _subsets(own)]
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


class _SizedLRU:
    """A least-recently-used cache bounded by the approximate bytes of what it holds, not by its entry count: an
    unload list runs from a few texts to 40,000 (≈ 3.7 MB), so a count bound either wastes memory or keeps
    nothing useful."""

    def __init__(self, budget: int):
        self.budget = budget
        self.size = 0
        self.entries: OrderedDict[Any, tuple[tuple[str, ...], int]] = OrderedDict()

    def get(self, key: Any) -> tuple[str, ...] | None:
        found = self.entries.get(key)
        if found is None:
            return None
        self.entries.move_to_end(key)
        return found[0]

    def put(self, key: Any, texts: tuple[str, ...]) -> None:
        # A str of n ASCII characters takes 49 + n bytes, plus 8 for its slot in the tuple. Sizing from the
        # longest end instead of summing every text keeps a put at O(1) (summing 40,000 lengths costs ~1 ms).
        longest = max(len(texts[0]), len(texts[-1])) if texts else 0
        size = 64 + len(texts) * (57 + longest)
        self.entries[key] = (texts, size)
        self.size += size
        while self.size > self.budget and len(self.entries) > 1:
            _, (_, dropped) = self.entries.popitem(last=False)
            self.size -= dropped

    def clear(self) -> None:
        self.entries.clear()
        self.size = 0


# One full knight's list and a handful of small ones: what a listing and the next keystrokes of autocomplete ask
# for again. The picker never needs whole lists (it walks them lazily), so a small budget costs it nothing.
UNLOAD_CACHE = _SizedLRU(4 << 20)


def _unload_texts(
    knight: int, empties: tuple[int, ...], counts: tuple[int, int, int, int], corner: int
) -> tuple[str, ...]:
    """Every unload of `counts` pieces from `knight` onto `empties`, canonical (placements in square order),
    remembered in UNLOAD_CACHE."""
    key = (knight, empties, counts, corner)
    texts = UNLOAD_CACHE.get(key)
    if texts is None:
        texts = _build_unload_texts(knight, empties, counts, corner)
        UNLOAD_CACHE.put(key, texts)
    return texts


def _build_unload_texts(
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
    if not candidates:
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


def clear_caches() -> None:
    """Forget every remembered move list (the benchmark measures cold calls)."""
    UNLOAD_CACHE.clear()
    _cargo_moves.cache_clear()
