"""Ratings as the bot offers them: a finished rated match is rated once, leaderboards and profiles per server.

The numbers come from bot.ratings (openskill's Plackett-Luce model) and live in bot/storage/ratings.py; they are
derived from the stored results, so `python -m bot ratings --rebuild` recomputes them exactly.
"""

from __future__ import annotations

import logging

from bot.ratings import LeaderboardPage, Profile, Rating, RatingChange, RatingError
from bot.storage import Match, Repository
from bot.storage.ratings import RatingStore

from . import catalogue, errors

log = logging.getLogger(__name__)

PAGE_SIZE = 10


class Ratings:
    def __init__(self, repo: Repository):
        self.store = RatingStore(repo)

    async def rate_finished(self, match: Match) -> list[RatingChange]:
        """Rate a match that has just ended (nothing for an unrated one). A rating failure never undoes the end
        of the match: it is logged, and a rebuild can rate it later."""
        if match.active or not match.rated:
            return []
        try:
            return await self.store.record_finished(match.id)
        except RatingError as exc:
            log.warning("match=%s guild=%s could not be rated: %s", match.id, match.guild_id, exc)
            return []

    async def leaderboard(self, guild_id: int, game: str, member_id: int, page: int = 0) -> LeaderboardPage:
        info = catalogue.info(game)
        if page < 0:
            raise errors.UserError("There is no page before the first.")
        result = await self.store.leaderboard(guild_id, info.key, offset=page * PAGE_SIZE, limit=PAGE_SIZE,
                                              member_id=member_id)
        if page > 0 and not result.entries:
            raise errors.UserError("There is no such page: the leaderboard is shorter now.")
        return result

    async def profile(self, guild_id: int, member_id: int) -> list[tuple[Rating, Profile | None]]:
        """The member's rating in every game she has rated games in on this server, with her full history."""
        ratings = await self.store.member_ratings(guild_id, member_id)
        return [(r, await self.store.profile(guild_id, r.game, member_id)) for r in ratings]
