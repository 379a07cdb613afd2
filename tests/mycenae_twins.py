"""Twin Mycenae games for the leak tests: two games that differ only in how one player spread her secret cargo,
played through the same public moves. Whatever the others can see (views, pictures, words, events) must be the
same in both.

The public moves are drawn at random among the moves legal in both games, leaving out only the moves that reveal
the secret by the rules themselves: destroying a knight of the secret player (its cargo is shown) or capturing her
king (her knights are then taken over or removed, and their cargo is shown).
"""

from __future__ import annotations

import random
from typing import Iterator

from bot.games.mycenae import GAME, HORSE, KING, ORTHO, Burn, PieceMove, parse_move


def reveals_the_secret(state, move: str, secret: int) -> bool:
    """Moves that show the secret by the rules themselves: destroying one of her knights or capturing her king."""
    m = parse_move(move)
    board = state.board
    if isinstance(m, Burn):
        hit = [m.knight, *ORTHO[m.knight]]
        return any(board[sq] >> 3 == secret and board[sq] & 7 == HORSE for sq in hit if board[sq])
    if isinstance(m, PieceMove) and m.capture:
        victim = board[m.target]
        return victim >> 3 == secret and victim & 7 in (HORSE, KING)
    return False


def pick(rng: random.Random, moves: set[str]) -> str:
    """A kind of move first (piece move, load, unload, burn, answer), then a move of that kind: unloads are
    thousands, the rest would hardly ever be drawn."""
    kinds: dict[str, list[str]] = {}
    for move in moves:
        kinds.setdefault(move.split(" ")[0] if " " in move or move.isalpha() else "move", []).append(move)
    kind = rng.choice(sorted(kinds))
    return rng.choice(sorted(kinds[kind]))


def twin_plies(n: int, armies: list[str], secret: int, seed: int, plies: int) -> Iterator[tuple]:
    """(a, b, events_a, events_b) after each ply of the twin games: the set-up (the secret player spreads her cargo
    differently in the two, everybody else the same way), then up to `plies` public moves."""
    rng = random.Random(seed)
    a = b = GAME.new_state(n, seed, {"armies": armies})
    cargo_a, cargo_b = rng.sample(GAME.legal_moves(a, secret), 2)
    for seat in GAME.to_act(a):
        if seat == secret:
            (a, events_a), (b, events_b) = GAME.apply(a, seat, cargo_a), GAME.apply(b, seat, cargo_b)
        else:
            move = rng.choice(GAME.legal_moves(a, seat))
            (a, events_a), (b, events_b) = GAME.apply(a, seat, move), GAME.apply(b, seat, move)
        yield a, b, events_a, events_b
    for _ in range(plies):
        if GAME.outcome(a) is not None:
            return
        seat = GAME.to_act(a)[0]
        common = set(GAME.legal_moves(a, seat)) & set(GAME.legal_moves(b, seat))
        common = {m for m in common if not reveals_the_secret(a, m, secret)}
        if not common:
            return
        move = pick(rng, common)
        (a, events_a), (b, events_b) = GAME.apply(a, seat, move), GAME.apply(b, seat, move)
        yield a, b, events_a, events_b
