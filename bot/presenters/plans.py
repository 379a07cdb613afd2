"""Says in the match thread that a move was a planned reply, right after the board that move posted."""

from __future__ import annotations

import discord

from bot.matches.plans import PlannedReplyPlayed

from .board import BoardPresenter
from .text import fit


def planned_reply_text(event: PlannedReplyPlayed) -> str:
    name = event.match.names[event.seat]
    return (f"🗓️ That was a planned reply: **{name}** had chosen `{event.reply}` in advance as the answer to "
            f"`{event.expected}`, so it was played at once.")


class PlanPresenter:
    def __init__(self, boards: BoardPresenter):
        self.boards = boards

    async def __call__(self, event: object) -> bool:
        if not isinstance(event, PlannedReplyPlayed):
            return True
        thread = await self.boards.thread_of(event.match)
        if thread is None:
            return False
        try:
            await thread.send(fit(planned_reply_text(event)), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            return False
        return True
