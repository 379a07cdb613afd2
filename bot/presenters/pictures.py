"""Pictures for Discord: renders run off the event loop, so a slow image never blocks other interactions."""

from __future__ import annotations

import asyncio
import io
from typing import Any, Sequence

import discord

import renderers
from renderers.rating_chart import rating_chart


async def render_png(view: dict[str, Any], names: Sequence[str]) -> bytes:
    return await asyncio.to_thread(renderers.render, view, player_names=list(names))


async def render_file(view: dict[str, Any], names: Sequence[str], filename: str = "board.png") -> discord.File:
    return discord.File(io.BytesIO(await render_png(view, names)), filename=filename)


async def rules_file(game_key: str) -> discord.File | None:
    if not renderers.can_render(game_key):
        return None
    png = await asyncio.to_thread(renderers.rules_diagram, game_key)
    return discord.File(io.BytesIO(png), filename="rules.png")


async def rating_chart_file(points: Sequence[tuple[float, int]], title: str) -> discord.File:
    png = await asyncio.to_thread(rating_chart, list(points), title=title)
    return discord.File(io.BytesIO(png), filename="rating.png")
