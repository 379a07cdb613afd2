"""The board post's buttons: Move, My view, Resign, Offer draw, and Explore (views/explore.py).

Each is a DynamicItem whose custom_id carries the match id and the version the board shows, so it keeps working
after a restart; the service decides whether the board is still the current one.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import ENGLISH, N_, t
from bot.matches import catalogue, errors
from bot.presenters.conversation import bot_absent
from bot.presenters.describe import side_of, text_board
from bot.presenters.layout import greyed
from bot.domain import Match

from .common import (
    acknowledge, after_presentation, answer, language, service_of, single_view, user_action,
)
from .endings import ResignConfirm
from .conversation import unless_stale
from .explore import ExploreButton
from .picker import open_picker, show_private

BOARD_ACTIONS = {  # labels in the server's language on the board post
    "move": (N_("Move"), discord.ButtonStyle.primary),
    "view": (N_("My view"), discord.ButtonStyle.secondary),
    "describe": (N_("Describe"), discord.ButtonStyle.secondary),
    "resign": (N_("Resign"), discord.ButtonStyle.danger),
    "draw": (N_("Offer draw"), discord.ButtonStyle.secondary),
}


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:b:(?P<match>\d+):(?P<version>\d+):(?P<action>[a-z]+)"):
    def __init__(self, match_id: int, version: int, action: str, *, disabled: bool = False, lang: str = ENGLISH):
        label, style = BOARD_ACTIONS[action]
        super().__init__(discord.ui.Button(
            label=t(lang, label), style=style, disabled=disabled, custom_id=f"sg:b:{match_id}:{version}:{action}"
        ))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        action = match["action"] if match["action"] in BOARD_ACTIONS else "view"
        return cls(int(match["match"]), int(match["version"]), action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        if not bot_absent(interaction):  # in a conversation a stale board is greyed by the first answer, below
            await acknowledge(interaction)  # every action answers privately, after reads that may queue
        if self.action == "view":  # a private view is harmless from any board: it always shows the present
            await show_private_view(interaction, self.match_id)
            return
        if self.action == "describe":  # the same, in words
            await show_text_board(interaction, self.match_id)
            return
        message = interaction.message
        try:  # in a conversation where the bot is no member, unless_stale greys the board as the click's answer
            match = await unless_stale(interaction, service_of(interaction).playable_match(
                self.match_id, interaction.user.id, version=self.version,
                board_message_id=message.id if message is not None else None, need_turn=self.action == "move",
            ))
        except errors.StaleBoard:
            if message is not None and not bot_absent(interaction):
                await grey_stale(message)
            raise
        await acknowledge(interaction)
        if self.action == "move":
            await open_picker(interaction, match)
        elif self.action == "resign":
            await ask_resign_confirmation(interaction, match)
        elif self.action == "draw":
            await offer_draw(interaction, match)


async def grey_stale(message: discord.Message) -> None:
    """A board whose match moved on but whose buttons still act (its greying failed, or the new board is still
    on its way) is greyed when clicked, keeping its words and picture; the click is refused all the same. Best
    effort: where the bot cannot edit it, the refusal alone answers."""
    try:
        await message.edit(view=greyed(message))
    except discord.HTTPException:
        pass


def board_buttons(match: Match, *, disabled: bool = False, lang: str = ENGLISH) -> discord.ui.View:
    return single_view(*(BoardButton(match.id, match.version, action, disabled=disabled, lang=lang)
                         for action in BOARD_ACTIONS),
                       ExploreButton(match.id, disabled=disabled, lang=lang))


async def show_private_view(interaction: discord.Interaction, match_id: int) -> None:
    """The board from the player's side, plus anything private that could not reach her by DM."""
    await acknowledge(interaction)
    mine = await service_of(interaction).private_view(match_id, interaction.user.id)
    lang = language(interaction)
    line = t(lang, "Your view of match #{match} ({game}) — you play **{side}**.", match=mine.match.id,
             game=catalogue.info(mine.match.game).title, side=side_of(mine.view, mine.seat, lang))
    await show_private(interaction, mine, [line])


async def show_text_board(interaction: discord.Interaction, match_id: int) -> None:
    """The board in words, privately, from the asker's own view (a player's side, or the public view for anyone
    else): every piece by square, in messages a screen reader reads well."""
    await acknowledge(interaction)
    service = service_of(interaction)
    match = await service.match_for(match_id, interaction.user.id, interaction.guild_id)
    view = service.view(match, match.seat_of(interaction.user.id))
    title = catalogue.info(match.game).title
    for text in text_board(title, view, match.names, match_id=match.id, lang=language(interaction)):
        await answer(interaction, text)


async def ask_resign_confirmation(interaction: discord.Interaction, match: Match) -> None:
    lang = language(interaction)
    question = t(lang, "Resign match #{match}? Your opponent wins at once. If you changed your mind, just dismiss "
                       "this.", match=match.id) if len(match.seats) == 2 else \
        t(lang, "Resign match #{match}? You are out, and the others play on. If you changed your mind, just dismiss "
                "this.", match=match.id)
    await answer(interaction, question, view=single_view(ResignConfirm(match.id, lang)))


async def offer_draw(interaction: discord.Interaction, match: Match) -> None:
    report = await service_of(interaction).offer_draw(match.id, interaction.user.id, expected_version=match.version)
    lang = language(interaction)
    if report.kind == "draw":  # the last player needed agreed
        await answer(interaction, t(lang, "You accepted the draw."))
    elif len(match.seats) == 2:
        await answer(interaction, t(lang, "Draw offered. Your opponent can accept or decline in the thread."))
    else:
        await answer(interaction, t(lang, "Draw offered. The other players can accept or decline in the thread."))
    await after_presentation(interaction, report)
