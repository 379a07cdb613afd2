"""Buttons of a match's history and of what may follow a move or an end: history pages, Rematch on a finished
match's final post, and take-backs (asking, on the mover's own "✅ You played" answer, and answering, on the request
in the thread); that answer's Next match.

Custom ids carry what they act on (match, page or version), so every button works after a restart, and each
click is checked anew for the person clicking.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import ENGLISH, N_, t
from bot.matches import TurnReport
from bot.matches.archive import HistoryPage
from bot.matches.places import in_conversation
from bot.presenters import challenge_mentions, challenge_post
from bot.presenters.text import EMBED_DESCRIPTION_LIMIT, fit, message_link
from bot.domain import Match

from .challenge import POSTED, challenge_buttons
from .common import (
    AnswerButton, MatchButton, VersionButton, acknowledge, after_presentation, answer, language, presenter_of,
    server_language, service_of, single_view, user_action,
)


# --- history -----------------------------------------------------------------------------------------------


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"sg:h:(?P<match>\d+):(?P<page>\d+):(?P<way>[pn])"):
    """Turns a page of /history; the page is recomputed for whoever clicks, with what she may know."""

    def __init__(self, match_id: int, page: int, way: str, *, disabled: bool = False, lang: str = ENGLISH):
        label = t(lang, "◀ Previous") if way == "p" else t(lang, "Next ▶")
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"sg:h:{match_id}:{page}:{way}"))
        self.match_id, self.page = match_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(int(match["match"]), int(match["page"]), match["way"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        lang = language(interaction)
        page = await service_of(interaction).history(self.match_id, interaction.user.id, interaction.guild_id,
                                                     self.page, lang)
        await interaction.edit_original_response(embed=history_embed(page, lang), view=history_buttons(page, lang))


def history_embed(page: HistoryPage, lang: str = ENGLISH) -> discord.Embed:
    """A page of /history, in the reader's language (the moves' notation as it is)."""
    embed = discord.Embed(title=page.title, description=fit(page.text, EMBED_DESCRIPTION_LIMIT))
    footer = t(lang, "Page {page} of {pages}", page=page.page + 1, pages=page.pages)
    if not page.match.active:
        footer += " · " + t(lang, "the match is over: every move is shown")
    embed.set_footer(text=footer)
    return embed


def history_buttons(page: HistoryPage, lang: str = ENGLISH) -> discord.ui.View | None:
    if page.pages <= 1:
        return None
    return single_view(
        HistoryButton(page.match.id, max(page.page - 1, 0), "p", disabled=page.page == 0, lang=lang),
        HistoryButton(page.match.id, min(page.page + 1, page.pages - 1), "n", disabled=page.page >= page.pages - 1,
                      lang=lang),
    )


# --- rematch -----------------------------------------------------------------------------------------------


class RematchButton(MatchButton, template=r"sg:rm:(?P<match>\d+)"):
    """On a finished match's final post: challenge the same players again, seats rotated."""

    PREFIX, LABEL, STYLE = "sg:rm", N_("Rematch"), discord.ButtonStyle.primary

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        user = interaction.user
        rematch = await service_of(interaction).rematch(self.match_id, user.id, user.display_name)
        challenge = rematch.challenge
        if not rematch.opened:  # she took her seat in the open rematch; a full one starts (the presenters' work)
            if challenge.status == "open":
                await presenter_of(interaction).refresh_challenge(challenge)
            link = message_link(challenge.guild_id, challenge.channel_id, challenge.message_id)
            lang = language(interaction)
            await answer(interaction, t(lang, "You accepted the rematch: {link}", link=link) if link
                         else t(lang, "You accepted the rematch."))
            return
        if in_conversation(challenge.guild_id):  # there only an answer shows: this click's, in public
            lang = await service_of(interaction).language(challenge.guild_id)
            await interaction.edit_original_response(content=t(language(interaction), POSTED))
            answered = await interaction.followup.send(
                view=challenge_post(challenge, challenge_buttons(challenge, lang), lang),
                allowed_mentions=challenge_mentions(challenge), wait=True)
            await service_of(interaction).set_challenge_message(challenge.id, answered.id)
            return
        # The challenge goes where the first one was: the thread of a finished match is closed.
        client = interaction.client
        channel = client.get_channel(challenge.channel_id) or await client.fetch_channel(challenge.channel_id)
        lang = server_language(interaction)
        message = await channel.send(  # type: ignore[union-attr]  # the first challenge's: a text channel
            view=challenge_post(challenge, challenge_buttons(challenge, lang), lang),
            allowed_mentions=challenge_mentions(challenge),
        )
        await service_of(interaction).set_challenge_message(challenge.id, message.id)
        link = message_link(challenge.guild_id, challenge.channel_id, message.id)
        await answer(interaction, t(language(interaction), "Rematch offered: {link}", link=link) if link
                     else t(language(interaction), "Rematch offered: see the channel."))


# --- take-backs --------------------------------------------------------------------------------------------


class TakebackButton(VersionButton, template=r"sg:tb:(?P<match>\d+):(?P<version>\d+)"):
    """On the mover's own answer: ask to take back the move that made `version`, until someone acts."""

    PREFIX, LABEL, EMOJI = "sg:tb", N_("Take back"), "↩️"

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        report = await service_of(interaction).ask_takeback(self.match_id, interaction.user.id,
                                                            expected_version=self.version)
        await answer_asked(interaction, report)


async def answer_asked(interaction: discord.Interaction, report: TurnReport) -> None:
    lang, match = language(interaction), report.match
    if len(match.seats) == 2:
        text = t(lang, "↩️ You asked to take back `{move}` in match #{match}. Your opponent can accept or decline in "
                       "the thread.", move=report.move, match=match.id)
    else:
        text = t(lang, "↩️ You asked to take back `{move}` in match #{match}. The other players can accept or "
                       "decline in the thread.", move=report.move, match=match.id)
    await answer(interaction, text)
    await after_presentation(interaction, report)


class NextMatch(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:nx"):
    """Next match, as drawn on the mover's own answer. Its click shows the match that has waited longest for
    whoever clicks, with that match's Move button: views/picker.py's NextMatchButton answers it (the picker sits
    above this module, which the picker's own answer uses)."""

    def __init__(self, lang: str = ENGLISH):
        super().__init__(discord.ui.Button(label=t(lang, "Next match"), style=discord.ButtonStyle.primary,
                                           emoji="⏭️", custom_id="sg:nx"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls()


def played_buttons(interaction: discord.Interaction, report: TurnReport) -> discord.ui.View:
    """The buttons of the mover's "✅ You played" answer: Take back, when her move may be taken back at all, and
    Next match."""
    lang = language(interaction)
    items: list[discord.ui.Item] = []
    if service_of(interaction).takeback_offered(report):
        items.append(TakebackButton(report.match.id, report.match.version, lang))
    items.append(NextMatch(lang))
    return single_view(*items)


class TakebackAnswer(AnswerButton, template=r"sg:ta:(?P<match>\d+):(?P<version>\d+):(?P<answer>yes|no)"):
    """A player's answer to a take-back request, valid only while the request stands (the version)."""

    PREFIX = "sg:ta"
    ANSWERS = {
        "yes": (N_("Accept take-back"), discord.ButtonStyle.success),
        "no": (N_("Decline take-back"), discord.ButtonStyle.secondary),
    }

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        report = await service_of(interaction).answer_takeback(self.match_id, interaction.user.id, self.version,
                                                               self.answer == "yes")
        name, lang = interaction.user.display_name, server_language(interaction)  # the request is public
        verdict = t(lang, {
            "takeback": N_("↩️ `{move}` was taken back: **{player}** agreed."),
            "takeback_agreed": N_("**{player}** agrees to take back `{move}`; waiting for the others."),
            "takeback_declined": N_("**{player}** declined to take back `{move}`. Play on!"),
        }[report.kind], move=report.move, player=name)
        await interaction.edit_original_response(
            content=verdict, view=takeback_buttons(report.match, disabled=report.kind != "takeback_agreed",
                                                   version=self.version, lang=lang))
        await after_presentation(interaction, report)


def takeback_buttons(match: Match, *, disabled: bool = False, version: int | None = None,
                     lang: str = ENGLISH) -> discord.ui.View:
    version = match.version if version is None else version
    return TakebackAnswer.answers_view(match.id, version, disabled=disabled, lang=lang)


RECORD_ITEMS = (HistoryButton, RematchButton, TakebackButton, TakebackAnswer)

__all__ = ["RECORD_ITEMS", "NextMatch", "history_buttons", "history_embed", "played_buttons", "takeback_buttons"]
