"""Myrmidons."""

from __future__ import annotations

from .policy import Policy


class MyrmidonsPolicy(Policy):
    pass
