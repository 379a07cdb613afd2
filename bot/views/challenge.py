"""The challenge post: who is invited, which seats are open, Accept / Decline / Cancel, and the match start."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.games import get_game
from bot.storage import Challenge

from .board import post_board
from .common import mentions, message_link, user_action

if TYPE_CHECKING:
    from bot.app import StrategosBot

log = logging.getLogger(__name__)

CHALLENGE_ACTIONS = {
    "accept": ("Accept", discord.ButtonStyle.success),
    "decline": ("Decline", discord.ButtonStyle.secondary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


def challenge_text(challenge: Challenge) -> str:
    game = get_game(challenge.game)
    challenger = next(s.user_name for s in challenge.seats if s.position == 0)
    invited = [f"<@{s.invited_id}>" for s in challenge.seats[1:] if s.invited_id]
    target = " and ".join(invited) if invited else "anyone"
    lines = [f"⚔️ **{challenger}** challenges {target} to **{game.info.title}**!"]
    seats = []
    for s in challenge.seats:
        if s.user_id is not None:
            seats.append(f"{s.user_name} ✓")
        elif s.invited_id is not None:
            seats.append(f"<@{s.invited_id}> (invited)")
        else:
            seats.append("open seat")
    lines.append("Seats: " + " · ".join(seats))
    if challenge.options:
        lines.append("Options: " + ", ".join(f"{k}: {_option_text(v)}" for k, v in challenge.options.items()))
    if challenge.status == "open":
        lines.append(f"Expires <t:{int(challenge.expires_at)}:R>.")
    else:
        lines.append({
            "declined": "❌ Declined.", "cancelled": "🚫 Cancelled by the challenger.",
            "expired": "⌛ This challenge expired unanswered.", "started": "✅ Accepted — the match has started.",
        }[challenge.status])
    return "\n".join(lines)


def _option_text(value: Any) -> str:
    return " / ".join(map(str, value)) if isinstance(value, list) else str(value)


def challenge_buttons(challenge: Challenge) -> discord.ui.View | None:
    if not challenge.is_open:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(challenge.id, "accept"))
    if any(s.invited_id and s.user_id is None for s in challenge.seats):
        view.add_item(ChallengeButton(challenge.id, "decline"))
    view.add_item(ChallengeButton(challenge.id, "cancel"))
    return view


def challenge_mentions(challenge: Challenge) -> discord.AllowedMentions:
    return mentions([s.invited_id for s in challenge.seats[1:] if s.invited_id])[1]


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:c:(?P<id>\d+):(?P<action>[a-z]+)"):
    def __init__(self, challenge_id: int, action: str):
        label, style = CHALLENGE_ACTIONS[action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"sg:c:{challenge_id}:{action}"))
        self.challenge_id, self.action = challenge_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        action = match["action"] if match["action"] in CHALLENGE_ACTIONS else "accept"
        return cls(int(match["id"]), action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: StrategosBot = interaction.client  # type: ignore[assignment]
        user = interaction.user
        if self.action == "accept":
            challenge = await bot.matches.accept_challenge(self.challenge_id, user.id, user.display_name)
        elif self.action == "decline":
            challenge = await bot.matches.decline_challenge(self.challenge_id, user.id)
        else:
            challenge = await bot.matches.cancel_challenge(self.challenge_id, user.id)
        if challenge.is_open and challenge.is_full:
            await interaction.response.defer()
            await start_match(bot, challenge, interaction.message)
            return
        await interaction.response.edit_message(
            content=challenge_text(challenge), view=challenge_buttons(challenge),
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def start_match(bot: StrategosBot, challenge: Challenge, message: discord.Message | None) -> None:
    """Every seat is taken: create the match, its thread, the first board, and tell each player privately."""
    match = await bot.matches.start_match(challenge)
    game = get_game(match.game)
    channel = bot.get_channel(challenge.channel_id) or await bot.fetch_channel(challenge.channel_id)
    if isinstance(channel, discord.Thread) and channel.parent is not None:
        channel = channel.parent  # a thread cannot hold threads: open the match beside it
    title = f"{game.info.title} #{match.id}: " + " vs ".join(match.names)
    try:
        thread = await channel.create_thread(  # type: ignore[union-attr]
            name=title[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080,
        )
    except discord.HTTPException as exc:
        # Most often a missing "Create Public Threads" permission: the match is on, so play it in the channel.
        log.warning("match=%s guild=%s could not create a thread (%s); playing in the channel", match.id,
                    match.guild_id, exc)
        thread = channel
        await channel.send(  # type: ignore[union-attr]
            f"I couldn't open a thread for match #{match.id} (I need the *Create Public Threads* permission), "
            "so it is played right here.", allowed_mentions=discord.AllowedMentions.none(),
        )
    await bot.matches.set_thread(match.id, thread.id)
    match = await bot.matches.get_match(match.id)
    closed = await bot.matches.get_challenge(challenge.id)
    if message is not None:
        try:  # cosmetic: a click on a leftover button is refused by the service anyway
            await message.edit(
                content=challenge_text(closed) + f"\nMatch #{match.id} is on in {thread.mention}.", view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("challenge=%s could not update its post", challenge.id)
    await post_board(bot, match)
    link = message_link(match.guild_id, thread.id)
    secret = bot.matches.in_secret_setup(match)
    setting_up = bot.matches.to_act(match)
    for seat in range(len(match.seats)):
        view = bot.matches.view(match, seat)
        side = (view.get("seat_names") or [f"seat {seat + 1}"] * (seat + 1))[seat]
        text = f"Your {game.info.title} match #{match.id} has started: you play **{side}**. Thread: {link}"
        prompt = secret and seat in setting_up
        if prompt:
            text += "\nYour setup is secret: press **Set up in private** to make it. Nobody else sees it."
        await bot.private.send(match, seat, text, setup_prompt=prompt)


async def refresh_challenge_post(bot: StrategosBot, challenge: Challenge) -> None:
    """Show a challenge's new status on its post (after it expired, say). Best effort."""
    if challenge.message_id is None:
        return
    channel = bot.get_channel(challenge.channel_id)
    if channel is None:
        return
    try:
        await channel.get_partial_message(challenge.message_id).edit(  # type: ignore[union-attr]
            content=challenge_text(challenge), view=challenge_buttons(challenge),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.info("challenge=%s could not update its post", challenge.id)
