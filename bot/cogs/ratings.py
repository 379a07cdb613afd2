"""/leaderboard and /profile: the server's ratings per game, and a member's record with her rating over time."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, t, tn
from bot.matches import catalogue, errors
from bot.presenters.clock_text import duration
from bot.presenters.describe import rating_chart_alt_text
from bot.presenters.pictures import rating_chart_file
from bot.presenters.text import EMBED_DESCRIPTION_LIMIT, fit
from bot.views.common import acknowledge, answer, guild_of, language, service_of
from bot.views.leaderboard import leaderboard_buttons, leaderboard_embed

from .common import all_game_choices

RECENT_RESULTS = 10


class RatingsCog(commands.Cog, name="Ratings"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The server's ratings in a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=all_game_choices())
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        await acknowledge(interaction)
        page = await service_of(interaction).leaderboard(guild_of(interaction), game, interaction.user.id)
        lang = language(interaction)
        await interaction.followup.send(embed=leaderboard_embed(page, lang), view=leaderboard_buttons(page, lang),
                                        ephemeral=True)

    @app_commands.command(name="profile", description="A member's ratings and record on this server")
    @app_commands.describe(member="Whose profile (yours if left empty)")
    @app_commands.guild_only()
    async def profile(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        who, lang = member or interaction.user, language(interaction)
        if who.bot:
            raise errors.UserError(N_("Bots have no ratings: only members who play rated matches do."))
        await acknowledge(interaction)
        service = service_of(interaction)
        games = await service.rating_profile(guild_of(interaction), who.id)
        friendly = await service.conversation_record(who.id)
        vacation = ""
        left = await service.vacation_left(who.id) if who.id == interaction.user.id else None
        if left is not None:  # her own: what is left of her vacation days (/away)
            vacation = t(lang, "🏖️ Vacation left this year: {left}.", left=duration(left, lang))
        if not games and not friendly.played:
            await answer(interaction, "\n".join(filter(None, [
                t(lang, "**{player}** has no rated matches on this server yet.", player=who.display_name),
                vacation])))
            return
        lines: list[str] = []
        charted = None
        for rating, profile in games:
            title = catalogue.info(rating.game).title
            rank = " · " + t(lang, "#{rank} of {total}", rank=profile.rank, total=profile.total) if profile else ""
            lines.append(f"**{title}** — {rating.label}{rank}")
            lines.append(tn(lang, "{count} game: {wins} won, {draws} drawn, {losses} lost · streak {streak} · last "
                                  "{recent}", "{count} games: {wins} won, {draws} drawn, {losses} lost · streak "
                                  "{streak} · last {recent}", rating.games, wins=rating.wins, draws=rating.draws,
                            losses=rating.losses, streak=rating.streak_text or "—",
                            recent=rating.recent[-RECENT_RESULTS:] or "—"))
            if charted is None or (profile and len(profile.history) > len(charted[1].history)):
                charted = (title, profile) if profile else charted
        if vacation:
            lines.append(vacation)
        if friendly.played:  # apart: no server's, and unrated
            lines.append(tn(lang, "Unrated, in DMs and group DMs: {count} game: {wins} won, {draws} drawn, "
                                  "{losses} lost", "Unrated, in DMs and group DMs: {count} games: {wins} won, "
                                  "{draws} drawn, {losses} lost", friendly.played, wins=friendly.won,
                            draws=friendly.drawn, losses=friendly.lost))
        embed = discord.Embed(title=t(lang, "{player} on this server", player=who.display_name),

                              description=fit("\n".join(lines), EMBED_DESCRIPTION_LIMIT))
        kwargs: dict[str, Any] = {}
        if charted is not None:
            title, profile = charted
            points = profile.chart_points()
            description = rating_chart_alt_text(who.display_name, title, points, language(interaction))
            kwargs["file"] = await rating_chart_file(points, f"{who.display_name} · {title}", description,
                                                     language(interaction))
            embed.set_image(url="attachment://rating.png")
        await interaction.followup.send(embed=embed, ephemeral=True, **kwargs)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RatingsCog(bot))
