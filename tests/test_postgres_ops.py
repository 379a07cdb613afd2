"""Running on PostgreSQL: start-up failures in one line (against a real server that asks for a password over TCP),
and a server restart under the running bot's pool."""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
import os
import socket
import struct
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest
import pytest_asyncio
import simcord

from bot.composition import build_match_service
from bot.games.record import rebuild_state
from bot.i18n import t
from bot.matches.bus import EventBus
from bot.matches.outbox import Outbox
from bot.matches.movelog import effective_moves
from bot.storage import DatabaseError, Repository, repository
from bot.storage import postgres as storage_postgres
from bot.storage.driver import Driver
from bot.storage.opening import open_repository
from bot.storage.sql import Step, statements
from bot.storage.timer_claims import PostgresTimerClaims
from bot.storage.postgres_pool import DatabaseUnavailable, describe_dsn, lost_connection_is_unavailable, open_pool
from bot.views.common import DATABASE_UNAVAILABLE
from bot_helpers import board_posts, move, start_match
from bot.storage.postgres_schema import migrate
from conftest import POSTGRES_REQUIRED
from postgres_server import free_port, start_or_skip

PASSWORD = "right-horse-battery"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def tcp_server():
    """A server of this module's own (its tests restart it) that takes TCP connections with a password, with the
    role `strategos` and an empty database `strategos` it owns."""
    server = start_or_skip(f"ops-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}", POSTGRES_REQUIRED, tcp=True)

    async def create_role_and_database():
        admin = await asyncpg.connect(server.dsn())
        try:
            await admin.execute(f"CREATE ROLE strategos LOGIN PASSWORD '{PASSWORD}'")
            await admin.execute("CREATE DATABASE strategos OWNER strategos")
        finally:
            await admin.close()

    try:
        asyncio.run(create_role_and_database())
        yield server
    finally:
        server.stop()


@pytest_asyncio.fixture
async def fresh_database(tcp_server):
    """A new empty database owned by `strategos`, over TCP with its password; dropped afterwards."""
    name = f"ops_{os.getpid()}_{next(_numbers)}"
    await as_admin(tcp_server, f"CREATE DATABASE {name} OWNER strategos")
    yield tcp_server.tcp_dsn("strategos", PASSWORD, name)
    await as_admin(tcp_server, f"DROP DATABASE {name} WITH (FORCE)")  # on a new connection: tests restart the server


async def as_admin(server, sql: str) -> None:
    admin = await asyncpg.connect(server.dsn())
    try:
        await admin.execute(sql)
    finally:
        await admin.close()


_numbers = iter(range(1, 10**6))


def start_bot(tmp_path: Path, database: str) -> subprocess.CompletedProcess:
    """`python -m bot` as a user starts it, in an empty folder (no .env), with a token and STRATEGOS_DATABASE."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("STRATEGOS_") and key != "DISCORD_TOKEN"}
    env.update(DISCORD_TOKEN="token", STRATEGOS_DATABASE=database)
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)


def one_line_refusal(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert PASSWORD not in done.stderr and "wrong-password" not in done.stderr
    assert "Traceback" not in done.stderr and "could not reach Discord" not in done.stderr
    return lines[0]


# --- start-up: each failure one clear line and a non-zero exit ------------------------------------------------------

def test_an_unreachable_server_is_one_line(tcp_server, tmp_path):
    port = free_port()  # nothing listens there
    line = one_line_refusal(start_bot(tmp_path, f"postgresql://strategos:{PASSWORD}@127.0.0.1:{port}/strategos"))
    assert line.startswith(f"strategos: cannot reach PostgreSQL at strategos@127.0.0.1:{port}/strategos (")
    assert line.endswith("check that the server runs and the host and port in STRATEGOS_DATABASE.")


def test_a_wrong_password_is_one_line(tcp_server, tmp_path):
    line = one_line_refusal(start_bot(tmp_path, tcp_server.tcp_dsn("strategos", "wrong-password", "strategos")))
    assert line == (f"strategos: PostgreSQL refused the password for strategos@127.0.0.1:{tcp_server.port}/strategos:"
                    " check the password in STRATEGOS_DATABASE.")


def test_a_missing_database_is_one_line(tcp_server, tmp_path):
    line = one_line_refusal(start_bot(tmp_path, tcp_server.tcp_dsn("strategos", PASSWORD, "no_such_database")))
    assert line == (f"strategos: PostgreSQL at strategos@127.0.0.1:{tcp_server.port}/no_such_database has no "
                    "database of that name: create it (createdb) or fix the database name in STRATEGOS_DATABASE.")


async def test_a_database_of_a_newer_strategos_is_refused_in_one_line(fresh_database, tmp_path):
    pool = await open_pool(fresh_database)  # migrated to this Strategos's schema, then "a newer one" ran there
    try:
        known = await pool.fetchval("SELECT MAX(version) FROM schema_version")
        await pool.execute("INSERT INTO schema_version (version, name) VALUES ($1, 'from_the_future.sql')", known + 1)
    finally:
        await pool.close()
    done = await asyncio.to_thread(start_bot, tmp_path, fresh_database)
    line = one_line_refusal(done)
    assert line.startswith(f"strategos: refusing the database: the database was written by a newer Strategos "
                           f"(schema {known + 1}, this one knows up to {known})")
    assert describe_dsn(fresh_database) in line
    # refused before anything was written: the future schema is as it was
    conn = await asyncpg.connect(fresh_database)
    try:
        assert await conn.fetchval("SELECT MAX(version) FROM schema_version") == known + 1
    finally:
        await conn.close()


def test_the_password_never_reaches_a_message():
    dsn = f"postgresql://strategos:{PASSWORD}@db.example:6543/games"
    assert describe_dsn(dsn) == "strategos@db.example:6543/games"
    assert describe_dsn("postgresql://postgres@/x?host=/tmp/socket") == "postgres@/tmp/socket/x"
    assert describe_dsn("postgresql://db/strategos") == "(default user)@db:5432/strategos"


# --- PostgreSQL restarting under a running pool ----------------------------------------------------------------------

async def unit(pool: asyncpg.Pool, value: int, *, before_commit: asyncio.Event | None = None,
               go_on: asyncio.Event | None = None) -> None:
    """One unit of work as the store runs it: one transaction on a pooled connection, a lost connection becoming
    DatabaseUnavailable. `before_commit`/`go_on` hold it inside its transaction."""
    async with lost_connection_is_unavailable(pool):
        async with pool.acquire() as conn:
            async with conn.transaction():
                await conn.execute("INSERT INTO units (value) VALUES ($1)", value)
                await conn.execute("UPDATE totals SET units = units + 1")
                if before_commit is not None:
                    before_commit.set()
                    await go_on.wait()


async def stored(pool: asyncpg.Pool) -> tuple[list[int], int]:
    async with lost_connection_is_unavailable(pool):
        values = [row["value"] for row in await pool.fetch("SELECT value FROM units ORDER BY value")]
        return values, await pool.fetchval("SELECT units FROM totals")


async def create_tables(pool: asyncpg.Pool) -> None:
    await pool.execute("CREATE TABLE units (value INTEGER PRIMARY KEY); CREATE TABLE totals (units INTEGER);"
                       "INSERT INTO totals VALUES (0)")


async def outcome(pool: asyncpg.Pool, value: int) -> str:
    try:
        await unit(pool, value)
        return "written"
    except DatabaseUnavailable:
        return "try again"


async def test_while_the_server_is_down_an_action_gets_try_again_and_after_it_every_action_works(
        tcp_server, fresh_database):
    pool = await open_pool(fresh_database, min_size=3, max_size=3)
    try:
        await create_tables(pool)
        await unit(pool, 1)
        await asyncio.to_thread(tcp_server.stop_only)
        assert await outcome(pool, 2) == "try again"  # not a traceback: an answer the bot translates
        await asyncio.to_thread(tcp_server.start_again)
        # The pool's three connections all broke with the restart: none of them is used again.
        assert [await outcome(pool, value) for value in (3, 4, 5, 6)] == ["written"] * 4
        assert await stored(pool) == ([1, 3, 4, 5, 6], 5)
    finally:
        await pool.close()


async def test_a_one_statement_write_of_the_store_gets_try_again_too(tcp_server, fresh_database):
    """The store sends a write of one statement without BEGIN and COMMIT: a lost connection there is answered as
    in any unit, not with a traceback."""
    repo = Repository(pool=await storage_postgres.open_pool(fresh_database, max_size=1))
    try:
        await repo.set_thread(1, 10)  # one statement (no such match: it changes nothing)
        await asyncio.to_thread(tcp_server.stop_only)
        with pytest.raises(DatabaseUnavailable):
            await repo.set_thread(1, 11)
        await asyncio.to_thread(tcp_server.start_again)
        await repo.set_thread(1, 12)
    finally:
        await repo.close()


async def test_a_restart_between_actions_costs_at_most_one_try_again(tcp_server, fresh_database):
    pool = await open_pool(fresh_database, min_size=3, max_size=3)
    try:
        await create_tables(pool)
        await asyncio.gather(*(unit(pool, value) for value in (1, 2, 3)))  # all three connections in use once
        await asyncio.to_thread(tcp_server.stop_only)
        await asyncio.to_thread(tcp_server.start_again)
        outcomes = [await outcome(pool, value) for value in (4, 5, 6, 7)]
        assert outcomes.count("try again") <= 1 and outcomes[1:] == ["written"] * 3
        written = [value for value, said in zip((4, 5, 6, 7), outcomes) if said == "written"]
        assert await stored(pool) == ([1, 2, 3, *written], 3 + len(written))
    finally:
        await pool.close()


async def test_a_restart_during_a_unit_leaves_nothing_half_written(tcp_server, fresh_database):
    pool = await open_pool(fresh_database, min_size=1, max_size=2)
    try:
        await create_tables(pool)
        await unit(pool, 1)
        inside, go_on = asyncio.Event(), asyncio.Event()
        in_flight = asyncio.create_task(unit(pool, 2, before_commit=inside, go_on=go_on))
        await inside.wait()  # its row and its total are written, not committed
        await asyncio.to_thread(tcp_server.stop_only)  # the administrator's restart cuts the connection off
        await asyncio.to_thread(tcp_server.start_again)
        go_on.set()
        with pytest.raises(DatabaseUnavailable):
            await in_flight
        await unit(pool, 3)  # the next action succeeds
        assert await stored(pool) == ([1, 3], 2)  # unit 2 is wholly absent: neither its row nor its count
    finally:
        await pool.close()


async def test_an_error_that_is_not_a_lost_connection_stays_itself(fresh_database):
    pool = await open_pool(fresh_database)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            async with lost_connection_is_unavailable(pool):
                await pool.execute("SELECT * FROM no_such_table")
    finally:
        await pool.close()


async def test_open_pool_refusals_are_database_errors(tcp_server):
    with pytest.raises(DatabaseError, match="refused the password"):
        await open_pool(tcp_server.tcp_dsn("strategos", "wrong-password", "strategos"))
    with pytest.raises(DatabaseError, match="refused the password for nobody@"):  # no such role: said the same way
        await open_pool(tcp_server.tcp_dsn("nobody", "x", "strategos"))


# --- every way asyncpg says the server went away is "try again" ------------------------------------------------------

# What a connection raises when its server restarts, stops or crashes under it, by where it is met.
LOST = [
    asyncpg.exceptions.InterfaceError("cannot perform operation: connection is closed"),
    asyncpg.exceptions.InternalClientError("cannot switch to state 12; another operation (2) is in progress"),
    asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    asyncpg.exceptions.CannotConnectNowError("the database system is starting up"),
    asyncpg.exceptions.PostgresConnectionError("connection failure"),
    asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command"),
    asyncpg.exceptions.CrashShutdownError("terminating connection because of crash of another server process"),
    ConnectionResetError(104, "Connection reset by peer"),
    BrokenPipeError(32, "Broken pipe"),
    ConnectionRefusedError(111, "Connect call failed"),
    asyncio.TimeoutError(),
]


class LostConnection:
    """A pooled connection whose server went away: every statement fails with `failure`."""

    def __init__(self, failure: BaseException):
        self.failure = failure
        self.released = False

    async def _fail(self, *args):
        raise self.failure

    execute = executemany = fetch = add_listener = remove_listener = _fail

    @asynccontextmanager
    async def transaction(self):
        yield

    def is_closed(self) -> bool:
        return False  # not seen yet: asyncpg has read the server's last words, not its close


class PoolOfLostConnections:
    """asyncpg's pool as the driver uses it, handing out LostConnections (or, `refused`, unable to connect)."""

    def __init__(self, failure: BaseException, *, refused: bool = False):
        self.connection = LostConnection(failure)
        self.refused = refused
        self.expired = 0

    def acquire(self):
        pool = self

        class Acquiring:
            def __await__(self):
                return pool._acquire().__await__()

            async def __aenter__(self):
                return await pool._acquire()

            async def __aexit__(self, *exc):
                return False

        return Acquiring()

    async def _acquire(self):
        if self.refused:
            raise self.connection.failure
        return self.connection

    async def fetch(self, sql, *params):
        return await (await self._acquire()).fetch(sql, *params)

    async def release(self, connection):
        connection.released = True

    async def expire_connections(self):
        self.expired += 1


DOORS = {  # every way the driver talks to the pool
    "unit": lambda driver: driver.write(statements([Step("UPDATE t SET a = 1 WHERE b = ?", (1,)),
                                                    Step("DELETE FROM t WHERE b = ?", (2,))])),
    "one statement": lambda driver: driver.write_statements([("UPDATE t SET a = 1 WHERE b = ?", (1,))]),
    "read": lambda driver: driver.fetch("SELECT a FROM t WHERE b = ?", (1,)),
    "held connection": lambda driver: driver.acquire(),
}


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("failure", LOST, ids=lambda failure: failure.__class__.__name__)
async def test_each_lost_connection_is_try_again_at_every_door_of_the_driver(failure, door):
    pool = PoolOfLostConnections(failure, refused=door == "held connection")
    with pytest.raises(DatabaseUnavailable, match=failure.__class__.__name__):
        await DOORS[door](Driver(pool=pool))
    assert pool.expired == 1  # the pool's other connections broke with it: new ones for the next actions


@pytest.mark.parametrize("refused", [False, True], ids=["listening", "connecting"])
@pytest.mark.parametrize("failure", LOST, ids=lambda failure: failure.__class__.__name__)
async def test_each_lost_connection_leaves_the_timer_listener_looking_periodically(failure, refused, caplog):
    pool = PoolOfLostConnections(failure, refused=refused)
    claims = PostgresTimerClaims(Driver(pool=pool))
    await claims.listen(lambda due_at: None)  # not raised: the dispatcher's look goes on
    assert claims._listener is None and pool.connection.released != refused  # a connection it took, given back
    assert "looking periodically instead" in caplog.text


async def test_a_value_asyncpg_cannot_send_is_a_mistake_not_a_lost_connection():
    pool = PoolOfLostConnections(asyncpg.exceptions.DataError("invalid input for query argument $1: 'x'"))
    with pytest.raises(asyncpg.exceptions.DataError):
        await Driver(pool=pool).fetch("SELECT a FROM t WHERE b = ?", ("x",))
    assert pool.expired == 0


@asynccontextmanager
async def no_task_exception_left():
    """Fails when an exception was left in a task nobody awaited ("Task exception was never retrieved"), which
    asyncio only logs, when the task is collected."""
    loop = asyncio.get_running_loop()
    reported: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    try:
        yield
        gc.collect()
    finally:
        loop.set_exception_handler(None)
    assert reported == []


# --- a connection the server dropped, met before asyncpg has seen it go -----------------------------------------------

def server_dropped_unseen(connection) -> None:
    """What a restart leaves on the bot's side of an idle pooled connection when the event loop has read the
    server's last words but not yet its close (as under load, or across a network): asyncpg took the FATAL message
    and waits for more, and nothing can be sent any more."""
    body = b"SFATAL\0C57P01\0Mterminating connection due to administrator command\0\0"
    connection._protocol.data_received(b"E" + struct.pack("!i", len(body) + 4) + body)
    connection._transport.get_extra_info("socket").shutdown(socket.SHUT_WR)


async def test_connections_the_server_dropped_unseen_cost_one_try_again_and_leave_no_task_exception(
        fresh_database):
    async with no_task_exception_left():
        pool = await storage_postgres.open_pool(fresh_database, max_size=2)
        try:
            await reads_after_connections_dropped_unseen(pool)
        finally:
            await pool.close()


async def reads_after_connections_dropped_unseen(pool) -> None:
    driver = Driver(pool=pool)
    held = [await pool.acquire() for _ in range(2)]  # the pool's two connections, both idle afterwards
    connections = [proxy._con for proxy in held]
    for proxy in held:
        await pool.release(proxy)
    for connection in connections:
        server_dropped_unseen(connection)
    said = []
    for _ in range(3):
        try:
            said.append(await driver.fetchvalue("SELECT 1"))
        except DatabaseUnavailable:
            said.append("try again")
    # The first read meets a dropped connection ("cannot switch to state …"); the pool then closes the other one
    # in a task nobody awaits, whose goodbye cannot be sent: no exception may be left in that task.
    assert said == ["try again", 1, 1]


# --- the answer a player gets ---------------------------------------------------------------------------------------

async def test_an_action_that_loses_the_database_gets_try_again_in_the_players_language(world, monkeypatch):
    """What a lost connection looks like to a player, whatever unit it cut off: a private "try again" in her
    language, the move not made, and her next try works."""
    original_payload = simcord.interactions.base_payload

    def german_bob(backend, *, user_id, guild_id, **kwargs):
        record, payload = original_payload(backend, user_id=user_id, guild_id=guild_id, **kwargs)
        payload["locale"] = "de" if user_id == world.bob.id else "en-US"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", german_bob)
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    commit_move = Repository.commit_move
    cut_off = []

    async def lose_the_connection_once(self, unit):
        if not cut_off:
            cut_off.append(unit)
            raise DatabaseUnavailable("the connection to PostgreSQL was lost (ConnectionDoesNotExistError)")
        return await commit_move(self, unit)

    monkeypatch.setattr(Repository, "commit_move", lose_the_connection_once)
    lost = await move(world.alice, thread, match_id, "a1-a3")
    assert lost.ephemeral and lost.response.content == DATABASE_UNAVAILABLE
    assert len(board_posts(thread)) == 1  # not played: the same move is still hers to make
    again = await move(world.alice, thread, match_id, "a1-a3")
    assert again.response.content.startswith("✅") and len(board_posts(thread)) == 2
    cut_off.clear()
    german = await move(world.bob, thread, match_id, "a12-a10")
    assert german.ephemeral and german.response.content == t("de", DATABASE_UNAVAILABLE) != DATABASE_UNAVAILABLE
    assert (await move(world.bob, thread, match_id, "a12-a10")).response.content.startswith("✅")


def test_a_url_that_is_not_one_is_one_line_without_its_password(tmp_path):
    line = one_line_refusal(start_bot(tmp_path, f"postgresql://strategos:{PASSWORD}@127.0.0.1:port/strategos"))
    assert line.startswith("strategos: STRATEGOS_DATABASE is not a PostgreSQL URL Strategos can use (")



# --- the bot on PostgreSQL while the server restarts ------------------------------------------------------------------

@pytest_asyncio.fixture
async def database(fresh_database):
    """The bot's database in this module (conftest's `settings` and `world` take it): a migrated PostgreSQL
    database on this module's restartable server, over TCP with a password."""
    conn = await asyncpg.connect(fresh_database)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    return fresh_database


async def consistent(world, match_id: int) -> tuple[int, int]:
    """(version, moves) of the match as stored, after checking that its log replays to its stored state: nothing
    half-written."""
    return await stored_whole(world.bot.matches, match_id)


def answered(result) -> str:
    content = result.response.content
    if content.startswith("✅"):
        return "played"
    assert content == DATABASE_UNAVAILABLE, content
    return "try again"


async def test_the_bot_reconnects_after_postgresql_restarts_between_moves(world, tcp_server):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    assert answered(await move(world.alice, thread, match_id, "a1-a3")) == "played"
    version, moves = await consistent(world, match_id)
    await asyncio.to_thread(tcp_server.stop_only)
    await asyncio.to_thread(tcp_server.start_again)
    said = [answered(await move(world.bob, thread, match_id, "a12-a10"))]
    if said == ["try again"]:  # the first action after the restart may meet a connection the restart broke
        said.append(answered(await move(world.bob, thread, match_id, "a12-a10")))
    assert said[-1] == "played"
    assert answered(await move(world.alice, thread, match_id, "a3-a4")) == "played"  # and every action after it
    assert await consistent(world, match_id) == (version + 2, moves + 2)  # each move once, whole
    assert len(board_posts(thread)) == 4


async def test_a_move_in_flight_when_postgresql_restarts_gets_try_again_and_is_not_half_written(
        world, tcp_server, database):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    assert answered(await move(world.alice, thread, match_id, "a1-a3")) == "played"
    before = await consistent(world, match_id)
    # The move is one call of strategos_commit_move: hold it inside the server, waiting for a lock on its match's
    # row, so that the restart cuts it off mid-statement.
    holder = await asyncpg.connect(database)
    await holder.execute("BEGIN")
    await holder.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
    in_flight = asyncio.create_task(move(world.bob, thread, match_id, "a12-a10"))
    waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%commit_move%'"
    watcher = await asyncpg.connect(database)  # outside the holder's transaction, which would keep one snapshot
    for _ in range(600):  # real time: the test's clock is simulated
        if await watcher.fetchval(waiting):
            break
        await asyncio.to_thread(time.sleep, 0.05)
    else:
        pytest.fail("the move never reached the server")
    # The server goes down at once, as in a crash: a fast shutdown would end the holder's transaction first, and
    # the move, no longer waiting, could commit before its own connection is cut.
    await asyncio.to_thread(tcp_server.stop_only, "immediate")
    holder.terminate()
    watcher.terminate()
    await asyncio.to_thread(tcp_server.start_again)
    result = await in_flight
    assert result.ephemeral and answered(result) == "try again"
    assert await consistent(world, match_id) == before  # neither the state nor the log entry nor half of them
    assert len(board_posts(thread)) == 2
    assert answered(await move(world.bob, thread, match_id, "a12-a10")) == "played"  # trying again works
    assert answered(await move(world.alice, thread, match_id, "a3-a4")) == "played"
    assert await consistent(world, match_id) == (before[0] + 2, before[1] + 2)
    assert len(board_posts(thread)) == 4


async def test_an_announcement_whose_row_the_lost_database_kept_is_one_warning_line(caplog):
    """The events were presented; forgetting their outbox row met PostgreSQL restarting. The row is presented
    again later (adopted, never posted twice): the operator reads one line, not an error with a traceback."""
    class KeptRows:
        async def done(self, token):
            raise DatabaseUnavailable("the connection to PostgreSQL was lost (ConnectionResetError)")

    outbox = Outbox(KeptRows(), EventBus(), "test")
    outbox.deliver(outbox.token(), [])
    await outbox.idle()
    said = [(record.levelname, record.exc_info) for record in caplog.records if record.name == "bot.matches.outbox"]
    assert said == [("WARNING", None)]


# --- a burst of moves while PostgreSQL restarts -----------------------------------------------------------------------

BURST_MATCHES = 8
BURST_MOVES = 12  # each match's, played by its two members in turn
BURST_TRIES = 4  # "try again"s one move may meet: cut off in flight, refused while down, a connection the restart broke


class Burst:
    """Players making moves through the match service while the server restarts under them: each match's members
    move in turn, a move answered "try again" is tried again once the server is back (after a fresh look at the
    match, which may show that it was written after all: its COMMIT was cut off after the server took it)."""

    def __init__(self, service) -> None:
        self.service = service
        self.up = asyncio.Event()  # the server runs (players who were told "try again" wait for it)
        self.up.set()
        self.halfway = asyncio.Event()  # every match is half played: the restart begins
        self.go_on = asyncio.Event()  # the restart has begun: the second half is played through it
        self._halfway_matches = 0

    async def look(self, match_id: int):
        for _ in range(BURST_TRIES):
            try:
                return await self.service.get_match(match_id)
            except DatabaseUnavailable:
                await self.up.wait()
        pytest.fail(f"match #{match_id} could not be read {BURST_TRIES} times in a row")

    async def play(self, match_id: int) -> list[tuple[int, str, str]]:
        """(version, move, "done" or "try again") of every move submitted, in order."""
        answers: list[tuple[int, str, str]] = []
        first = (await self.look(match_id)).version
        for _ in range(BURST_MOVES * BURST_TRIES):
            match = await self.look(match_id)
            if match.version == first + BURST_MOVES // 2 and not self.go_on.is_set():
                self._halfway_matches += 1
                if self._halfway_matches == BURST_MATCHES:
                    self.halfway.set()
                await self.go_on.wait()
            if match.version == first + BURST_MOVES:
                return answers
            seat = self.service.to_act(match)[0]
            legal = self.service.game_of(match).legal_moves(self.service.state_of(match), seat)
            chosen = legal[(7 * match.version + match_id) % len(legal)]
            try:
                await self.service.submit_move(match_id, match.seats[seat].user_id, chosen,
                                               expected_version=match.version)
            except DatabaseUnavailable:  # anything else fails the test
                answers.append((match.version, chosen, "try again"))
                await self.up.wait()
            else:
                answers.append((match.version, chosen, "done"))
        pytest.fail(f"match #{match_id}: {BURST_MOVES} moves not made in {BURST_MOVES * BURST_TRIES} tries: {answers}")

    async def restart(self, server, mode: str) -> None:
        await self.halfway.wait()
        self.up.clear()
        stopping = asyncio.create_task(asyncio.to_thread(server.stop_only, mode))
        self.go_on.set()  # the second halves start as the server stops: some moves are cut off, some refused
        await stopping
        with pytest.raises(DatabaseUnavailable):  # while it is down: a read is "try again" too
            await self.service.get_match(1)
        await asyncio.to_thread(server.start_again)
        self.up.set()


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_a_burst_of_moves_through_a_restart_is_answered_done_or_try_again_and_each_move_stored_once(
        tcp_server, fresh_database, mode, caplog):
    async with no_task_exception_left():
        repo = await open_repository(fresh_database)
        try:
            await burst_through_a_restart(repo, tcp_server, mode)
        finally:
            await repo.close()
    # The operator reads warnings ("lost the connection to PostgreSQL: …"), no error and no traceback of the bot's.
    assert [record.getMessage() for record in caplog.records
            if record.name.startswith("bot.") and (record.levelno >= logging.ERROR or record.exc_info)] == []


async def burst_through_a_restart(repo, server, mode: str) -> None:
    ticks = itertools.count(1_000_000)
    # As one of several processes: its timer dispatcher listens for the others' timers on a connection of its own,
    # which the restart breaks too.
    service = build_match_service(repo, clock=lambda: float(next(ticks)), seed_source=lambda: 7, others=True)
    await service.start()
    try:
        match_ids = []
        for number in range(BURST_MATCHES):
            challenge = await service.create_challenge(guild_id=1, channel_id=2, challenger_id=10 + 2 * number,
                                                       challenger_name="a", game_key="epaminondas",
                                                       invited=[11 + 2 * number])
            match_ids.append((await service.accept_challenge(challenge.id, 11 + 2 * number, "b")).match_id)
        before = {match_id: (await service.get_match(match_id)).version for match_id in match_ids}
        burst = Burst(service)
        *answers, _ = await asyncio.gather(*(burst.play(match_id) for match_id in match_ids),
                                           burst.restart(server, mode))
        for match_id, said in zip(match_ids, answers):
            logged = [entry.move for entry in await repo.moves(match_id)]
            version, count = await stored_whole(service, match_id)
            assert version == before[match_id] + BURST_MOVES and count == len(logged) == BURST_MOVES
            done = {at: chosen for at, chosen, answer in said if answer == "done"}
            tried = {(at, chosen) for at, chosen, answer in said if answer == "try again"}
            for offset, entry in enumerate(logged):  # each move once, in its place: one done, or one cut off late
                at = before[match_id] + offset
                assert done.get(at, entry) == entry and (at in done or (at, entry) in tried), (match_id, said)
    finally:
        await service.drain()


async def stored_whole(service, match_id: int) -> tuple[int, int]:
    """(version, moves) of the match as stored, after checking that its log replays to its stored state."""
    match = await service.get_match(match_id)
    logged = await service.repo.moves(match_id)
    state = rebuild_state(match.game, len(match.seats), match.seed, match.options or None, effective_moves(logged),
                          names=match.names)
    assert service.game_of(match).dump(state) == match.state
    return match.version, len(logged)
