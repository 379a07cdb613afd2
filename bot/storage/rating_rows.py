"""The rows of the two rating tables, and the guarded write of one rated finish (shared by the move unit in
matches.py and the rating reads in rating_store.py). The numbers themselves come from bot/ratings."""

from __future__ import annotations

from bot.ratings import Rating, RatingChange

from bot.domain import RatingWrite

from .sql import Step, Steps, UnitRefused

RATING_COLUMNS = (
    "guild_id, game, member_id, name, mu, sigma, games, wins, draws, losses, streak, recent, provisional,"
    " last_match_id, updated_at"
)
CHANGE_COLUMNS = (
    "match_id, member_id, guild_id, game, seat, place, outcome, mu_before, sigma_before, mu_after, sigma_after,"
    " games, finished_at"
)
_RATING_UPDATES = ", ".join(f"{c.strip()} = excluded.{c.strip()}" for c in RATING_COLUMNS.split(",")[3:])
# The rating of one finish, only over the row it was computed from (the same game count).
_GUARDED_UPSERT = (f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ({', '.join('?' * 15)})"
                   f" ON CONFLICT (guild_id, game, member_id) DO UPDATE SET {_RATING_UPDATES}"
                   " WHERE ratings.games = ?")


class RatingsMoved(UnitRefused):
    """A rating the write was computed from changed meanwhile (another finish sharing a player), or the match was
    rated already: nothing of the unit was written; compute again from the ratings as they are now."""


def rating_row(r: Rating) -> tuple:
    return (r.guild_id, r.game, r.member_id, r.name, r.mu, r.sigma, r.games, r.wins, r.draws, r.losses, r.streak,
            r.recent, int(r.provisional), r.last_match_id, r.updated_at)


def change_row(c: RatingChange) -> tuple:
    return (c.match_id, c.member_id, c.guild_id, c.game, c.seat, c.place, c.outcome, c.mu_before, c.sigma_before,
            c.mu_after, c.sigma_after, c.games, c.finished_at)


def write_rated_finish(write: RatingWrite) -> Steps[None]:
    """Part of the caller's unit: store a rated finish if every rating it started from is unchanged (compare-and-set
    on each member's game count, read first and checked again by each rating's own upsert, which PostgreSQL
    re-evaluates on the newest row once a concurrent finish commits) and the match has no changes yet; else
    RatingsMoved, and nothing of the unit is written."""
    members = sorted(write.games_before)
    marks = ", ".join("?" * len(members))
    done = yield Step(
        f"SELECT member_id, games FROM ratings WHERE guild_id = ? AND game = ? AND member_id IN ({marks})"
        " UNION ALL SELECT -1, COUNT(*) FROM rating_changes WHERE match_id = ?",
        (write.guild_id, write.game, *members, write.match_id),
    )
    found = {row[0]: row[1] for row in done.rows}
    if found.pop(-1, 0) or any(found.get(m, 0) != write.games_before[m] for m in members):
        raise RatingsMoved(f"match {write.match_id}: its players' ratings changed since they were read")
    # The check above sees only what was committed when it ran: on PostgreSQL another writer of this match's changes
    # (a second process rating it, a rebuild) may commit after it. The insert then waits for that writer and skips
    # its rows instead of failing on the key: fewer rows written means the match was rated meanwhile.
    row = f"({', '.join('?' * 13)})"
    done = yield Step(f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES {', '.join([row] * len(write.changes))}"
                      " ON CONFLICT (match_id, member_id) DO NOTHING RETURNING member_id",
                      [value for change in write.changes for value in change_row(change)])
    if done.rowcount != len(write.changes):
        raise RatingsMoved(f"match {write.match_id}: it was rated meanwhile")
    for rating in write.ratings:
        done = yield Step(_GUARDED_UPSERT, (*rating_row(rating), write.games_before.get(rating.member_id, 0)))
        if done.rowcount != 1:
            raise RatingsMoved(f"match {write.match_id}: its players' ratings changed since they were read")
