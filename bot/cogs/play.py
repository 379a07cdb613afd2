"""/play: challenge one or more members, or open seats anyone may take."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_
from bot.matches import catalogue, errors
from bot.views.challenge import post_challenge
from bot.views.common import acknowledged, language
from bot.views.options import new_panel, panel_text, panel_view

from .common import NOT_A_MEMBER, autocomplete_clock, computer_choices, game_choices, installed_anywhere


class PlayCog(commands.Cog, name="Play"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="play", description="Challenge someone to a game (leave opponent empty for anyone)")
    @app_commands.describe(
        game="Which game",
        opponent="Who you challenge; leave empty for an open challenge anyone may accept",
        players="Number of players, for games of 3–4 (the seats you don't name are open)",
        opponent2="Second opponent (3–4 player games)",
        opponent3="Third opponent (4 player games)",
        clock="Time per move, or a Fischer bank: `fischer 10d +36h max 15d` (empty: this server's default)",
        rated="Whether the result counts for the server's ratings (default: yes)",
        computer="Fill the open seats with the computer at this level (or name Strategos as the opponent)",
        weekends="Clocks stand still from Saturday to Monday, in each player's time zone (empty: server default)",
    )
    @app_commands.choices(game=game_choices(), computer=computer_choices())
    @app_commands.autocomplete(clock=autocomplete_clock)
    @installed_anywhere
    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.User | None = None,
        players: app_commands.Range[int, 2, 4] | None = None,
        opponent2: discord.User | None = None,
        opponent3: discord.User | None = None,
        clock: str | None = None,
        rated: bool = True,
        computer: str | None = None,
        weekends: bool | None = None,
    ) -> None:
        info = catalogue.info(game)
        me = self.bot.user
        given = [m for m in (opponent, opponent2, opponent3) if m is not None]
        named = [m for m in given if me is None or m.id != me.id]
        if len(named) < len(given):
            computer = computer or "normal"  # Strategos itself named as an opponent: a computer seat
        if interaction.guild_id is not None and not all(isinstance(m, discord.Member) for m in named):
            raise errors.UserError(NOT_A_MEMBER)  # in a server, only its members see the challenge
        if any(m.bot for m in named):
            raise errors.UserError(N_("Bots can't play. Challenge a person, leave `opponent` empty, or pick "
                                      "`computer:` to play against Strategos."))
        if interaction.context.dm_channel and (named or not computer):
            raise errors.UserError(N_("Only you can see my DMs, so here you can play the computer (`computer:` or "
                                      "name Strategos). To play friends, use `/play` in a DM or a group DM with "
                                      "them, or in a server."))
        count = players or max(info.min_players, len(named) + 1)
        if len(named) + 1 > count:
            raise errors.UserError(N_("You named {named} opponents for a {count}-player game."), named=len(named),
                                   count=count)
        if not info.min_players <= count <= info.max_players:
            raise errors.UserError(N_("{game} is for {low}–{high} players."), game=info.title, low=info.min_players,
                                   high=info.max_players)
        invited: list[int | None] = [m.id for m in named] + [None] * (count - 1 - len(named))
        if computer and None not in invited:
            raise errors.UserError(N_("Every seat already has a player: leave a seat open for the computer."))
        if info.options:
            panel = new_panel(interaction, user_id=interaction.user.id, user_name=interaction.user.display_name,
                              guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=game,
                              invited=invited, rated=rated, computer_level=computer, clock=clock, weekends=weekends)
            lang = language(interaction)
            await interaction.response.send_message(panel_text(panel, lang), view=panel_view(panel, lang),
                                                    ephemeral=True)
            acknowledged(interaction)
            return
        await post_challenge(interaction, game, invited, {}, rated=rated, computer_level=computer, clock=clock,
                             weekends=weekends)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
