"""The SQL of damaged matches set aside: the mark, its list, and the operator's two ways out (end, restore).

A match is set aside with why (`matches.set_aside`, migration 014) by whoever finds it damaged: the bot when reading
or loading it (bot/matches/damage.py), a check of the logs later. Its reads then answer DamagedMatch at once (the
mark comes with the row: no extra statement), and its timers wait: they stay claimed by nobody's dispatcher, with a
lease that never runs out, until the operator ends the match (they are dropped) or restores it (the backup's come
back). The operator's commands are bot/damaged.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .driver import Driver
from .sql import Step, Steps, UnitRefused, dumps

PARKED_BY = "set aside"  # who "holds" a set-aside match's timers: no dispatcher (theirs end in "#<batch>")
PARKED_UNTIL = 253402300799.0  # 9999-12-31 23:59:59 UTC: a lease that never runs out
ABORTED = {"winners": [], "reason": "aborted"}  # the result of a match the operator ended

# A match's own rows besides its matches row, each table's columns as written back by a restore (ids are new).
_MATCH_TABLES = {
    "match_seats": ("match_id", "seat", "kind", "user_id", "user_name", "level"),
    "moves": ("match_id", "version", "seat", "move", "private", "events", "created_at"),
    "private_messages": ("match_id", "seat", "user_id", "content", "with_view", "channel", "created_at",
                         "delivered_at"),
    "timers": ("kind", "ref_id", "seat", "due_at", "fired_at"),
}
# A match's timers: every kind with its id as reference but a challenge's expiry (which names a challenge).
_OF_MATCH = {"match_seats": "match_id = ?", "moves": "match_id = ?", "private_messages": "match_id = ?",
             "timers": "ref_id = ? AND kind != 'challenge_expiry'"}
_ORDER = {"match_seats": "seat", "moves": "version", "private_messages": "id", "timers": "id"}


class NotSetAside(UnitRefused):
    """The match is not set aside (or not active, for an end): nothing was changed."""


@dataclass(frozen=True)
class SetAside:
    """One set-aside match as the operator's list shows it."""

    match_id: int
    guild_id: int
    game: str
    status: str
    version: int
    reason: str
    since: float | None
    thread_id: int | None
    players: tuple[int, ...]  # the members whose seats are stored


@dataclass(frozen=True)
class MatchRows:
    """Every row of one match (its matches row and those of _MATCH_TABLES), by column, as a restore writes them."""

    match: dict[str, Any]
    tables: dict[str, list[dict[str, Any]]]


class SetAsideStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def set_aside(self, match_id: int, reason: str, now: float) -> bool:
        """Set the match aside with `reason`: its reads answer DamagedMatch, its timers wait. True when this call
        set it aside; False when it already was (or there is no such match), so its finder tells the operator
        once."""
        def unit() -> Steps[bool]:
            done = yield Step("UPDATE matches SET set_aside = ?, set_aside_at = ? WHERE id = ? AND set_aside IS NULL",
                              (reason, now, match_id))
            if done.rowcount != 1:
                return False
            yield self._park(match_id)
            return True

        return await self.driver.write(unit())

    async def park_timers(self, match_id: int) -> None:
        """Hold the set-aside match's timers again (a timer of it that fired all the same: its dispatcher's claim
        ran out, or a start-up gave it back)."""
        await self.driver.write_statements([self._park(match_id)])

    @staticmethod
    def _park(match_id: int) -> Step:
        return Step(f"UPDATE timers SET claimed_by = ?, lease_until = ? WHERE {_OF_MATCH['timers']}"
                    " AND fired_at IS NULL", (PARKED_BY, PARKED_UNTIL, match_id))

    async def set_aside_matches(self) -> list[SetAside]:
        """Every set-aside match, oldest id first."""
        rows = await self.driver.fetch(
            "SELECT m.id, m.guild_id, m.game, m.status, m.version, m.set_aside, m.set_aside_at, m.thread_id,"
            " s.user_id FROM matches AS m LEFT JOIN match_seats AS s ON s.match_id = m.id"
            " WHERE m.set_aside IS NOT NULL ORDER BY m.id, s.seat")
        found: dict[int, SetAside] = {}
        for r in rows:
            known = found.get(r[0])
            players = (known.players if known else ()) + ((r[8],) if r[8] is not None else ())
            found[r[0]] = SetAside(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], players)
        return list(found.values())

    async def end(self, match_id: int, now: float) -> int | None:
        """End an active set-aside match as aborted: finished, unrated, nobody's win, its timers gone; it stays set
        aside (its record is still damaged). Its league, if any, looks again (its table counts as played, every
        player placed alike). The league's id, if any; NotSetAside when it is not an active set-aside match."""
        def unit() -> Steps[int | None]:
            done = yield Step(
                "UPDATE matches SET status = 'finished', result = ?, standings = NULL, rated = 0, draw_agreed = NULL,"
                " takeback = NULL, finished_at = ?, updated_at = ? WHERE id = ? AND set_aside IS NOT NULL"
                " AND status = 'active'", (dumps(ABORTED), now, now, match_id))
            if done.rowcount != 1:
                raise NotSetAside(f"match {match_id} is not an active match set aside")
            yield Step(f"DELETE FROM timers WHERE {_OF_MATCH['timers']}", (match_id,))
            done = yield Step("SELECT t.league_id FROM league_tables AS t JOIN challenges AS c ON c.id = t.challenge_id"
                              " WHERE c.match_id = ?", (match_id,))
            league_id = done.one()[0] if done.rows else None
            if league_id is not None:  # its league's next step, due now (bot/matches/league_events.py)
                yield Step("INSERT INTO timers (kind, ref_id, seat, due_at) VALUES ('league_step', ?, -1, ?)"
                           " ON CONFLICT (kind, ref_id, seat) DO UPDATE SET due_at = excluded.due_at,"
                           " fired_at = NULL, claimed_by = NULL, lease_until = NULL", (-league_id, now))
            return league_id

        return await self.driver.write(unit())

    async def match_rows(self, match_id: int) -> MatchRows | None:
        """Every row of the match (from a backup, say), or None when it has none."""
        row = await self.driver.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        tables = {}
        for table, columns in _MATCH_TABLES.items():
            found = await self.driver.fetch(f"SELECT {', '.join(columns)} FROM {table} WHERE {_OF_MATCH[table]}"
                                            f" ORDER BY {_ORDER[table]}", (match_id,))
            tables[table] = [dict(zip(columns, r)) for r in found]
        return MatchRows(dict(zip(_keys(row), row)), tables)

    async def restore(self, rows: MatchRows) -> None:
        """Put the match back as `rows` hold it (read from a backup by match_rows), no longer set aside: its
        matches row in place (challenges point at it), its other rows replaced. One unit: all or nothing."""
        match_id = rows.match["id"]
        columns = [c for c in rows.match if c not in ("id", "set_aside", "set_aside_at")]

        def unit() -> Steps[None]:
            done = yield Step(f"UPDATE matches SET {', '.join(f'{c} = ?' for c in columns)}, set_aside = NULL,"
                              " set_aside_at = NULL WHERE id = ?", (*(rows.match[c] for c in columns), match_id))
            if done.rowcount != 1:
                raise NotSetAside(f"there is no match {match_id} to restore")
            for table, names in _MATCH_TABLES.items():
                yield Step(f"DELETE FROM {table} WHERE {_OF_MATCH[table]}", (match_id,))
                if rows.tables[table]:
                    yield Step(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                               [tuple(r[c] for c in names) for r in rows.tables[table]], many=True)

        await self.driver.write(unit())


def _keys(row: Any) -> list[str]:
    """A row's column names: sqlite3.Row and asyncpg.Record both have keys()."""
    return list(row.keys())
