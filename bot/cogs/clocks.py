"""/away, /back, /notify and /settings: time away from your matches, the notifications you want, and the server's
defaults (clock, challenge expiry) for members who manage it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.matches.clocks import MAX_AWAY_DAYS
from bot.matches.server_settings import CLOCK_CHOICES, SETTINGS, clock_label
from bot.presenters.clock_text import clock_lines
from bot.storage import MemberPrefs
from bot.views.common import acknowledge, answer, service_of

from .common import autocomplete_match

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


def _switch(value: str | None) -> bool | None:
    return None if value is None else value == "on"


def _prefs_text(prefs: MemberPrefs) -> str:
    return (f"A DM each time it is your turn: **{'on' if prefs.turn_dms else 'off'}** · "
            f"reminders when your time runs short: **{'on' if prefs.reminders else 'off'}**.")


class ClocksCog(commands.Cog, name="Clocks"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="away", description="Pause the clocks of all your matches while you are away")
    @app_commands.describe(days=f"How many days (1–{MAX_AWAY_DAYS}); a move or /back ends it sooner")
    async def away(self, interaction: discord.Interaction, days: int) -> None:
        await acknowledge(interaction)
        until = await service_of(interaction).clocks.go_away(interaction.user.id, days)
        await answer(interaction, f"💤 Your clocks are paused until <t:{int(until)}:f>. Opponents see that you are "
                                  "away. Any move of yours, or `/back`, ends it sooner.")

    @app_commands.command(name="back", description="End your time away: your clocks run again")
    async def back(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        if await service_of(interaction).clocks.come_back(interaction.user.id):
            await answer(interaction, "👋 Welcome back: your clocks run again, with the time they had left.")
        else:
            await answer(interaction, "You are not away, so nothing changed.")

    @app_commands.command(name="clock", description="A match's clock: time per move, who must move by when")
    @app_commands.describe(match="One of your matches", clock="A match keeps the clock it started with")
    @app_commands.autocomplete(match=autocomplete_match)
    @app_commands.choices(clock=[app_commands.Choice(name=c, value=c) for c in CLOCK_CHOICES])
    async def clock(self, interaction: discord.Interaction, match: int, clock: str | None = None) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        found = await service.match_for(match, interaction.user.id, interaction.guild_id)
        state = await service.clocks.of_running(found, change=clock)
        if state.clock_seconds is None:
            await answer(interaction, f"Match #{found.id} has no clock.")
            return
        lines = [f"Match #{found.id}: {clock_label(state.clock_seconds)} a move.", *clock_lines(found, state)]
        await answer(interaction, "\n".join(lines))

    @app_commands.command(name="notify", description="Choose your DMs: each turn (default off), reminders (on)")
    @app_commands.describe(turns="A DM each time it is your turn", reminders="A DM when your time runs short")
    @app_commands.choices(turns=ON_OFF, reminders=ON_OFF)
    async def notify(self, interaction: discord.Interaction, turns: str | None = None,
                     reminders: str | None = None) -> None:
        await acknowledge(interaction)
        prefs = await service_of(interaction).clocks.notifications(
            interaction.user.id, turn_dms=_switch(turns), reminders=_switch(reminders))
        head = "Saved. " if turns is not None or reminders is not None else ""
        await answer(interaction, head + _prefs_text(prefs))

    @app_commands.command(name="settings", description="This server's defaults for new matches (Manage Server)")
    @app_commands.describe(setting="Which setting to change (empty: show them all)", value="Its new value")
    @app_commands.choices(setting=[app_commands.Choice(name=s.title, value=s.key) for s in SETTINGS.values()])
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(self, interaction: discord.Interaction, setting: str | None = None,
                       value: str | None = None) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        permissions = getattr(interaction.user, "guild_permissions", None)
        may_manage = bool(permissions and permissions.manage_guild)
        head = ""
        if setting is not None or value is not None:
            await service.server_settings.change(interaction.guild_id, setting or "", value or "",
                                                 may_manage=may_manage)
            head = "Saved. Running matches keep the clock they started with.\n"
        values = await service.server_settings.for_manager(interaction.guild_id, may_manage=may_manage)
        lines = [f"• **{spec.title}**: {spec.label_of(values[key])} — {spec.description}"
                 for key, spec in SETTINGS.items()]
        await answer(interaction, head + "**Server settings**\n" + "\n".join(lines))

    @settings.autocomplete("value")
    async def value_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        spec = SETTINGS.get(getattr(interaction.namespace, "setting", None) or "")
        labels = spec.choices if spec else [label for s in SETTINGS.values() for label in s.choices]
        return [app_commands.Choice(name=label, value=label) for label in labels
                if current.lower() in label.lower()][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ClocksCog(bot))
