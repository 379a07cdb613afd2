"""`python -m bot check`: whether the database still tells one story, match by match.

Each match's move log is replayed through its engine from the match's seed, as a take-back rebuilds a position
(bot/games/record.py), and must end in the state stored with the match; the state must be JSON its engine loads,
the seats whole. Around the matches: SQLite's own `integrity_check`, rows pointing at a match (or another row) that
is not there (SQLite's `foreign_key_check`; on PostgreSQL the same relations by queries), timers left for a
finished or missing match, and timers an active match needs but lacks (a seat on the clock without its deadline,
the computer's turn without its think, an open challenge without its expiry).

An entry point beside the bot, imported by nothing but `bot.__main__` and the tools that check a database they
wrote (`check_database`). It only reads, and runs beside a running bot: a batch of matches at a time in one short
read transaction (SQLite: a WAL snapshot, which never waits for the bot's writes nor holds them up; PostgreSQL:
REPEATABLE READ, READ ONLY), replayed after the transaction ended, so no snapshot is held for the whole check.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Sequence
from urllib.parse import urlsplit

import asyncpg

from bot.domain import LoggedMove
from bot.games.engines import GAMES, get_game
from bot.games.record import RecordError, replay_moves
from bot.matches.boards import BOARD_REPAIR, START_OR_END_LEFT
from bot.matches.challenges import CHALLENGE_EXPIRY
from bot.matches.computer import COMPUTER_MOVE
from bot.matches.league_events import SIGNUP_TIMER, STEP_TIMER
from bot.matches.leagues import LEFT_TIMER
from bot.matches.movelog import effective_moves
from bot.matches.scope import REPAIR_AFTER
from bot.settings import Settings, SettingsError, is_postgres_dsn
from bot.storage.clocks import DEADLINE
from bot.storage.database import migration_files
from bot.storage.postgres_pool import CONNECT_TIMEOUT, describe_dsn
from bot.storage.postgres_schema import schema_version
from bot.storage.sql import dumps, postgres_sql
from bot.storage.timers import CLOCK_KINDS

BATCH = 200  # matches read in one read transaction: short enough never to hold a snapshot for long

# What is wrong, by kind: tools that act on the problems (set a damaged match aside) choose by it.
STATE = "state"  # the stored state is not JSON, or its engine refuses it; or its game, options or seats are
REPLAY = "replay"  # the log does not replay, or replays to another state, ending or version than the one stored
INTEGRITY = "integrity"  # SQLite's integrity_check, or a database that cannot be read
FOREIGN_KEY = "foreign_key"  # rows pointing at a match, challenge or league that is not there
ORPHAN_TIMER = "orphan_timer"  # a timer of a finished or missing match, challenge or league
MISSING_TIMER = "missing_timer"  # an active match (or open challenge) without a timer it needs
SET_ASIDE = "set_aside"  # a match the bot has set aside as damaged (bot/matches/damage.py), awaiting the operator

# Timers whose handlers act on a running match; a finished match's last write removed them (bot/storage/matches.py).
_RUNNING_MATCH_KINDS = (*CLOCK_KINDS, COMPUTER_MOVE)
_LEAGUE_KINDS = (SIGNUP_TIMER, STEP_TIMER, LEFT_TIMER)  # by the negated league id (bot/storage/leagues.py)
_TABLE_NOUNS = {"matches": "match", "challenges": "challenge", "leagues": "league"}


class CheckError(Exception):
    """The database could not be checked at all (none there, not Strategos's, unreachable); one line says why."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong, said in one line about what it concerns: `match #12: …`, `challenge #3: …`."""

    kind: str
    text: str
    match_id: int | None = None  # the match it concerns, if one
    subject: str = ""  # what else it concerns ("challenge #3", "the database") when not a match

    def line(self) -> str:
        return f"{self.subject or f'match #{self.match_id}'}: {self.text}"

    def order(self) -> tuple[str, int, str]:
        """The report's order: the database first, then the matches by number, then challenges and leagues."""
        if self.match_id is not None:
            return ("1", self.match_id, self.text)
        noun, _, number = self.subject.partition(" #")
        return ("2" + noun, int(number), self.text) if number.isdigit() else ("0", 0, self.text)


@dataclass
class Checked:
    """What a check read, and what it found wrong (in the report's order)."""

    where: str
    matches: int = 0
    moves: int = 0
    problems: list[Problem] = field(default_factory=list)

    def summary(self) -> str:
        found = len(self.problems)
        matches = len({p.match_id for p in self.problems if p.match_id is not None})
        said = "no problems" if not found else f"{found} problem{'s' * (found != 1)}" + (
            f" ({matches} match{'es' * (matches != 1)})" if matches else "")
        return (f"checked {self.where}: {self.matches} match{'es' * (self.matches != 1)}, "
                f"{self.moves} logged move{'s' * (self.moves != 1)}: {said}")


# --- reading ---------------------------------------------------------------------------------------------------


class _Source:
    """One read-only connection to the database, with its dialect's read transaction."""

    dialect: str
    where: str

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    async def schema(self) -> int | None:
        """The number of the newest migration applied; None when the database holds no matches table."""
        raise NotImplementedError

    def snapshot(self) -> Any:
        """An async context: the reads inside it see one committed state of the database."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class _SQLite(_Source):
    dialect = "sqlite"

    def __init__(self, path: Path):
        if not path.is_file():
            raise CheckError(f"no database at {path}")
        self.where = str(path)
        # query_only: nothing here can change the bot's data. (A mode=ro connection could not remove the -wal and
        # -shm files it opened when the bot is stopped: it would leave them behind.)
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA query_only = ON")
        self.conn.execute("PRAGMA busy_timeout = 5000")

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.conn.execute(sql, tuple(params)).fetchall()

    async def schema(self) -> int | None:
        if not await self.fetch("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'matches'"):
            return None
        return (await self.fetch("PRAGMA user_version"))[0][0]

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        self.conn.execute("BEGIN")  # deferred: a read transaction from its first read, never a write lock
        try:
            yield
        finally:
            self.conn.execute("COMMIT")

    async def close(self) -> None:
        self.conn.close()


class _Postgres(_Source):
    dialect = "postgresql"

    def __init__(self, dsn: str, conn: asyncpg.Connection):
        self.where = f"PostgreSQL at {describe_dsn(dsn)}"
        self.conn = conn

    @classmethod
    async def open(cls, dsn: str) -> _Postgres:
        try:
            conn = await asyncpg.connect(dsn, timeout=CONNECT_TIMEOUT)
        except (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            reason = (str(exc).splitlines() or [exc.__class__.__name__])[0]
            password = urlsplit(dsn).password
            if password:
                reason = reason.replace(password, "***")
            raise CheckError(f"cannot connect to PostgreSQL at {describe_dsn(dsn)} ({reason})") from None
        await conn.execute("SET default_transaction_read_only = on")  # whatever runs here cannot write
        return cls(dsn, conn)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self.conn.fetch(postgres_sql(sql), *params))

    async def schema(self) -> int | None:
        if not await self.conn.fetchval("SELECT to_regclass('matches') IS NOT NULL"):
            return None
        return await schema_version(self.conn)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        async with self.conn.transaction(isolation="repeatable_read", readonly=True):
            yield

    async def close(self) -> None:
        try:
            await self.conn.close(timeout=CONNECT_TIMEOUT)
        except (OSError, asyncio.TimeoutError, asyncpg.InterfaceError):  # the server went away: no goodbye to say
            self.conn.terminate()


async def _open(database: Path | str) -> _Source:
    source: _Source
    if is_postgres_dsn(database):
        source = await _Postgres.open(str(database))
    else:
        try:
            source = _SQLite(Path(database))
        except sqlite3.Error as exc:
            raise CheckError(f"{database}: {exc}") from None
    try:
        await _check_schema(source)
    except BaseException:
        await source.close()
        raise
    return source


async def _check_schema(source: _Source) -> None:
    """Refuse a database that is not Strategos's, or whose schema is not this Strategos's: its columns would be
    read wrong."""
    known = migration_files(source.dialect)[-1][0]
    try:
        schema = await source.schema()
    except sqlite3.DatabaseError as exc:  # not a SQLite file at all, or its first page is damaged
        raise CheckError(f"{source.where} cannot be read as a SQLite database ({exc})") from None
    if schema is None:
        raise CheckError(f"{source.where} is not a Strategos database (it has no matches)")
    if schema > known:
        raise CheckError(f"{source.where} was written by a newer Strategos (schema {schema}, this one knows up to "
                         f"{known}): check it with that version")
    if schema < known:
        raise CheckError(f"{source.where} has schema {schema}, older than this Strategos's {known}: start the bot "
                         f"on it once to migrate it, then check it")


# --- the matches -----------------------------------------------------------------------------------------------


@dataclass
class _MatchRows:
    """One match as stored: its row, its seats, its log and the timers its turn needs."""

    row: Any
    seats: list[Any] = field(default_factory=list)
    moves: list[Any] = field(default_factory=list)
    timers: list[Any] = field(default_factory=list)


async def _batches(source: _Source, size: int) -> AsyncIterator[list[_MatchRows]]:
    """Every match with its seats, log and turn timers, `size` matches at a time, each batch read in one snapshot."""
    after = 0
    while True:
        async with source.snapshot():
            rows = await source.fetch(
                "SELECT id, game, options, seed, status, state, version, result, clock_seconds, updated_at, set_aside"
                " FROM matches WHERE id > ? ORDER BY id LIMIT ?", (after, size))
            if not rows:
                return
            first, last = rows[0]["id"], rows[-1]["id"]
            span = (first, last)
            by_id = {row["id"]: _MatchRows(row) for row in rows}
            for seat in await source.fetch("SELECT match_id, seat, kind, user_name FROM match_seats"
                                           " WHERE match_id BETWEEN ? AND ? ORDER BY match_id, seat", span):
                by_id[seat["match_id"]].seats.append(seat)
            for move in await source.fetch("SELECT match_id, version, seat, move, events FROM moves"
                                           " WHERE match_id BETWEEN ? AND ? ORDER BY match_id, version", span):
                by_id[move["match_id"]].moves.append(move)
            for timer in await source.fetch("SELECT ref_id, kind, seat, fired_at FROM timers"
                                            " WHERE ref_id BETWEEN ? AND ? AND kind IN (?, ?)",
                                            (*span, DEADLINE, COMPUTER_MOVE)):
                by_id[timer["ref_id"]].timers.append(timer)
        after = last
        yield list(by_id.values())


def _match_problems(stored: _MatchRows, now: float) -> list[Problem]:
    """What is wrong with one match as stored: its state, its seats, its log against its state, its turn's timers."""
    row = stored.row
    match_id = row["id"]

    def problem(kind: str, text: str) -> list[Problem]:
        return [Problem(kind, text, match_id)]

    if row["set_aside"] is not None:  # already the operator's (its log may end in an aborted ending it never logged)
        return problem(SET_ASIDE, f"set aside as damaged ({row['set_aside']}): `python -m bot damaged list`, then "
                                  "`end` or `restore`")
    if row["game"] not in GAMES:
        return problem(STATE, f"its game {row['game']!r} is not one this Strategos has")
    game = get_game(row["game"])
    try:
        data = json.loads(row["state"])
    except ValueError as exc:
        return problem(STATE, f"its stored state is not valid JSON ({exc})")
    try:
        state = game.load(data)
    except Exception as exc:  # whatever the engine raises on what it cannot read
        return problem(STATE, f"its engine refuses its stored state ({exc.__class__.__name__}: {exc})")
    seats = [seat["seat"] for seat in stored.seats]
    if not seats:
        return problem(STATE, "it has no seats")
    if seats != list(range(len(seats))):
        return problem(STATE, f"its seats are not whole (seats {', '.join(map(str, seats))})")
    try:
        options = json.loads(row["options"])
        log = [LoggedMove(m["version"], m["seat"], m["move"], False, json.loads(m["events"]), 0.0)
               for m in stored.moves]
        result = json.loads(row["result"]) if row["result"] else None
    except ValueError as exc:
        return problem(STATE, f"its options, result or logged events are not valid JSON ({exc})")
    found = _log_problems(game, row, stored, options, log, result, data)
    if found:
        return [Problem(REPLAY, text, match_id) for text in found]
    if row["status"] != "active":
        return []
    return [Problem(MISSING_TIMER, text, match_id) for text in _missing_timers(game, row, stored, state, now)]


def _log_problems(game: Any, row: Any, stored: _MatchRows, options: Any, log: list[LoggedMove],
                  result: Any, data: Any) -> list[str]:
    """Whether the log replays, through the engine from the seed, to the state, ending and version stored."""
    versions = [entry.version for entry in log]
    if versions != list(range(1, row["version"] + 1)):
        return [f"its log holds versions {_spans(versions)}, its state is at version {row['version']}"]
    moves = effective_moves(log)
    names = [seat["user_name"] for seat in stored.seats]
    try:
        run = replay_moves(game, len(stored.seats), row["seed"], options, moves, names=names)
    except RecordError as exc:
        return [f"its log does not replay: {exc}"]
    except ValueError as exc:  # the engine refuses the options or the number of seats
        return [f"its log does not replay: the engine refuses its options or seats ({exc})"]
    if json.loads(dumps(game.dump(run.final_state))) != data:
        return [f"its log replays to a different state than the one stored ({_where_it_parts(run, moves)})"]
    outcome = run.outcome
    if (outcome is not None) != (row["status"] == "finished"):
        return [f"it is {row['status']}, but its log replays to a match that " + (
            "ended" if outcome is not None else "goes on")]
    if outcome is not None and result is not None and sorted(result.get("winners", [])) != sorted(outcome.winners):
        return [f"its result names winners {result.get('winners')}, its log replays to "
                f"{list(outcome.winners) or 'a draw'}"]
    return []


def _where_it_parts(run: Any, moves: Sequence[LoggedMove]) -> str:
    """The first move whose replay does not give the events logged with it: where the log and the state part."""
    for number, (entry, events) in enumerate(zip(moves, run.events), 1):
        if json.loads(dumps(events)) != entry.events:
            return (f"from move {number}, {entry.move!r} by seat {entry.seat}: its replay does not give the events "
                    f"logged with it")
    return f"after its last move, {len(moves)}" if moves else "before any move"


def _spans(numbers: Sequence[int]) -> str:
    if not numbers:
        return "none"
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _missing_timers(game: Any, row: Any, stored: _MatchRows, state: Any, now: float) -> list[str]:
    """The timers the active match's turn needs and lacks. A seat on the clock to act has its deadline, written with
    the move that began her turn. The computer's turn is written just after the move that began it commits: a
    match that changed a moment ago is not judged on it."""
    kinds = {(timer["kind"], timer["seat"]) for timer in stored.timers}
    pending = {(timer["kind"], timer["seat"]) for timer in stored.timers if timer["fired_at"] is None}
    found = []
    for seat in game.to_act(state):
        taken = stored.seats[seat]
        if taken["kind"] == "member" and row["clock_seconds"] is not None and (DEADLINE, seat) not in kinds:
            found.append(f"seat {seat} ({taken['user_name']}) is to act on a clock but has no deadline timer")
        if (taken["kind"] == "computer" and (COMPUTER_MOVE, seat) not in pending
                and row["updated_at"] <= now - REPAIR_AFTER):
            found.append(f"the computer's seat {seat} is to act but has no timer to think")
    return found


# --- the database around them -------------------------------------------------------------------------------


async def _integrity(source: _Source) -> list[Problem]:
    if source.dialect != "sqlite":
        return []  # PostgreSQL checks its pages itself; the rows' relations are checked below on both
    lines = [row[0] for row in await source.fetch("PRAGMA integrity_check")]
    if lines == ["ok"]:
        return []
    return [Problem(INTEGRITY, f"integrity_check: {line}", subject="the database") for line in lines]


async def _relations(source: _Source) -> list[tuple[str, str, str, str]]:
    """(table, column, parent table, parent column) of every reference the schema declares that some row breaks:
    on SQLite those `foreign_key_check` finds; on PostgreSQL, which enforces them, every one (a copy made with its
    checks off could still break one)."""
    if source.dialect == "postgresql":
        rows = await source.fetch(
            "SELECT c.conrelid::regclass::text, a.attname, c.confrelid::regclass::text, p.attname"
            " FROM pg_constraint AS c"
            " JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
            " JOIN pg_attribute AS p ON p.attrelid = c.confrelid AND p.attnum = c.confkey[1]"
            " WHERE c.contype = 'f' AND cardinality(c.conkey) = 1"
            " AND c.connamespace = current_schema()::regnamespace ORDER BY 1, 2")
        return [(r[0], r[1], r[2], r[3]) for r in rows]
    broken = {(row[0], row[3]) for row in await source.fetch("PRAGMA foreign_key_check")}
    relations = []
    for table, key in sorted(broken):
        for ref in await source.fetch(f'PRAGMA foreign_key_list("{table}")'):
            if ref["id"] == key:
                relations.append((table, ref["from"], ref["table"], ref["to"] or "rowid"))
    return relations


async def _dangling(source: _Source) -> list[Problem]:
    """Rows pointing at a match (or challenge, or league) that is not there, one line per missing row and table."""
    found = []
    for table, column, parent, key in await _relations(source):
        for ref, count in await source.fetch(
                f'SELECT c."{column}", count(*) FROM "{table}" AS c WHERE c."{column}" IS NOT NULL AND NOT EXISTS'
                f' (SELECT 1 FROM "{parent}" AS p WHERE p."{key}" = c."{column}") GROUP BY c."{column}"'
                f' ORDER BY c."{column}"'):
            rows = f"{count} row{'s' * (count != 1)} of {table} ({column}) point{'s' * (count == 1)} at it"
            found.append(_about(parent, ref, FOREIGN_KEY, f"does not exist, but {rows}"))
    return found


def _about(table: str, ref: int, kind: str, text: str) -> Problem:
    noun = _TABLE_NOUNS.get(table, table)
    return Problem(kind, text, ref) if noun == "match" else Problem(kind, text, subject=f"{noun} #{ref}")


async def _timers(source: _Source) -> list[Problem]:
    """Timers left for what is finished or gone, and open challenges without their expiry."""
    found = []
    running = ", ".join("?" * len(_RUNNING_MATCH_KINDS))
    for kind, ref, seat, status in await source.fetch(
            "SELECT t.kind, t.ref_id, t.seat, m.status FROM timers AS t LEFT JOIN matches AS m ON m.id = t.ref_id"
            f" WHERE (t.kind IN ({running}, ?) OR (t.kind = ? AND t.ref_id > 0))"
            f" AND (m.id IS NULL OR (m.status <> 'active' AND t.kind IN ({running}))) ORDER BY t.ref_id, t.kind",
            (*_RUNNING_MATCH_KINDS, BOARD_REPAIR, START_OR_END_LEFT, *_RUNNING_MATCH_KINDS)):
        whose = f" of seat {seat}" if seat >= 0 else ""
        said = "does not exist" if status is None else f"is {status}"
        found.append(Problem(ORPHAN_TIMER, f"{said}, but its {kind} timer{whose} is left", ref))
    for kind, ref, status in await source.fetch(
            "SELECT t.kind, t.ref_id, c.status FROM timers AS t LEFT JOIN challenges AS c"
            " ON c.id = CASE WHEN t.kind = ? THEN t.ref_id ELSE -t.ref_id END"
            " WHERE (t.kind = ? OR (t.kind = ? AND t.ref_id < 0))"
            " AND (c.id IS NULL OR (t.kind = ? AND c.status <> 'open' AND t.fired_at IS NULL)) ORDER BY t.ref_id",
            (CHALLENGE_EXPIRY, CHALLENGE_EXPIRY, START_OR_END_LEFT, CHALLENGE_EXPIRY)):
        said = "does not exist" if status is None else f"is {status}"
        found.append(_about("challenges", abs(ref), ORPHAN_TIMER, f"{said}, but its {kind} timer is left"))
    for (ref,) in await source.fetch(
            "SELECT c.id FROM challenges AS c WHERE c.status = 'open' AND NOT EXISTS"
            " (SELECT 1 FROM timers AS t WHERE t.kind = ? AND t.ref_id = c.id) ORDER BY c.id", (CHALLENGE_EXPIRY,)):
        found.append(_about("challenges", ref, MISSING_TIMER, "is open but has no expiry timer: it would never "
                                                              "expire"))
    leagues = ", ".join("?" * len(_LEAGUE_KINDS))
    for kind, ref, status in await source.fetch(
            "SELECT t.kind, t.ref_id, l.status FROM timers AS t LEFT JOIN leagues AS l ON l.id = -t.ref_id"
            f" WHERE t.kind IN ({leagues}) AND (l.id IS NULL OR (l.status IN ('finished', 'cancelled')"
            " AND t.kind IN (?, ?))) ORDER BY t.ref_id", (*_LEAGUE_KINDS, SIGNUP_TIMER, STEP_TIMER)):
        said = "does not exist" if status is None else f"is {status}"
        found.append(_about("leagues", -ref, ORPHAN_TIMER, f"{said}, but its {kind} timer is left"))
    return found


# --- the check -------------------------------------------------------------------------------------------------


async def check(database: Path | str, *, now: float | None = None, batch: int = BATCH) -> Checked:
    """Check the database at `database` (a SQLite file or a postgresql:// URL) without writing to it. Raises
    CheckError when it cannot be checked at all; what is wrong in it is in the result's problems."""
    source = await _open(database)
    checked = Checked(source.where)
    moment = time.time() if now is None else now
    try:
        try:
            for part in (_integrity, _dangling, _timers):
                async with source.snapshot():
                    checked.problems += await part(source)
            async for matches in _batches(source, batch):
                for stored in matches:
                    checked.matches += 1
                    checked.moves += len(stored.moves)
                    checked.problems += _match_problems(stored, moment)
        except sqlite3.DatabaseError as exc:
            if not getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
                raise CheckError(f"{source.where}: the check was cut off ({exc})") from None
            # A page too damaged to be read: integrity_check said which.
            checked.problems.append(Problem(INTEGRITY, f"cannot be read further ({exc}): restore it from a backup",
                                            subject="the database"))
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:  # PostgreSQL restarting, say
            raise CheckError(f"{source.where}: the check was cut off ({exc.__class__.__name__}: {exc})") from None
    finally:
        await source.close()
    checked.problems.sort(key=Problem.order)
    return checked


async def check_database(database: Path | str, *, now: float | None = None) -> list[Problem]:
    """Everything wrong in the database at `database`, in the report's order ([] when it is sound). Raises
    CheckError when it cannot be checked at all."""
    return (await check(database, now=now)).problems


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot check",
        description="Check the database beside the running bot, without changing it: every match's log replays "
                    "to its stored state, the database's integrity, and the timers. One line per problem, then a "
                    "summary; exit status 0 when sound, 1 when something is wrong, 2 when it could not be checked.")
    p.add_argument("--database", metavar="FILE_OR_URL",
                   help="SQLite file or postgresql:// URL (default: STRATEGOS_DATABASE from the settings)")
    p.add_argument("--set-aside", action="store_true",
                   help="set aside each match whose state or log is damaged, as the bot does when it finds one: its "
                        "players are told, everything else goes on (python -m bot damaged lists them)")
    return p


async def set_aside(database: Path | str, problems: Sequence[Problem], now: float | None = None) -> list[int]:
    """Set aside the matches whose state or log is damaged (each once, as the bot would); the ones newly set
    aside."""
    from bot.storage.opening import open_repository  # only for this write: the check itself only reads

    damaged = {p.match_id: p.text for p in problems if p.kind in (STATE, REPLAY) and p.match_id is not None}
    if not damaged:
        return []
    repo = await open_repository(database)
    try:
        when = time.time() if now is None else now
        return [match_id for match_id, reason in sorted(damaged.items())
                if await repo.damaged.set_aside(match_id, reason, when)]
    finally:
        await repo.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        checked = asyncio.run(check(args.database or Settings.load().database))
    except (SettingsError, CheckError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for problem in checked.problems:
        print(problem.line())
    print(checked.summary())
    if args.set_aside:
        for match_id in asyncio.run(set_aside(args.database or Settings.load().database, checked.problems)):
            print(f"match #{match_id}: set aside; its players are told it is damaged (python -m bot damaged list)")
    return 1 if checked.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
