"""Archimedes: queen-moving ships and mirrors on an 8×8 board (rules in docs/rules/archimedes.md).

`game` is the engine (pure: it imports no picture or computer code), `renderer` draws its boards, `policy` is the
computer's judgement, `guide/` the /rules texts; `declaration` ties them together for the registry.
"""

from .game import GAME

__all__ = ["GAME"]
