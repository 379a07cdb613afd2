"""A full Mycenae state consistent with one seat's view, for a computer opponent that decides from that view.

The only secret is what the knights carry. Every load is public and every unload and destruction shows its
pieces, so what each player still has unseen in all is public (the view's "unseen"), and so is which knights may
hold it ("sealed": the setup's knights, while their first owner has them). Where the unseen pieces sit is the
secret: the sampler spreads each player's unseen pieces over her sealed knights at random, as any setup might have
(no public fact narrows it down: a past unload only shows what was inside then, and it is gone since).

Two things no view holds are rebuilt as far as the view allows: the repetition history (only the count of the
current position is public, so earlier positions are forgotten) and, during the secret setup, the seat that will
move first (the first seat still in).
"""

from __future__ import annotations

import random

from bot.engine.base import JSON, Outcome
from .board import CARRIED_BY_LETTER, HORSE, KNIGHT, NAMES, piece
from .state import State, _position_digest

SQUARE = {name: sq for sq, name in enumerate(NAMES)}
KIND_BY_LETTER = {**CARRIED_BY_LETTER, "N": KNIGHT}


def sample_state(view: JSON, rng: random.Random) -> State:
    n, viewer = view["num_players"], view["viewer"]
    board = bytearray(64)
    for p in view["board"]:
        board[SQUARE[p["square"]]] = piece(p["owner"], HORSE if p["mycenaean"] else KIND_BY_LETTER[p["type"]])
    known = {SQUARE[sq]: _codes(pieces) for sq, pieces in view["known_cargo"].items()}
    cargo = dict(known)
    cargo.update({SQUARE[sq]: _codes(pieces) for sq, pieces in view["cargo"].items()})  # the viewer's own knights
    sealed = [SQUARE[sq] for sq in view["sealed"]]
    for seat in range(n):
        knights = [sq for sq in sealed if board[sq] >> 3 == seat]
        if seat == viewer or not view["unseen"][seat]:
            continue
        if not knights:
            raise ValueError("unseen pieces but no knight to hold them")
        for letter in view["unseen"][seat]:
            sq = rng.choice(knights)
            cargo[sq] = tuple(sorted(cargo[sq] + (piece(seat, CARRIED_BY_LETTER[letter]),)))

    out = tuple(seat in view["out"] for seat in range(n))
    waiting = tuple(view["setup"]["waiting"])
    turn = view["turn"]
    if turn is None:  # during the setup the first seat still in moves first; once over, the turn is moot
        turn = next((s for s in range(n) if not out[s]), 0)
    digest = _position_digest(board, cargo, turn, out)
    pending = view["pending"]
    return State(
        num_players=n,
        armies=tuple(view["armies"]),
        board=bytes(board),
        cargo=cargo,
        known=known,
        out=out,
        waiting=waiting,
        turn=turn,
        pending=(pending["requester"], pending["asked"], pending["move"]) if pending else None,
        refused=tuple(view["refused"]),
        ply=view["ply"],
        quiet=view["quiet_turns"],
        history=(digest,) * view["repetitions"],
        last_move=view["last_move"],
        last_squares=tuple(SQUARE[sq] for sq in view["last_squares"]),
        last_mover=view["last_mover"],
        revealed=tuple(dict(r) for r in view["revealed"]),
        outcome=Outcome.from_json(view["outcome"]),
        sealed=tuple(sealed),
        out_order=tuple(view["out_order"]),
        hops={SQUARE[sq]: count for sq, count in view.get("knight_moves", {}).items()},
    )


def _codes(pieces: list[JSON]) -> tuple[int, ...]:
    return tuple(sorted(piece(p["owner"], CARRIED_BY_LETTER[p["type"]]) for p in pieces))
