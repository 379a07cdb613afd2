"""/away, /back, /notify and /settings: time away from your matches, the notifications you want, and the server's
settings (default clock, challenge expiry, league organisers' role) for members who manage it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.matches.server_settings import CLOCK_CHOICES, SETTINGS, TIME_ZONE
from bot.presenters.clock_text import clock_kind, clock_lines, clock_name, duration, plain


from bot.domain import MemberPrefs
from bot.views.common import acknowledge, answer, language, service_of

from .common import autocomplete_match, autocomplete_zone, may_manage

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


def _switch(value: str | None) -> bool | None:
    return None if value is None else value == "on"


def _prefs_text(prefs: MemberPrefs, lang: str) -> str:
    def switch(on: bool) -> str:  # as the command's own choice shows it
        return t(lang, "on" if on else "off", context="choice_name")

    return t(lang, "A DM each time it is your turn: **{turns}** · reminders when your time runs short: "
                   "**{reminders}**.", turns=switch(prefs.turn_dms), reminders=switch(prefs.reminders))


class ClocksCog(commands.Cog, name="Clocks"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="away", description="Pause the clocks of all your matches while you are away")
    @app_commands.describe(days="How many days, from your vacation days; a move or /back ends it sooner")
    async def away(self, interaction: discord.Interaction, days: int) -> None:
        await acknowledge(interaction)
        until = await service_of(interaction).go_away(interaction.user.id, days)
        await answer(interaction, t(language(interaction), "💤 Your clocks are paused until {until}. Opponents see "
                                    "that you are away. Any move of yours, or `/back`, ends it sooner.",
                                    until=f"<t:{int(until)}:f>"))

    @app_commands.command(name="back", description="End your time away: your clocks run again")
    async def back(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        if await service_of(interaction).come_back(interaction.user.id):
            lang = language(interaction)
            left = await service_of(interaction).vacation_left(interaction.user.id) or 0.0
            await answer(interaction, t(lang, "👋 Welcome back: your clocks run again, with the time they had left. "
                                              "You have {left} of vacation left this year.",
                                        left=duration(left, lang)))
        else:
            await answer(interaction, t(language(interaction), "You are not away, so nothing changed."))

    @app_commands.command(name="timezone", description="Your time zone, where quiet weekends stop your clocks")
    @app_commands.describe(zone="An IANA name such as Europe/Berlin (empty: show yours)")
    @app_commands.autocomplete(zone=autocomplete_zone)
    async def timezone(self, interaction: discord.Interaction, zone: str | None = None) -> None:
        await acknowledge(interaction)
        service, lang = service_of(interaction), language(interaction)
        mine = await service.member_zone(interaction.user.id, zone)
        if mine is None:
            server = await service.server_time_zone(interaction.guild_id)
            await answer(interaction, t(lang, "You have not chosen a time zone, so this server's applies: **{zone}**. "
                                              "Choose yours with `/timezone`.", zone=server))
            return
        head = t(lang, "Saved.") + " " if zone is not None else ""
        await answer(interaction, head + t(lang, "Your time zone: **{zone}**. In matches with quiet weekends your "
                                                 "clock stands still from Saturday 00:00 to Monday 00:00 there.",
                                           zone=mine))

    @app_commands.command(name="clock", description="A match's clock: time per move, who must move by when")
    @app_commands.describe(match="One of your matches", clock="A match keeps the clock it started with")
    @app_commands.autocomplete(match=autocomplete_match)
    @app_commands.choices(clock=[app_commands.Choice(name=c, value=c) for c in CLOCK_CHOICES])
    async def clock(self, interaction: discord.Interaction, match: int, clock: str | None = None) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        found = await service.match_for(match, interaction.user.id, interaction.guild_id)
        state = await service.clock_of(found, change=clock)
        lang = language(interaction)
        if state.clock_seconds is None:
            await answer(interaction, t(lang, "Match #{match} has no clock.", match=found.id))
            return
        if not plain(state.rules):
            head = t(lang, "Match #{match}: {clock}.", match=found.id,
                     clock=clock_kind(state.clock_seconds, state.rules, lang))
        else:
            head = t(lang, "Match #{match}: {clock} a move.", match=found.id, clock=clock_name(state.clock_seconds, lang))
        lines = [head, *clock_lines(found, state, lang)]
        await answer(interaction, "\n".join(lines))

    @app_commands.command(name="notify", description="Choose your DMs: each turn (default off), reminders (on)")
    @app_commands.describe(turns="A DM each time it is your turn", reminders="A DM when your time runs short")
    @app_commands.choices(turns=ON_OFF, reminders=ON_OFF)
    async def notify(self, interaction: discord.Interaction, turns: str | None = None,
                     reminders: str | None = None) -> None:
        await acknowledge(interaction)
        prefs = await service_of(interaction).notifications(
            interaction.user.id, turn_dms=_switch(turns), reminders=_switch(reminders))
        lang = language(interaction)
        head = t(lang, "Saved.") + " " if turns is not None or reminders is not None else ""
        await answer(interaction, head + _prefs_text(prefs, lang))

    @app_commands.command(name="settings", description="This server's settings: match defaults, league organisers "
                                                       "(Manage Server)")
    @app_commands.describe(setting="Which setting to change (empty: show them all)", value="Its new value",
                           role="The role, for League organisers (value none clears it)")
    @app_commands.choices(setting=[app_commands.Choice(name=s.title, value=s.key) for s in SETTINGS.values()])
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(self, interaction: discord.Interaction, setting: str | None = None,
                       value: str | None = None, role: discord.Role | None = None) -> None:
        await acknowledge(interaction)
        service, lang = service_of(interaction), language(interaction)
        manager = may_manage(interaction)
        head = ""
        if setting is not None or value is not None or role is not None:
            changed = await service.change_setting(interaction.guild_id, setting or "", value or "",
                                                   may_manage=manager, role_id=role.id if role else None)
            head = t(lang, changed.saved) + "\n"
        values = await service.settings_for(interaction.guild_id, may_manage=manager)
        lines = [f"• **{t(lang, spec.title)}**: {t(lang, spec.label_of(values[key]))} — "
                 f"{t(lang, spec.description)}" for key, spec in SETTINGS.items()]
        await answer(interaction, head + t(lang, "**Server settings**") + "\n" + "\n".join(lines))

    @settings.autocomplete("value")
    async def value_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        spec = SETTINGS.get(getattr(interaction.namespace, "setting", None) or "")
        if spec is not None and spec.key == TIME_ZONE:
            return await autocomplete_zone(interaction, current)
        labels = spec.choices if spec else [label for s in SETTINGS.values() for label in s.choices]
        lang = language(interaction)  # shown in her language, sent back as the label the setting knows
        return [app_commands.Choice(name=t(lang, label), value=label) for label in labels
                if current.lower() in label.lower() or current.lower() in t(lang, label).lower()][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ClocksCog(bot))
