"""What the cogs share: the game choices, the match autocomplete, and whether a member may manage the server."""

from __future__ import annotations

from typing import TypeVar

import discord
from discord import app_commands

from bot.i18n import ENGLISH, N_, t
from bot.matches import MatchService, catalogue
from bot.matches.server_settings import CLOCK_CHOICES
from bot.matches.weekends import zone_names
from bot.domain import Match
from bot.views.common import language, service_of

T = TypeVar("T")

NOT_A_MEMBER = N_("I can't find that member in this server. Pick someone from the list.")


def installed_anywhere(command: T) -> T:
    """A command a member may use wherever she installed Strategos (her account or the server) and wherever she
    is: servers, the bot's DMs and her private channels (DMs and group DMs)."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def may_manage(interaction: discord.Interaction) -> bool:
    """The member holds Manage Server here (never in DMs)."""
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=info.title, value=info.key) for info in catalogue.offered()]


def computer_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=level, value=level) for level in catalogue.COMPUTER_LEVELS]


def all_game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=info.title, value=info.key) for info in catalogue.all_games()]


def match_label(service: MatchService, match: Match, user_id: int, lang: str = ENGLISH) -> str:
    """'#12 Epaminondas vs bob — your turn': a match as /games and the autocomplete name it."""
    title = catalogue.info(match.game).title
    others = ", ".join(s.user_name for s in match.seats if s.user_id != user_id)
    if match.seat_of(user_id) in service.to_act(match):
        return t(lang, "#{match} {game} vs {players} — your turn", match=match.id, game=title, players=others)[:100]
    return t(lang, "#{match} {game} vs {players}", match=match.id, game=title, players=others)[:100]


async def autocomplete_match(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    service, lang = service_of(interaction), language(interaction)
    matches = await service.matches_of(interaction.user.id)
    current = current.strip().lower().lstrip("#")[:100]
    choices = []
    for match in matches:
        label = match_label(service, match, interaction.user.id, lang)
        if current in label.lower():
            choices.append(app_commands.Choice(name=label, value=match.id))
    return choices[:25]


async def autocomplete_clock(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The clocks of the list in her language, and what she is writing when it is a Fischer clock of her own."""
    lang, typed = language(interaction), current.strip()
    choices = [app_commands.Choice(name=t(lang, label, context="choice_name"), value=label) for label in CLOCK_CHOICES
               if typed.lower() in label.lower() or typed.lower() in t(lang, label, context="choice_name").lower()]
    if typed.lower().startswith("fischer") and typed not in CLOCK_CHOICES:
        choices.insert(0, app_commands.Choice(name=typed[:100], value=typed[:100]))
    return choices[:25]


async def autocomplete_zone(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """IANA time zone names containing what she typed ("berlin" finds Europe/Berlin)."""
    typed = current.strip().casefold().replace(" ", "_")
    return [app_commands.Choice(name=name, value=name) for name in zone_names() if typed in name.casefold()][:25]
