"""The computer's judgement of Nim: none beyond the search's own."""

from __future__ import annotations

from bot.ai.policy import Policy


class NimPolicy(Policy):
    normal_iterations = 60
    hard_iterations = 200
