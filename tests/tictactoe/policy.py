"""The computer's judgement of tic-tac-toe: none beyond the search's own (the contract's defaults)."""

from __future__ import annotations

from bot.ai.policy import Policy


class TicTacToePolicy(Policy):
    normal_iterations = 60
    hard_iterations = 200
