"""The league announcement's Join / Leave buttons: persistent (the league id is in the custom id), one service
call per click, the answer private; the announcement itself is refreshed by the league presenter."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import ENGLISH, N_, t
from bot.matches.leagues import LeagueService, league_title
from bot.domain import League

from .common import acknowledge, answer, language, single_view, user_action

LEAGUE_ACTIONS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
}


def leagues_of(interaction: discord.Interaction) -> LeagueService:
    return interaction.client.leagues  # type: ignore[attr-defined]  # Strategos (bot/app.py), the only client, sets it


def league_buttons(league: League, lang: str = ENGLISH) -> discord.ui.View | None:
    """Join and Leave while the league is open (a running Swiss still takes players for its next round), labelled
    in `lang` (the server's: the announcement is public)."""
    if not league.is_open:
        return None
    return single_view(*(LeagueButton(league.id, action, lang) for action in LEAGUE_ACTIONS))


async def join_league(interaction: discord.Interaction, league_id: int) -> None:
    await acknowledge(interaction)
    league = await leagues_of(interaction).join(league_id, interaction.user.id, interaction.user.display_name)
    lang = language(interaction)
    if league.status == "signup":
        text = t(lang, "✅ You are in **{league}**. It starts {when}; your matches open in their own threads.",
                 league=league_title(league), when=f"<t:{int(league.signup_ends_at)}:R>")
    else:
        text = t(lang, "✅ You are in **{league}**. You are paired from the next round; your matches open in their "
                       "own threads.", league=league_title(league))
    await answer(interaction, text)


async def leave_league(interaction: discord.Interaction, league_id: int) -> None:
    await acknowledge(interaction)
    league, resigned = await leagues_of(interaction).leave(league_id, interaction.user.id)
    lang = language(interaction)
    if league.status == "signup":
        await answer(interaction, t(lang, "You have left **{league}**.", league=league_title(league)))
        return
    text = t(lang, "You have left **{league}** and won't be paired again.", league=league_title(league))
    if resigned:
        text += " " + t(lang, "Your unfinished matches ({matches}) were resigned.",
                        matches=", ".join(f"#{m}" for m in resigned))
    await answer(interaction, text)


class LeagueButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:lg:(?P<id>\d+):(?P<action>[a-z]+)"):
    def __init__(self, league_id: int, action: str, lang: str = ENGLISH):
        label, style = LEAGUE_ACTIONS[action]
        super().__init__(discord.ui.Button(label=t(lang, label), style=style, custom_id=f"sg:lg:{league_id}:{action}"))
        self.league_id, self.action = league_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        action = match["action"] if match["action"] in LEAGUE_ACTIONS else "join"
        return cls(int(match["id"]), action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.action == "join":
            await join_league(interaction, self.league_id)
        else:
            await leave_league(interaction, self.league_id)
