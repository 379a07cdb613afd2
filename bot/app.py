"""Building and starting the bot. `create_bot()` is how `python -m bot`, the tests and tools all get one."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord
from discord.ext import commands

from bot.matches import MatchService, PrivateChannel
from bot.settings import Settings, SettingsError
from bot.storage import Repository, open_database

log = logging.getLogger("bot")

EXTENSIONS = ("bot.cogs.play", "bot.cogs.matches", "bot.cogs.rules", "bot.cogs.admin")


def utc_timestamp() -> float:
    # discord.utils.utcnow is the clock the simulated Discord in the tests controls, too.
    return discord.utils.utcnow().timestamp()


class StrategosBot(commands.Bot):
    repo: Repository
    matches: MatchService
    private: PrivateChannel

    def __init__(self, settings: Settings, *, seed_source=None):
        intents = discord.Intents.default()  # no privileged intents: slash commands and buttons need none
        super().__init__(
            command_prefix=commands.when_mentioned,  # only "@Strategos sync"; everything else is a slash command
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self._seed_source = seed_source
        self.ui_state: dict[str, object] = {}  # open pickers and option panels: in memory, gone on restart

    async def setup_hook(self) -> None:
        # Start-up in a visible order: database, migrations, services, cogs, persistent buttons, command sync.
        db = await open_database(self.settings.database)
        self.repo = Repository(db)
        extra = {"seed_source": self._seed_source} if self._seed_source else {}
        self.matches = MatchService(
            self.repo, clock=utc_timestamp, challenge_ttl=self.settings.challenge_ttl_hours * 3600, **extra
        )
        self.private = PrivateChannel(self.repo, self._send_dm, utc_timestamp)
        self.tree.on_error = self.on_app_command_error
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        from bot.views import PERSISTENT_ITEMS

        self.add_dynamic_items(*PERSISTENT_ITEMS)
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to development guild %s", len(synced), self.settings.dev_guild)

    async def _send_dm(self, user_id: int, content: str, image: bytes | None, setup_match: int | None) -> bool:
        import io

        from bot.views.picker import setup_prompt_view

        try:
            user = self.get_user(user_id) or await self.fetch_user(user_id)
            file = discord.File(io.BytesIO(image), filename="your-view.png") if image else discord.utils.MISSING
            view = setup_prompt_view(setup_match) if setup_match is not None else discord.utils.MISSING
            await user.send(content, file=file, view=view)
            return True
        except discord.Forbidden:  # 50007: the user does not accept DMs from this server's members
            return False
        except discord.HTTPException:
            log.warning("DM to user=%s failed; keeping the message for their next My view", user_id)
            return False

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """A user's mistake gets its message, ephemerally; anything else is logged with the user a short apology."""
        from bot.matches import errors
        from bot.views.common import GENERIC_FAILURE, answer

        original = getattr(error, "original", error)
        if isinstance(original, errors.UserError):
            await answer(interaction, str(original))
            return
        if isinstance(error, discord.app_commands.CheckFailure):
            await answer(interaction, "You can't use that command here.")
            return
        log.error("command %s failed for user=%s guild=%s", interaction.command and interaction.command.name,
                  interaction.user.id, interaction.guild_id, exc_info=original)
        await answer(interaction, GENERIC_FAILURE)

    async def on_ready(self) -> None:
        log.info("logged in as %s (id %s) in %d servers", self.user, self.user and self.user.id, len(self.guilds))

    async def close(self) -> None:
        # Finish every move in flight, then close the database: a stop never leaves half a move written.
        matches = getattr(self, "matches", None)
        if matches is not None:
            await matches.drain()
        repo = getattr(self, "repo", None)
        if repo is not None:
            await repo.close()
        await super().close()


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
        print("strategos: DISCORD_TOKEN is not set. Put it in .env (see .env.example) or the environment.",
              file=sys.stderr)
        return 2
    try:
        asyncio.run(_run(create_bot(settings), settings.token))
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
