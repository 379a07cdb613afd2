"""The board post of a match: image, caption, mention of whoever must act, and its four buttons.

Buttons are DynamicItems whose custom_id carries the match id and the version the board shows, so they keep
working after a restart and a button of an older board knows it is stale.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Sequence

import discord

from bot.games import Event, get_game
from bot.matches import errors
from bot.matches.captions import turn_caption
from bot.storage import Match

from .common import mentions, message_link, render_file, user_action

if TYPE_CHECKING:
    from bot.app import StrategosBot

log = logging.getLogger(__name__)

BOARD_ACTIONS = {
    "move": ("Move", discord.ButtonStyle.primary),
    "view": ("My view", discord.ButtonStyle.secondary),
    "resign": ("Resign", discord.ButtonStyle.danger),
    "draw": ("Offer draw", discord.ButtonStyle.secondary),
}


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:b:(?P<match>\d+):(?P<version>\d+):(?P<action>[a-z]+)"):
    def __init__(self, match_id: int, version: int, action: str, *, disabled: bool = False):
        label, style = BOARD_ACTIONS[action]
        super().__init__(discord.ui.Button(
            label=label, style=style, disabled=disabled, custom_id=f"sg:b:{match_id}:{version}:{action}"
        ))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        action = match["action"] if match["action"] in BOARD_ACTIONS else "view"
        return cls(int(match["match"]), int(match["version"]), action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: StrategosBot = interaction.client  # type: ignore[assignment]
        match = await bot.matches.get_match(self.match_id)
        if self.action == "view":  # a private view is harmless from any board: it always shows the present
            await show_private_view(bot, interaction, match)
            return
        if match.seat_of(interaction.user.id) is None:
            raise errors.NotInMatch()
        if not match.active:
            raise errors.MatchOver()
        if self._is_stale(interaction, match):
            raise errors.StaleBoard(message_link(match.guild_id, match.thread_id, match.board_message_id))
        if self.action == "move":
            from .picker import open_picker

            await open_picker(bot, interaction, match)
        elif self.action == "resign":
            from .endings import ask_resign_confirmation

            await ask_resign_confirmation(interaction, match)
        elif self.action == "draw":
            from .endings import offer_draw

            await offer_draw(bot, interaction, match)

    def _is_stale(self, interaction: discord.Interaction, match: Match) -> bool:
        """Only the newest board post acts. (During a secret setup the position changes without a new post, so
        the post, not the version, is what makes a board current.)"""
        message = interaction.message
        if message is not None and match.board_message_id is not None:
            return message.id != match.board_message_id
        return match.version != self.version


def board_buttons(match: Match, *, disabled: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in BOARD_ACTIONS:
        view.add_item(BoardButton(match.id, match.version, action, disabled=disabled))
    return view


async def fetch_thread(bot: StrategosBot, match: Match) -> discord.abc.Messageable | None:
    if match.thread_id is None:
        return None
    channel = bot.get_channel(match.thread_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(match.thread_id)
        except discord.HTTPException:
            log.warning("match=%s guild=%s thread=%s is gone", match.id, match.guild_id, match.thread_id)
            return None
    return channel  # type: ignore[return-value]


async def post_board(
    bot: StrategosBot, match: Match, *, last: tuple[int, str | None, Sequence[Event]] | None = None
) -> discord.Message | None:
    """Post the current board in the match thread and retire the previous board post's buttons."""
    thread = await fetch_thread(bot, match)
    if thread is None:
        return None
    game = get_game(match.game)
    view = bot.matches.view(match, None)
    caption = turn_caption(game, match, view, last=last, secret_setup=bot.matches.in_secret_setup(match))
    pinged = [match.user_of(s) for s in view["to_act"]] if match.active else [s.user_id for s in match.seats]
    ping_text, allowed = mentions(pinged)
    file = await render_file(view, match.names)
    message = await thread.send(
        f"{caption}\n{ping_text}".strip(), file=file, allowed_mentions=allowed,
        view=board_buttons(match) if match.active else discord.utils.MISSING,
    )
    previous = match.board_message_id
    await bot.matches.set_board_message(match.id, message.id)
    if previous and previous != message.id:
        await retire_board_post(thread, previous, match)
    if not match.active and isinstance(thread, discord.Thread):
        try:  # the match is over: archive its thread (anyone posting in it reopens it)
            await thread.edit(archived=True)
        except discord.HTTPException:
            log.info("match=%s could not archive thread %s", match.id, thread.id)
    return message


async def retire_board_post(thread: discord.abc.Messageable, message_id: int, match: Match) -> None:
    """Grey out the buttons of an older board post. Best effort: a stale click is refused anyway."""
    try:
        await thread.get_partial_message(message_id).edit(view=board_buttons(match, disabled=True))  # type: ignore[attr-defined]
    except discord.HTTPException:
        log.info("match=%s could not disable buttons of message %s", match.id, message_id)


async def show_private_view(bot: StrategosBot, interaction: discord.Interaction, match: Match) -> None:
    """The board from the player's side, plus anything private that could not reach her by DM."""
    seat = match.seat_of(interaction.user.id)
    if seat is None:
        raise errors.NotInMatch()
    await interaction.response.defer(ephemeral=True, thinking=True)
    game = get_game(match.game)
    view = bot.matches.view(match, seat)
    seat_names = view.get("seat_names") or []
    side = seat_names[seat] if seat < len(seat_names) else f"seat {seat + 1}"
    lines = [f"Your view of match #{match.id} ({game.info.title}) — you play **{side}**."]
    pending = await bot.private.take_pending(match, interaction.user.id)
    lines += [f"📬 {m.content}" for m in pending]
    file = await render_file(view, match.names, filename="your-view.png")
    extra = {}
    if bot.matches.in_secret_setup(match) and seat in bot.matches.to_act(match):
        from .picker import setup_prompt_view

        extra["view"] = setup_prompt_view(match.id)
    await interaction.followup.send("\n".join(lines), file=file, ephemeral=True, **extra)
