"""A position a /rules picture shows: a few moves of a short example game, chosen to illustrate what the game's
guide explains. Each game declares its own (bot/games/<game>/declaration.py); the moves are played through the
game's own engine, so every picture is a legal position of the real rules.

A game without an example shows its start position, which already explains it (Epaminondas, Archimedes).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RulesExample:
    players: int
    seed: int
    options: dict | None
    moves: tuple[str, ...]  # each played by the first seat to act, in order
    viewer: int | None  # a seat's own view shows its secret values: an example game has no secret to keep
