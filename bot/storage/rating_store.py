"""The SQL of ratings: a rated finish's stored changes, leaderboards and profiles, and the rows a rebuild reads and
replaces.

Ratings are derived data: the `ratings` and `rating_changes` tables can always be recomputed from the finished
rated matches. The rating model runs in bot/ratings, driven by bot/matches/rating_service.py; this store only reads and
keeps its results (a finish is written with its move, see MatchStore.commit_move).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from bot.ratings import LeaderboardEntry, LeaderboardPage, Profile, Rating, RatingChange, check_game

from .rating_rows import CHANGE_COLUMNS as _CHANGE_COLUMNS
from .rating_rows import RATING_COLUMNS as _RATING_COLUMNS
from .rating_rows import change_row, rating_row

REBUILD_CHUNK = 250  # rows per transaction of a rebuild: a few milliseconds of the writer each
REBUILD_PAUSE = 0.03  # seconds between two of them: longer than a waiting writer sleeps between tries
_CHANGE_UPDATES = ", ".join(f"{c.strip()} = excluded.{c.strip()}" for c in _CHANGE_COLUMNS.split(",")[2:])
_RATING_UPDATES = ", ".join(f"{c.strip()} = excluded.{c.strip()}" for c in _RATING_COLUMNS.split(",")[3:])
_DELETE_CHANGE = "DELETE FROM rating_changes WHERE match_id = ? AND member_id = ?"
_DELETE_RATING = "DELETE FROM ratings WHERE guild_id = ? AND game = ? AND member_id = ?"
_UPSERT_CHANGE = (f"INSERT INTO rating_changes ({_CHANGE_COLUMNS}) VALUES ({', '.join('?' * 13)})"
                  f" ON CONFLICT (match_id, member_id) DO UPDATE SET {_CHANGE_UPDATES}")
_UPSERT_RATING = (f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES ({', '.join('?' * 15)})"
                  f" ON CONFLICT (guild_id, game, member_id) DO UPDATE SET {_RATING_UPDATES}")
from .driver import Driver
from .sql import Step

_LEADERBOARD_ORDER = "provisional, mu DESC, member_id"  # the order of the ratings_leaderboard index

# Finished rated matches in the order they are rated, one row per seat (_results_from_rows reads the columns by
# position). `finished_at` is set when a match ends; `updated_at` stands
# in for matches that finished before it existed (their last write was the finish).
_FINISHED_RATED_MATCHES = """
    SELECT m.id, m.guild_id, m.game, m.standings, m.result, COALESCE(m.finished_at, m.updated_at) AS finished_at,
           s.seat, s.user_id, s.user_name
    FROM matches AS m JOIN match_seats AS s ON s.match_id = m.id
    WHERE m.status = 'finished' AND m.rated = 1 {extra}
    ORDER BY COALESCE(m.finished_at, m.updated_at), m.id, s.seat
"""


def _rating(row: Any) -> Rating:
    return Rating(
        guild_id=row["guild_id"], game=row["game"], member_id=row["member_id"], mu=row["mu"], sigma=row["sigma"],
        games=row["games"], wins=row["wins"], draws=row["draws"], losses=row["losses"], streak=row["streak"],
        recent=row["recent"], name=row["name"], last_match_id=row["last_match_id"], updated_at=row["updated_at"],
    )


def _change(row: Any) -> RatingChange:
    return RatingChange(
        match_id=row["match_id"], guild_id=row["guild_id"], game=row["game"], member_id=row["member_id"],
        seat=row["seat"], place=row["place"], outcome=row["outcome"], mu_before=row["mu_before"],
        sigma_before=row["sigma_before"], mu_after=row["mu_after"], sigma_after=row["sigma_after"],
        games=row["games"], finished_at=row["finished_at"],
    )


@dataclass(frozen=True)
class FinishedResult:
    """A finished match as the ratings read it, written without having been played here: the rating tests and the
    ratings benchmark rate thousands of them."""

    match_id: int
    guild_id: int
    game: str
    members: Sequence[int]  # by seat
    standings: Sequence[Sequence[int]]  # seats, best first; the first of several places are the winners
    finished_at: float
    rated: bool = True
    status: str = "finished"
    kept_standings: bool = True  # False: stored as before standings and finish times were kept (only the winners)
    reason: str = "imported"


_INSERT_FINISHED = (
    "INSERT INTO matches (id, guild_id, channel_id, game, seed, status, state, result, created_at, updated_at, rated,"
    " standings, finished_at) VALUES (?, ?, 0, ?, 0, ?, '{}', ?, ?, ?, ?, ?, ?)"
)
_INSERT_FINISHED_SEAT = "INSERT INTO match_seats (match_id, seat, user_id, user_name) VALUES (?, ?, ?, ?)"


def _finished_rows(result: FinishedResult) -> tuple[tuple, list[tuple]]:
    winners = list(result.standings[0]) if len(result.standings) > 1 else []
    kept = result.kept_standings
    # created 50 s before its finish; no channel, seed or state: a rating reads none of them
    match = (result.match_id, result.guild_id, result.game, result.status,
             json.dumps({"winners": winners, "reason": result.reason}), result.finished_at - 50, result.finished_at,
             int(result.rated), json.dumps(result.standings) if kept else None, result.finished_at if kept else None)
    seats = [(result.match_id, seat, member, f"member{member}") for seat, member in enumerate(result.members)]
    return match, seats


class RatingStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def changes_for_match(self, match_id: int) -> list[RatingChange]:
        """How the match moved each player's rating, in seat order; [] when it was not rated."""
        return [_change(row) for row in await self.driver.fetch(
            f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE match_id = ? ORDER BY seat", (match_id,))]

    # --- reading -----------------------------------------------------------------------------------------------

    async def rating(self, guild_id: int, game: str, member_id: int) -> Rating | None:
        check_game(game)
        row = await self.driver.fetchone(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND member_id = ?",
            (guild_id, game, member_id),
        )
        return _rating(row) if row else None

    async def member_ratings(self, guild_id: int, member_id: int) -> list[Rating]:
        """Every game the member is rated in on this server, most played first (the profile's overview)."""
        return [_rating(row) for row in await self.driver.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND member_id = ? ORDER BY games DESC, game",
            (guild_id, member_id),
        )]

    async def rank_of(self, rating: Rating) -> int:
        """1-based leaderboard rank: members ordered before this one, plus one (same order as the index)."""
        provisional = int(rating.provisional)
        ahead = await self.driver.fetchvalue(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND (provisional < ?"
            " OR (provisional = ? AND (mu > ? OR (mu = ? AND member_id < ?))))",
            (rating.guild_id, rating.game, provisional, provisional, rating.mu, rating.mu, rating.member_id),
        )
        return ahead + 1

    async def leaderboard(
        self, guild_id: int, game: str, *, offset: int = 0, limit: int = 10, member_id: int | None = None
    ) -> LeaderboardPage:
        """One page of a game's leaderboard on a server, and `member_id`'s own line (None if she is unrated)."""
        check_game(game)
        if offset < 0 or not 1 <= limit <= 100:
            raise ValueError(f"leaderboard page needs offset >= 0 and 1 <= limit <= 100, not {offset}, {limit}")
        rows = await self.driver.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ?"
            f" ORDER BY {_LEADERBOARD_ORDER} LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )
        entries = [LeaderboardEntry(offset + i + 1, _rating(row)) for i, row in enumerate(rows)]
        total = await self.driver.fetchvalue("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?",
                                           (guild_id, game))
        me = None
        if member_id is not None:
            me = next((e for e in entries if e.rating.member_id == member_id), None)
            if me is None:
                mine = await self.rating(guild_id, game, member_id)
                me = LeaderboardEntry(await self.rank_of(mine), mine) if mine else None
        return LeaderboardPage(guild_id, game, offset, limit, total, entries, me)

    async def profile(self, guild_id: int, game: str, member_id: int) -> Profile | None:
        """The member's rating, rank and full history in one game on one server; None if she has no rated game."""
        rating = await self.rating(guild_id, game, member_id)
        if rating is None:
            return None
        history = [_change(row) for row in await self.driver.fetch(
            f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE guild_id = ? AND game = ? AND member_id = ?"
            " ORDER BY finished_at, match_id",
            (guild_id, game, member_id),
        )]
        total = await self.driver.fetchvalue("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?",
                                           (guild_id, game))
        return Profile(rating, await self.rank_of(rating), total, history)

    async def add_finished(self, results: Iterable[FinishedResult]) -> None:
        """Store finished matches as bare results (no moves, no state), in one transaction."""
        rows = [_finished_rows(result) for result in results]
        await self.driver.write_statements([
            Step(_INSERT_FINISHED, [match for match, _ in rows], many=True),
            Step(_INSERT_FINISHED_SEAT, [seat for _, seats in rows for seat in seats], many=True),
        ])

    # --- rebuilding ------------------------------------------------------------------------------------------

    async def finished_mark(self) -> tuple:
        """A cheap fingerprint of the finished rated matches: it changes whenever one more finishes."""
        return tuple(await self.driver.fetchone(
            "SELECT COUNT(*), COALESCE(SUM(id), 0), MAX(COALESCE(finished_at, updated_at)) FROM matches"
            " WHERE status = 'finished' AND rated = 1"
        ))

    async def stored_rows(self) -> tuple[dict[tuple, tuple], dict[tuple, tuple]]:
        """Every stored change and rating as rows, by key ((match, member) and (server, game, member))."""
        changes = {(r[0], r[1]): tuple(r)
                   for r in await self.driver.fetch(f"SELECT {_CHANGE_COLUMNS} FROM rating_changes")}
        ratings = {(r[0], r[1], r[2]): tuple(r)
                   for r in await self.driver.fetch(f"SELECT {_RATING_COLUMNS} FROM ratings")}
        return changes, ratings

    async def converge(self, changes: Sequence[RatingChange], ratings: Sequence[Rating]) -> int:
        """Make both tables hold exactly these rows, writing only the rows that differ, REBUILD_CHUNK rows per short
        transaction: a running bot's writes wait for one chunk at most, never for the whole rebuild, and its
        readers see every rating at all times. Returns how many rows were written or deleted."""
        stored_changes, stored_ratings = await self.stored_rows()
        wanted_changes = {(c.match_id, c.member_id): change_row(c) for c in changes}
        wanted_ratings = {(r.guild_id, r.game, r.member_id): rating_row(r) for r in ratings}
        steps: list[tuple[str, tuple]] = []
        for key in stored_changes.keys() - wanted_changes.keys():
            steps.append((_DELETE_CHANGE, key))
        for key in stored_ratings.keys() - wanted_ratings.keys():
            steps.append((_DELETE_RATING, key))
        steps += [(_UPSERT_CHANGE, row) for key, row in wanted_changes.items() if stored_changes.get(key) != row]
        steps += [(_UPSERT_RATING, row) for key, row in wanted_ratings.items() if stored_ratings.get(key) != row]
        for start in range(0, len(steps), REBUILD_CHUNK):
            chunk = steps[start:start + REBUILD_CHUNK]
            await self.driver.write_statements([Step(sql, [params for each, params in chunk if each == sql], many=True)
                                    for sql in dict.fromkeys(sql for sql, _ in chunk)])
            # SQLite's lock is not fair: a waiting writer sleeps in growing steps (up to 100 ms) and would miss
            # a gap of microseconds between two chunks. A pause longer than a chunk lets it in.
            await asyncio.sleep(REBUILD_PAUSE)
        return len(steps)

    # --- what the rating model reads ---------------------------------------------------------------------------

    async def ratings_of(self, guild_id: int, game: str, members: Sequence[int]) -> dict[int, Rating]:
        marks = ", ".join("?" * len(members))
        return {row["member_id"]: _rating(row) for row in await self.driver.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND member_id IN ({marks})",
            (guild_id, game, *members),
        )}

    async def finished_rows(self, match_id: int | None = None) -> list[tuple]:
        """Finished rated matches (or the one match) joined with their seats, one plain tuple per seat, in rating
        order: (match id, guild id, game, standings JSON, result JSON, finished at, seat, user id, user name)."""
        extra, params = ("AND m.id = ?", (match_id,)) if match_id is not None else ("", ())
        return [tuple(row) for row in await self.driver.fetch(_FINISHED_RATED_MATCHES.format(extra=extra), params)]

