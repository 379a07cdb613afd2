"""Fixtures for the bot's behavioural tests: the real bot, a temporary SQLite file and a simulated Discord."""

from __future__ import annotations

import asyncio
import itertools
import os
from concurrent.futures import ThreadPoolExecutor

import asyncpg
import pytest
import pytest_asyncio
import simcord
from PIL import Image

from bot.app import create_bot
from bot.composition import build_match_service
from bot.presenters import pictures
from bot.settings import Settings
from bot.storage.opening import open_repository
from bot.storage.postgres_schema import migrate as migrate_postgres
from both_databases import pytest_runtest_setup  # noqa: F401 (a hook: the store's tests run on both databases)
from postgres_server import start_or_skip

GUILD_ID = 424242424242424242
pytest_plugins = ["pytester"]  # tests/test_both_databases.py runs pytest on files of its own

# Tests compare, decode and render megapixel pictures in tight loops. Pillow frees an image's memory at once by
# default, and the allocator hands it back to the system: each new picture then costs a page fault per 4 KB (up to
# half of some tests' time). Keeping freed blocks for reuse is what PILLOW_BLOCKS_MAX does; the bot's renders,
# one at a time, do not gain from it (measured), so it is set for the tests only.
Image.core.set_blocks_max(32)


@pytest.fixture(autouse=True)
def no_settings_from_the_callers_shell(monkeypatch):
    """The bot's settings come from the environment: a variable exported in the shell that runs the tests (say a
    bad STRATEGOS_CHALLENGE_HOURS) must not change what a test sees. Tests set what they need themselves."""
    for key in list(os.environ):
        if key.startswith("STRATEGOS_") or key == "DISCORD_TOKEN":
            monkeypatch.delenv(key)


# Read once at start-up: the autouse fixture above clears STRATEGOS_* variables for each test.
POSTGRES_REQUIRED = os.environ.get("STRATEGOS_TEST_POSTGRES") == "require"


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL 15 server of this test process (each xdist worker starts its own), stopped at the end. Where the
    server's programs are missing the tests that need it skip, unless STRATEGOS_TEST_POSTGRES=require (CI)."""
    server = start_or_skip(os.environ.get("PYTEST_XDIST_WORKER", "main"), POSTGRES_REQUIRED)  # gw0, gw1: one each
    try:
        yield server
    finally:
        server.stop()


_postgres_databases = itertools.count(1)


@pytest_asyncio.fixture
async def postgres_dsn(postgres_server):
    """The DSN of a new, empty database on the test process's PostgreSQL server, dropped after the test."""
    name = f"test_{next(_postgres_databases)}"
    admin = await asyncpg.connect(postgres_server.dsn())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        yield postgres_server.dsn(name)
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()


TEMPLATE = "strategos_template"


@pytest.fixture(scope="session")
def postgres_template(postgres_server):
    """A database on the test process's server with every migration applied, once per session: each test's
    database is a copy of it (CREATE DATABASE … TEMPLATE), which takes milliseconds instead of a migration run."""

    async def build():
        admin = await asyncpg.connect(postgres_server.dsn())
        try:
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        conn = await asyncpg.connect(postgres_server.dsn(TEMPLATE))
        try:
            await migrate_postgres(conn)
        finally:
            await conn.close()  # a template must have no connections while it is copied

    asyncio.run(build())
    return TEMPLATE


@pytest_asyncio.fixture
async def migrated_postgres_dsn(postgres_server, postgres_template):
    """The DSN of a new database holding Strategos's schema (a copy of the template), dropped after the test."""
    name = f"test_{next(_postgres_databases)}"
    admin = await asyncpg.connect(postgres_server.dsn())
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {postgres_template}")
        yield postgres_server.dsn(name)
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()


# The two databases a store runs on; test ids name them ("[postgres]"). Tests that take `service` (or `store`,
# `store_database`) run on both; the bot tests (through `settings`) run on SQLite unless marked ON_BOTH or their
# module's `database` takes `store_database` (tests/test_clocks.py). tests/both_databases.py lists the files where
# every test that reaches a database must run on both.
DATABASES = ["sqlite", "postgres"]
ON_BOTH = pytest.mark.parametrize("database", DATABASES, indirect=True)


def _database(request, kind: str):
    """What STRATEGOS_DATABASE would say: a SQLite file in the test's folder, or a migrated PostgreSQL database."""
    if kind == "postgres":
        return request.getfixturevalue("migrated_postgres_dsn")
    return request.getfixturevalue("tmp_path") / "strategos.db"


@pytest.fixture
def database(request):
    """The bot's database: SQLite, or each of DATABASES in a test marked ON_BOTH."""
    return _database(request, getattr(request, "param", "sqlite"))


@pytest.fixture(params=DATABASES)
def store_database(request):
    return _database(request, request.param)


@pytest_asyncio.fixture
async def store(store_database):
    """The store (Repository) on SQLite and on PostgreSQL, its database migrated."""
    repo = await open_repository(store_database)
    yield repo
    await repo.close()


@pytest.fixture
def service_clock():
    """The service's clock in the `service` fixture: one second later at each reading (a module may override it)."""
    ticks = itertools.count(1_000_000)
    return lambda: float(next(ticks))


@pytest.fixture
def service_seeds():
    """The match seeds of the `service` fixture (a module may override it)."""
    return lambda: 7


@pytest_asyncio.fixture
async def service(store, service_clock, service_seeds):
    """The match service alone, on SQLite and on PostgreSQL."""
    service = build_match_service(store, clock=service_clock, seed_source=service_seeds)
    yield service
    await service.drain()


@pytest.fixture
def settings(database, request):
    """The bot's settings: its database a SQLite file, or in a test marked ON_BOTH also PostgreSQL. Members have
    no vacation days unless the test is marked `vacation_days(days)`: a time-out is then a time-out. No app
    emojis: the tests read the texts in words (tests/test_emojis.py turns them on)."""
    marked = request.node.get_closest_marker("vacation_days")
    return Settings(token=None, database=database, dev_guild=GUILD_ID, log_level="INFO",
                    vacation_days=marked.args[0] if marked else 0, app_emojis=False)



# The bots draw their pictures in threads here, as they think in one (below; pictures.draw_in_threads says why).
# tests/test_render_workers.py runs the real picture workers.
pictures.draw_in_threads()


def make_bot(settings, replay_at_end=False):
    seeds = itertools.count(1000)  # deterministic seeds make every match replayable in the tests
    # The computer thinks in a thread here (the simulated Discord follows work in threads, not in other processes),
    # and without its pause, which only makes its replies read naturally. A match's replay GIF takes seconds to
    # build: only the tests marked `replays` (which check it) have it posted at the end; /replay always works.
    return create_bot(settings, seed_source=lambda: next(seeds), computer_executor=lambda: ThreadPoolExecutor(1),
                      computer_pause=0.0, replay_at_end=replay_at_end)


@pytest_asyncio.fixture
async def world(settings, request):
    """A running bot in a guild with a #games channel and three members."""
    replay_at_end = request.node.get_closest_marker("replays") is not None
    # A match's end builds its replay GIF in a worker thread: seconds for a long match on a busy machine, more
    # than SimCord's default patience of 5 s for the bot to settle after an interaction.
    env = simcord.Env(make_bot(settings, replay_at_end), settle_timeout=30.0, shard_count=1)
    guild = env.create_guild("Strategos Test", id=GUILD_ID)
    await env.start()
    world = None
    try:
        channel = guild.create_text_channel("games")
        members = {name: guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol")}
        world = World(env, guild, channel, members, settings)
        world.replay_at_end = replay_at_end
        yield world
    finally:
        await env.shutdown()
        # SimCord detaches the bot without closing it: close its database, or its worker thread keeps the
        # test process alive after a failure.
        await close_database(env.bot)
        if world is not None:
            for old in world.retired:
                await close_database(old)
        unexpected = env.errors_since(world.errors_expected if world else 0)
        if env.check_errors and unexpected:
            raise AssertionError(f"the bot raised during the test: {unexpected!r}")


async def close_database(bot) -> None:
    repo = getattr(bot, "repo", None)
    if repo is not None:
        await repo.close()


class World:
    def __init__(self, env, guild, channel, members, settings):
        self.env, self.guild, self.channel, self.settings = env, guild, channel, settings
        self.alice, self.bob, self.carol = members["alice"], members["bob"], members["carol"]
        self.retired = []  # bots replaced by restarts, closed at teardown
        self.errors_expected = 0  # errors before this cursor were expected by the test

    def expect_errors(self) -> list[BaseException]:
        """The bot errors so far, which the test has seen and accepts."""
        self.errors_expected = self.env.error_cursor
        return list(self.env.errors_since(0))

    @property
    def bot(self):
        return self.env.bot

    async def restart(self):
        self.retired.append(self.env.bot)
        await self.env.restart_bot(make_bot(self.settings, self.replay_at_end))
