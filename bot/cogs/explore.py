"""/explore: a private sandbox at a match's position (or, once it is over, at any move of its record)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.views.explore import open_explore

from .common import autocomplete_match


class ExploreCog(commands.Cog, name="Explore"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="explore", description="Try lines in private, from a match's position; nothing is played")
    @app_commands.describe(match="The match number (yours are suggested)",
                           move="A finished match only: start after this many moves (0 is the start)")
    @app_commands.autocomplete(match=autocomplete_match)
    async def explore(self, interaction: discord.Interaction, match: int,
                      move: app_commands.Range[int, 0, 100000] | None = None) -> None:
        await open_explore(interaction, match, move)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ExploreCog(bot))
