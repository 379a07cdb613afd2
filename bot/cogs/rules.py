"""/rules: each game explained in our own words, with a picture of the starting position."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.registry import declaration_of
from bot.i18n import ENGLISH, t, tn
from bot.matches import catalogue
from bot.presenters.describe import rules_alt_text
from bot.presenters.pictures import rules_file
from bot.presenters.text import EMBED_DESCRIPTION_LIMIT

from bot.views.common import acknowledge, language

from .common import all_game_choices, installed_anywhere


def guide_text(game_key: str, lang: str = ENGLISH) -> str:
    """The game's guide in `lang` (bot/games/<game>/guide/<lang>.md), else the English one (guide/en.md)."""
    return declaration_of(game_key).guide(lang).read_text(encoding="utf-8")


class RulesCog(commands.Cog, name="Rules"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="rules", description="How to play a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=all_game_choices())
    @installed_anywhere
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await acknowledge(interaction)  # before the guide is read from the package and the diagram drawn
        info, lang = catalogue.info(game), language(interaction)
        players = (tn(lang, "{count} player", "{count} players", info.min_players)
                   if info.min_players == info.max_players
                   else t(lang, "{low}–{high} players", low=info.min_players, high=info.max_players))
        embed = discord.Embed(title=t(lang, "{game} — how to play", game=info.title),
                              description=guide_text(game, lang)[:EMBED_DESCRIPTION_LIMIT])
        embed.set_footer(text=t(lang, "{players} · start a match with /play", players=players))
        file = await rules_file(game, rules_alt_text(game, lang), lang)
        kwargs: dict[str, Any] = {}
        if file is not None:
            kwargs["file"] = file
            embed.set_image(url="attachment://rules.png")
        await interaction.followup.send(embed=embed, ephemeral=True, **kwargs)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RulesCog(bot))
