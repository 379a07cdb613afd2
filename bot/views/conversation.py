"""Buttons in a conversation where the bot is not a member (bot/presenters/conversation.py): there it cannot grey
out an old board when it posts a new one, so a click on the old one greys it, as the click's own answer."""

from __future__ import annotations

from typing import Awaitable, TypeVar

import discord

from bot.i18n import N_
from bot.matches import errors
from bot.presenters.conversation import bot_absent
from bot.presenters.layout import greyed

from .common import acknowledged

T = TypeVar("T")


async def unless_stale(interaction: discord.Interaction, current: Awaitable[T]) -> T:
    """`current` (the check that the clicked board still acts); if it raises StaleBoard where the bot is no
    member, the clicked board's buttons are greyed before the refusal is told. The check runs before the click is
    acknowledged there: greying is the click's first answer."""
    try:
        return await current
    except errors.StaleBoard:
        if bot_absent(interaction) and interaction.message is not None and not interaction.response.is_done():
            await interaction.response.edit_message(view=greyed(interaction.message))
            acknowledged(interaction)
        raise


NOT_PUBLIC = N_("You can't use external apps in this channel, so whatever I answered here would be seen by you "
                "alone. Ask the server's admins for the *Use External Apps* permission, or play in a DM or a group "
                "DM.")


def check_public(interaction: discord.Interaction) -> None:
    """In a server without the bot, a member who lacks Use External Apps gets every answer privately (Discord
    makes it so): a challenge or a board there would be hers alone, so she is told instead."""
    if interaction.guild_id is not None and bot_absent(interaction) \
            and not interaction.permissions.use_external_apps:
        raise errors.UserError(NOT_PUBLIC)
