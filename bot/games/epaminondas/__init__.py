"""Epaminondas: phalanxes on a 14×12 board (rules in docs/rules/epaminondas.md).

`game` is the engine (pure: it imports no picture or computer code), `renderer` draws its boards, `policy` is the
computer's judgement, `guide/` the /rules texts; `declaration` ties them together for the registry.
"""

from .game import GAME

__all__ = ["GAME"]
