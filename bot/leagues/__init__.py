"""League logic: pairings (round robin, multi-player tables, Swiss, divisions) and standings with their
tie-breaks. Pure: no Discord, no storage, no clock; the league service (bot/matches/leagues.py) feeds it what the
store holds and writes back what it decides."""

from .pairing import (
    Pairing,
    SwissPlayer,
    default_swiss_rounds,
    divisions,
    max_swiss_rounds,
    round_robin,
    swiss_round,
    table_round_robin,
)
from .standings import POINT, GameResult, Standing, points_text, standings

__all__ = [
    "Pairing", "SwissPlayer", "default_swiss_rounds", "divisions", "max_swiss_rounds", "round_robin", "swiss_round",
    "table_round_robin", "POINT", "GameResult", "Standing", "points_text", "standings",
]
