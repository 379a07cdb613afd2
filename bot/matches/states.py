"""The engines' states of the matches, and what every part of the service asks of them: one loaded state serves
every reader of the same match version."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.domain import DamagedMatch, Match
from bot.games import Game
from bot.games.engines import get_game

from .events import Request, users_of

STATE_CACHE_SIZE = 4096


class MatchStates:
    def __init__(self) -> None:
        self._states: OrderedDict[tuple[int, int], Any] = OrderedDict()

    @staticmethod
    def game_of(match: Match) -> Game:
        return get_game(match.game)

    def state_of(self, match: Match) -> Any:
        """Engine states are immutable, so one loaded state serves every reader of the same match version.
        DamagedMatch when the engine refuses the stored state."""
        key = (match.id, match.version)
        state = self._states.get(key)
        if state is None:
            state = _loaded(self.game_of(match), match)
            self._states[key] = state
            while len(self._states) > STATE_CACHE_SIZE:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(key)
        return state

    def view(self, match: Match, viewer: int | None) -> dict[str, Any]:
        return self.game_of(match).view(self.state_of(match), viewer)

    def in_secret_setup(self, match: Match) -> bool:
        return match.active and self.game_of(match).in_secret_setup(self.state_of(match))

    def to_act(self, match: Match) -> list[int]:
        if not match.active:
            return []
        return self.game_of(match).to_act(self.state_of(match))

    def users_to_act(self, match: Match) -> list[int]:
        return users_of(match, tuple(self.to_act(match)))

    def in_play(self, match: Match) -> tuple[int, ...]:
        return tuple(self.game_of(match).in_play(self.state_of(match)))

    def pending_request(self, match: Match) -> Request | None:
        """The request waiting for an answer, as every player may see it (loading is public)."""
        pending = self.view(match, None).get("pending") if match.active else None
        if not pending or pending.get("asked") not in self.to_act(match):
            return None
        return Request(pending["requester"], pending["asked"], pending["move"])


    def keep(self, match: Match, state: Any) -> None:
        """The state a unit just wrote as `match` (its version), so nobody loads it again."""
        self._states[(match.id, match.version)] = state


def _loaded(game: Game, match: Match) -> Any:
    """The engine's state of the match: a state its engine refuses (any error of its load) damages the match."""
    try:
        return game.load(match.state)
    except Exception as exc:
        raise DamagedMatch(match.id, f"its engine refuses its stored state ({type(exc).__name__}: {exc})",
                           game=match.game, status=match.status, guild_id=match.guild_id,
                           players=tuple(match.member_ids)) from exc
