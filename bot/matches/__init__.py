"""The match service layer: challenges, setup, turns, endings, timers and private delivery. No Discord imports.

It reports what happened as typed events (events.py) on its bus; the presenters subscribe to them.
"""

from . import catalogue, errors, events
from .bus import EventBus
from .private import PrivateChannel
from .ratelimit import RateLimiter
from .actions import TurnReport
from .service import MatchService
from .turns import MoveConfirmation, PickerStep, PrivateView

__all__ = [
    "errors", "events", "catalogue", "EventBus", "MatchService", "MoveConfirmation", "TurnReport", "PickerStep", "PrivateView",
    "PrivateChannel", "RateLimiter",
]
