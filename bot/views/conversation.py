"""Buttons in a conversation where the bot is not a member (bot/presenters/conversation.py): there it cannot grey
out an old board when it posts a new one, so a click on the old one greys it, as the click's own answer."""

from __future__ import annotations

from typing import Awaitable, TypeVar

import discord

from bot.matches import errors
from bot.presenters.conversation import bot_absent

T = TypeVar("T")


async def unless_stale(interaction: discord.Interaction, current: Awaitable[T]) -> T:
    """`current` (the check that the clicked board still acts); if it raises StaleBoard where the bot is no
    member, the clicked board's buttons are greyed before the refusal is told. The check runs before the click is
    acknowledged there: greying is the click's first answer."""
    try:
        return await current
    except errors.StaleBoard:
        if bot_absent(interaction) and interaction.message is not None and not interaction.response.is_done():
            greyed = discord.ui.View.from_message(interaction.message, timeout=None)
            for item in greyed.children:
                if isinstance(item, (discord.ui.Button, discord.ui.Select)):
                    item.disabled = True
            greyed.stop()
            await interaction.response.edit_message(view=greyed)
        raise
