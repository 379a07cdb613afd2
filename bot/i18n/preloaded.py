"""Imported by the worker processes' forkserver (bot/workers.py): every language's catalogue read once there, so
that no worker reads one on its first picture."""

from . import load

load()
