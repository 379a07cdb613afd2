"""Myrmidons: the engine (`game.py`) and its army table (`army.py`). The registry reads `GAME` from here."""

from .army import BY_CODE, COMMANDER, STANDARD_ARMY, TYPE_CODES, TYPES, MyrmidonType, canonical_army
from .game import (
    GAME,
    INFO,
    Army,
    Deploy,
    MyrmidonsGame,
    Order,
    State,
    Step,
    army_move,
    deploy_move,
    format_move,
    order_move,
    parse_move,
    position,
)

__all__ = [
    "GAME", "INFO", "MyrmidonsGame", "State", "Army", "Deploy", "Step", "Order", "parse_move", "format_move",
    "deploy_move", "army_move", "order_move", "position", "TYPES", "TYPE_CODES", "BY_CODE", "COMMANDER",
    "STANDARD_ARMY", "MyrmidonType", "canonical_army",
]
