"""The leagues' SQL: leagues, their players, their tables, and the challenge each table's match starts from.

Every step of a league is one unit of work here (the same SQL on SQLite and PostgreSQL): a round's tables are written together with the league's round
number (so they are written once), and a table's challenge together with the table's link to it (so a table gets
one match, however often a restart repeats the step). A unit that changes what members see takes `announce`: it
makes, from the league and its players as the unit leaves them, the outbox entry of what the change announces,
written in the same unit (bot/matches/outbox.py).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Sequence

from bot.domain import ClockRules, League, LeaguePlayer, LeagueTable, OutboxEntry

from .clocks import rules_column, rules_of
from .driver import Driver
from .outbox import outbox_step
from .sql import Step, Steps, UnitRefused, dumps
from .timers import arm_step


Announce = Callable[[League, list[LeaguePlayer]], OutboxEntry]  # what a unit's change announces, as it leaves it


class AlreadyLinked(UnitRefused):
    """The table got its challenge in an earlier step: this one is rolled back."""


CHALLENGE_LIFETIME = 10 * 365 * 24 * 3600.0  # a table's challenge has every seat taken: it never waits to expire


PLAYERS = "SELECT user_id, user_name, joined_at, rating, division, left_at FROM league_players WHERE league_id = ?"
LEAGUE_COLUMNS = (
    "id, guild_id, channel_id, name, season, previous_id, game, format, rounds, total_rounds, table_size,"
    " clock_seconds, rated, division_size, signup_hours, repeat, organiser_id, status, signup_ends_at, created_at,"
    " started_at, finished_at, round, results_shown, message_id, thread_id,"
    " announced_round, promotion, clock_rules"
)


def _league(row: Any) -> League:
    values = dict(zip([c.strip() for c in LEAGUE_COLUMNS.split(",")], tuple(row)))
    values["rated"] = bool(values["rated"])
    values["clock_rules"] = rules_of(values["clock_rules"])
    return League(**values)


class LeagueStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def _one(self, sql: str, params: tuple) -> Any:
        return await self.driver.fetchone(sql, params)

    async def _all(self, sql: str, params: tuple) -> list[Any]:
        return await self.driver.fetch(sql, params)

    # --- leagues -------------------------------------------------------------------------------------------

    async def create(self, *, guild_id: int, name: str, signup_timer: str, now: float,
                     announce: Announce | None = None, **fields: Any) -> League | None:
        """A new league in signup with its signup timer; None when a league of that name (any season) exists
        on the server. `fields`: the other columns of `_insert`."""
        def unit() -> Steps[int | None]:
            done = yield Step("SELECT 1 FROM leagues WHERE guild_id = ? AND name_key = ?",
                              (guild_id, name.casefold()))
            if done.rows:
                return None
            league_id = yield from _insert(guild_id=guild_id, name=name, signup_timer=signup_timer, now=now, **fields)
            if league_id is not None:
                yield from _announced(league_id, announce)
            return league_id

        league_id = await self.driver.write(unit())
        return await self.get(league_id) if league_id is not None else None

    async def set_timer(self, kind: str, league_id: int, due_at: float) -> None:
        """A league timer on its own: a unit of the store's group commit, like a match's timer."""
        await self.driver.write_statements([_league_timer(kind, league_id, due_at)])

    async def get(self, league_id: int) -> League | None:
        row = await self._one(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?", (league_id,))
        return _league(row) if row else None

    async def of_guild(self, guild_id: int) -> list[League]:
        """The server's leagues, newest first."""
        rows = await self._all(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY id DESC",
                               (guild_id,))
        return [_league(r) for r in rows]

    async def by_status(self, statuses: Iterable[str]) -> list[League]:
        statuses = list(statuses)
        marks = ", ".join("?" * len(statuses))
        rows = await self._all(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status IN ({marks}) ORDER BY id",
                               tuple(statuses))
        return [_league(r) for r in rows]

    async def set_posts(self, league_id: int, message_id: int | None, thread_id: int | None) -> None:
        await self.driver.write_statements([("UPDATE leagues SET message_id = ?, thread_id = ? WHERE id = ?",
                                 (message_id, thread_id, league_id))])

    async def set_round_announced(self, league_id: int, round_: int, announce: Announce) -> bool:
        """Round `round_`'s pairings are announced (with `announce`), once: False when they were already."""
        return await self._changed(announce, league_id, Step(
            "UPDATE leagues SET announced_round = ? WHERE id = ? AND announced_round < ?", (round_, league_id, round_)))

    async def set_results_shown(self, league_id: int, count: int, announce: Announce | None = None) -> None:
        await self._changed(announce, league_id, Step("UPDATE leagues SET results_shown = ? WHERE id = ?",
                                                      (count, league_id)))

    # --- players -------------------------------------------------------------------------------------------

    async def players(self, league_id: int) -> list[LeaguePlayer]:
        rows = await self._all(f"{PLAYERS} ORDER BY joined_at, user_id", (league_id,))
        return [LeaguePlayer(*tuple(r)) for r in rows]

    async def player_counts(self, guild_id: int) -> dict[int, int]:
        """How many players each of the server's leagues has signed (those who left included), in one read."""
        rows = await self._all(
            "SELECT p.league_id, COUNT(*) FROM league_players AS p JOIN leagues AS l ON l.id = p.league_id"
            " WHERE l.guild_id = ? GROUP BY p.league_id", (guild_id,))
        return {r[0]: r[1] for r in rows}

    async def add_player(self, league_id: int, user_id: int, user_name: str, now: float,
                         statuses: Sequence[str] = ("signup",), announce: Announce | None = None) -> bool:
        """False when she is already in, or the league is no longer in one of `statuses`."""
        marks = ", ".join("?" * len(statuses))
        def unit() -> Steps[bool]:
            done = yield Step(f"SELECT 1 FROM leagues WHERE id = ? AND status IN ({marks})", (league_id, *statuses))
            if not done.rows:
                return False
            done = yield Step(
                "INSERT INTO league_players (league_id, user_id, user_name, joined_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (league_id, user_id) DO NOTHING RETURNING user_id",
                (league_id, user_id, user_name, now))
            if done.rows:
                yield from _announced(league_id, announce)
            return bool(done.rows)

        return await self.driver.write(unit())

    async def remove_player(self, league_id: int, user_id: int, announce: Announce | None = None) -> bool:
        """Leaving before the start: no trace. False when she was not signed up or the league started."""
        return await self._changed(announce, league_id, Step(
            "DELETE FROM league_players WHERE league_id = ? AND user_id = ?"
            " AND (SELECT status FROM leagues WHERE id = ?) = 'signup'", (league_id, user_id, league_id)))

    async def mark_left(self, league_id: int, user_id: int, now: float, announce: Announce | None = None) -> bool:
        return await self._changed(announce, league_id, Step(
            "UPDATE league_players SET left_at = ? WHERE league_id = ? AND user_id = ? AND left_at IS NULL",
            (now, league_id, user_id)))

    async def _changed(self, announce: Announce | None, league_id: int, step: Step) -> bool:
        """One statement that changes one row, and with it (if it did) what the change announces."""
        if announce is None:
            (done,) = await self.driver.write_statements([step])
            return done.rowcount == 1

        def unit() -> Steps[bool]:
            done = yield step
            if done.rowcount == 1:
                yield from _announced(league_id, announce)
            return done.rowcount == 1

        return await self.driver.write(unit())

    # --- the league's course -------------------------------------------------------------------------------

    async def start(self, league_id: int, now: float, total_rounds: int,
                    seeding: dict[int, tuple[int, float]], signup_timer: str) -> bool:
        """Signup → running, each player's division and rating fixed. False if it was no longer in signup."""
        def unit() -> Steps[bool]:
            done = yield Step(
                "UPDATE leagues SET status = 'running', started_at = ?, total_rounds = ?"
                " WHERE id = ? AND status = 'signup'", (now, total_rounds, league_id))
            if done.rowcount != 1:
                return False
            for user_id, (division, rating) in seeding.items():
                yield Step("UPDATE league_players SET division = ?, rating = ? WHERE league_id = ? AND user_id = ?",
                           (division, rating, league_id, user_id))
            yield Step("DELETE FROM timers WHERE kind = ? AND ref_id = ?", (signup_timer, -league_id))
            return True

        return await self.driver.write(unit())

    async def write_round(self, league_id: int, round_: int,
                          tables: Sequence[tuple[int, int, Sequence[int]]]) -> bool:
        """The tables (division, board, players) of round `round_`, written once: only if the league's newest
        round is the one before. False when another step already wrote it."""
        def unit() -> Steps[bool]:
            done = yield Step("UPDATE leagues SET round = ? WHERE id = ? AND round = ? AND status = 'running'",
                              (round_, league_id, round_ - 1))
            if done.rowcount != 1:
                return False
            for division, board, players in tables:
                yield Step(
                    "INSERT INTO league_tables (league_id, round, division, board, players) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (league_id, round, division, board) DO NOTHING",
                    (league_id, round_, division, board, dumps(list(players))))
            return True

        return await self.driver.write(unit())

    async def tables(self, league_id: int, round_: int | None = None) -> list[LeagueTable]:
        sql = (
            "SELECT t.id, t.round, t.division, t.board, t.players, t.challenge_id, c.status, c.match_id,"
            " m.status, m.thread_id, m.standings, m.result FROM league_tables t"
            " LEFT JOIN challenges c ON c.id = t.challenge_id LEFT JOIN matches m ON m.id = c.match_id"
            " WHERE t.league_id = ?" + (" AND t.round = ?" if round_ is not None else "")
            + " ORDER BY t.round, t.division, t.board")
        rows = await self._all(sql, (league_id,) + ((round_,) if round_ is not None else ()))
        return [LeagueTable(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5], r[6], r[7], r[8], r[9],
                            json.loads(r[10]) if r[10] else None, json.loads(r[11]) if r[11] else None)
                for r in rows]

    async def link_challenge(self, table: LeagueTable, league: League, names: dict[int, str],
                             options: dict[str, Any], now: float) -> int | None:
        """Create the table's challenge, every seat taken by its player, and link it to the table, in one
        transaction. None when the table already has its challenge (a repeated step)."""
        try:
            return await self._link_challenge(table, league, names, options, now)
        except AlreadyLinked:
            return None

    async def _link_challenge(self, table: LeagueTable, league: League, names: dict[int, str],
                              options: dict[str, Any], now: float) -> int:
        def unit() -> Steps[int]:
            done = yield Step(
                "INSERT INTO challenges (guild_id, channel_id, game, options, challenger_id, created_at,"
                " expires_at, rated, clock_seconds, clock_rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (league.guild_id, league.channel_id, league.game, dumps(options), table.players[0], now,
                 now + CHALLENGE_LIFETIME, int(league.rated), league.clock_seconds,
                 rules_column(league.clock_rules)))
            challenge_id = done.one()[0]
            for position, user_id in enumerate(table.players):
                yield Step(
                    "INSERT INTO challenge_seats (challenge_id, position, invited_id, user_id, user_name)"
                    " VALUES (?, ?, ?, ?, ?)", (challenge_id, position, user_id, user_id, names[user_id]))
            done = yield Step("UPDATE league_tables SET challenge_id = ? WHERE id = ? AND challenge_id IS NULL",
                              (challenge_id, table.id))
            if done.rowcount != 1:
                raise AlreadyLinked()
            return challenge_id

        return await self.driver.write(unit())

    async def league_of_match(self, match_id: int) -> int | None:
        row = await self._one(
            "SELECT t.league_id FROM league_tables t JOIN challenges c ON c.id = t.challenge_id"
            " WHERE c.match_id = ?", (match_id,))
        return row[0] if row else None

    async def finish(self, league: League, now: float, status: str = "finished",
                     next_season: dict[str, Any] | None = None, announce: Announce | None = None,
                     announce_next: Announce | None = None) -> tuple[bool, int | None]:
        """running (or signup) → finished / cancelled, its timers gone, and with `next_season` (the columns of
        `_insert`) the next season opened in the same transaction. (False, None) if it was already over."""
        def unit() -> Steps[tuple[bool, int | None]]:
            done = yield Step(
                "UPDATE leagues SET status = ?, finished_at = ? WHERE id = ? AND status IN ('signup', 'running')",
                (status, now, league.id))
            if done.rowcount != 1:
                return False, None
            yield Step("DELETE FROM timers WHERE ref_id = ? AND kind LIKE 'league%'", (-league.id,))
            next_id = (yield from _insert(now=now, **next_season)) if next_season else None
            if next_id is not None:  # first: what the league's end announces names its next season
                yield from _announced(next_id, announce_next)
            yield from _announced(league.id, announce)
            return True, next_id

        return await self.driver.write(unit())

    async def by_name(self, guild_id: int, name: str) -> League | None:
        """The newest season of the server's league of that name."""
        row = await self._one(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? AND name_key = ?"
                              " ORDER BY season DESC LIMIT 1", (guild_id, name.strip().casefold()))
        return _league(row) if row else None


def _insert(*, guild_id: int, channel_id: int, name: str, game: str, format: str,
            rounds: int | None, table_size: int, clock_seconds: int | None, rated: bool,
            clock_rules: ClockRules = ClockRules(),
            division_size: int, signup_hours: float, repeat: str, organiser_id: int, now: float,
            signup_timer: str, signup_ends_at: float | None = None, season: int = 1,
            previous_id: int | None = None, players: Sequence[tuple[int, str]] = (),
            promotion: int = 2) -> Steps[int | None]:
    """A new league (of `LeagueStore.create`, or a next season) with its players and signup timer; None when the
    server has a league of that name and season."""
    ends = signup_ends_at if signup_ends_at is not None else now + signup_hours * 3600
    done = yield Step(
        "INSERT INTO leagues (guild_id, channel_id, name, name_key, season, previous_id, game, format,"
        " rounds, table_size, clock_seconds, rated, division_size, signup_hours, repeat, organiser_id,"
        " signup_ends_at, created_at, promotion, clock_rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
        " ?)"
        " ON CONFLICT (guild_id, name_key, season) DO NOTHING RETURNING id",
        (guild_id, channel_id, name, name.casefold(), season, previous_id, game, format, rounds,
         table_size, clock_seconds, int(rated), division_size, signup_hours, repeat, organiser_id, ends, now,
         promotion, rules_column(clock_rules)),
    )
    if not done.rows:
        return None
    league_id = done.one()[0]
    for user_id, user_name in players:
        yield Step(
            "INSERT INTO league_players (league_id, user_id, user_name, joined_at) VALUES (?, ?, ?, ?)",
            (league_id, user_id, user_name, now))
    yield _league_timer(signup_timer, league_id, ends)
    return league_id


def _announced(league_id: int, announce: Announce | None) -> Steps[None]:
    """The outbox row of what the unit's change announces, made from the league and its players as it leaves them."""
    if announce is None:
        return
    done = yield Step(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?", (league_id,))
    league = _league(done.one())
    done = yield Step(f"{PLAYERS} ORDER BY joined_at, user_id", (league_id,))
    yield outbox_step(None, 0, announce(league, [LeaguePlayer(*tuple(r)) for r in done.rows]), league_id=league_id)


def _league_timer(kind: str, league_id: int, due_at: float) -> Step:
    # League timers use the negated league id: timers of matches (whose finish clears every timer of its
    # match id) never share a reference with them.
    return arm_step(kind, -league_id, due_at)
