"""Resigning (with a confirmation) and draws by agreement (offer → accept or decline)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.matches import errors
from bot.storage import Match

from .board import fetch_thread
from .common import MatchButton, answer, mentions, user_action
from .turns import announce

if TYPE_CHECKING:
    from bot.app import StrategosBot


async def ask_resign_confirmation(interaction: discord.Interaction, match: Match) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(ResignConfirm(match.id))
    await interaction.response.send_message(
        f"Resign match #{match.id}? Your opponent wins at once. If you changed your mind, just dismiss this.",
        view=view, ephemeral=True,
    )


class ResignConfirm(MatchButton, template=r"sg:r:(?P<match>\d+)"):
    PREFIX, LABEL, STYLE = "sg:r", "Yes, resign", discord.ButtonStyle.danger

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: StrategosBot = interaction.client  # type: ignore[assignment]
        report = await bot.matches.resign(self.match_id, interaction.user.id)
        await interaction.response.edit_message(content="You resigned.", view=None)
        await announce(bot, report, interaction)


async def offer_draw(bot: StrategosBot, interaction: discord.Interaction, match: Match) -> None:
    report = await bot.matches.offer_draw(match.id, interaction.user.id, expected_version=match.version)
    if report.kind == "draw":  # the last player needed agreed
        await answer(interaction, "You accepted the draw.")
        await announce(bot, report, interaction)
        return
    await answer(interaction, "Draw offered. Your opponent can accept or decline in the thread.")
    thread = await fetch_thread(bot, report.match)
    if thread is None:
        return
    waiting = [s.user_id for s in report.match.seats if s.seat not in (report.match.draw_agreed or [])]
    ping, allowed = mentions(waiting)
    view = discord.ui.View(timeout=None)
    view.add_item(DrawAnswer(match.id, report.match.version, "yes"))
    view.add_item(DrawAnswer(match.id, report.match.version, "no"))
    await thread.send(
        f"🤝 **{report.match.seats[report.seat].user_name}** offers a draw. {ping}", view=view,
        allowed_mentions=allowed,
    )


class DrawAnswer(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"sg:d:(?P<match>\d+):(?P<version>\d+):(?P<answer>yes|no)"):
    def __init__(self, match_id: int, version: int, answer: str, *, disabled: bool = False):
        label, style = (("Accept draw", discord.ButtonStyle.success) if answer == "yes"
                        else ("Decline draw", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(
            label=label, style=style, disabled=disabled, custom_id=f"sg:d:{match_id}:{version}:{answer}"
        ))
        self.match_id, self.version, self.answer = match_id, version, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]), int(match["version"]), match["answer"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: StrategosBot = interaction.client  # type: ignore[assignment]
        match = await bot.matches.get_match(self.match_id)
        if match.seat_of(interaction.user.id) is None:
            raise errors.NotInMatch()
        if not match.active:
            raise errors.MatchOver()
        if match.version != self.version or not match.draw_agreed:
            raise errors.UserError("This draw offer was withdrawn by a move since.")
        if match.seat_of(interaction.user.id) in match.draw_agreed:
            raise errors.UserError("That's your own offer — waiting for your opponent.")
        done = discord.ui.View(timeout=None)
        done.add_item(DrawAnswer(self.match_id, self.version, "yes", disabled=True))
        done.add_item(DrawAnswer(self.match_id, self.version, "no", disabled=True))
        name = interaction.user.display_name
        if self.answer == "yes":
            report = await bot.matches.offer_draw(self.match_id, interaction.user.id, expected_version=self.version)
            verdict = f"🤝 Draw offer accepted by **{name}**." if report.kind == "draw" else f"**{name}** agrees."
            await interaction.response.edit_message(content=verdict, view=done)
            if report.kind == "draw":
                await announce(bot, report, interaction)
        else:
            await bot.matches.decline_draw(self.match_id, interaction.user.id)
            await interaction.response.edit_message(content=f"Draw offer declined by **{name}**. Play on!", view=done)
