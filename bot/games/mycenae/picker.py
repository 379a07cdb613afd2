"""Mycenae's step-by-step move picker and autocomplete helpers: never list every unload of a knight."""

from __future__ import annotations

from typing import Any, Iterator

from bot.engine.base import Choices, MoveSyntaxError, PickerOption
from bot.engine.text import Text, join
from .board import (
    BISHOP,
    KNIGHT,
    ROOK,
    CARRIED_BY_LETTER,
    CORNERS,
    HORSE,
    HORSE_SQUARES,
    NAMES,
    PIECE_NAME,
    PIECE_WORD,
    PROMOTION_LETTERS,
    ROW,
    SETUP_CARGO,
    STEP_TEXT,
    TAKE_TEXT,
)
from .moves import (
    _can_burn,
    _cargo_text,
    _guest_horses,
    _horse_actions,
    _iter_unloads,
    _load_moves,
    _loadable,
    _own_horses,
    _piece_can_move,
    _piece_moves,
    _promotes,
    _targets,
    _unload_spec,
)
from .notation import Unload, _load_text, _square, parse_load, parse_move
from .state import State

NOT_AVAILABLE = Text("That choice is not available")


def _take(it: Iterator[str], n: int) -> list[str]:
    out: list[str] = []
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
            yield lambda typed, k=knight, s=spec: _iter_unloads(k, s[0], s[1], s[2], typed)
        if _can_burn(state, seat, knight):
            yield [f"burn {NAMES[knight]}"]
    for knight in _guest_horses(state, seat):
        spec = _unload_spec(state, seat, knight)
        if spec:
            yield lambda typed, k=knight, s=spec: _iter_unloads(k, s[0], s[1], s[2], typed)


# --- picker steps -----------------------------------------------------------------------------------------------


def _cargo_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    """One step per carried piece: which knight carries the King, the Rook, each Bishop, each Pawn. Repeated
    pieces pick knights in the seat's order (second Bishop not before the first), so each spread has one path."""
    order = [NAMES[sq] for sq in HORSE_SQUARES[state.corners[seat]]]
    if len(chosen) > len(SETUP_CARGO) or any(c not in order for c in chosen):
        return Choices(NOT_AVAILABLE)
    for i in range(1, len(chosen)):
        if SETUP_CARGO[i] == SETUP_CARGO[i - 1] and order.index(chosen[i]) < order.index(chosen[i - 1]):
            return Choices(NOT_AVAILABLE)
    if len(chosen) == len(SETUP_CARGO):
        return Choices(Text("Your cargo"), move=_cargo_text(state.corners[seat], [order.index(c) for c in chosen]))
    i = len(chosen)
    kind = SETUP_CARGO[i]
    first = order.index(chosen[i - 1]) if i and SETUP_CARGO[i - 1] == kind else 0
    nth = SETUP_CARGO[:i].count(kind) + 1
    label = join([PIECE_NAME[kind], str(nth)], " ") if SETUP_CARGO.count(kind) > 1 else PIECE_NAME[kind]
    options = [PickerOption(Text("{piece} in the knight on {square}", piece=label, square=sq), sq)
               for sq in order[first:]]
    return Choices(Text("Which knight carries your {piece}?", piece=label), options)


def _turn_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    board = state.board
    if not chosen:
        return _first_step(state, seat)
    try:
        origin = _square(chosen[0])
    except MoveSyntaxError:
        return Choices(NOT_AVAILABLE)
    code = board[origin]
    own = code and code >> 3 == seat
    actions = _horse_actions(state, seat, origin) if code & 7 == HORSE else []
    rest = chosen[1:]
    if rest and rest[0] in ("load", "unload", "burn"):
        if rest[0] not in actions:
            return Choices(NOT_AVAILABLE)
        if rest[0] == "burn":
            return Choices(Text("Burn"), move=f"burn {NAMES[origin]}") if len(rest) == 1 else Choices(NOT_AVAILABLE)
        if rest[0] == "load":
            return _load_choices(state, seat, origin, rest[1:])
        return _unload_choices(state, seat, origin, rest[1:])
    if not own:
        if actions and not rest:
            return Choices(Text("The knight on {square} carries some of your pieces", square=NAMES[origin]),
                           [PickerOption(Text("Unload your pieces"), "unload")])
        return Choices(NOT_AVAILABLE)
    targets = dict(sorted(_targets(board, origin, code, state.corners)))
    if not rest:
        options = [PickerOption(_destination_label(board, to, cap), NAMES[to]) for to, cap in targets.items()]
        labels = {"load": Text("Load pieces into it"), "unload": Text("Unload pieces"),
                  "burn": Text("Burn it (destroys it, its cargo and the 4 orthogonal neighbours)")}
        options += [PickerOption(labels[a], a) for a in actions]
        return Choices(Text("Where does the {piece} on {square} go?", piece=PIECE_WORD[code & 7],
                            square=NAMES[origin]), options)
    try:
        target = _square(rest[0])
    except MoveSyntaxError:
        return Choices(NOT_AVAILABLE)
    if target not in targets:
        return Choices(NOT_AVAILABLE)
    text = (TAKE_TEXT if targets[target] else STEP_TEXT)[origin][target]
    if not _promotes(code, target, state.corners):
        return Choices(Text("Confirm"), move=text) if len(rest) == 1 else Choices(NOT_AVAILABLE)
    if len(rest) == 1:
        knight = Text("Mycenaean knight (new, empty)") if state.armies[seat] == "mycenae" else PIECE_NAME[KNIGHT]
        names = {"R": PIECE_NAME[ROOK], "B": PIECE_NAME[BISHOP], "N": knight}
        return Choices(Text("Promote to"), [PickerOption(names[p], p) for p in PROMOTION_LETTERS])
    if len(rest) == 2 and rest[1] in PROMOTION_LETTERS:
        return Choices(Text("Confirm"), move=f"{text}={rest[1]}")
    return Choices(NOT_AVAILABLE)


def _destination_label(board: bytes, target: int, capture: bool) -> str:
    if not capture:
        return f"→ {NAMES[target]}"
    return Text("x{square} takes {piece}", square=NAMES[target], piece=PIECE_WORD[board[target] & 7])


def _first_step(state: State, seat: int) -> Choices:
    board, options = state.board, []
    for sq in range(64):
        code = board[sq]
        if not code:
            continue
        if code >> 3 == seat:
            if _piece_can_move(state, sq) or code & 7 == HORSE and _horse_actions(state, seat, sq):
                options.append(PickerOption(join([NAMES[sq], PIECE_NAME[code & 7]], " "), NAMES[sq]))
        elif code & 7 == HORSE and _unload_spec(state, seat, sq):
            options.append(PickerOption(Text("{square} unload your pieces from this knight", square=NAMES[sq]),
                                        NAMES[sq]))
    return Choices(Text("Choose a piece or a knight"), options)


def _load_choices(state: State, seat: int, knight: int, picked: tuple[str, ...]) -> Choices:
    board = state.board
    candidates = _loadable(board, knight)
    try:
        squares = [_square(p) for p in picked]
    except MoveSyntaxError:
        return Choices(NOT_AVAILABLE)
    if len(set(squares)) != len(squares) or any(sq not in candidates for sq in squares):
        return Choices(NOT_AVAILABLE)
    others = {board[sq] >> 3 for sq in squares} - {seat}
    if len(others) > 1:
        return Choices(NOT_AVAILABLE)
    move = None
    if squares:
        text = _load_text(knight, sorted(squares))
        move = text if text not in state.refused else None
    options = []
    for sq in candidates:
        owner = board[sq] >> 3
        if sq in squares or owner != seat and others and owner not in others:
            continue
        if not _load_completable(state, seat, knight, squares + [sq]):
            continue  # every load through this piece was refused this turn
        piece = PIECE_NAME[board[sq] & 7]
        label = (Text("{square} {piece} (yours)", square=NAMES[sq], piece=piece) if owner == seat else
                 Text("{square} {piece} (of {corner}, asks consent)", square=NAMES[sq], piece=piece,
                      corner=CORNERS[state.corners[owner]].name))
        options.append(PickerOption(label, NAMES[sq]))
    prompt = Text("Load which piece?") if not squares else Text("Load another piece, or confirm")
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
        load = parse_load(text)
        if load.knight == knight and chosen <= set(load.squares) <= set(pool):
            refused_supersets += 1
    return refused_supersets < 1 << (len(pool) - len(chosen))


def _unload_choices(state: State, seat: int, knight: int, picked: tuple[str, ...]) -> Choices:
    spec = _unload_spec(state, seat, knight)
    if spec is None:
        return Choices(NOT_AVAILABLE)
    empties, counts, corner = spec
    left, free, placements = list(counts), list(empties), []
    for i in range(0, len(picked), 2):
        letter = picked[i]
        if letter not in CARRIED_BY_LETTER or not left["KRBP".index(letter)]:
            return Choices(NOT_AVAILABLE)
        if i + 1 < len(picked):
            try:
                sq = _square(picked[i + 1])
            except MoveSyntaxError:
                return Choices(NOT_AVAILABLE)
            if sq not in free or letter == "P" and ROW[corner][sq] == 7:
                return Choices(NOT_AVAILABLE)
            free.remove(sq)
            left["KRBP".index(letter)] -= 1
            placements.append((sq, letter))
    if len(picked) % 2:  # a piece chosen: where does it go?
        letter = picked[-1]
        spots = [sq for sq in free if letter != "P" or ROW[corner][sq] != 7]
        return Choices(Text("Place the {piece} where?", piece=PIECE_WORD[CARRIED_BY_LETTER[letter]]),
                       [PickerOption(NAMES[sq], NAMES[sq]) for sq in spots])
    move = str(Unload(knight, tuple(sorted(placements)))) if placements else None
    options = [
        PickerOption(PIECE_NAME[CARRIED_BY_LETTER[letter]], letter) for k, letter in enumerate("KRBP")
        if left[k] and any(letter != "P" or ROW[corner][sq] != 7 for sq in free)
    ]
    prompt = Text("Unload which piece?") if not placements else Text("Unload another piece, or confirm")
    return Choices(prompt, options, move)
