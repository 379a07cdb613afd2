"""Buttons of match records: history pages, Rematch on a finished match's final post, and take-backs (asking,
on the mover's own "✅ You played" answer, and answering, on the request in the thread).

Custom ids carry what they act on (match, page or version), so every button works after a restart, and each
click is checked anew for the person clicking.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.matches import TurnReport
from bot.matches.records import HistoryPage, MatchRecords
from bot.presenters import challenge_mentions, challenge_text
from bot.presenters.text import EMBED_DESCRIPTION_LIMIT, fit, message_link
from bot.storage import Match

from .challenge import challenge_buttons
from .common import (
    AnswerButton, MatchButton, acknowledge, after_presentation, answer, presenter_of, service_of, single_view,
    user_action,
)


def records_of(interaction: discord.Interaction) -> MatchRecords:
    return interaction.client.records  # type: ignore[attr-defined]


# --- history -----------------------------------------------------------------------------------------------


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"sg:h:(?P<match>\d+):(?P<page>\d+):(?P<way>[pn])"):
    """Turns a page of /history; the page is recomputed for whoever clicks, with what she may know."""

    def __init__(self, match_id: int, page: int, way: str, *, disabled: bool = False):
        label = "◀ Previous" if way == "p" else "Next ▶"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"sg:h:{match_id}:{page}:{way}"))
        self.match_id, self.page = match_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]), int(match["page"]), match["way"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        page = await records_of(interaction).history(self.match_id, interaction.user.id, interaction.guild_id,
                                                     self.page)
        await interaction.edit_original_response(embed=history_embed(page), view=history_buttons(page))


def history_embed(page: HistoryPage) -> discord.Embed:
    embed = discord.Embed(title=page.title, description=fit(page.text, EMBED_DESCRIPTION_LIMIT))
    embed.set_footer(text=f"Page {page.page + 1} of {page.pages}"
                          + ("" if page.match.active else " · the match is over: every move is shown"))
    return embed


def history_buttons(page: HistoryPage) -> discord.ui.View | None:
    if page.pages <= 1:
        return None
    return single_view(
        HistoryButton(page.match.id, max(page.page - 1, 0), "p", disabled=page.page == 0),
        HistoryButton(page.match.id, min(page.page + 1, page.pages - 1), "n", disabled=page.page >= page.pages - 1),
    )


# --- rematch -----------------------------------------------------------------------------------------------


class RematchButton(MatchButton, template=r"sg:rm:(?P<match>\d+)"):
    """On a finished match's final post: challenge the same players again, seats rotated."""

    PREFIX, LABEL, STYLE = "sg:rm", "Rematch", discord.ButtonStyle.primary

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        user = interaction.user
        rematch = await records_of(interaction).rematch(self.match_id, user.id, user.display_name)
        challenge = rematch.challenge
        if not rematch.opened:  # she took her seat in the open rematch; a full one starts (the presenters' work)
            if challenge.status == "open":
                await presenter_of(interaction).challenges.refresh(challenge)
            link = message_link(challenge.guild_id, challenge.channel_id, challenge.message_id)
            await answer(interaction, "You accepted the rematch" + (f": {link}" if link else "."))
            return
        # The challenge goes where the first one was: the thread of a finished match is closed.
        client = interaction.client
        channel = client.get_channel(challenge.channel_id) or await client.fetch_channel(challenge.channel_id)
        message = await channel.send(  # type: ignore[union-attr]
            challenge_text(challenge), view=challenge_buttons(challenge) or discord.utils.MISSING,
            allowed_mentions=challenge_mentions(challenge),
        )
        await service_of(interaction).set_challenge_message(challenge.id, message.id)
        await answer(interaction, "Rematch offered: "
                     + (message_link(challenge.guild_id, challenge.channel_id, message.id) or "see the channel"))


# --- take-backs --------------------------------------------------------------------------------------------


class TakebackButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:tb:(?P<match>\d+):(?P<version>\d+)"):
    """On the mover's own answer: ask to take back the move that made `version`, until someone acts."""

    def __init__(self, match_id: int, version: int):
        super().__init__(discord.ui.Button(label="Take back", style=discord.ButtonStyle.secondary, emoji="↩️",
                                           custom_id=f"sg:tb:{match_id}:{version}"))
        self.match_id, self.version = match_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]), int(match["version"]))

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        report = await records_of(interaction).ask_takeback(self.match_id, interaction.user.id,
                                                            expected_version=self.version)
        await answer_asked(interaction, report)


async def answer_asked(interaction: discord.Interaction, report: TurnReport) -> None:
    who = "Your opponent" if len(report.match.seats) == 2 else "The other players"
    await answer(interaction, f"↩️ You asked to take back `{report.move}` in match #{report.match.id}. {who} can "
                              "accept or decline in the thread.")
    await after_presentation(interaction, report)


def takeback_offer(interaction: discord.Interaction, report: TurnReport) -> discord.ui.View | None:
    """The Take back button for the mover's "✅ You played" answer, when her move may be taken back at all."""
    if not records_of(interaction).takeback_offered(report):
        return None
    return single_view(TakebackButton(report.match.id, report.match.version))


class TakebackAnswer(AnswerButton, template=r"sg:ta:(?P<match>\d+):(?P<version>\d+):(?P<answer>yes|no)"):
    """A player's answer to a take-back request, valid only while the request stands (the version)."""

    PREFIX = "sg:ta"
    ANSWERS = {
        "yes": ("Accept take-back", discord.ButtonStyle.success),
        "no": ("Decline take-back", discord.ButtonStyle.secondary),
    }

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        report = await records_of(interaction).answer_takeback(self.match_id, interaction.user.id, self.version,
                                                               self.answer == "yes")
        name = interaction.user.display_name
        verdict = {
            "takeback": f"↩️ `{report.move}` was taken back: **{name}** agreed.",
            "takeback_agreed": f"**{name}** agrees to take back `{report.move}`; waiting for the others.",
            "takeback_declined": f"**{name}** declined to take back `{report.move}`. Play on!",
        }[report.kind]
        await interaction.edit_original_response(
            content=verdict, view=takeback_buttons(report.match, disabled=report.kind != "takeback_agreed",
                                                   version=self.version))
        await after_presentation(interaction, report)


def takeback_buttons(match: Match, *, disabled: bool = False, version: int | None = None) -> discord.ui.View:
    version = match.version if version is None else version
    return TakebackAnswer.answers_view(match.id, version, disabled=disabled)


RECORD_ITEMS = (HistoryButton, RematchButton, TakebackButton, TakebackAnswer)

__all__ = ["RECORD_ITEMS", "history_buttons", "history_embed", "records_of", "takeback_buttons", "takeback_offer"]
