"""What the thread sees after an accepted action: the new board, or during a secret setup a short status."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.matches import TurnReport

from .board import fetch_thread, post_board
from .common import answer, mentions

if TYPE_CHECKING:
    from bot.app import StrategosBot

log = logging.getLogger(__name__)

NOT_POSTED = ("Your action counts, but I could not post the new board in the match thread. "
              "`/board` posts it again once I can write there.")


async def announce(bot: StrategosBot, report: TurnReport, interaction: discord.Interaction | None = None) -> None:
    """Post the board that follows a move, a resignation or an agreed draw.

    The action is already written when this runs: if Discord refuses the post, the player who acted is told so
    (never "nothing was changed") and `/board` can post it later."""
    match = report.match
    try:
        if report.kind == "move" and report.move is None and bot.matches.in_secret_setup(match):
            posted = await _setup_progress(bot, report)
        else:
            public_events = [e for e in report.events if e.get("visible_to") is None]
            last = (report.seat, report.move, public_events) if report.kind == "move" else None
            posted = await post_board(bot, match, last=last) is not None
    except discord.HTTPException as exc:
        log.warning("match=%s guild=%s board post failed: %s", match.id, match.guild_id, exc)
        posted = False
    if not posted and interaction is not None:
        await answer(interaction, NOT_POSTED)


async def _setup_progress(bot: StrategosBot, report: TurnReport) -> bool:
    """One player finished a secret setup step: say so (nothing more) and remind whoever is still at it."""
    thread = await fetch_thread(bot, report.match)
    if thread is None:
        return False
    waiting = [report.match.user_of(s) for s in bot.matches.to_act(report.match)]
    ping, allowed = mentions(waiting)
    await thread.send(
        f"🔒 **{report.match.seats[report.seat].user_name}** has made a secret setup move. "
        f"Still setting up: {ping} — press **Move** on the board to continue in private.",
        allowed_mentions=allowed,
    )
    return True
