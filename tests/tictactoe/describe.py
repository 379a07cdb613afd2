"""Tic-tac-toe in words: each player's marks by square."""

from __future__ import annotations

from bot.games.describing import Describer, View

from .game import SQUARES


def pieces(lang: str, view: View) -> list[list[str]]:
    return [[square for square, mark in zip(SQUARES, view["board"]) if mark == seat] for seat in (0, 1)]


DESCRIBER = Describer(pieces=pieces)
