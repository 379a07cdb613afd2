"""Ratings as the bot offers them: a finished rated match is rated once, leaderboards and profiles per server.

The numbers come from bot.ratings (openskill's Plackett-Luce model), computed here; bot/storage keeps them. They
are derived from the stored results, so `python -m bot ratings --rebuild` recomputes them exactly. A finish is
rated in the same unit as the move that ended the match (MatchService), guarded by compare-and-set on the ratings
it started from, so two finishes sharing a player give what a rebuild gives.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Iterable

from bot.i18n import N_
from bot.ratings import LeaderboardPage, MatchResult, Profile, Rating, RatingChange, RatingError, rate_match, replay
from bot.domain import Match, RatingWrite
from bot.storage import RatingsMoved, Repository

from . import catalogue, errors

log = logging.getLogger(__name__)

PAGE_SIZE = 10
REBUILD_PASSES = 5  # each pass after the first follows a match that finished during the one before
ATTEMPTS = 5  # a finish racing others that share its players computes again; each retry follows a real change


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


class Ratings:
    def __init__(self, repo: Repository):
        self.repo = repo
        self.store = repo.ratings

    # --- rating a finish --------------------------------------------------------------------------------------

    async def plan(self, match: Match) -> RatingWrite | None:
        """How the finish of `match` (as it is about to be written) moves its players' ratings, computed from
        their ratings as they are now; None for an unrated match or one that cannot be rated (logged: a rebuild
        can rate it later, and a rating failure never undoes the end of a match)."""
        if match.active or not match.rated:
            return None
        try:
            result = MatchResult.of(
                match_id=match.id, guild_id=match.guild_id, game=match.game, members=match.member_ids,
                standings=match.standings or standings_from_row(None, json.dumps(match.result), len(match.seats)),
                finished_at=match.finished_at or match.updated_at, names=match.names,
            )
            return await self._write_for(result)
        except RatingError as exc:
            log.warning("match=%s guild=%s could not be rated: %s", match.id, match.guild_id, exc)
            return None

    async def _write_for(self, result: MatchResult) -> RatingWrite:
        current = await self.store.ratings_of(result.guild_id, result.game, result.members)
        changes, ratings = rate_match(result, current)
        games = {m: current[m].games if m in current else 0 for m in result.members}
        follows = max((r.updated_at for r in current.values() if r.updated_at is not None), default=None)
        return RatingWrite(result.match_id, result.guild_id, result.game, games, changes, ratings, follows)

    async def changes_of(self, match: Match) -> list[RatingChange]:
        """How a just-finished match moved each rating ([] while it goes on, or when it was not rated)."""
        if match.active or not match.rated:
            return []
        return await self.store.changes_for_match(match.id)

    async def record_finished(self, match_id: int) -> list[RatingChange]:
        """Rate a stored finished match on its own (one that ended before it could be rated). Idempotent: a
        match already rated keeps its changes, which are returned. [] for an unrated or unfinished match."""
        results, skipped = results_from_rows(await self.store.finished_rows(match_id))
        if skipped:
            raise RatingError(skipped[0][1])
        if not results:
            return []
        return await self.record_match(results[0])

    async def record_match(self, result: MatchResult) -> list[RatingChange]:
        result.validate()
        for _ in range(ATTEMPTS):
            stored = await self.store.changes_for_match(result.match_id)
            if stored:
                return stored
            write = await self._write_for(result)
            try:
                await self.repo.record_ratings(write)
                return write.changes
            except RatingsMoved:
                continue
        raise RatingError(f"match {result.match_id}: its players' ratings kept changing; rate it again later")

    # --- rebuilding -------------------------------------------------------------------------------------------

    async def rebuild(self) -> RebuildSummary:
        """Recompute every rating from the finished rated matches. The replay runs outside any transaction; the
        tables then converge on it in short transactions (only the rows that differ), so a running bot never
        waits for the whole rebuild. A match that finished meanwhile (rated live on top of half-rebuilt
        ratings) makes the rebuild run again, until it ends on a replay of exactly the committed results."""
        for _ in range(REBUILD_PASSES):
            mark = await self.store.finished_mark()
            results, skipped = results_from_rows(await self.store.finished_rows())
            replayed = replay(results)
            await self.store.converge(replayed.changes, list(replayed.ratings.values()))
            if await self.store.finished_mark() == mark:
                return RebuildSummary(len(results), len(replayed.ratings), skipped)
        raise RatingError(f"matches kept finishing during {REBUILD_PASSES} passes of the rebuild; run it again "
                          "when fewer are being played")

    # --- reading ----------------------------------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, game: str, member_id: int, page: int = 0) -> LeaderboardPage:
        info = catalogue.info(game)
        if page < 0:
            raise errors.UserError(N_("There is no page before the first."))
        result = await self.store.leaderboard(guild_id, info.key, offset=page * PAGE_SIZE, limit=PAGE_SIZE,
                                              member_id=member_id)
        if page > 0 and not result.entries:
            raise errors.UserError(N_("There is no such page: the leaderboard is shorter now."))
        return result

    async def profile(self, guild_id: int, member_id: int) -> list[tuple[Rating, Profile | None]]:
        """The member's rating in every game she has rated games in on this server, with her full history."""
        ratings = await self.store.member_ratings(guild_id, member_id)
        return [(r, await self.store.profile(guild_id, r.game, member_id)) for r in ratings]


def results_from_rows(rows: Iterable[tuple]) -> tuple[list[MatchResult], list[tuple[int, str]]]:
    """RatingStore.finished_rows as results, and the matches that cannot be rated with why."""
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
