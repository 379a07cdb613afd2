"""The Myrmidons state (it keeps the true values of every piece; `view` decides who sees them), the starting
position, and `position()` for tests."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.base import JSON, Outcome, seeded_rng
from .army import ARMY_SIZE, BY_CODE, COMMANDER_CODE, STANDARD_ARMY, TYPE_CODES, canonical_army
from .board import CELLS, EMPTY, FILES, PER_SEAT, RANKS, Piece, piece_index

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
    left: int | None = None  # the seat that resigned or ran out of time; the outcome then says why
    # Per piece index: the longest way it went in one move or order, in squares (0: never moved). Public, as the
    # moves are: it proves a movement at least that long, and a piece that went further than one square is not
    # the Commander. () for a state that has not recorded it (all zeros).
    travelled: tuple[int, ...] = ()
    # Per piece index, public as the moves are: how many moves or orders it took part in, and how many fights it
    # started. What a player does with a piece hints at what it is (a Commander is kept back and rarely fights):
    # the computer's guess at the hidden ones weighs them (posterior.py). () for a state that has not recorded
    # them (all zeros).
    actions: tuple[int, ...] = ()
    attacks: tuple[int, ...] = ()

    def piece(self, index: int) -> Piece:
        """A deployed piece: the board, the moves and the fights only ever name those."""
        piece = self.pieces[index]
        if piece is None:
            raise ValueError(f"piece {index} is not deployed")
        return piece

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
