"""The board post's buttons: Move, My view, Resign, Offer draw.

Each is a DynamicItem whose custom_id carries the match id and the version the board shows, so it keeps working
after a restart; the service decides whether the board is still the current one.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.matches import catalogue
from bot.presenters.pictures import render_file
from bot.storage import Match

from .common import acknowledge, after_presentation, answer, presenter_of, service_of, single_view, user_action
from .endings import ResignConfirm
from .picker import SetupButton, open_picker
from .requests import consent_buttons

BOARD_ACTIONS = {
    "move": ("Move", discord.ButtonStyle.primary),
    "view": ("My view", discord.ButtonStyle.secondary),
    "resign": ("Resign", discord.ButtonStyle.danger),
    "draw": ("Offer draw", discord.ButtonStyle.secondary),
}


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:b:(?P<match>\d+):(?P<version>\d+):(?P<action>[a-z]+)"):
    def __init__(self, match_id: int, version: int, action: str, *, disabled: bool = False):
        label, style = BOARD_ACTIONS[action]
        super().__init__(discord.ui.Button(
            label=label, style=style, disabled=disabled, custom_id=f"sg:b:{match_id}:{version}:{action}"
        ))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        action = match["action"] if match["action"] in BOARD_ACTIONS else "view"
        return cls(int(match["match"]), int(match["version"]), action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)  # every action answers privately, after reads that may queue
        if self.action == "view":  # a private view is harmless from any board: it always shows the present
            await show_private_view(interaction, self.match_id)
            return
        message = interaction.message
        match = await service_of(interaction).playable_match(
            self.match_id, interaction.user.id, version=self.version,
            board_message_id=message.id if message is not None else None, need_turn=self.action == "move",
        )
        if self.action == "move":
            await open_picker(interaction, match)
        elif self.action == "resign":
            await ask_resign_confirmation(interaction, match)
        elif self.action == "draw":
            await offer_draw(interaction, match)


def board_buttons(match: Match, *, disabled: bool = False) -> discord.ui.View:
    return single_view(*(BoardButton(match.id, match.version, action, disabled=disabled) for action in BOARD_ACTIONS))


async def show_private_view(interaction: discord.Interaction, match_id: int) -> None:
    """The board from the player's side, plus anything private that could not reach her by DM."""
    await acknowledge(interaction)
    mine = await service_of(interaction).private_view(match_id, interaction.user.id)
    match, seat = mine.match, mine.seat
    seat_names = mine.view.get("seat_names") or []
    side = seat_names[seat] if seat < len(seat_names) else f"seat {seat + 1}"
    title = catalogue.info(match.game).title
    lines = [f"Your view of match #{match.id} ({title}) — you play **{side}**."]
    pending = await presenter_of(interaction).private.take_pending(match, interaction.user.id)
    lines += [f"📬 {m.content}" for m in pending]
    file = await render_file(mine.view, match.names, filename="your-view.png")
    extra = {}
    if mine.setup_open:
        extra["view"] = single_view(SetupButton(match.id))
    elif mine.consent_open:
        extra["view"] = consent_buttons(match)
    await answer(interaction, "\n".join(lines), file=file, **extra)


async def ask_resign_confirmation(interaction: discord.Interaction, match: Match) -> None:
    others = "Your opponent wins at once" if len(match.seats) == 2 else "You are out, and the others play on"
    await answer(interaction, f"Resign match #{match.id}? {others}. If you changed your mind, just dismiss this.",
                 view=single_view(ResignConfirm(match.id)))


async def offer_draw(interaction: discord.Interaction, match: Match) -> None:
    report = await service_of(interaction).offer_draw(match.id, interaction.user.id, expected_version=match.version)
    if report.kind == "draw":  # the last player needed agreed
        await answer(interaction, "You accepted the draw.")
    else:
        who = "Your opponent" if len(match.seats) == 2 else "The other players"
        await answer(interaction, f"Draw offered. {who} can accept or decline in the thread.")
    await after_presentation(interaction, report)
