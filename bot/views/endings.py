"""Resigning (after a confirmation) and answering a draw offer (accept or decline)."""

from __future__ import annotations

import discord

from bot.storage import Match

from .common import AnswerButton, MatchButton, acknowledge, after_presentation, service_of, user_action


class ResignConfirm(MatchButton, template=r"sg:r:(?P<match>\d+)"):
    PREFIX, LABEL, STYLE = "sg:r", "Yes, resign", discord.ButtonStyle.danger

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        report = await service_of(interaction).resign(self.match_id, interaction.user.id)
        await interaction.edit_original_response(content="You resigned.", view=None)
        await after_presentation(interaction, report)


class DrawAnswer(AnswerButton, template=r"sg:d:(?P<match>\d+):(?P<version>\d+):(?P<answer>yes|no)"):
    PREFIX = "sg:d"
    ANSWERS = {
        "yes": ("Accept draw", discord.ButtonStyle.success),
        "no": ("Decline draw", discord.ButtonStyle.secondary),
    }

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        service = service_of(interaction)
        await service.check_draw_answer(self.match_id, interaction.user.id, self.version)
        name = interaction.user.display_name
        if self.answer == "yes":
            report = await service.offer_draw(self.match_id, interaction.user.id, expected_version=self.version)
            verdict = f"🤝 Draw offer accepted by **{name}**." if report.kind == "draw" else f"**{name}** agrees."
            done = report.kind == "draw"
        else:
            report = await service.decline_draw(self.match_id, interaction.user.id, expected_version=self.version)
            verdict, done = f"Draw offer declined by **{name}**. Play on!", True
        await interaction.edit_original_response(
            content=verdict, view=draw_buttons(report.match, disabled=done, version=self.version))
        await after_presentation(interaction, report)


def draw_buttons(match: Match, *, disabled: bool = False, version: int | None = None) -> discord.ui.View:
    return DrawAnswer.answers_view(match.id, match.version if version is None else version, disabled=disabled)
