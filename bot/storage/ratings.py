"""The SQL of ratings: record a finished match's rating changes, read leaderboards and profiles, rebuild everything.

Ratings are derived data (bot/ratings): the `ratings` and `rating_changes` tables can always be recomputed from the
finished rated matches, replayed in the order they finished (finish time, then match id). Recording live follows the
same order because matches are recorded as they finish; a rebuild restores that order if anything ever came late.

RatingStore shares the Repository's single connection and its transaction lock, so a rating write never
interleaves with a move being saved, and a rebuild is one transaction that finishing matches simply wait for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import aiosqlite

from bot.ratings import (
    LeaderboardEntry,
    LeaderboardPage,
    MatchResult,
    Profile,
    Rating,
    RatingChange,
    RatingError,
    check_game,
    rate_match,
    replay,
)

from .repository import Repository

_RATING_COLUMNS = (
    "guild_id, game, member_id, name, mu, sigma, games, wins, draws, losses, streak, recent, provisional,"
    " last_match_id, updated_at"
)
_CHANGE_COLUMNS = (
    "match_id, member_id, guild_id, game, seat, place, outcome, mu_before, sigma_before, mu_after, sigma_after,"
    " games, finished_at"
)
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


@dataclass
class RebuildSummary:
    matches: int  # matches rated
    members: int  # (server, game, member) ratings written
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (match id, why) for matches that cannot be rated

    def line(self) -> str:
        text = f"rebuilt ratings: {self.matches} rated matches, {self.members} ratings"
        if self.skipped:
            text += f", {len(self.skipped)} matches skipped ({self.skipped[0][1]}"
            text += ", ...)" if len(self.skipped) > 1 else ")"
        return text


def standings_from_row(standings_json: str | None, result_json: str | None, seats: int) -> list[list[int]]:
    """The stored finishing order; for a match without one, what the engines' default gives: winners first, the
    rest tied behind them, everyone tied in a draw."""
    if standings_json:
        return json.loads(standings_json)
    if not result_json:
        raise RatingError("the match has neither standings nor a result")
    winners = list(json.loads(result_json).get("winners") or [])
    rest = [s for s in range(seats) if s not in winners]
    return [winners, rest] if winners and rest else [list(range(seats))]


def _rating_row(r: Rating) -> tuple:
    return (r.guild_id, r.game, r.member_id, r.name, r.mu, r.sigma, r.games, r.wins, r.draws, r.losses, r.streak,
            r.recent, int(r.provisional), r.last_match_id, r.updated_at)


def _change_row(c: RatingChange) -> tuple:
    return (c.match_id, c.member_id, c.guild_id, c.game, c.seat, c.place, c.outcome, c.mu_before, c.sigma_before,
            c.mu_after, c.sigma_after, c.games, c.finished_at)


def _rating(row: aiosqlite.Row) -> Rating:
    return Rating(
        guild_id=row["guild_id"], game=row["game"], member_id=row["member_id"], mu=row["mu"], sigma=row["sigma"],
        games=row["games"], wins=row["wins"], draws=row["draws"], losses=row["losses"], streak=row["streak"],
        recent=row["recent"], name=row["name"], last_match_id=row["last_match_id"], updated_at=row["updated_at"],
    )


def _change(row: aiosqlite.Row) -> RatingChange:
    return RatingChange(
        match_id=row["match_id"], guild_id=row["guild_id"], game=row["game"], member_id=row["member_id"],
        seat=row["seat"], place=row["place"], outcome=row["outcome"], mu_before=row["mu_before"],
        sigma_before=row["sigma_before"], mu_after=row["mu_after"], sigma_after=row["sigma_after"],
        games=row["games"], finished_at=row["finished_at"],
    )


class RatingStore:
    def __init__(self, repo: Repository):
        self.repo = repo

    @property
    def db(self) -> aiosqlite.Connection:
        return self.repo.db

    # --- recording ---------------------------------------------------------------------------------------------

    async def record_match(self, result: MatchResult) -> list[RatingChange]:
        """Rate a finished match and store its changes, in one transaction. Idempotent: a match already rated
        is not rated again; its stored changes are returned (so a retried final post shows the same numbers)."""
        async with self.repo.transaction():
            return await self.record_match_in_transaction(result)

    async def record_match_in_transaction(self, result: MatchResult) -> list[RatingChange]:
        """record_match for a caller that already holds `repo.transaction()` (to finish a match and rate it in
        the same transaction: the lock is not re-entrant)."""
        stored = await self.changes_for_match(result.match_id)
        if stored:
            return stored
        result.validate()
        current = await self._ratings_of(result.guild_id, result.game, result.members)
        changes, ratings = rate_match(result, current)
        await self.db.executemany(
            f"INSERT INTO rating_changes ({_CHANGE_COLUMNS}) VALUES ({', '.join('?' * 13)})",
            [_change_row(c) for c in changes],
        )
        await self.db.executemany(
            f"INSERT OR REPLACE INTO ratings ({_RATING_COLUMNS}) VALUES ({', '.join('?' * 15)})",
            [_rating_row(r) for r in ratings],
        )
        return changes

    async def record_finished(self, match_id: int) -> list[RatingChange]:
        """Rate a stored match from its row: what the service calls once a match has ended (after its own
        transaction committed). [] for a match that is unrated or not finished."""
        async with self.repo.transaction():
            results, skipped = await self._finished_results("AND m.id = ?", (match_id,))
            if skipped:
                raise RatingError(skipped[0][1])
            if not results:
                return []
            return await self.record_match_in_transaction(results[0])

    async def changes_for_match(self, match_id: int) -> list[RatingChange]:
        """How the match moved each player's rating, in seat order; [] when it was not rated."""
        async with self.db.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE match_id = ? ORDER BY seat", (match_id,)
        ) as cur:
            return [_change(row) for row in await cur.fetchall()]

    # --- reading -----------------------------------------------------------------------------------------------

    async def rating(self, guild_id: int, game: str, member_id: int) -> Rating | None:
        check_game(game)
        async with self.db.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND member_id = ?",
            (guild_id, game, member_id),
        ) as cur:
            row = await cur.fetchone()
        return _rating(row) if row else None

    async def member_ratings(self, guild_id: int, member_id: int) -> list[Rating]:
        """Every game the member is rated in on this server, most played first (the profile's overview)."""
        async with self.db.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND member_id = ? ORDER BY games DESC, game",
            (guild_id, member_id),
        ) as cur:
            return [_rating(row) for row in await cur.fetchall()]

    async def rank_of(self, rating: Rating) -> int:
        """1-based leaderboard rank: members ordered before this one, plus one (same order as the index)."""
        provisional = int(rating.provisional)
        async with self.db.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND (provisional < ?"
            " OR (provisional = ? AND (mu > ? OR (mu = ? AND member_id < ?))))",
            (rating.guild_id, rating.game, provisional, provisional, rating.mu, rating.mu, rating.member_id),
        ) as cur:
            (ahead,) = await cur.fetchone()
        return ahead + 1

    async def leaderboard(
        self, guild_id: int, game: str, *, offset: int = 0, limit: int = 10, member_id: int | None = None
    ) -> LeaderboardPage:
        """One page of a game's leaderboard on a server, and `member_id`'s own line (None if she is unrated)."""
        check_game(game)
        if offset < 0 or not 1 <= limit <= 100:
            raise ValueError(f"leaderboard page needs offset >= 0 and 1 <= limit <= 100, not {offset}, {limit}")
        async with self.db.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ?"
            f" ORDER BY {_LEADERBOARD_ORDER} LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        ) as cur:
            rows = await cur.fetchall()
        entries = [LeaderboardEntry(offset + i + 1, _rating(row)) for i, row in enumerate(rows)]
        async with self.db.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game)
        ) as cur:
            (total,) = await cur.fetchone()
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
        async with self.db.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE guild_id = ? AND game = ? AND member_id = ?"
            " ORDER BY finished_at, match_id",
            (guild_id, game, member_id),
        ) as cur:
            history = [_change(row) for row in await cur.fetchall()]
        async with self.db.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game)
        ) as cur:
            (total,) = await cur.fetchone()
        return Profile(rating, await self.rank_of(rating), total, history)

    # --- rebuilding --------------------------------------------------------------------------------------------

    async def rebuild(self) -> RebuildSummary:
        """Recompute every rating from the finished rated matches and replace both tables, in one transaction.

        Replaying thousands of matches takes a second or more, and the transaction lock also holds up every move
        being saved. So the replay runs before the transaction, on a snapshot of the match rows; inside it, the
        rows are read again and the replay is redone only if a match finished or changed meanwhile. Either way
        what lands is exactly the replay of the rows committed at that moment, and a match finishing later waits
        for the transaction, then is rated on top (or finds itself already rated)."""
        snapshot = await self._finished_rows("", ())
        results, skipped = _results_from_rows(snapshot)
        replayed = replay(results)
        async with self.repo.transaction():
            rows = await self._finished_rows("", ())
            if rows != snapshot:
                results, skipped = _results_from_rows(rows)
                replayed = replay(results)
            await self.db.execute("DELETE FROM rating_changes")
            await self.db.execute("DELETE FROM ratings")
            await self.db.executemany(
                f"INSERT INTO rating_changes ({_CHANGE_COLUMNS}) VALUES ({', '.join('?' * 13)})",
                [_change_row(c) for c in replayed.changes],
            )
            await self.db.executemany(
                f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES ({', '.join('?' * 15)})",
                [_rating_row(r) for r in replayed.ratings.values()],
            )
        return RebuildSummary(len(results), len(replayed.ratings), skipped)

    # --- helpers -----------------------------------------------------------------------------------------------

    async def _ratings_of(self, guild_id: int, game: str, members: Sequence[int]) -> dict[int, Rating]:
        marks = ", ".join("?" * len(members))
        async with self.db.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND member_id IN ({marks})",
            (guild_id, game, *members),
        ) as cur:
            return {row["member_id"]: _rating(row) for row in await cur.fetchall()}

    async def _finished_rows(self, extra: str, params: tuple[Any, ...]) -> list[tuple]:
        """Finished rated matches joined with their seats, one plain tuple per seat, in rating order."""
        async with self.db.execute(_FINISHED_RATED_MATCHES.format(extra=extra), params) as cur:
            return [tuple(row) for row in await cur.fetchall()]

    async def _finished_results(
        self, extra: str, params: tuple[Any, ...]
    ) -> tuple[list[MatchResult], list[tuple[int, str]]]:
        return _results_from_rows(await self._finished_rows(extra, params))


def _results_from_rows(rows: Iterable[tuple]) -> tuple[list[MatchResult], list[tuple[int, str]]]:
    """Rows of _FINISHED_RATED_MATCHES as results, and the matches that cannot be rated with why."""
    results: list[MatchResult] = []
    skipped: list[tuple[int, str]] = []
    for match_rows in _group_by_match(rows):
        match_id, guild_id, game, standings_json, result_json, finished_at = match_rows[0][:6]
        try:
            standings = standings_from_row(standings_json, result_json, len(match_rows))
            results.append(MatchResult.of(
                match_id=match_id, guild_id=guild_id, game=game, members=[r[7] for r in match_rows],
                standings=standings, finished_at=finished_at, names=[r[8] for r in match_rows],
            ))
        except (RatingError, ValueError, TypeError) as error:  # malformed JSON too: report, rate the rest
            reason = str(error)
            if not reason.startswith(f"match {match_id}"):
                reason = f"match {match_id}: {reason}"
            skipped.append((match_id, reason))
    return results, skipped


def _group_by_match(rows: Iterable[tuple]) -> list[list[tuple]]:
    groups: list[list[tuple]] = []
    for row in rows:
        if groups and groups[-1][0][0] == row[0]:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups
