"""`python -m bot migrate --to postgresql://…`: copy the bot's SQLite database into an empty PostgreSQL database.

An entry point beside the bot, imported by nothing but `bot.__main__`. The bot must be stopped: the copy holds the
SQLite file's lock exclusive (bot/storage/lock.py), which a running bot holds shared. The target gets this
Strategos's PostgreSQL schema (bot/storage/postgres_schema.py), then every table of the SQLite file, read from its
own schema (whatever migrations it has), row for row with its ids, in one transaction; each identity sequence is set
past the largest id copied, so new rows go on from there. Then the rows of each table are counted on both sides and
every match is replayed from its seed through its log, on the copy, to the state stored with it.

Refused, each in one line and nothing written: a target that holds any row, a source a running process uses, a
source or target of a newer Strategos. The source is left as it was (but for the migrations this Strategos applies
to an older one, as the bot does at start-up).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import asyncpg

from bot.check import REPLAY, STATE, CheckError, check
from bot.settings import Settings, SettingsError, is_postgres_dsn
from bot.storage.database import DatabaseError, migration_files, open_database
from bot.storage.lock import DatabaseLock
from bot.storage.postgres_pool import LOST_CONNECTION, describe_dsn, open_pool


class MigrationError(Exception):
    """Nothing was copied, or the copy did not verify; the message is one line that says why."""


@dataclass
class Migration:
    """What was copied and checked."""

    rows: dict[str, int]  # per table, counted on both sides
    matches_replayed: int = 0
    problems: list[str] = field(default_factory=list)  # one line per match that did not replay to its state
    copied_in: float = 0.0  # seconds from the start to the copy counted
    took: float = 0.0  # seconds in all, the replay included


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot migrate",
        description="Copy the SQLite database into an empty PostgreSQL database (stop the bot first), check the "
                    "copy, then start the bot with STRATEGOS_DATABASE set to the URL (docs/operating.md).")
    p.add_argument("--to", required=True, metavar="URL", help="the PostgreSQL database: postgresql://USER:PASSWORD@"
                                                               "HOST:PORT/DATABASE, empty")
    p.add_argument("--database", metavar="FILE", help="SQLite file (default: STRATEGOS_DATABASE from the settings)")
    return p


async def migrate(source: Path, dsn: str, *, say: Callable[[str], None] = print) -> Migration:
    """Copy `source` into the database at `dsn` and check the copy. Raises MigrationError."""
    started = time.perf_counter()
    if not source.is_file():
        raise MigrationError(f"no database at {source}")
    _check_source(source)
    try:
        lock = DatabaseLock.take(source, exclusive=True)
    except DatabaseError as exc:
        raise MigrationError(f"{source}: {exc}") from None
    try:
        said = lock.taken_over()
        if said:
            say(said)
        await (await open_database(source)).close()  # an older source gets this Strategos's migrations first
        where = describe_dsn(dsn)
        pool = await open_pool(dsn, min_size=1, max_size=1, before_migrating=lambda conn: _refuse_rows(conn, where))
        try:
            async with pool.acquire() as conn:
                done = Migration(await _copy(source, conn))
                done.copied_in = time.perf_counter() - started
        finally:
            await pool.close()
        done.matches_replayed, done.problems = await replay_matches(dsn)
    except DatabaseError as exc:
        raise MigrationError(str(exc)) from None
    except sqlite3.Error as exc:
        raise MigrationError(f"{source}: {exc}") from None
    except (asyncpg.PostgresError, *LOST_CONNECTION) as exc:  # the copy is one transaction: none of it was kept
        raise MigrationError(f"PostgreSQL ended the copy ({exc.__class__.__name__}: {exc}); nothing was "
                             "copied") from None
    finally:
        lock.release()
    done.took = time.perf_counter() - started
    return done


def _check_source(source: Path) -> None:
    connection = sqlite3.connect(f"{source.absolute().as_uri()}?mode=ro", uri=True)
    try:
        (version,) = connection.execute("PRAGMA user_version").fetchone()
        if not connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'matches'").fetchone():
            raise MigrationError(f"{source} is not a Strategos database (it has no matches)")
    except sqlite3.Error as exc:
        raise MigrationError(f"{source}: {exc}") from None
    finally:
        connection.close()
    known = migration_files()[-1][0]
    if version > known:
        raise MigrationError(f"{source} was written by a newer Strategos (schema {version}, this one knows up to "
                             f"{known}): migrate it with that Strategos")


async def _refuse_rows(conn: Any, where: str) -> None:
    """Refuse a target with a row in any table (but the schema's own record), before anything is written to it."""
    tables = await conn.fetch(
        "SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n "
        "ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND n.nspname <> 'information_schema' "
        "AND n.nspname NOT LIKE 'pg\\_%' AND c.relname <> 'schema_version' ORDER BY 1")
    for (name,) in tables:
        if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {name})"):
            raise MigrationError(f"the PostgreSQL database {where} is not empty (its table {name} holds rows): "
                                 "give an empty database (createdb)")


# --- the copy ----------------------------------------------------------------------------------------------------


def _timestamp(value: Any, zone: timezone | None) -> datetime:
    """SQLite keeps a time as Unix seconds or as text (CURRENT_TIMESTAMP's 'YYYY-MM-DD HH:MM:SS', in UTC)."""
    if isinstance(value, (int, float)):
        moment = datetime.fromtimestamp(value, timezone.utc)
    else:
        moment = datetime.fromisoformat(str(value))
        moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).replace(tzinfo=zone)


# A value as SQLite gives it, as asyncpg's binary COPY takes it for the PostgreSQL column's type. JSON stays text
# (asyncpg's own codec for json and jsonb); a SQLite flag (0 or 1) becomes a boolean.
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "bigint": int, "integer": int, "smallint": int,
    "double precision": float, "real": float, "numeric": float,
    "text": str, "character varying": str, "json": str, "jsonb": str,
    "boolean": bool,
    "bytea": bytes,
    "timestamp with time zone": lambda value: _timestamp(value, timezone.utc),
    "timestamp without time zone": lambda value: _timestamp(value, None),
}


def _records(rows: sqlite3.Cursor, converters: Sequence[Callable[[Any], Any]]) -> Iterator[tuple[Any, ...]]:
    for row in rows:
        yield tuple(None if value is None else convert(value) for convert, value in zip(converters, row))


async def _copy(source: Path, conn: Any) -> dict[str, int]:
    """Copy every table of `source` into the migrated target, in one transaction; rows per table, counted on both
    sides after the copy (MigrationError when they differ)."""
    types: dict[str, dict[str, str]] = {}
    for table, column, kind in await conn.fetch(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND is_generated = 'NEVER' ORDER BY ordinal_position"):
        types.setdefault(table, {})[column] = kind
    sqlite = sqlite3.connect(f"{source.absolute().as_uri()}?mode=ro", uri=True, isolation_level=None)
    try:
        sqlite.execute("BEGIN")  # one snapshot of the source for the copy and its count
        tables = [name for (name,) in sqlite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")]
        for table in tables:
            if table not in types:
                raise MigrationError(f"the PostgreSQL schema has no table {table}, which the SQLite database has")
        async with conn.transaction():
            for table in await _in_reference_order(conn, tables):
                columns = [row[1] for row in sqlite.execute(f'PRAGMA table_info("{table}")')]
                missing = [column for column in columns if column not in types[table]]
                if missing:
                    raise MigrationError(f"the PostgreSQL table {table} has no column {missing[0]}, which the SQLite "
                                         "database has")
                converters = [_CONVERT.get(types[table][column], lambda value: value) for column in columns]
                names = ", ".join(f'"{column}"' for column in columns)
                rows = sqlite.execute(f'SELECT {names} FROM "{table}"')
                await conn.copy_records_to_table(table, records=_records(rows, converters), columns=columns)
            await _set_sequences(conn)
        counts = {table: sqlite.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] for table in tables}
    finally:
        sqlite.close()
    for table, count in counts.items():
        copied = await conn.fetchval(f'SELECT count(*) FROM "{table}"')
        if copied != count:
            raise MigrationError(f"the table {table} holds {count} rows in SQLite and {copied} in PostgreSQL")
    return counts


async def _in_reference_order(conn: Any, tables: Sequence[str]) -> list[str]:
    """`tables` ordered so that each comes after the tables its foreign keys name (a key to its own table is
    checked at the end of its one COPY statement)."""
    refers: dict[str, set[str]] = {table: set() for table in tables}
    for table, referenced in await conn.fetch(
            "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint "
            "WHERE contype = 'f' AND connamespace = current_schema()::regnamespace"):
        if table in refers and referenced in refers and referenced != table:
            refers[table].add(referenced)
    ordered: list[str] = []
    while refers:
        ready = sorted(table for table, needs in refers.items() if not needs - set(ordered))
        if not ready:
            raise MigrationError(f"the tables {', '.join(sorted(refers))} refer to each other in a circle")
        ordered += ready
        for table in ready:
            del refers[table]
    return ordered


async def _set_sequences(conn: Any) -> None:
    """Each identity (or serial) column's sequence past the largest id copied: new rows go on from there."""
    for table, column, sequence in await conn.fetch(
            "SELECT table_name, column_name, pg_get_serial_sequence(format('%I', table_name), column_name) "
            "FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND pg_get_serial_sequence(format('%I', table_name), column_name) IS NOT NULL"):
        await conn.execute(f'SELECT setval($1, max("{column}")) FROM "{table}" HAVING max("{column}") IS NOT NULL',
                           sequence)


# --- the replay --------------------------------------------------------------------------------------------------

async def replay_matches(dsn: str) -> tuple[int, list[str]]:
    """Replay every match of the copy from its seed through its log to its stored state, as `python -m bot check`
    does (bot/check.py: take-backs left out, a set-aside match named, not replayed); the matches replayed and one
    line per match whose state or log the copy does not hold whole."""
    try:
        checked = await check(dsn)
    except CheckError as exc:
        raise MigrationError(f"the copy could not be checked: {exc}") from None
    return checked.matches, [p.line() for p in checked.problems if p.kind in (STATE, REPLAY)]


# --- the command -------------------------------------------------------------------------------------------------


def _source(given: str | None, target: str) -> Path:
    """The SQLite file to copy: --database, else STRATEGOS_DATABASE. Raises SettingsError."""
    if not is_postgres_dsn(target):
        raise SettingsError("--to takes a postgresql:// URL")
    database = given or Settings.load().database
    if is_postgres_dsn(database):
        raise SettingsError("the database is PostgreSQL already; give the SQLite file with --database")
    return Path(database)


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        source = _source(args.database, args.to)
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        done = asyncio.run(migrate(source, args.to))
    except MigrationError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    total = sum(done.rows.values())
    print(f"copied {source} to {describe_dsn(args.to)}: {total} rows in {len(done.rows)} tables, "
          f"{done.rows.get('matches', 0)} matches; every table's rows counted on both sides")
    for problem in done.problems:
        print(f"  {problem}", file=sys.stderr)
    if done.problems:
        print(f"error: {len(done.problems)} of {done.matches_replayed} matches did not replay to their stored state "
              "(listed above); the copy is kept, but check the SQLite database (python -m bot check)",
              file=sys.stderr)
        return 1
    print(f"replayed {done.matches_replayed} matches to their stored states; done in {done.took:.1f} s. Start the "
          "bot with STRATEGOS_DATABASE set to the PostgreSQL URL")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
