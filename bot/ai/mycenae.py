"""Mycenae."""

from __future__ import annotations

from .policy import Policy


class MycenaePolicy(Policy):
    pass
