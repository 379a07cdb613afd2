"""/history, /replay, /export and /takeback: what a match leaves behind, and undoing a move by consent."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, t, tn
from bot.presenters.layout import card
from bot.presenters.replay import replay_caption
from bot.matches import catalogue, errors
from bot.views.common import acknowledge, analyses_of, answer, language, presenter_of, service_of
from bot.views.history import answer_asked, history_buttons, history_embed

from .common import autocomplete_match, installed_anywhere


class HistoryCog(commands.Cog, name="History"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="history", description="The moves of a match so far, page by page")
    @app_commands.describe(match="The match number (yours are suggested)")
    @app_commands.autocomplete(match=autocomplete_match)
    @installed_anywhere
    async def history(self, interaction: discord.Interaction, match: int) -> None:
        await acknowledge(interaction)
        lang = language(interaction)
        page = await service_of(interaction).history(match, interaction.user.id, interaction.guild_id, lang=lang)
        buttons = history_buttons(page, lang)
        extra: dict[str, Any] = {"view": buttons} if buttons else {}
        await interaction.followup.send(embed=history_embed(page, lang), ephemeral=True, **extra)

    @app_commands.command(name="replay", description="An animated replay of a finished match")
    @app_commands.describe(match="The number of a finished match of this server",
                           seen_by="A player of the match: the replay from her view, move by move")
    async def replay(self, interaction: discord.Interaction, match: int, seen_by: discord.User | None = None) -> None:
        await acknowledge(interaction)
        found = await service_of(interaction).finished_match(match, interaction.user.id, interaction.guild_id)
        seat = None if seen_by is None else found.seat_of(seen_by.id)
        if seen_by is not None and seat is None:
            raise errors.UserError(N_("{player} did not play in match #{match}."), player=seen_by.display_name,
                                   match=found.id)
        lang = language(interaction)
        # A long match takes seconds to draw: say so at once, then put the file in the same answer.
        await interaction.edit_original_response(content=t(lang, "🎞️ Making the replay of match #{match}…",
                                                            match=found.id))
        replays = presenter_of(interaction).replays
        file = await replays.gif_file(found, lang, seat)
        if file is None:
            await interaction.edit_original_response(content=t(lang, "That game has no pictures yet, so no replay."))
            return
        title = catalogue.info(found.game).title
        caption = replay_caption(found, title, lang, None if seat is None else found.names[seat])
        # The answer becomes a layout now: its acknowledgement could not carry the V2 flag, this edit does.
        await interaction.edit_original_response(content=None, view=card(caption, picture=file), attachments=[file])

    @app_commands.command(name="analysis", description="A finished match's costliest moves, as the computer judges them")
    @app_commands.describe(match="The number of a finished match you played")
    async def analysis(self, interaction: discord.Interaction, match: int) -> None:
        await acknowledge(interaction)
        lang = language(interaction)
        found, ahead = await analyses_of(interaction).request(match, interaction.user.id, interaction.guild_id, lang)
        said = t(lang, "🔍 Analysing match #{match}: about two seconds a move, after the live games. It will be "
                       "posted in the match thread.", match=found.id)
        if ahead:
            said += " " + tn(lang, "{count} analysis is ahead of it.", "{count} analyses are ahead of it.", ahead)
        await interaction.followup.send(said, ephemeral=True)

    @app_commands.command(name="export", description="A match's record as a text file that replays exactly")
    @app_commands.describe(match="The match number (yours are suggested)")
    @app_commands.autocomplete(match=autocomplete_match)
    async def export(self, interaction: discord.Interaction, match: int) -> None:
        await acknowledge(interaction)
        exported = await service_of(interaction).export(match, interaction.user.id, interaction.guild_id)
        file = discord.File(io.BytesIO(exported.text.encode("utf-8")), filename=exported.filename)
        lang = language(interaction)
        note = "" if not exported.match.active else " " + t(lang, "While it runs, it holds only what you may know.")
        text = t(lang, "📄 The record of match #{match}: `{command}` replays it.", match=exported.match.id,
                 command=f"python -m bot.games replay {exported.filename}")
        await answer(interaction, text + note, file=file)

    @app_commands.command(name="takeback", description="Ask to take back your last move, until the next player acts")
    @app_commands.describe(match="One of your matches")
    @app_commands.autocomplete(match=autocomplete_match)
    async def takeback(self, interaction: discord.Interaction, match: int) -> None:
        await acknowledge(interaction)
        report = await service_of(interaction).ask_takeback(match, interaction.user.id)
        await answer_asked(interaction, report)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HistoryCog(bot))
