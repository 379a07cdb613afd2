"""Seeded random playouts through the contract: used by the tests, the benchmark and the terminal tool."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator

from .base import Game, JSON


@dataclass
class Ply:
    state: Any  # the state before the move
    seat: int
    move: str
    moves: list[str]  # what legal_moves listed for that seat


def random_plies(
    game: Game, num_players: int, seed: int, options: JSON | None = None, max_plies: int = 5000
) -> Iterator[Ply]:
    """Yield every ply of one random game (moves drawn from legal_moves with a seeded RNG) until it ends.

    Stops after `max_plies` so a caller can notice a game that does not end."""
    rng = random.Random(seed)
    state = game.new_state(num_players, seed, options)
    for _ in range(max_plies):
        acting = game.to_act(state)
        if not acting:
            return
        seat = rng.choice(acting)
        moves = game.legal_moves(state, seat)
        move = rng.choice(moves)
        yield Ply(state, seat, move, moves)
        state, _ = game.apply(state, seat, move)


def final_state(game: Game, num_players: int, seed: int, options: JSON | None = None, max_plies: int = 5000) -> Any:
    last = None
    for ply in random_plies(game, num_players, seed, options, max_plies):
        last = ply
    if last is None:
        return game.new_state(num_players, seed, options)
    return game.apply(last.state, last.seat, last.move)[0]
