"""Myriath."""

from __future__ import annotations

from .policy import Policy


class MyriathPolicy(Policy):
    pass
