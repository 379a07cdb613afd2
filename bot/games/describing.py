"""What a game says about its position in words, for players who cannot see the picture: its part of the alt text
and of the text board (bot/presenters/describe.py builds both and keeps what every game shares).

Each game package declares a `Describer` in its `describe.py`. Every function reads the view the picture is drawn
from (so it can say nothing the picture's audience may not know) and writes in `lang` with bot.i18n's `t`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

View = dict[str, Any]
Player = Callable[[int], str]  # a seat -> "alice (Light)", as the description names her


def no_last_move(lang: str, view: View) -> tuple[int | None, str]:
    return None, ""


def no_material(lang: str, view: View) -> list[str]:
    return []


def no_position(lang: str, view: View) -> str:
    return ""


def no_extras(lang: str, view: View, player: Player) -> list[str]:
    return []


@dataclass(frozen=True)
class Describer:
    # Every piece by square, one list per seat, in the game's notation ("d4", "b2 Commander"). A game whose board
    # belongs to nobody (heaps, a shared pool) returns no lists and says it in `position`.
    pieces: Callable[[str, View], list[list[str]]]
    # Who made the last move (a seat, or None when the view does not say) and what it did ("capturing 2: d5, d6").
    last_move: Callable[[str, View], tuple[int | None, str]] = no_last_move
    # Each seat's material in a few words ("28 pieces, 0 across"), one entry per seat.
    material: Callable[[str, View], list[str]] = no_material
    # The position in one sentence where it belongs to no seat ("Heaps: 3, 4, 5."): in the alt text and the board.
    position: Callable[[str, View], str] = no_position
    # Further paragraphs for the text board (pieces still to deploy, each seat's supply).
    extras: Callable[[str, View, Player], list[str]] = no_extras


def square_order(square: str) -> tuple[str, int]:
    """'a2' before 'a10': file, then rank as a number."""
    return square[0], int(square[1:])


def grid_squares(lang: str, view: View) -> list[list[str]]:
    """The pieces of a view whose board[rank][file] holds the owner's seat or None, by square per seat."""
    squares: list[list[str]] = [[] for _ in range(view.get("num_players", 2))]
    for r, row in enumerate(view["board"]):
        for f, owner in enumerate(row):
            if owner is not None:
                squares[owner].append(f"{chr(ord('a') + f)}{r + 1}")
    return [sorted(s, key=square_order) for s in squares]


__all__ = ["Describer", "Player", "View", "grid_squares", "square_order"]
