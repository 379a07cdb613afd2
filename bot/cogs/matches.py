"""/move, /board and /games: playing by notation, re-posting a board, and finding your matches."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import get_game
from bot.matches import errors
from bot.views.board import post_board
from bot.views.common import message_link
from bot.views.turns import announce

from .common import autocomplete_match, match_label

if TYPE_CHECKING:
    from bot.app import StrategosBot


class MatchesCog(commands.Cog, name="Matches"):
    def __init__(self, bot: StrategosBot):
        self.bot = bot

    @app_commands.command(name="move", description="Play a move in notation, e.g. b1-b3")
    @app_commands.describe(match="One of your matches", move="Your move; start typing to see the legal ones")
    @app_commands.autocomplete(match=autocomplete_match)
    async def move(self, interaction: discord.Interaction, match: int, move: str) -> None:
        report = await self.bot.matches.submit_move(match, interaction.user.id, move)
        shown = report.move or move.strip()
        await interaction.response.send_message(f"✅ You played `{shown}` in match #{match}.", ephemeral=True)
        await announce(self.bot, report, interaction)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        match_id = interaction.namespace.match
        if not isinstance(match_id, int):
            return []
        try:
            match = await self.bot.matches.get_match(match_id)
        except errors.UserError:
            return []
        seat = match.seat_of(interaction.user.id)
        if seat is None or not match.active:
            return []
        game = get_game(match.game)
        moves = game.matching_moves(self.bot.matches.state_of(match), seat, current, limit=25)
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in moves]

    @app_commands.command(name="board", description="Post the current board of a match in its thread again")
    @app_commands.describe(match="One of your matches")
    @app_commands.autocomplete(match=autocomplete_match)
    async def board(self, interaction: discord.Interaction, match: int) -> None:
        found = await self.bot.matches.get_match(match)
        if found.guild_id != interaction.guild_id and found.seat_of(interaction.user.id) is None:
            raise errors.UnknownMatch(match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await post_board(self.bot, found)
        if message is None:
            raise errors.UserError("That match's thread is gone, so I can't post its board.")
        await interaction.followup.send(f"Board re-posted: {message.jump_url}", ephemeral=True)

    @app_commands.command(name="games", description="Your active matches, the ones waiting for you first")
    async def games(self, interaction: discord.Interaction) -> None:
        matches = await self.bot.matches.matches_of(interaction.user.id)
        if not matches:
            await interaction.response.send_message(
                "You have no active matches. Start one with `/play`.", ephemeral=True
            )
            return
        lines = ["**Your matches**"]
        for match in matches[:20]:
            label = match_label(match, interaction.user.id, self.bot.matches.to_act(match))
            link = message_link(match.guild_id, match.thread_id) or "(no thread)"
            lines.append(f"• {label} — {link}")
        if len(matches) > 20:
            lines.append(f"…and {len(matches) - 20} more.")
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: StrategosBot) -> None:
    await bot.add_cog(MatchesCog(bot))
