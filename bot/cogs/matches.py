"""/move, /board and /games: playing by notation, re-posting a board, and finding your matches."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.presenters.clock_text import games_note
from bot.presenters.text import message_link
from bot.views.common import acknowledge, after_presentation, answer, service_of, single_view
from bot.views.records import takeback_offer
from bot.views.requests import ConfirmMove

from .common import autocomplete_match, match_label

GAMES_LISTED = 20


class MatchesCog(commands.Cog, name="Matches"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="move", description="Play a move in notation, e.g. b1-b3")
    @app_commands.describe(match="One of your matches", move="Your move; start typing to see the legal ones")
    @app_commands.autocomplete(match=autocomplete_match)
    async def move(self, interaction: discord.Interaction, match: int, move: str) -> None:
        # Acknowledged first: the write may queue behind other matches' moves, and Discord allows 3 seconds.
        await acknowledge(interaction)
        service = service_of(interaction)
        # Looked up as this member may see it first, so a match of another server answers like a missing one.
        await service.match_for(match, interaction.user.id, interaction.guild_id)
        asked = await service.confirmation_for(match, interaction.user.id, move)
        if asked is not None:
            found, canonical, question = asked
            await answer(interaction, f"`{canonical}` in match #{match}: {question}",
                         view=single_view(ConfirmMove(match, found.version, canonical)))
            return
        report = await service.submit_move(match, interaction.user.id, move)
        shown = report.move or move.strip()
        offer = takeback_offer(interaction, report)
        await answer(interaction, f"✅ You played `{shown}` in match #{match}.",
                     **({"view": offer} if offer else {}))
        await after_presentation(interaction, report)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        match_id = interaction.namespace.match
        if not isinstance(match_id, int):
            return []
        moves = await service_of(interaction).matching_moves(match_id, interaction.user.id, current, limit=25)
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in moves]

    @app_commands.command(name="board", description="Post the current board of a match in its thread again")
    @app_commands.describe(match="One of your matches")
    @app_commands.autocomplete(match=autocomplete_match)
    async def board(self, interaction: discord.Interaction, match: int) -> None:
        await acknowledge(interaction)  # before the reads, then the post, which may queue
        service = service_of(interaction)
        report = await service.repost_board(match, interaction.user.id, interaction.guild_id)
        posted = await report.presented
        found = await service.get_match(match)
        if not posted or found.board_message_id is None:
            await answer(interaction, "I couldn't post that match's board: its thread is gone or closed to me.")
            return
        await answer(interaction, "Board re-posted: "
                     + message_link(found.guild_id, found.thread_id, found.board_message_id))

    @app_commands.command(name="games", description="Your active matches, the ones waiting for you first")
    async def games(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        matches = await service.matches_of(interaction.user.id)
        if not matches:
            await answer(interaction, "You have no active matches. Start one with `/play`.")
            return
        lines = ["**Your matches**"]
        clocks = await service.clocks.status(matches[:GAMES_LISTED])
        for match in matches[:GAMES_LISTED]:
            link = message_link(match.guild_id, match.thread_id) or "(no thread)"
            note = games_note(match, clocks[match.id], interaction.user.id)
            note = f" · {note}" if note else ""
            lines.append(f"• {match_label(service, match, interaction.user.id)}{note} — {link}")
        if len(matches) > GAMES_LISTED:
            lines.append(f"…and {len(matches) - GAMES_LISTED} more.")
        await answer(interaction, "\n".join(lines))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MatchesCog(bot))
