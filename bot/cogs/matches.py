"""/move, /board and /games: playing by notation, re-posting a board, and finding your matches."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.matches import MoveConfirmation
from bot.presenters.clock_text import games_note
from bot.i18n import t
from bot.presenters.describe import spoken_move
from bot.presenters.text import message_link
from bot.views.board import show_text_board
from bot.views.common import (
    acknowledge, after_presentation, answer, answering_in_thread, language, service_of, single_view,
)
from bot.views.history import takeback_offer
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
        async with answering_in_thread(interaction, match) as thread_answer:
            # One call: the match looked up as this member may see it (a match of another server answers like a
            # missing one), then played, or the question a burn must be confirmed with.
            report = await service.move_command(match, interaction.user.id, interaction.guild_id, move)
            if isinstance(report, MoveConfirmation):
                lang = language(interaction)
                await answer(interaction, t(lang, "`{move}` in match #{match}: {question}", move=report.move,
                                            match=match, question=t(lang, report.question)),
                             view=single_view(ConfirmMove(match, report.match.version, report.move, lang)))
                return
            shown = report.move or move.strip()
            offer = takeback_offer(interaction, report)
            extra: dict[str, Any] = {"view": offer} if offer else {}
            await answer(interaction, t(language(interaction), "✅ You played `{move}` in match #{match}.",
                                        move=shown, match=match), **extra)
            if thread_answer is not None:
                thread_answer.ready()  # her own answer is out: the board may follow it
            await after_presentation(interaction, report)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        match_id = interaction.namespace.match
        if not isinstance(match_id, int):
            return []
        moves = await service_of(interaction).matching_moves(match_id, interaction.user.id, current, limit=25)
        lang = language(interaction)
        return [app_commands.Choice(name=spoken_move(m, lang), value=m[:100]) for m in moves]

    @app_commands.command(name="board", description="Post the current board of a match in its thread again")
    @app_commands.describe(match="One of your matches",
                           text="Show the board privately as text (every piece by square) instead")
    @app_commands.autocomplete(match=autocomplete_match)
    async def board(self, interaction: discord.Interaction, match: int, text: bool = False) -> None:
        if text:
            await show_text_board(interaction, match)
            return
        await acknowledge(interaction)  # before the reads, then the post, which may queue
        service = service_of(interaction)
        report = await service.repost_board(match, interaction.user.id, interaction.guild_id)
        assert report.presented is not None  # a board request is always published
        posted = await report.presented
        found = await service.get_match(match)
        if not posted or found.board_message_id is None:
            await answer(interaction, t(language(interaction),
                                        "I couldn't post that match's board: its thread is gone or closed to me."))
            return
        await answer(interaction, t(language(interaction), "Board re-posted: {link}",
                                    link=message_link(found.guild_id, found.thread_id, found.board_message_id)))

    @app_commands.command(name="games", description="Your active matches, the ones waiting for you first")
    async def games(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        matches = await service.matches_of(interaction.user.id)
        lang = language(interaction)
        if not matches:
            await answer(interaction, t(lang, "You have no active matches. Start one with `/play`."))
            return
        lines = [t(lang, "**Your matches**")]
        clocks = await service.clock_status(matches[:GAMES_LISTED])
        for match in matches[:GAMES_LISTED]:
            link = message_link(match.guild_id, match.thread_id) or t(lang, "(no thread)")
            note = games_note(match, clocks[match.id], interaction.user.id, lang)
            note = f" · {note}" if note else ""
            lines.append(f"• {match_label(service, match, interaction.user.id, lang)}{note} — {link}")
        if len(matches) > GAMES_LISTED:
            lines.append(t(lang, "…and {count} more.", count=len(matches) - GAMES_LISTED))
        await answer(interaction, "\n".join(lines))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MatchesCog(bot))
