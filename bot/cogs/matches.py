"""/move, /board, /next, /autoplay and /games: playing by notation, re-posting a board, finding your matches, and
having single legal moves played for you."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.matches import MoveConfirmation
from bot.presenters.clock_text import games_note
from bot.presenters.conversation import bot_absent
from bot.i18n import t
from bot.presenters.describe import spoken_move
from bot.presenters.emojis import emojis_of
from bot.presenters.text import message_link
from bot.views.board import show_text_board
from bot.views.conversation import check_public
from bot.views.picker import show_next
from bot.views.common import (
    DAMAGED, acknowledge, after_presentation, answer, answering_in_thread, language, service_of, single_view,
)
from bot.views.history import played_buttons
from bot.views.requests import ConfirmMove

from .common import autocomplete_match, installed_anywhere, match_label

GAMES_LISTED = 20


class MatchesCog(commands.Cog, name="Matches"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="move", description="Play a move in notation, e.g. b1-b3")
    @app_commands.describe(match="One of your matches", move="Your move; start typing to see the legal ones")
    @app_commands.autocomplete(match=autocomplete_match)
    @installed_anywhere
    async def move(self, interaction: discord.Interaction, match: int, move: str) -> None:
        # Acknowledged first: the write may queue behind other matches' moves, and Discord allows 3 seconds. In a
        # conversation the answer is public: the new board.
        conversation = bot_absent(interaction)
        await acknowledge(interaction, public=conversation)
        check_public(interaction)
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
            if conversation:  # the board is this command's answer: it comes first, the private word after it
                await after_presentation(interaction, report)
            await answer(interaction, t(language(interaction), "✅ You played `{move}` in match #{match}.",
                                        move=shown, match=match), view=played_buttons(interaction, report))
            if thread_answer is not None:
                thread_answer.ready()  # her own answer is out: the board may follow it
            if not conversation:
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
    @installed_anywhere
    async def board(self, interaction: discord.Interaction, match: int, text: bool = False) -> None:
        if text:
            await show_text_board(interaction, match)
            return
        # before the reads, then the post, which may queue; in a conversation the board is the public answer
        await acknowledge(interaction, public=bot_absent(interaction))
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

    @app_commands.command(name="next", description="The match that has waited longest for you, ready to play")
    async def next_match(self, interaction: discord.Interaction) -> None:
        await show_next(interaction)

    @app_commands.command(name="autoplay", description="Play your turns that have a single legal move at once "
                                                        "(default off)")
    @app_commands.describe(on="On: when you have one legal move, it is played for you and said in the thread")
    async def autoplay(self, interaction: discord.Interaction, on: bool | None = None) -> None:
        await acknowledge(interaction)
        now = await service_of(interaction).autoplay(interaction.user.id, on)
        lang = language(interaction)
        await answer(interaction, t(lang, "Autoplay is **on**: when you have a single legal move, it is played for you "
                                          "at once and said in the thread — only in games where everyone can count "
                                          "your moves, never where that would tell your secrets.") if now else
                     t(lang, "Autoplay is **off**: you play every move yourself."))

    @app_commands.command(name="games", description="Your active matches, the ones waiting for you first")
    @installed_anywhere
    async def games(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        matches, damaged = await service.games_of(interaction.user.id)
        lang = language(interaction)
        if not matches and not damaged:
            await answer(interaction, t(lang, "You have no active matches. Start one with `/play`."))
            return
        lines = [t(lang, "**Your matches**")]
        # A damaged match is marked, and hides none of the others.
        lines += [f"• ⚠️ {t(lang, DAMAGED, match=found.match_id)}" for found in damaged]
        clocks = await service.clock_status(matches[:GAMES_LISTED])
        emojis = emojis_of(interaction.client)
        for match in matches[:GAMES_LISTED]:
            link = message_link(match.guild_id, match.thread_id) or t(lang, "(no thread)")
            note = games_note(match, clocks[match.id], interaction.user.id, lang)
            note = f" · {note}" if note else ""
            side = emojis.side(service.view(match, None), match.seat_of(interaction.user.id))  # her side's pieces
            side = f"{side} " if side else ""
            lines.append(f"• {side}{match_label(service, match, interaction.user.id, lang)}{note} — {link}")
        if len(matches) > GAMES_LISTED:
            lines.append(t(lang, "…and {count} more.", count=len(matches) - GAMES_LISTED))
        await answer(interaction, "\n".join(lines))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MatchesCog(bot))
