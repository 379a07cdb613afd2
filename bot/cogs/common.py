"""What the cogs share: the game choices and the match autocomplete."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.matches import MatchService, catalogue
from bot.storage import Match
from bot.views.common import service_of


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=info.title, value=info.key) for info in catalogue.offered()]


def computer_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=level, value=level) for level in catalogue.COMPUTER_LEVELS]


def all_game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=info.title, value=info.key) for info in catalogue.all_games()]


def match_label(service: MatchService, match: Match, user_id: int) -> str:
    title = catalogue.info(match.game).title
    others = [s.user_name for s in match.seats if s.user_id != user_id]
    waiting = " — your turn" if match.seat_of(user_id) in service.to_act(match) else ""
    return f"#{match.id} {title} vs {', '.join(others)}{waiting}"[:100]


async def autocomplete_match(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    service = service_of(interaction)
    matches = await service.matches_of(interaction.user.id)
    current = current.strip().lower().lstrip("#")[:100]
    choices = []
    for match in matches:
        label = match_label(service, match, interaction.user.id)
        if current in label.lower():
            choices.append(app_commands.Choice(name=label, value=match.id))
    return choices[:25]
