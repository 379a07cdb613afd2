"""The league announcement's Join / Leave buttons: persistent (the league id is in the custom id), one service
call per click, the answer private; the announcement itself is refreshed by the league presenter."""

from __future__ import annotations

from typing import Any

import discord

from bot.matches.leagues import LeagueService
from bot.storage.leagues import League

from .common import answer, single_view, user_action

LEAGUE_ACTIONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
}


def leagues_of(interaction: discord.Interaction) -> LeagueService:
    return interaction.client.leagues  # type: ignore[attr-defined]


def league_buttons(league: League) -> discord.ui.View | None:
    """Join and Leave while the league is open (a running Swiss still takes players for its next round)."""
    if not league.is_open:
        return None
    return single_view(*(LeagueButton(league.id, action) for action in LEAGUE_ACTIONS))


async def acknowledge(interaction: discord.Interaction) -> None:
    """Defer (privately) before the first database read, unless already done."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def join_league(interaction: discord.Interaction, league_id: int) -> None:
    await acknowledge(interaction)
    league = await leagues_of(interaction).join(league_id, interaction.user.id, interaction.user.display_name)
    when = (f"It starts <t:{int(league.signup_ends_at)}:R>" if league.status == "signup"
            else "You are paired from the next round")
    await answer(interaction, f"✅ You are in **{league.title}**. {when}; your matches open in their own threads.")


async def leave_league(interaction: discord.Interaction, league_id: int) -> None:
    await acknowledge(interaction)
    league, resigned = await leagues_of(interaction).leave(league_id, interaction.user.id)
    if league.status == "signup":
        await answer(interaction, f"You have left **{league.title}**.")
    else:
        resigned_text = (f" Your unfinished matches ({', '.join(f'#{m}' for m in resigned)}) were resigned."
                         if resigned else "")
        await answer(interaction, f"You have left **{league.title}** and won't be paired again.{resigned_text}")


class LeagueButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:lg:(?P<id>\d+):(?P<action>[a-z]+)"):
    def __init__(self, league_id: int, action: str):
        label, style = LEAGUE_ACTIONS[action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"sg:lg:{league_id}:{action}"))
        self.league_id, self.action = league_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        action = match["action"] if match["action"] in LEAGUE_ACTIONS else "join"
        return cls(int(match["id"]), action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.action == "join":
            await join_league(interaction, self.league_id)
        else:
            await leave_league(interaction, self.league_id)
