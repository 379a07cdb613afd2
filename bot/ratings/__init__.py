"""Ratings per member, per game, per server, derived from finished rated matches (openskill's Plackett-Luce).

Pure: imports openskill and the engines' catalogue (bot/games/engines.py), never Discord, storage or pictures. The
store (bot/storage/rating_store.py) keeps the results of this module in SQL and rebuilds them from the stored
matches.
"""

from .model import (
    DISPLAY_BASE,
    LeaderboardEntry,
    LeaderboardPage,
    Profile,
    DRAW,
    LOSS,
    MODEL,
    POINTS_PER_MU,
    PROVISIONAL_GAMES,
    RECENT_RESULTS,
    WIN,
    MatchResult,
    Rating,
    RatingChange,
    RatingError,
    Replay,
    UnknownGame,
    check_game,
    display_rating,
    is_provisional,
    rate_match,
    rating_label,
    replay,
    sort_key,
)

__all__ = [
    "DISPLAY_BASE", "DRAW", "LOSS", "MODEL", "POINTS_PER_MU", "PROVISIONAL_GAMES", "RECENT_RESULTS", "WIN",
    "LeaderboardEntry", "LeaderboardPage", "Profile", "MatchResult", "Rating", "RatingChange", "RatingError", "Replay", "UnknownGame", "check_game",
    "display_rating", "is_provisional", "rate_match", "rating_label", "replay", "sort_key",
]
