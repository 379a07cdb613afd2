"""Resigning (after a confirmation) and answering a draw offer (accept or decline)."""

from __future__ import annotations

import discord

from bot.domain import Match

from bot.i18n import ENGLISH, N_, t

from .common import (
    AnswerButton, MatchButton, acknowledge, after_presentation, language, server_language, service_of, user_action,
)


class ResignConfirm(MatchButton, template=r"sg:r:(?P<match>\d+)"):
    PREFIX, LABEL, STYLE = "sg:r", N_("Yes, resign"), discord.ButtonStyle.danger

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        report = await service_of(interaction).resign(self.match_id, interaction.user.id)
        await interaction.edit_original_response(content=t(language(interaction), "You resigned."), view=None)
        await after_presentation(interaction, report)


class DrawAnswer(AnswerButton, template=r"sg:d:(?P<match>\d+):(?P<version>\d+):(?P<answer>yes|no)"):
    PREFIX = "sg:d"
    ANSWERS = {
        "yes": (N_("Accept draw"), discord.ButtonStyle.success),
        "no": (N_("Decline draw"), discord.ButtonStyle.secondary),
    }

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        service = service_of(interaction)
        await service.check_draw_answer(self.match_id, interaction.user.id, self.version)
        name, lang = interaction.user.display_name, server_language(interaction)  # the offer is public
        if self.answer == "yes":
            report = await service.offer_draw(self.match_id, interaction.user.id, expected_version=self.version)
            verdict = t(lang, "🤝 Draw offer accepted by **{player}**.", player=name) if report.kind == "draw" \
                else t(lang, "**{player}** agrees.", player=name)
            done = report.kind == "draw"
        else:
            report = await service.decline_draw(self.match_id, interaction.user.id, expected_version=self.version)
            verdict, done = t(lang, "Draw offer declined by **{player}**. Play on!", player=name), True
        await interaction.edit_original_response(
            content=verdict, view=draw_buttons(report.match, disabled=done, version=self.version, lang=lang))
        await after_presentation(interaction, report)


def draw_buttons(match: Match, *, disabled: bool = False, version: int | None = None,
                 lang: str = ENGLISH) -> discord.ui.View:
    return DrawAnswer.answers_view(match.id, match.version if version is None else version, disabled=disabled,
                                   lang=lang)
