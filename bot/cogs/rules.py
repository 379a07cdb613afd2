"""/rules: each game explained in our own words, with a picture of the starting position."""

from __future__ import annotations

import asyncio
import io
from importlib import resources
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import renderers
from bot.games import GAMES, get_game

if TYPE_CHECKING:
    from bot.app import StrategosBot


def guide_text(game_key: str) -> str:
    guide = resources.files("bot.guides").joinpath(f"{game_key}.md")
    return guide.read_text(encoding="utf-8") if guide.is_file() else get_game(game_key).info.summary


class RulesCog(commands.Cog, name="Rules"):
    def __init__(self, bot: StrategosBot):
        self.bot = bot

    @app_commands.command(name="rules", description="How to play a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=[app_commands.Choice(name=g.info.title, value=k) for k, g in GAMES.items()])
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        info = get_game(game).info
        players = (f"{info.min_players} players" if info.min_players == info.max_players
                   else f"{info.min_players}–{info.max_players} players")
        embed = discord.Embed(title=f"{info.title} — how to play", description=guide_text(game)[:4096])
        embed.set_footer(text=f"{players} · start a match with /play")
        kwargs = {}
        if renderers.can_render(game):
            png = await asyncio.to_thread(renderers.rules_diagram, game)
            kwargs["file"] = discord.File(io.BytesIO(png), filename="rules.png")
            embed.set_image(url="attachment://rules.png")
        await interaction.response.send_message(embed=embed, ephemeral=True, **kwargs)


async def setup(bot: StrategosBot) -> None:
    await bot.add_cog(RulesCog(bot))
