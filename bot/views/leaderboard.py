"""The leaderboard's page buttons: each carries the server, game and page it shows, so paging needs no memory."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import ENGLISH, t, tn
from bot.matches import catalogue
from bot.presenters.text import EMBED_DESCRIPTION_LIMIT, fit
from bot.ratings import LeaderboardPage

from .common import acknowledge, language, service_of, single_view, user_action


def leaderboard_embed(page: LeaderboardPage, lang: str = ENGLISH) -> discord.Embed:
    title = catalogue.info(page.game).title
    lines = []
    for entry in page.entries:
        r = entry.rating
        lines.append(tn(lang, "**{rank}.** {player} — {rating} · {count} game ({wins}W {draws}D {losses}L)",
                        "**{rank}.** {player} — {rating} · {count} games ({wins}W {draws}D {losses}L)", r.games,
                        rank=entry.rank, player=r.name, rating=r.label, wins=r.wins, draws=r.draws, losses=r.losses))
    if not lines:
        lines.append(t(lang, "Nobody has played a rated match of this game here yet. Start one with `/play`."))
    if page.me is not None and page.me not in page.entries:
        lines += ["", tn(lang, "You: **{rank}.** {rating} · {count} game",
                         "You: **{rank}.** {rating} · {count} games", page.me.rating.games, rank=page.me.rank,
                         rating=page.me.rating.label)]
    pages = max(1, -(-page.total // page.limit))
    embed = discord.Embed(title=t(lang, "{game} leaderboard", game=title),
                          description=fit("\n".join(lines), EMBED_DESCRIPTION_LIMIT))
    embed.set_footer(text=tn(lang, "Page {page} of {pages} · {count} rated player · a ? marks a provisional rating "
                                   "(fewer than 5 games)",
                             "Page {page} of {pages} · {count} rated players · a ? marks a provisional rating "
                             "(fewer than 5 games)", page.total, page=page.offset // page.limit + 1, pages=pages))
    return embed


def leaderboard_buttons(page: LeaderboardPage, lang: str = ENGLISH) -> discord.ui.View:
    number = page.offset // page.limit
    return single_view(
        LeaderboardButton(page.guild_id, page.game, number - 1, "prev", disabled=number == 0, lang=lang),
        LeaderboardButton(page.guild_id, page.game, number + 1, "next", disabled=not page.has_more, lang=lang),
    )


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button],
                        template=r"sg:l:(?P<guild>\d+):(?P<game>[a-z]+):(?P<page>-?\d+):(?P<dir>prev|next)"):
    def __init__(self, guild_id: int, game: str, page: int, direction: str, *, disabled: bool = False,
                 lang: str = ENGLISH):
        label = t(lang, "◀ Previous") if direction == "prev" else t(lang, "Next ▶")
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"sg:l:{guild_id}:{game}:{page}:{direction}"))
        self.guild_id, self.game, self.page = guild_id, game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(int(match["guild"]), match["game"], int(match["page"]), match["dir"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        page = await service_of(interaction).leaderboard(self.guild_id, self.game, interaction.user.id, self.page)
        lang = language(interaction)
        await interaction.edit_original_response(embed=leaderboard_embed(page, lang),
                                                 view=leaderboard_buttons(page, lang))
