"""The analyses asked for (bot/matches/analysis.py): one per finished match, kept from the request until it is
posted, so that a restart in between still posts it, and marked posted then, so that it is made once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .driver import Driver


@dataclass(frozen=True)
class AnalysisRequest:
    match_id: int
    guild_id: int | None
    lang: str  # the language it is posted in


class AnalysisStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def ask(self, match_id: int, guild_id: int | None, lang: str, user_id: int,
                  now: float) -> Literal["asked", "waiting", "posted"]:
        """Record the request; "asked" when it is new, else whether the match's analysis is still "waiting" or
        already "posted"."""
        (done,) = await self.driver.write_statements([(
            "INSERT INTO analysis_requests (match_id, guild_id, lang, asked_by, asked_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (match_id) DO NOTHING", (match_id, guild_id, lang, user_id, now))])
        if done.rowcount:
            return "asked"
        posted_at = await self.driver.fetchvalue("SELECT posted_at FROM analysis_requests WHERE match_id = ?",
                                                 (match_id,))
        return "waiting" if posted_at is None else "posted"

    async def posted(self, match_id: int, now: float) -> None:
        await self.driver.write_statements([("UPDATE analysis_requests SET posted_at = ? WHERE match_id = ?",
                                             (now, match_id))])

    async def forget(self, match_id: int) -> None:
        """A request that failed: the player may ask again."""
        await self.driver.write_statements([(
            "DELETE FROM analysis_requests WHERE match_id = ? AND posted_at IS NULL", (match_id,))])

    async def waiting(self) -> list[AnalysisRequest]:
        """The requests not yet posted, oldest first."""
        rows = await self.driver.fetch("SELECT match_id, guild_id, lang FROM analysis_requests"
                                       " WHERE posted_at IS NULL ORDER BY asked_at, match_id")
        return [AnalysisRequest(r["match_id"], r["guild_id"], r["lang"]) for r in rows]
