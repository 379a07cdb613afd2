"""What the cogs share: which games can be played here, and the match autocomplete."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

import renderers
from bot.games import GAMES, get_game
from bot.storage import Match

if TYPE_CHECKING:
    from bot.app import StrategosBot


def playable_games() -> list[str]:
    """Games with an engine and a renderer: the ones /play offers."""
    return [key for key in GAMES if renderers.can_render(key)]


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=GAMES[key].info.title, value=key) for key in playable_games()]


def match_label(match: Match, user_id: int, to_act: list[int]) -> str:
    title = get_game(match.game).info.title
    others = [s.user_name for s in match.seats if s.user_id != user_id]
    waiting = " — your turn" if match.seat_of(user_id) in to_act else ""
    return f"#{match.id} {title} vs {', '.join(others)}{waiting}"[:100]


async def autocomplete_match(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    bot: StrategosBot = interaction.client  # type: ignore[assignment]
    matches = await bot.matches.matches_of(interaction.user.id)
    current = current.strip().lower().lstrip("#")
    choices = []
    for match in matches:
        label = match_label(match, interaction.user.id, bot.matches.to_act(match))
        if current in label.lower():
            choices.append(app_commands.Choice(name=label, value=match.id))
    return choices[:25]
