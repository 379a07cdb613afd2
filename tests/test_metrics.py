"""Metrics and health (bot/metrics.py): off unless STRATEGOS_METRICS_PORT is set; then `/metrics` shows what the
bot did in Prometheus' text format and `/health` says 200 while Discord is connected and the database answers."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sqlite3
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

import asyncpg
import discord
import pytest
import pytest_asyncio
import simcord
from prometheus_client.parser import text_string_to_metric_families

from bot import app
from bot.matches.errors import DatabaseUnavailable
from bot.matches.timers import TimerDispatcher
from bot.metrics import EndpointError, Metrics
from bot.settings import Settings, SettingsError
from bot.storage import VersionConflict
from bot.storage.driver import ERROR_KINDS, error_kind
from bot_helpers import Clock, move, start_match
from conftest import GUILD_ID, ON_BOTH, close_database, make_bot

DAY = 24 * 3600


@pytest.fixture
def settings(database):
    """The bot of `world` serves its metrics, on any free port."""
    return Settings(token=None, database=database, dev_guild=GUILD_ID, log_level="INFO", metrics_port=0)


@pytest_asyncio.fixture
async def endpoint(world):
    endpoint = world.bot.endpoint
    yield endpoint
    await endpoint.stop()  # SimCord detaches the bot without closing it


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def get(endpoint, path: str) -> tuple[int, str]:
    """What an HTTP client (Prometheus, the healthcheck) gets: asked from another thread, as from outside."""
    return await asyncio.to_thread(_get, f"http://127.0.0.1:{endpoint.port}{path}")


async def scrape(endpoint) -> dict[tuple[str, tuple], float]:
    """Every sample of /metrics: (name, labels) -> value."""
    status, text = await get(endpoint, "/metrics")
    assert status == 200
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def moved(before: dict, after: dict, name: str, **labels) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after[key] - before.get(key, 0.0)


async def test_a_move_is_acknowledged_committed_and_drawn_and_the_metrics_say_so(world, endpoint):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    before = await scrape(endpoint)
    result = await move(world.alice, thread, match_id, "a1-a3")
    assert result.response.content.startswith("✅")
    after = await scrape(endpoint)
    assert moved(before, after, "strategos_interaction_acknowledge_seconds_count") == 1  # the /move
    assert moved(before, after, "strategos_moves_committed_total") == 1
    assert moved(before, after, "strategos_unit_seconds_count") == 1
    assert moved(before, after, "strategos_unit_seconds_sum") > 0
    assert moved(before, after, "strategos_picture_seconds_count") == 1  # the new board
    assert after[("strategos_render_queue_depth", ())] == 0  # nothing waits once it is drawn
    assert all(after[("strategos_database_errors_total", (("kind", kind),))] == 0 for kind in ERROR_KINDS)


async def test_timers_that_fall_due_are_counted_with_how_late_they_fired(world, endpoint):
    await start_match(world, "epaminondas", world.alice, world.bob)
    before = await scrape(endpoint)
    await world.env.advance_time(4 * DAY)  # alice's reminder, then her deadline: she ran out of time
    after = await scrape(endpoint)
    assert moved(before, after, "strategos_timer_late_seconds_count") == 2
    assert moved(before, after, "strategos_timer_late_seconds_bucket", le="1.0") == 2  # fired on time
    assert moved(before, after, "strategos_timer_late_seconds_sum") > 0  # after their due time, not before


async def test_a_failed_database_call_is_counted_by_its_kind(world, endpoint):
    with pytest.raises(sqlite3.OperationalError):
        await world.bot.repo.driver.fetch("SELECT * FROM no_such_table")
    after = await scrape(endpoint)
    assert after[("strategos_database_errors_total", (("kind", "other"),))] == 1
    assert after[("strategos_database_errors_total", (("kind", "unavailable"),))] == 0


async def test_a_dispatcher_measures_a_timer_by_how_late_it_fired(store):
    clock = Clock(1_000.0)
    timers = TimerDispatcher(store, clock)
    handled, late = [], []
    timers.on("reminder", lambda timer: asyncio.sleep(0, handled.append(timer.ref_id)))
    timers.on_fire = late.append
    await timers.arm_unless_claimed("reminder", 7, 940.0)  # due a minute ago: the bot was down, say
    assert await timers.fire_due() == 1
    assert handled == [7] and late == [60.0]
    await timers.claims.close()


def test_what_kind_of_database_error_each_failure_is(tmp_path):
    not_a_database = tmp_path / "text.db"
    not_a_database.write_text("hello, I am no database" * 100)
    with pytest.raises(sqlite3.DatabaseError) as damaged:
        sqlite3.connect(not_a_database).execute("SELECT * FROM sqlite_master")
    assert error_kind(damaged.value) == "damaged"
    holder = sqlite3.connect(tmp_path / "busy.db", isolation_level=None)
    holder.execute("CREATE TABLE t (x UNIQUE)")
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError) as busy:
        sqlite3.connect(tmp_path / "busy.db", timeout=0).execute("INSERT INTO t VALUES (1)")
    assert error_kind(busy.value) == "busy"
    holder.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(sqlite3.IntegrityError) as refused:
        holder.execute("INSERT INTO t VALUES (1)")
    assert error_kind(refused.value) is None  # a constraint is the unit's own answer, not a failure
    (pages,) = holder.execute("PRAGMA page_count").fetchone()
    holder.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(sqlite3.OperationalError) as full:
        holder.execute("INSERT INTO t VALUES (zeroblob(100000))")
    assert error_kind(full.value) == "storage_full"
    with pytest.raises(sqlite3.OperationalError) as other:
        holder.execute("SELECT * FROM nowhere")
    assert error_kind(other.value) == "other"

    assert error_kind(DatabaseUnavailable("the connection to PostgreSQL was lost")) == "unavailable"
    assert error_kind(asyncpg.exceptions.DiskFullError("could not extend file")) == "storage_full"
    assert error_kind(asyncpg.exceptions.DeadlockDetectedError("deadlock detected")) == "busy"
    assert error_kind(asyncpg.exceptions.DataCorruptedError("invalid page")) == "damaged"
    assert error_kind(asyncpg.exceptions.PostgresIOError("could not read block")) == "io"
    assert error_kind(asyncpg.exceptions.UndefinedTableError("no such relation")) == "other"
    assert error_kind(asyncpg.exceptions.UniqueViolationError("duplicate key")) is None
    assert error_kind(VersionConflict()) is None and error_kind(ValueError("a mistake")) is None
    assert set(ERROR_KINDS) == {"unavailable", "storage_full", "busy", "damaged", "io", "other"}


def test_an_acknowledgement_is_timed_from_when_discord_created_the_interaction(monkeypatch):
    now = datetime(2026, 12, 7, 12, 0, tzinfo=timezone.utc)
    monkeypatch.setattr(discord.utils, "utcnow", lambda: now)
    metrics, other_bots = Metrics(), Metrics()  # a registry each: several bots in one process never clash
    metrics.acknowledged(now - timedelta(seconds=1.5))
    assert metrics.registry.get_sample_value("strategos_interaction_acknowledge_seconds_sum") == 1.5
    assert metrics.registry.get_sample_value("strategos_interaction_acknowledge_seconds_bucket", {"le": "1.0"}) == 0
    assert metrics.registry.get_sample_value("strategos_interaction_acknowledge_seconds_bucket", {"le": "2.0"}) == 1
    assert other_bots.registry.get_sample_value("strategos_interaction_acknowledge_seconds_count") == 0


def test_every_metric_is_documented_with_its_meaning():
    operating = (Path(__file__).parent.parent / "docs" / "operating.md").read_text(encoding="utf-8")
    section = operating.split("## Metrics and health", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `(strategos_\w+)` \| (?:histogram|counter|gauge) \| \w", section, re.MULTILINE))
    shown = {family.name + ("_total" if family.type == "counter" else "") for family in Metrics().registry.collect()}
    assert documented == shown
    assert all(f"`{kind}`" in section for kind in ERROR_KINDS)


# --- health ---------------------------------------------------------------------------------------------------


@ON_BOTH
async def test_health_is_200_while_the_database_answers_and_503_once_it_is_closed(world, endpoint):
    assert await get(endpoint, "/health") == (200, "ok\n")
    await world.bot.repo.close()
    status, text = await get(endpoint, "/health")
    assert status == 503 and text.startswith("the database did not answer (") and text.count("\n") == 1, text


async def test_health_is_503_while_the_database_does_not_answer_in_time(world, endpoint, monkeypatch):
    never = asyncio.Event()
    monkeypatch.setattr(world.bot.repo, "ping", never.wait)  # a database that never answers
    endpoint.health_timeout = 0.01  # so any timeout runs out
    # Asked here, outside the simulated Discord's clock (which the bot's own handlers follow): the timeout runs out
    # on the event loop's clock.
    assert await endpoint.problem() == "the database did not answer within 0.01 s"


async def test_health_is_503_while_the_gateway_is_disconnected(world, endpoint):
    shard = world.bot.get_shard(0)
    await shard.disconnect()
    assert await get(endpoint, "/health") == (503, "disconnected from Discord (shard 0)\n")
    await shard.reconnect()
    assert await get(endpoint, "/health") == (200, "ok\n")


async def test_health_names_every_shard_of_the_process_that_is_disconnected(database):
    settings = Settings(token=None, database=database, dev_guild=GUILD_ID, shard_count=3, metrics_port=0)
    env = simcord.Env(make_bot(settings), shard_count=3)
    await env.start()
    try:
        await env.bot.get_shard(2).disconnect()
        assert await get(env.bot.endpoint, "/health") == (503, "disconnected from Discord (shard 2)\n")
        await env.bot.get_shard(0).disconnect()
        assert await get(env.bot.endpoint, "/health") == (503, "disconnected from Discord (shards 0, 2)\n")
    finally:
        await env.bot.endpoint.stop()
        await env.shutdown()
        await close_database(env.bot)


async def test_health_is_503_before_the_bot_is_ready_and_while_it_stops(world, endpoint, monkeypatch):
    monkeypatch.setattr(world.bot, "is_ready", lambda: False)
    assert await get(endpoint, "/health") == (503, "not connected to Discord yet\n")
    monkeypatch.undo()
    world.bot.matches.closing = True
    assert await get(endpoint, "/health") == (503, "the bot is stopping\n")
    world.bot.matches.closing = False


# --- off by default, and where it listens ------------------------------------------------------------------------


def listening_sockets() -> set[str]:
    """This process's listening TCP sockets (Linux: /proc), by inode."""
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                listening.add(f"socket:[{fields[9]}]")
    mine = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            mine.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:  # closed meanwhile
            pass
    return listening & mine


@pytest.mark.parametrize("port", [None, 0])
async def test_nothing_listens_unless_a_port_is_set(database, port):
    before = listening_sockets()
    env = simcord.Env(make_bot(Settings(token=None, database=database, dev_guild=GUILD_ID, metrics_port=port)),
                      shard_count=1)
    await env.start()
    try:
        opened = listening_sockets() - before
        if port is None:
            assert env.bot.endpoint is None and opened == set()
        else:
            assert env.bot.endpoint.port > 0 and len(opened) == 1
            await env.bot.endpoint.stop()
            assert listening_sockets() - before == set()
    finally:
        await env.shutdown()
        await close_database(env.bot)


async def test_a_port_in_use_stops_the_start_with_one_line(database):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    env = simcord.Env(make_bot(Settings(token=None, database=database, dev_guild=GUILD_ID, metrics_port=port)),
                      shard_count=1)
    try:
        with pytest.raises(EndpointError) as refused:
            await env.start()
    finally:
        taken.close()
        await close_database(env.bot)
    assert str(refused.value) == (f"cannot serve metrics and health on 127.0.0.1:{port} (Address already in use); "
                                  "choose another STRATEGOS_METRICS_PORT or STRATEGOS_METRICS_HOST")


def test_the_start_says_so_in_that_one_line_not_as_a_network_error(monkeypatch, capsys, tmp_path):
    said = "cannot serve metrics and health on 127.0.0.1:9101 (Address already in use); choose another …"

    async def start(bot, token):
        raise EndpointError(said)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setattr(app, "_run", start)
    assert app.main() == 2
    assert capsys.readouterr().err.splitlines() == [f"strategos: {said}."]  # not "could not reach Discord"


def test_the_endpoint_is_off_unless_its_port_is_set():
    assert Settings.load({}, dotenv=None).metrics_address is None
    assert Settings.load({"STRATEGOS_METRICS_PORT": "9100"}, dotenv=None).metrics_address == ("127.0.0.1", 9100)
    assert Settings.load({"STRATEGOS_METRICS_PORT": "9100", "STRATEGOS_METRICS_HOST": "0.0.0.0"},
                         dotenv=None).metrics_address == ("0.0.0.0", 9100)
    for bad in ("http", "-1", "65536", "91.5"):
        with pytest.raises(SettingsError, match="STRATEGOS_METRICS_PORT must be a port number from 0 to 65535"):
            Settings.load({"STRATEGOS_METRICS_PORT": bad}, dotenv=None)


def test_each_shard_process_listens_on_the_port_plus_its_lowest_shard():
    def address(shards: str | None, port: str = "9100") -> tuple[str, int] | None:
        environ = {"STRATEGOS_METRICS_PORT": port, "STRATEGOS_SHARD_COUNT": "8",
                   "STRATEGOS_DATABASE": "postgresql://strategos@db/strategos"}
        if shards is not None:
            environ["STRATEGOS_SHARDS"] = shards
        return Settings.load(environ, dotenv=None).metrics_address

    assert address(None) == ("127.0.0.1", 9100)  # every shard in this process
    assert [address(shards)[1] for shards in ("0-1", "2-3", "4", "5-7")] == [9100, 9102, 9104, 9105]
    assert address("6-7,2-3")[1] == 9102  # the lowest shard, wherever it is named
    assert address("2-3", port="0")[1] == 0  # any free port stays any free port
    assert address("7", port="65528")[1] == 65535
    with pytest.raises(SettingsError, match="lowest shard is 65536, above 65535"):
        address("7", port="65529")
