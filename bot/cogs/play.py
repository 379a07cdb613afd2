"""/play: challenges, and the dispatcher that expires the unanswered ones."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import get_game
from bot.matches import errors
from bot.views.challenge import challenge_buttons, challenge_mentions, challenge_text, refresh_challenge_post
from bot.views.options import new_panel, panel_text, panel_view

from .common import game_choices, playable_games

if TYPE_CHECKING:
    from bot.app import StrategosBot

log = logging.getLogger(__name__)


async def post_challenge(
    bot: StrategosBot,
    interaction: discord.Interaction,
    game_key: str,
    invited: list[int | None],
    options: dict[str, Any],
    *,
    via_channel: bool = False,
) -> None:
    challenge = await bot.matches.create_challenge(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id, challenger_id=interaction.user.id,
        challenger_name=interaction.user.display_name, game_key=game_key, invited=invited, options=options,
    )
    content, view = challenge_text(challenge), challenge_buttons(challenge)
    allowed = challenge_mentions(challenge)
    if via_channel:
        message = await interaction.channel.send(content, view=view, allowed_mentions=allowed)
    else:
        await interaction.response.send_message(content, view=view, allowed_mentions=allowed)
        message = await interaction.original_response()
    await bot.matches.set_challenge_message(challenge.id, message.id)
    cog = bot.get_cog("Play")
    if isinstance(cog, PlayCog):
        cog.wake_expiry()


class PlayCog(commands.Cog, name="Play"):
    def __init__(self, bot: StrategosBot):
        self.bot = bot
        self._expiry_task: asyncio.Task | None = None

    async def cog_load(self) -> None:
        self.wake_expiry()

    async def cog_unload(self) -> None:
        if self._expiry_task:
            self._expiry_task.cancel()

    def wake_expiry(self) -> None:
        """(Re)start the dispatcher so it sleeps until the earliest deadline, including a newly created one."""
        if self._expiry_task:
            self._expiry_task.cancel()
        self._expiry_task = asyncio.create_task(self._expire_challenges(), name="challenge-expiry")

    async def _expire_challenges(self) -> None:
        """Sleep until the next challenge is due (deadlines are database rows, so they survive restarts), expire
        what is due, repeat; with nothing pending the task ends until the next challenge restarts it."""
        while not self.bot.is_closed():
            try:
                for challenge in await self.bot.matches.expire_due_challenges():
                    await refresh_challenge_post(self.bot, challenge)
                due = await self.bot.matches.next_challenge_expiry()
            except errors.ShuttingDown:
                return
            except Exception:
                log.exception("challenge expiry failed; retrying in a minute")
                due = self.bot.matches.clock() + 60
            if due is None:
                return
            await asyncio.sleep(max(0.0, due - self.bot.matches.clock()) + 0.5)

    @app_commands.command(name="play", description="Challenge someone to a game (leave opponent empty for anyone)")
    @app_commands.describe(
        game="Which game",
        opponent="Who you challenge; leave empty for an open challenge anyone may accept",
        players="Number of players, for games of 3–4 (the seats you don't name are open)",
        opponent2="Second opponent (3–4 player games)",
        opponent3="Third opponent (4 player games)",
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.Member | None = None,
        players: app_commands.Range[int, 2, 4] | None = None,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
    ) -> None:
        if game not in playable_games():
            raise errors.UserError("That game can't be played here yet.")
        info = get_game(game).info
        named = [m for m in (opponent, opponent2, opponent3) if m is not None]
        if any(m.bot for m in named):
            raise errors.UserError("Bots can't play. Challenge a person, or leave `opponent` empty.")
        count = players or max(info.min_players, len(named) + 1)
        if len(named) + 1 > count:
            raise errors.UserError(f"You named {len(named)} opponents for a {count}-player game.")
        invited: list[int | None] = [m.id for m in named] + [None] * (count - 1 - len(named))
        if info.options:
            panel = new_panel(self.bot, user_id=interaction.user.id, user_name=interaction.user.display_name,
                              guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=game,
                              invited=invited)
            # validate the seat count now rather than after the options
            if not info.min_players <= count <= info.max_players:
                raise errors.UserError(f"{info.title} is for {info.min_players}–{info.max_players} players.")
            await interaction.response.send_message(panel_text(panel), view=panel_view(panel), ephemeral=True)
            return
        await post_challenge(self.bot, interaction, game, invited, {})


async def setup(bot: StrategosBot) -> None:
    await bot.add_cog(PlayCog(bot))
