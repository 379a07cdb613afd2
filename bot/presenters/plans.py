"""Says in the match thread that a move was a planned reply, right after the board that move posted."""

from __future__ import annotations

import discord

from bot.i18n import ENGLISH, t
from bot.matches.plans import PlannedReplyPlayed

from .board import BoardPresenter
from .text import fit


def planned_reply_text(event: PlannedReplyPlayed, lang: str = ENGLISH) -> str:
    """The thread's note, in `lang` (the server's: everyone reads it)."""
    return t(lang, "🗓️ That was a planned reply: **{player}** had chosen `{reply}` in advance as the answer to "
                   "`{expected}`, so it was played at once.", player=event.match.names[event.seat],
             reply=event.reply, expected=event.expected)


class PlanPresenter:
    def __init__(self, boards: BoardPresenter):
        self.boards = boards

    async def __call__(self, event: object) -> bool:
        if not isinstance(event, PlannedReplyPlayed):
            return True
        thread = await self.boards.thread_of(event.match)
        if thread is None:
            return False
        lang = event.lang
        try:
            await thread.send(fit(planned_reply_text(event, lang)), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            return False
        return True
