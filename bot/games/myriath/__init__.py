"""Myriath: street-grid tiles for 2–4 players (rules in docs/rules/myriath.md).

`geometry` indexes the grid (intersections, triangles, half-diagonals) and lists every placement; `data` holds the
published values (board, playing areas, tile set, colours); `game` is the engine; `picker` the step-by-step menu.
"""

from .game import GAME, MyriathGame, State, canonical, parse_move, format_move, position

__all__ = ["GAME", "MyriathGame", "State", "canonical", "parse_move", "format_move", "position"]
