"""Small pieces every view and cog uses: answering, error handling, links, rendering off the event loop."""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from typing import Any, Awaitable, Callable, Sequence

import discord

import renderers
from bot.matches import errors

log = logging.getLogger(__name__)

GENERIC_FAILURE = "Something went wrong on my side. Nothing was changed; please try again."


async def answer(interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any) -> None:
    """Reply whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


def user_action(func: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Wrap a component callback: a UserError becomes an ephemeral answer; anything else is logged and the user
    gets a short apology instead of Discord's "interaction failed"."""

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> Any:
        try:
            return await func(self, interaction, *args, **kwargs)
        except errors.UserError as exc:
            await answer(interaction, str(exc))
        except Exception:
            log.exception("component %s failed for user=%s", func.__qualname__, interaction.user.id)
            await answer(interaction, GENERIC_FAILURE)

    return wrapper


class MatchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:abstract:(?P<match>\d+)"):
    """A persistent button that acts on one match: subclasses give the template, PREFIX, LABEL and STYLE.

        class ResignConfirm(MatchButton, template=r"sg:r:(?P<match>\\d+)"):
            PREFIX, LABEL, STYLE = "sg:r", "Yes, resign", discord.ButtonStyle.danger
    """

    PREFIX: str
    LABEL: str
    STYLE: discord.ButtonStyle = discord.ButtonStyle.secondary

    def __init__(self, match_id: int):
        super().__init__(discord.ui.Button(label=self.LABEL, style=self.STYLE, custom_id=f"{self.PREFIX}:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]))


def message_link(guild_id: int | None, channel_id: int | None, message_id: int | None = None) -> str | None:
    if guild_id is None or channel_id is None:
        return None
    link = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{link}/{message_id}" if message_id else link


async def render_file(view: dict[str, Any], names: Sequence[str], filename: str = "board.png") -> discord.File:
    """Render in a worker thread so a slow image never blocks other interactions."""
    png = await asyncio.to_thread(renderers.render, view, player_names=list(names))
    return discord.File(io.BytesIO(png), filename=filename)


def mentions(user_ids: Sequence[int]) -> tuple[str, discord.AllowedMentions]:
    """Mention text plus an AllowedMentions that pings exactly these users and nobody else."""
    text = " ".join(f"<@{uid}>" for uid in user_ids)
    allowed = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(uid) for uid in user_ids])
    return text, allowed
