"""The challenge post's buttons (Accept / Decline / Cancel) and posting a challenge for /play and the options
panel. The match start that follows a last Accept is the presenters' work (MatchStarted)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.i18n import ENGLISH, N_, t
from bot.matches.places import conversation_in, in_conversation
from bot.presenters import challenge_mentions, challenge_post
from bot.presenters.conversation import bot_absent
from bot.domain import Challenge

from .common import (
    acknowledge, channel_of, guild_of, language, presenter_of, server_language, service_of, single_view,
    user_action,
)
from .conversation import check_public

POSTED = N_("Challenge posted below.")

CHALLENGE_ACTIONS = {  # labels in the server's language, as the post
    "accept": (N_("Accept"), discord.ButtonStyle.success),
    "decline": (N_("Decline"), discord.ButtonStyle.secondary),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}


def challenge_buttons(challenge: Challenge, lang: str = ENGLISH) -> discord.ui.View | None:
    if not challenge.is_open:
        return None
    items = [ChallengeButton(challenge.id, "accept", lang)]
    if any(s.invited_id and not s.taken for s in challenge.seats):
        items.append(ChallengeButton(challenge.id, "decline", lang))
    items.append(ChallengeButton(challenge.id, "cancel", lang))
    return single_view(*items)


async def post_challenge(
    interaction: discord.Interaction,
    game_key: str,
    invited: list[int | None],
    options: dict[str, Any],
    *,
    computer_level: str | None = None,
    rated: bool = True,
    via_channel: bool = False,
    clock: str | None = None,
    weekends: bool | None = None,
) -> None:
    """Create the challenge and post it where everyone sees it: after /play's private answer, or (after an
    options panel) in the channel. The interaction is acknowledged privately first (the challenge's checks read
    the database), so a refusal ("slow down", too many open challenges) stays private and nothing is posted."""
    await acknowledge(interaction)
    check_public(interaction)
    # In a conversation this interaction answers the match's start too (a challenge full at once, against the
    # computer): after the challenge's own answers.
    posted = asyncio.Event()
    presenter_of(interaction).hold_conversation(interaction, after=posted)
    try:
        await _post_challenge(interaction, game_key, invited, options, computer_level=computer_level, rated=rated,
                              via_channel=via_channel, clock=clock, weekends=weekends)
    finally:
        posted.set()


async def _post_challenge(interaction: discord.Interaction, game_key: str, invited: list[int | None],
                          options: dict[str, Any], *, computer_level: str | None, rated: bool, via_channel: bool,
                          clock: str | None, weekends: bool | None) -> None:
    service = service_of(interaction)
    # In a conversation (installed to the challenger's account) no server holds the match: it is unrated.
    # It is in the challenger's language, which its server id names.
    conversation = bot_absent(interaction)
    lang = language(interaction) if conversation else server_language(interaction)
    challenge = await service.create_challenge(
        guild_id=conversation_in(lang) if conversation else guild_of(interaction), channel_id=channel_of(interaction),
        challenger_id=interaction.user.id, challenger_name=interaction.user.display_name, game_key=game_key,
        invited=invited, options=options, computer_level=computer_level, rated=rated and not conversation,
        clock=clock, weekends=weekends,
    )
    view = challenge_post(challenge, challenge_buttons(challenge, lang), lang)
    allowed = challenge_mentions(challenge)
    if via_channel and not conversation:
        # ignore: /play is used in a server's text channel (or thread), which takes posts
        message = await interaction.channel.send(view=view, allowed_mentions=allowed)  # type: ignore[union-attr]
    else:
        # The private "thinking…" answer must be completed first: until then a followup would replace it.
        await interaction.edit_original_response(content=t(language(interaction), POSTED))
        message = await interaction.followup.send(view=view, allowed_mentions=allowed, wait=True)
    await service.set_challenge_message(challenge.id, message.id)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:c:(?P<id>\d+):(?P<action>[a-z]+)"):
    def __init__(self, challenge_id: int, action: str, lang: str = ENGLISH):
        label, style = CHALLENGE_ACTIONS[action]
        super().__init__(discord.ui.Button(label=t(lang, label), style=style,
                                           custom_id=f"sg:c:{challenge_id}:{action}"))
        self.challenge_id, self.action = challenge_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        action = match["action"] if match["action"] in CHALLENGE_ACTIONS else "accept"
        return cls(int(match["id"]), action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, edit=True)
        service, user = service_of(interaction), interaction.user
        if self.action == "accept":
            challenge = await service.accept_challenge(self.challenge_id, user.id, user.display_name)
        elif self.action == "decline":
            challenge = await service.decline_challenge(self.challenge_id, user.id)
        else:
            challenge = await service.cancel_challenge(self.challenge_id, user.id)
        if challenge.status == "started":
            return  # the presenters open the thread and update this post
        # a conversation's challenge speaks its challenger's language
        lang = (await service.language(challenge.guild_id) if in_conversation(challenge.guild_id)
                else server_language(interaction))
        await interaction.edit_original_response(
            content=None, view=challenge_post(challenge, challenge_buttons(challenge, lang), lang),
            allowed_mentions=discord.AllowedMentions.none(),
        )
