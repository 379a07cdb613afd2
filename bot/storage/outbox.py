"""The SQL of the outbox: the events a unit committed and its writer must still present (bot/matches/outbox.py).

A row is written by the unit it belongs to (`outbox_step`, in the move unit of repository.py and PostgreSQL's
strategos_commit_move, bot/storage/matches.py; in a match's start and a challenge's end), so it exists exactly when
the change does; it is deleted once presented. A row names its match, its challenge (a challenge's end: no match) or
both (a match's start); a league's change names its league alone (bot/matches/leagues.py). The match recovery
(`pending`) and the league recovery (`of_leagues`) each read their own rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.domain import OutboxEntry

from .driver import Driver
from .sql import Step

_ROWS = ("SELECT o.id, o.match_id, o.challenge_id, o.version, o.token, o.events, o.created_at,"
         " COALESCE(m.guild_id, c.guild_id, l.guild_id) AS guild_id, o.league_id FROM outbox AS o"
         " LEFT JOIN matches AS m ON m.id = o.match_id LEFT JOIN challenges AS c ON c.id = o.challenge_id"
         " LEFT JOIN leagues AS l ON l.id = o.league_id")


@dataclass(frozen=True)
class OutboxRow:
    id: int
    match_id: int | None  # None: a challenge's end
    challenge_id: int | None
    version: int  # the match's version the unit wrote
    token: str
    events: str
    created_at: float
    guild_id: int | None
    league_id: int | None = None  # a league's change: no match, no challenge


def outbox_step(match_id: int | None, version: int, entry: OutboxEntry, challenge_id: int | None = None,
                league_id: int | None = None) -> Step:
    """The statement of a unit that records what it must announce (the match being at `version` after it)."""
    return Step("INSERT INTO outbox (match_id, version, token, events, created_at, challenge_id, league_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, version, entry.token, entry.events, entry.at, challenge_id, league_id))


class OutboxStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def of_token(self, token: str) -> list[OutboxRow]:
        """The rows one unit (or chain of units) wrote, oldest first: none if it was not written."""
        return _rows(await self.driver.fetch(f"{_ROWS} WHERE o.token = ? ORDER BY o.id", (token,)))

    async def of_match(self, match_id: int) -> list[OutboxRow]:
        return _rows(await self.driver.fetch(f"{_ROWS} WHERE o.match_id = ? ORDER BY o.id", (match_id,)))

    async def pending(self) -> list[OutboxRow]:
        """Every row of a match or challenge not presented yet, oldest first (at start-up: what a stop or a crash
        left)."""
        return _rows(await self.driver.fetch(f"{_ROWS} WHERE o.league_id IS NULL ORDER BY o.id"))

    async def of_leagues(self) -> list[OutboxRow]:
        """Every row of a league's change not presented yet, oldest first."""
        return _rows(await self.driver.fetch(f"{_ROWS} WHERE o.league_id IS NOT NULL ORDER BY o.id"))

    async def done(self, token: str) -> None:
        """The unit's events were presented: forget them."""
        # One statement: on PostgreSQL one trip, where a unit's BEGIN and COMMIT would make three.
        await self.driver.write_statements([("DELETE FROM outbox WHERE token = ?", (token,))])

    async def done_rows(self, ids: list[int]) -> None:
        if ids:
            await self.driver.write_statements([("DELETE FROM outbox WHERE id = ?", (row_id,)) for row_id in ids])


def _rows(rows: list[Any]) -> list[OutboxRow]:
    return [OutboxRow(r["id"], r["match_id"], r["challenge_id"], r["version"], r["token"], r["events"],
                      r["created_at"], r["guild_id"], r["league_id"]) for r in rows]
