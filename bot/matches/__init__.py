"""The match service layer: challenges, turns, endings and private delivery. No Discord imports."""

from . import errors
from .private import PrivateChannel
from .service import MatchService, TurnReport

__all__ = ["errors", "MatchService", "TurnReport", "PrivateChannel"]
