"""The service layer's records: plain data the match and league services decide with and the store keeps.

They belong to the service layer; the store below it imports them too, so naming a match or a league needs no
import of the store. No Strategos module is imported here.
"""

from .leagues import League, LeaguePlayer, LeagueTable
from .matches import (
    Challenge,
    ChallengeSeat,
    ClockRules,
    DamagedMatch,
    LoggedMove,
    Match,
    MatchLoad,
    MemberPrefs,
    MoveWrite,
    OutboxEntry,
    PrivateMessage,
    RatingWrite,
    Seat,
    SeatTimers,
    Timer,
)

__all__ = [
    "Challenge", "ChallengeSeat", "ClockRules", "DamagedMatch", "LoggedMove", "Match", "MatchLoad", "MemberPrefs", "MoveWrite", "OutboxEntry", "PrivateMessage",
    "RatingWrite", "Seat", "SeatTimers", "Timer", "League", "LeaguePlayer", "LeagueTable",
]
