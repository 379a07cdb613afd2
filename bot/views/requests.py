"""Answers that are moves of their own, asked for in private: a Mycenae load request's Consent / Refuse, and the
confirmation a burn needs before it is played from /move."""

from __future__ import annotations

from typing import Any

import discord

from bot.domain import Match

from bot.i18n import ENGLISH, N_, t

from .common import (
    AnswerButton, acknowledge, after_presentation, answering_in_thread, language, service_of, user_action,
)
from .history import played_buttons

class ConsentButton(AnswerButton, template=r"sg:k:(?P<match>\d+):(?P<version>\d+):(?P<answer>consent|refuse)"):
    """The asked player's answer to a load request: her move, valid only while the request stands (the version)."""

    PREFIX = "sg:k"
    ANSWERS = {
        "consent": (N_("Consent"), discord.ButtonStyle.success),
        "refuse": (N_("Refuse"), discord.ButtonStyle.danger),
    }

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)  # before the reads and the write, which may queue behind other matches
        service = service_of(interaction)
        await service.playable_match(self.match_id, interaction.user.id, version=self.version, need_turn=True)
        report = await service.submit_move(self.match_id, interaction.user.id, self.answer,
                                           expected_version=self.version)
        lang = language(interaction)
        said = (t(lang, "✅ You let the pieces be loaded in match #{match}.", match=self.match_id)
                if self.answer == "consent" else
                t(lang, "✅ You refused the request in match #{match}.", match=self.match_id))
        await interaction.followup.send(said, ephemeral=True, view=played_buttons(interaction, report))
        await after_presentation(interaction, report)


def consent_buttons(match: Match, *, disabled: bool = False, lang: str = ENGLISH) -> discord.ui.View:
    return ConsentButton.answers_view(match.id, match.version, disabled=disabled, lang=lang)


class ConfirmMove(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"sg:m:(?P<match>\d+):(?P<version>\d+):(?P<move>[a-z0-9 @=:,-]{2,60})"):
    """Plays a move that asked for a confirmation (a burn) — only while the position is the one it was asked in."""

    def __init__(self, match_id: int, version: int, move: str, lang: str = ENGLISH):
        super().__init__(discord.ui.Button(label=t(lang, "Yes, {move}", move=move)[:80],
                                           style=discord.ButtonStyle.danger,
                                           custom_id=f"sg:m:{match_id}:{version}:{move}"))
        self.match_id, self.version, self.move = match_id, version, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(int(match["match"]), int(match["version"]), match["move"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        service = service_of(interaction)
        async with answering_in_thread(interaction, self.match_id, ready=True):
            report = await service.submit_move(self.match_id, interaction.user.id, self.move,
                                               expected_version=self.version)
            await interaction.edit_original_response(
                content=t(language(interaction), "✅ You played `{move}`.", move=self.move),
                view=played_buttons(interaction, report))
            await after_presentation(interaction, report)
