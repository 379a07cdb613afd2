"""/league: create a league, join or leave it, start it early, list the server's leagues, see its matches and
standings, cancel it. The announcement's Join / Leave buttons do what /league join and /league leave do."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, localize, t, tn
from bot.matches.leagues import FORMATS, LeagueService, league_title
from bot.presenters.layout import card
from bot.presenters.leagues import league_summary, standings_file, table_line
from bot.presenters.text import message_link
from bot.views.common import acknowledge, answer, channel_of, language, show
from bot.views.leagues import join_league, leagues_of, leave_league

from .common import autocomplete_clock, game_choices, may_manage

STATUS = {"signup": N_("sign-up open"), "running": N_("under way"), "finished": N_("finished"),
          "cancelled": N_("cancelled")}


def _role_ids(interaction: discord.Interaction) -> list[int]:
    """The member's roles, for the service to compare with the server's league organisers' role."""
    return [role.id for role in getattr(interaction.user, "roles", ())]


async def autocomplete_league(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await leagues_of(interaction).names_matching(interaction.guild_id, current)
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]


def league_command(name: str, description: str):
    """A /league subcommand about one of the server's leagues, named with autocomplete; never in DMs."""
    def decorate(func):
        func = app_commands.guild_only()(func)
        func = app_commands.autocomplete(league=autocomplete_league)(func)
        func = app_commands.describe(league="Which league")(func)
        return app_commands.command(name=name, description=description)(func)
    return decorate


async def _league_id(leagues: LeagueService, interaction: discord.Interaction, name: str) -> int:
    return (await leagues.named(interaction.guild_id, name)).id


class LeaguesCog(commands.GroupCog, group_name="league", group_description="Server leagues: round robins and Swiss"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create", description="Open a league for sign-up (Manage Server or the league organisers' role)")
    @app_commands.describe(
        name="The league's name (unique on this server)", game="Which game", format="Round robin or Swiss",
        rounds="Swiss only: how many rounds (default ⌈log2 players⌉ + 1)",
        players="Players at each table: 2, or 3–4 for Mycenae and Myriath",
        clock="Time per move, or a Fischer bank: `fischer 10d +36h max 15d` (empty: this server's default)",
        rated="Whether results count for ratings",
        signup_hours="How long sign-up stays open (default 48 hours)",
        division_size="More players than this: divisions by rating (default 10)",
        repeat="monthly: a new season with the same players after each one ends",
        promotion="Round robins that repeat: how many of each division go up and down a season (default 2)",
        vacation_days="Whether a player out of time spends a vacation day instead of losing (default: yes)",
        weekends="Clocks stand still from Saturday to Monday, in each player's time zone (empty: server default)",
    )
    @app_commands.choices(
        game=game_choices(), format=[app_commands.Choice(name=v, value=k) for k, v in FORMATS.items()],
        repeat=[app_commands.Choice(name=r, value=r) for r in ("none", "monthly")],
    )
    @app_commands.autocomplete(clock=autocomplete_clock)
    @app_commands.guild_only()
    async def create(self, interaction: discord.Interaction, name: str, game: str, format: str,
                     rounds: app_commands.Range[int, 1, 20] | None = None,
                     players: app_commands.Range[int, 2, 4] = 2, clock: str | None = None, rated: bool = True,
                     signup_hours: app_commands.Range[int, 1, 720] | None = None,
                     division_size: app_commands.Range[int, 4, 40] | None = None, repeat: str = "none",
                     promotion: app_commands.Range[int, 1, 20] | None = None, vacation_days: bool = True,
                     weekends: bool | None = None) -> None:
        await acknowledge(interaction)
        leagues = leagues_of(interaction)
        league, delivery = await leagues.create(
            guild_id=interaction.guild_id, channel_id=channel_of(interaction), user_id=interaction.user.id,
            may_manage=may_manage(interaction), role_ids=_role_ids(interaction), name=name, game=game,
            format=format, rounds=rounds, players=players, clock=clock, rated=rated, signup_hours=signup_hours,
            division_size=division_size, repeat=repeat, promotion=promotion, vacation=vacation_days,
            weekends=weekends)
        await delivery
        league = await leagues.get(league.id)
        lang = language(interaction)
        text = t(lang, "✅ **{league}** is open for sign-up ({summary}).", league=league_title(league),
                 summary=league_summary(league, lang))
        if league.message_id:
            where = message_link(league.guild_id, league.channel_id, league.message_id)
            text += " " + t(lang, "Announcement: {link}", link=where)
        await answer(interaction, text)

    @league_command("join", "Sign up for a league")
    async def join(self, interaction: discord.Interaction, league: str) -> None:
        await acknowledge(interaction)
        await join_league(interaction, await _league_id(leagues_of(interaction), interaction, league))

    @league_command("leave", "Leave a league (after its start: resigns your unfinished matches)")
    async def leave(self, interaction: discord.Interaction, league: str) -> None:
        await acknowledge(interaction)
        await leave_league(interaction, await _league_id(leagues_of(interaction), interaction, league))

    @league_command("start", "Start a league now, before sign-up ends (its organiser)")
    async def start(self, interaction: discord.Interaction, league: str) -> None:
        await acknowledge(interaction)
        leagues = leagues_of(interaction)
        started = await leagues.start_now(await _league_id(leagues, interaction, league), interaction.user.id,
                                          may_manage(interaction), _role_ids(interaction))
        lang = language(interaction)
        if started.thread_id:
            text = t(lang, "✅ **{league}** has started: its matches are open — see {thread}.", league=league_title(started),
                     thread=f"<#{started.thread_id}>")
        else:
            text = t(lang, "✅ **{league}** has started: its matches are open.", league=league_title(started))
        await answer(interaction, text)

    @league_command("cancel", "Cancel a league (its organiser); running matches go on")
    async def cancel(self, interaction: discord.Interaction, league: str) -> None:
        await acknowledge(interaction)
        leagues = leagues_of(interaction)
        cancelled = await leagues.cancel(await _league_id(leagues, interaction, league), interaction.user.id,
                                         may_manage(interaction), _role_ids(interaction))
        await answer(interaction, t(language(interaction), "🚫 **{league}** is cancelled.", league=league_title(cancelled)))

    @app_commands.command(name="list", description="This server's leagues")
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        entries = await leagues_of(interaction).listing(interaction.guild_id)
        lang = language(interaction)
        if not entries:
            await answer(interaction, t(lang, "No leagues on this server yet. Someone with Manage Server can "
                                              "`/league create` one."))
            return
        lines = [f"• **{localize(lang, league_title(e.league))}** — {league_summary(e.league, lang)} · "
                 f"{tn(lang, '{count} player', '{count} players', e.players)} · {t(lang, STATUS[e.league.status])}"
                 for e in entries[:20]]
        await answer(interaction, t(lang, "**Leagues**") + "\n" + "\n".join(lines))

    @league_command("matches", "A league's pairings, yours first, with links")
    async def matches(self, interaction: discord.Interaction, league: str) -> None:
        await acknowledge(interaction)
        leagues = leagues_of(interaction)
        found = await leagues.matches_of(await _league_id(leagues, interaction, league), interaction.user.id)
        lang = language(interaction)
        if not found.tables:
            await answer(interaction, t(lang, "**{league}** has no pairings yet: they are made when it starts.",
                                        league=league_title(found.league)))
            return
        lines = [t(lang, "**{league}** — pairings (✓ finished)", league=league_title(found.league))]
        for table in found.tables:
            prefix = t(lang, "R{round}", round=table.round) + " " if found.league.format == "swiss" else ""
            lines.append(f"• {prefix}{table_line(table, found.names, found.league.guild_id, lang)}")
        await answer(interaction, "\n".join(lines))

    @league_command("standings", "A league's standings, privately")
    async def standings(self, interaction: discord.Interaction, league: str) -> None:
        await acknowledge(interaction)
        leagues = leagues_of(interaction)
        found, tables, names = await leagues.standings_of(await _league_id(leagues, interaction, league))
        left = {p.user_id for p in await leagues.players(found.id) if not p.active}
        file = await standings_file(found, tables, names, left, language(interaction))
        await show(interaction, card(f"📊 **{localize(language(interaction), league_title(found))}**", picture=file),
                   file=file)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeaguesCog(bot))
