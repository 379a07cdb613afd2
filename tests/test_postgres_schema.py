"""PostgreSQL's schema on a real server (started by the tests): equivalent to SQLite's, migrated once by racing
processes, and a newer schema refused. The SQLite side is a real file migrated by the bot's own code."""

from __future__ import annotations

import asyncio
import os
import re

import asyncpg
import pytest

import postgres_server as server_helper
from bot.storage import postgres_schema
from bot.storage.database import NewerDatabase, migration_files, open_database
from postgres_server import PostgresServer

# SQLite's type affinity of a column -> what PostgreSQL may store it as.
COMPARABLE_TYPES = {
    "INTEGER": {"bigint", "integer"},
    "REAL": {"double precision"},
    "TEXT": {"text"},
    "BLOB": {"bytea"},
}


def _predicate(text: str | None) -> str | None:
    """A partial index's WHERE clause in a form both databases' spellings reduce to: PostgreSQL adds parentheses
    and casts ('open'::text)."""
    if text is None:
        return None
    return re.sub(r"[()\s]|::text", "", text).lower()


async def sqlite_schema(path) -> dict:
    db = await open_database(path)
    try:
        async def rows(sql, *args):
            async with db.execute(sql, args) as cur:
                return await cur.fetchall()

        schema = {"columns": {}, "primary_keys": {}, "unique": set(), "foreign_keys": set(), "indexes": {}}
        tables = [r[0] for r in await rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        for table in tables:
            info = await rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", table)
            # SQLite's INTEGER PRIMARY KEY is the rowid: never NULL, though the pragma says nothing of it.
            schema["columns"][table] = {name: (kind.upper(), bool(notnull) or pk > 0) for name, kind, notnull, pk in info}
            schema["primary_keys"][table] = [name for name, _, _, pk in sorted(info, key=lambda r: r[3]) if pk]
            for name, origin, partial in await rows(
                    "SELECT name, origin, partial FROM pragma_index_list(?)", table):
                columns = [f"{column} DESC" if desc else column for column, desc in await rows(
                    "SELECT name, desc FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", name)]
                if origin == "u":
                    schema["unique"].add((table, tuple(columns)))
                elif origin == "c":
                    (sql,) = (await rows("SELECT sql FROM sqlite_master WHERE name = ?", name))[0]
                    where = sql.split(" WHERE ", 1)[1] if partial else None
                    schema["indexes"][name] = (table, columns, _predicate(where))
            for _, _, target, source, to, _, on_delete, _ in await rows(
                    "SELECT * FROM pragma_foreign_key_list(?)", table):
                schema["foreign_keys"].add((table, source, target, to, on_delete))
        return schema
    finally:
        await db.close()


async def postgres_schema_of(conn: asyncpg.Connection) -> dict:
    schema = {"columns": {}, "primary_keys": {}, "unique": set(), "foreign_keys": set(), "indexes": {}}
    for r in await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name <> 'schema_version'"):
        schema["columns"].setdefault(r["table_name"], {})[r["column_name"]] = (r["data_type"], r["is_nullable"] == "NO")
    constraints = await conn.fetch(
        "SELECT tc.table_name, tc.constraint_name, tc.constraint_type, "
        "       array_agg(k.column_name::text ORDER BY k.ordinal_position) AS columns "
        "FROM information_schema.table_constraints tc "
        "JOIN information_schema.key_column_usage k "
        "  ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name "
        "WHERE tc.table_schema = 'public' AND tc.table_name <> 'schema_version' "
        "  AND tc.constraint_type IN ('PRIMARY KEY', 'UNIQUE') "
        "GROUP BY tc.table_name, tc.constraint_name, tc.constraint_type")
    for r in constraints:
        if r["constraint_type"] == "PRIMARY KEY":
            schema["primary_keys"][r["table_name"]] = list(r["columns"])
        else:
            schema["unique"].add((r["table_name"], tuple(r["columns"])))
    for r in await conn.fetch(
            "SELECT k.table_name, k.column_name, u.table_name AS target, u.column_name AS target_column, "
            "       rc.delete_rule "
            "FROM information_schema.referential_constraints rc "
            "JOIN information_schema.key_column_usage k "
            "  ON k.constraint_schema = rc.constraint_schema AND k.constraint_name = rc.constraint_name "
            "JOIN information_schema.constraint_column_usage u "
            "  ON u.constraint_schema = rc.constraint_schema AND u.constraint_name = rc.constraint_name "
            "WHERE rc.constraint_schema = 'public'"):
        schema["foreign_keys"].add((r["table_name"], r["column_name"], r["target"], r["target_column"],
                                    r["delete_rule"]))
    backing = {r["constraint_name"] for r in constraints}  # the indexes PostgreSQL made for keys themselves
    for r in await conn.fetch("SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
                              "AND tablename <> 'schema_version'"):
        if r["indexname"] in backing:
            continue
        m = re.fullmatch(r"CREATE INDEX \S+ ON public\.\S+ USING btree \((.*?)\)(?: WHERE (.*))?", r["indexdef"])
        assert m, r["indexdef"]
        schema["indexes"][r["indexname"]] = (r["tablename"], m.group(1).split(", "), _predicate(m.group(2)))
    return schema


SHIPPED = [number for number, _, _ in migration_files("postgresql")]  # 5 (the baseline), 6, 7, …


async def test_postgres_schema_is_equivalent_to_sqlites(postgres_dsn, tmp_path):
    lite = await sqlite_schema(tmp_path / "strategos.db")
    conn = await asyncpg.connect(postgres_dsn)
    try:
        assert await postgres_schema.migrate(conn) == SHIPPED
        pg = await postgres_schema_of(conn)
    finally:
        await conn.close()

    assert pg["columns"].keys() == lite["columns"].keys()
    for table, columns in lite["columns"].items():
        assert pg["columns"][table].keys() == columns.keys(), table
        for column, (affinity, not_null) in columns.items():
            kind, pg_not_null = pg["columns"][table][column]
            assert kind in COMPARABLE_TYPES[affinity], (table, column, affinity, kind)
            assert pg_not_null == not_null, (table, column)
            if column == "id" or column.endswith("_id"):
                assert kind == "bigint", (table, column)  # wide enough for a Discord id
    assert pg["primary_keys"] == lite["primary_keys"]
    assert pg["unique"] == lite["unique"]
    assert pg["foreign_keys"] == lite["foreign_keys"]
    assert pg["indexes"] == lite["indexes"]
    # The comparison saw the schema, not an empty one.
    assert "matches" in lite["columns"] and "matches_unannounced" in lite["indexes"]
    assert lite["indexes"]["challenges_open_by_expiry"][2] == "status='open'"


def test_postgres_migrations_mirror_sqlite_numbers_from_the_baseline():
    sqlite_numbers = [number for number, _, _ in migration_files("sqlite")]
    postgres_numbers = [number for number, _, _ in migration_files("postgresql")]
    assert postgres_numbers[0] == 5 and postgres_numbers == [n for n in sqlite_numbers if n >= 5]


async def test_postgres_migrations_apply_once_when_two_processes_start_together(postgres_dsn):
    first, second = await asyncpg.connect(postgres_dsn), await asyncpg.connect(postgres_dsn)
    try:
        applied = await asyncio.gather(postgres_schema.migrate(first), postgres_schema.migrate(second))
        assert sorted(applied[0] + applied[1]) == SHIPPED  # each migration by one of them, none twice
        rows = await first.fetch("SELECT version, name FROM schema_version ORDER BY version")
        assert [(r["version"], r["name"]) for r in rows] == [
            (number, name) for number, name, _ in migration_files("postgresql")]
        assert await postgres_schema.migrate(first) == []  # and a later start finds nothing to do
        assert await postgres_schema.schema_version(second) == SHIPPED[-1]
    finally:
        await first.close()
        await second.close()


async def test_postgres_database_of_a_newer_strategos_is_refused_unchanged(postgres_dsn):
    conn = await asyncpg.connect(postgres_dsn)
    try:
        await postgres_schema.migrate(conn)
        known = migration_files("postgresql")[-1][0]
        await conn.execute("INSERT INTO schema_version (version, name) VALUES ($1, 'from_the_future.sql')", known + 1)
        with pytest.raises(NewerDatabase) as refused:
            await postgres_schema.migrate(conn)
        assert str(refused.value) == (
            f"the database was written by a newer Strategos (schema {known + 1}, this one knows up to {known}): "
            "update Strategos, or point STRATEGOS_DATABASE at another database")
        assert await postgres_schema.schema_version(conn) == known + 1
    finally:
        await conn.close()


async def test_postgres_a_failing_migration_leaves_no_trace(postgres_dsn, monkeypatch):
    broken = [*migration_files("postgresql")[:1], (6, "006_broken.sql", "CREATE TABLE half (x INTEGER); SELECT 1/0;")]
    monkeypatch.setattr(postgres_schema, "migration_files", lambda dialect: broken)
    conn = await asyncpg.connect(postgres_dsn)
    try:
        with pytest.raises(asyncpg.DivisionByZeroError):
            await postgres_schema.migrate(conn)
        # the baseline landed with its version; the broken migration, and its first statement, did not
        assert await postgres_schema.schema_version(conn) == 5
        assert await conn.fetchval("SELECT to_regclass('half')") is None
    finally:
        await conn.close()


def test_postgres_missing_server_skips_or_fails_when_required(monkeypatch, tmp_path):
    monkeypatch.setattr(server_helper, "BIN", tmp_path)  # a machine without the server's programs
    with pytest.raises(pytest.skip.Exception):
        server_helper.start_or_skip("absent", required=False)
    with pytest.raises(pytest.fail.Exception, match="STRATEGOS_TEST_POSTGRES=require"):
        server_helper.start_or_skip("absent", required=True)


def test_postgres_test_servers_run_side_by_side_and_stop(postgres_server):
    """Each xdist worker starts its own server: two run at once, each in its own folder."""
    assert postgres_server.socket_dir.is_dir() and (postgres_server.data / "postmaster.pid").exists()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    assert postgres_server.folder.name.startswith(f"strategos-pg-{worker}-")
    other = PostgresServer.start(f"{worker}-second")
    try:
        assert other.folder != postgres_server.folder and (other.data / "postmaster.pid").exists()
    finally:
        other.stop()
    assert not other.folder.exists()  # stopped and deleted
