"""Owner-only upkeep. `@Strategos sync` publishes the slash commands (global sync is never automatic)."""

from __future__ import annotations

import discord
from discord.ext import commands

class AdminCog(commands.Cog, name="Admin"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context, scope: str = "global") -> None:
        """`@Strategos sync` everywhere (takes up to an hour to show), `@Strategos sync here` this server now."""
        if scope == "here" and ctx.guild is not None:
            self.bot.tree.copy_global_to(guild=discord.Object(ctx.guild.id))
            synced = await self.bot.tree.sync(guild=discord.Object(ctx.guild.id))
            await ctx.reply(f"Synced {len(synced)} commands to this server.")
        else:
            synced = await self.bot.tree.sync()
            await ctx.reply(f"Synced {len(synced)} commands globally (Discord may take a while to show them).")

    async def cog_command_error(self, ctx: commands.Context, error: Exception) -> None:
        if isinstance(error, commands.NotOwner):
            await ctx.reply("Only the bot's owner can sync commands.")
            return
        raise error


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog(bot))
