"""The policy of each game, by key."""

from __future__ import annotations

from bot.games.base import Game

from . import archimedes, epaminondas, mycenae, myriath, myrmidons
from .policy import Policy

_POLICIES: dict[str, type[Policy]] = {
    "archimedes": archimedes.ArchimedesPolicy,
    "epaminondas": epaminondas.EpaminondasPolicy,
    "mycenae": mycenae.MycenaePolicy,
    "myriath": myriath.MyriathPolicy,
    "myrmidons": myrmidons.MyrmidonsPolicy,
}
_CACHE: dict[str, Policy] = {}


def policy_for(game: Game) -> Policy:
    key = game.info.key
    if key not in _CACHE:
        _CACHE[key] = _POLICIES[key](game)
    return _CACHE[key]
