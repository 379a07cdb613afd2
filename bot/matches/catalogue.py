"""Which games are offered and what their options are: the facts /play and the options panel need, read from
the engines' metadata in one place so that no cog or view has to ask an engine."""

from __future__ import annotations

from typing import Any

from bot.games import Game, GameInfo, engines
from bot.games.engines import GAMES, get_game
from bot.i18n import N_

from . import errors

COMPUTER_LEVELS = ("easy", "normal", "hard")


def offered() -> list[GameInfo]:
    """The games /play offers: every game of the engines' catalogue (bot/games/engines.py), whose declarations
    the registry checked for their pictures before any command was built."""
    return [game.info for game in GAMES.values()]


def is_offered(key: str) -> bool:
    return key in GAMES


def all_games() -> list[GameInfo]:
    return [game.info for game in GAMES.values()]


def info(key: str) -> GameInfo:
    try:
        return get_game(key).info
    except KeyError:
        raise errors.UserError(N_("I don't know that game. Pick one from the list.")) from None


def default_options(game_key: str, players: int) -> dict[str, Any]:
    """Every option at its default, per-seat options with one value per seat. A default given as a list or a
    tuple names the seats in order (its last entry serves any further seat)."""
    values: dict[str, Any] = {}
    for spec in get_game(game_key).info.options:
        if spec.per_seat:
            default = list(spec.default) if isinstance(spec.default, (list, tuple)) else [spec.default]
            values[spec.key] = [default[min(i, len(default) - 1)] for i in range(players)]
        else:
            values[spec.key] = spec.default
    return values


def checked_options(game: Game, options: dict[str, Any], players: int) -> dict[str, Any]:
    known = {spec.key: spec for spec in game.info.options}
    checked: dict[str, Any] = {}
    for key, value in options.items():
        spec = known.get(key)
        if spec is None:
            raise errors.UserError(N_("{game} has no option `{key}`."), game=game.info.title, key=key)
        if spec.per_seat:
            values = list(value) if isinstance(value, (list, tuple)) else [value]
            if len(values) != players:
                raise errors.UserError(N_("`{key}` needs one value per player ({players})."), key=key, players=players)
        else:
            values = [value]
        if spec.choices and any(v not in spec.choices for v in values):
            raise errors.UserError(N_("`{key}` must be one of: {choices}."), key=key, choices=", ".join(spec.choices))
        checked[key] = values if spec.per_seat else value
    return checked


def confirmation_for(game_key: str, move: str) -> str | None:
    """The question asked before a typed move is played (the picker's Confirm already is one), or None."""
    return engines.confirmation_for(game_key, move)
