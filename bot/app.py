"""Building and starting the bot. `create_bot()` is how `python -m bot`, the tests and tools all get one.

`StrategosBot.setup_hook` composes the bot: the services (wired by bot/composition.py, which needs no Discord),
then the presenters, cogs and persistent buttons, each handed the parts it uses. No service builds another.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import sys
from pathlib import Path

import aiohttp
import discord
from discord.ext import commands

from bot import answers_first, i18n
from bot.cogs.common import NOT_A_MEMBER
from bot.cogs.translator import CatalogueTranslator
from bot.composition import build_leagues, build_match_graph
from bot.games.registry import choose_move, judge_move
from bot.i18n import N_
from bot.matches import MatchService, PrivateChannel
from bot.matches.computer import PAUSE_SECONDS as COMPUTER_PAUSE
from bot.matches.analysis import Analyses
from bot.matches.computer import ComputerPlayers
from bot.matches.errors import UserError
from bot.matches.explore import Explorer
from bot.matches.leagues import LeagueService
from bot.matches.plans import Planner
from bot.matches.scope import ProcessScope
from bot.metrics import Endpoint, EndpointError, serve
from bot.presenters import DirectMessages, Presenter, pictures
from bot.presenters.emojis import NO_EMOJIS, upload_missing
from bot.presenters.leagues import LeaguePresenter
from bot.presenters.pacing import Pacer
from bot.presenters.plans import PlanPresenter
from bot.settings import Settings, SettingsError, is_postgres_dsn
from bot.storage import DatabaseError, NewerDatabase, Repository, UnwritableDatabase, open_database
from bot.storage.opening import open_repository, take_lock
from bot.storage.postgres import open_pool
from bot.views import PERSISTENT_ITEMS, DiscordControls
from bot.views.common import report_failure
from bot.views.leagues import league_buttons
from bot.workers import computer_pool

log = logging.getLogger("bot")

EXTENSIONS = ("bot.cogs.play", "bot.cogs.matches", "bot.cogs.history", "bot.cogs.clocks", "bot.cogs.ratings",
              "bot.cogs.rules", "bot.cogs.leagues", "bot.cogs.explore", "bot.cogs.admin")


def utc_timestamp() -> float:
    # discord.utils.utcnow is the clock the simulated Discord in the tests controls, too.
    return discord.utils.utcnow().timestamp()


class StrategosBot(commands.AutoShardedBot):
    repo: Repository
    matches: MatchService
    presenter: Presenter
    leagues: LeagueService

    def __init__(self, settings: Settings, *, seed_source=None, computer_executor=computer_pool,
                 computer_pause: float = COMPUTER_PAUSE, replay_at_end: bool = True):
        intents = discord.Intents.default()  # no privileged intents: slash commands and buttons need none
        # Every limited request waits its turn under Discord's global limit (this process's share), most urgent first.
        pacer = Pacer.for_shards(len(settings.shard_ids) if settings.shard_ids is not None else None,
                                 settings.shard_count)
        super().__init__(
            http_trace=pacer.trace_config(),
            command_prefix=commands.when_mentioned,  # only "@Strategos sync"; everything else is a slash command
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            # Each process runs its shards (a server's events all come to one shard); None: Discord's count, all here.
            shard_count=settings.shard_count,
            # ignore: discord.py types shard_ids as a list, though None is its own default
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,  # type: ignore[arg-type]
        )
        self.settings = settings
        self.pacer = pacer
        # Each interaction is registered as it arrives, before its handler runs: until it is acknowledged, the
        # work that can wait (the service's actions, reads, pictures) waits (bot/answers_first.py).
        answers_first.watch_arrivals(self._connection.parsers)
        _sweep_buckets_now_and_then(self.http)
        self._seed_source = seed_source
        self._computer_executor = computer_executor  # tests think in a thread: their simulated Discord runs one process
        self._computer_pause = computer_pause
        self._replay_at_end = replay_at_end
        self.ui_state: dict[str, object] = {}  # open pickers and option panels: in memory, gone on restart
        self.endpoint: Endpoint | None = None  # metrics and health (STRATEGOS_METRICS_PORT), None when off
        self.collections = answers_first.QuietCollections()  # full garbage collections at quiet moments
        self.app_emojis = NO_EMOJIS  # the games' side emojis, found or uploaded at start-up (STRATEGOS_APP_EMOJIS)

    async def login(self, token: str) -> None:
        # No limit on connections: a request given its turn by the pacer goes at once, and interaction answers,
        # however many, never queue behind posts for a connection. (A connector needs the running loop.)
        if not self.http.connector:
            self.http.connector = aiohttp.TCPConnector(limit=0)
        await super().login(token)

    async def setup_hook(self) -> None:
        # Start-up in a visible order: database, migrations, service, presenters, cogs, persistent buttons,
        # command sync, and last the timers and any announcement a crash cut off.
        self.repo = repo = await open_repository(self.settings.database)
        # Alone on the database (every shard here), every timer is written here and wakes the dispatcher, so it
        # neither listens for other processes nor looks periodically for their timers (an idle bot stays idle).
        scope = ProcessScope(self.settings.shard_ids, self.settings.shard_count)
        graph = build_match_graph(
            repo, clock=utc_timestamp, seed_source=self._seed_source,
            challenge_ttl=self.settings.challenge_ttl_hours * 3600,
            vacation_days=self.settings.vacation_days,

            scope=scope,
            others=not self.settings.runs_every_shard,
        )
        self.matches = graph.service
        self.explorer = Explorer(self.matches, clock=utc_timestamp)  # private sandboxes, in memory
        dms = DirectMessages(self)
        private = PrivateChannel(repo, dms, utc_timestamp)
        self.presenter = Presenter(self, self.matches, graph.bus, private, dms, DiscordControls(),
                                   replay_at_end=self._replay_at_end, conversations=repo.conversations)
        pictures.QUEUE.start()  # the picture workers start now, not with the first board after a restart
        graph.bus.subscribe(self.presenter)
        self.leagues = build_leagues(graph, scope)  # after the presenter: a league looks again once a match is shown
        self.leagues.subscribe(LeaguePresenter(self, self.leagues, league_buttons))
        self.computers = ComputerPlayers(self.matches, repo, graph.timers, graph.bus, choose_move,
                                         self._computer_executor, self._computer_pause)
        # analyses of finished matches, in a worker of their own, after the live matches' thinks
        self.analyses = Analyses(self.matches, repo.analyses, graph.bus, judge_move, self._computer_executor,
                                 self.computers.idle, scope)
        # planned replies: played when their move comes
        self.planner = Planner(self.matches, self.explorer, repo.plans, graph.bus)
        graph.bus.subscribe(PlanPresenter(self.presenter.boards))
        self.endpoint = await serve(self)  # before the timers start: those due at start-up are measured too
        self.tree.error(self.on_app_command_error)
        i18n.load()  # every language's catalogue, read once
        await self.tree.set_translator(CatalogueTranslator())
        if self.settings.app_emojis:  # before the first board post or /games: those show them
            self.app_emojis = await upload_missing(self)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*PERSISTENT_ITEMS)
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to development guild %s", len(synced), self.settings.dev_guild)
        await self.matches.start()
        await self.leagues.start()
        await self.computers.resume()
        await self.planner.resume()
        await self.analyses.resume()
        self.collections.start()  # from here, what start-up loaded stays out of the garbage collector's walks

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """A user's mistake gets its message, ephemerally; anything else is logged with the user a short apology."""
        original = getattr(error, "original", error)
        if isinstance(error, discord.app_commands.TransformerError):
            original = UserError(_transform_failure(error))
        elif isinstance(error, discord.app_commands.NoPrivateMessage):
            original = UserError(N_("That command works in a server, not in DMs."))
        elif isinstance(error, discord.app_commands.CheckFailure):
            original = UserError(N_("You can't use that command here."))
        command = interaction.command.name if interaction.command else "?"
        await report_failure(interaction, original, f"command /{command}")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Remember each server's preferred language as Discord reports it: its public posts are written in it."""
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            await self.matches.saw_language(interaction.guild_id, i18n.language_of(interaction.guild_locale))

    async def on_ready(self) -> None:
        log.info("logged in as %s (id %s) in %d servers", self.user, self.user and self.user.id, len(self.guilds))

    async def close(self) -> None:
        # Finish every move in flight and its posts, then close the database: a stop never leaves half a move.
        matches = getattr(self, "matches", None)
        if matches is not None:
            await matches.drain()
        presenter = getattr(self, "presenter", None)
        if presenter is not None:
            await presenter.idle()  # old boards greyed before the connection closes
        leagues = getattr(self, "leagues", None)
        if leagues is not None:
            await leagues.idle()
        computers = getattr(self, "computers", None)
        if computers is not None:
            computers.close()
        analyses = getattr(self, "analyses", None)
        if analyses is not None:
            analyses.close()
        if self.endpoint is not None:
            await self.endpoint.stop()
        self.collections.stop()
        repo = getattr(self, "repo", None)
        if repo is not None:
            await repo.close()
        await super().close()


BUCKET_SWEEP_SECONDS = 60.0


def _sweep_buckets_now_and_then(http: discord.http.HTTPClient) -> None:
    """discord.py looks through all its route buckets for idle ones each time it makes a new one, once it holds 256:
    with a bucket per thread and kind of request, a burst over a thousand matches' threads spent seconds of the
    event loop on it. A bucket counts as idle only after 5 minutes unused, so looking once a minute loses nothing."""
    sweep = http._try_clear_expired_ratelimits
    last = [-BUCKET_SWEEP_SECONDS]

    def now_and_then() -> None:
        now = asyncio.get_running_loop().time()
        if now - last[0] >= BUCKET_SWEEP_SECONDS:
            last[0] = now
            sweep()

    http._try_clear_expired_ratelimits = now_and_then  # type: ignore[method-assign]  # replaced on this client only


def _transform_failure(error: discord.app_commands.TransformerError) -> str:
    if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
        return NOT_A_MEMBER
    return N_("I couldn't understand one of the options. Pick a value from the list.")


def create_bot(settings: Settings | None = None, **kwargs) -> StrategosBot:
    return StrategosBot(settings or Settings.load(), **kwargs)


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stdout,
    )
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    # Strategos has no voice features; discord.py's notice about missing voice libraries is only noise.
    logging.getLogger("discord.client").addFilter(lambda record: "voice will NOT" not in record.getMessage())


async def check_database(path: Path | str) -> str | None:
    """None when the database opens and migrates; else one line that says what is wrong and what to do."""
    if is_postgres_dsn(path):
        return await check_postgres(str(path))
    try:
        db = await open_database(path)
    except NewerDatabase as exc:
        return f"refusing the database at {path}: {exc}."
    except UnwritableDatabase as exc:
        return (f"cannot write the database at {path}: {exc}. Mount it read-write, or give the file and its folder "
                "to the user the bot runs as (the Docker image's is uid 10001).")
    except DatabaseError as exc:
        return (f"cannot open the database at {path} ({exc}). Check STRATEGOS_DATABASE: it must name a Strategos "
                "database, or a new file, in a folder that exists.")
    except PermissionError as exc:
        where = exc.filename or path
        return (f"cannot write the database at {path} ({where}: permission denied). Set STRATEGOS_DATABASE "
                "to a file in a folder this user may write (the Docker image uses /data/strategos.db).")
    except (OSError, sqlite3.Error) as exc:
        return (f"cannot open the database at {path} ({exc}). Check STRATEGOS_DATABASE: it must name a file "
                "in a folder this user may write.")
    try:
        if str(path) != ":memory:":  # a lock left behind is taken over (and said) here, a migration refused
            take_lock(path).release()
    except DatabaseError as exc:  # in use by a copy, or a lock file this user may not write
        return f"refusing the database at {path}: {exc}."
    finally:
        await db.close()
    return None


async def check_postgres(dsn: str) -> str | None:
    """The same for a PostgreSQL database: the server answers, takes the user and password, has the database, and
    its schema is one this Strategos knows (migrated to it). The line never shows the URL's password."""
    try:
        pool = await open_pool(dsn, max_size=1)
    except NewerDatabase as exc:
        return f"refusing the database: {exc}."
    except DatabaseError as exc:
        return f"{exc}."
    await pool.close()
    return None


async def _run(bot: StrategosBot, token: str) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, lambda: asyncio.create_task(bot.close()))
        except NotImplementedError:  # Windows
            pass
    async with bot:
        await bot.start(token)


def main() -> int:
    try:
        settings = Settings.load()
    except SettingsError as exc:
        print(f"strategos: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    if not settings.token:
        print("strategos: DISCORD_TOKEN is not set. Put it in .env (see .env.example) or the environment; "
              "to try Strategos without one: python -m bot demo",
              file=sys.stderr)
        return 2
    # The database is opened (and migrated) before Discord is contacted, so a broken path or permission is
    # reported as itself and not as a network error.
    problem = asyncio.run(check_database(settings.database))
    if problem:
        print(f"strategos: {problem}", file=sys.stderr)
        return 2
    try:
        asyncio.run(_run(create_bot(settings), settings.token))
    except EndpointError as exc:
        print(f"strategos: {exc}.", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("strategos: Discord rejected DISCORD_TOKEN. Copy the token again from the Developer Portal "
              "(Bot → Reset Token).", file=sys.stderr)
        return 2
    except (OSError, discord.GatewayNotFound, discord.HTTPException) as exc:
        print(f"strategos: could not reach Discord ({exc.__class__.__name__}: {exc}). Check the network.",
              file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("strategos: Discord refused the gateway intents; Strategos needs no privileged intents — "
              "check the application's settings.", file=sys.stderr)
        return 2
    return 0
