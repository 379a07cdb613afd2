"""Myrmidons: two hidden armies of six on a 6×7 board (rules in docs/rules/myrmidons.md).

The package reads top-down: `army` (the table of types), `board` (squares, rays, piece indices), `notation`
(moves and their text), `state` (the state and `position()`), `rules` (legal moves, fights, wins), `picker` (the
step-by-step menu) and `game` (the contract). The registry reads `GAME` from here.
"""

from .army import BY_CODE, COMMANDER, STANDARD_ARMY, TYPE_CODES, TYPES, MyrmidonType, canonical_army
from .game import GAME, INFO, MyrmidonsGame
from .notation import Army, Deploy, Order, Step, army_move, deploy_move, format_move, order_move, parse_move
from .state import State, position

__all__ = [
    "GAME", "INFO", "MyrmidonsGame", "State", "Army", "Deploy", "Step", "Order", "parse_move", "format_move",
    "deploy_move", "army_move", "order_move", "position", "TYPES", "TYPE_CODES", "BY_CODE", "COMMANDER",
    "STANDARD_ARMY", "MyrmidonType", "canonical_army",
]
