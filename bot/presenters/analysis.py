"""The analysis of a finished match, posted in its thread (bot/matches/analysis.py makes it)."""

from __future__ import annotations

from typing import Sequence

import discord

from bot.domain import Match
from bot.i18n import ENGLISH, t
from bot.matches.analysis import Mistake
from bot.matches.events import AnalysisReady

from .board import BoardPresenter
from .captions import seat_label
from .channels import archive
from .text import fit


def analysis_text(match: Match, view: dict, mistakes: Sequence[Mistake], lang: str = ENGLISH) -> str:
    """One line per player: her moves after which the hard computer's judgement of her chances fell most, each
    with the move it preferred and by how much her chance fell."""
    lines = [t(lang, "🔍 **Analysis of match #{match}**: each player's moves after which Strategos (hard), judging "
                     "from that player's own view at the time, saw their chances fall most.", match=match.id)]
    for seat in range(len(match.seats)):
        if not match.seats[seat].is_member:
            continue
        marked = [m for m in mistakes if m.seat == seat]
        if not marked:
            said = t(lang, "no move lost ground.")
        else:
            said = "; ".join(t(lang, "move {number} `{played}` (preferred `{preferred}`, −{drop} %)",
                               number=m.number, played=m.played, preferred=m.preferred, drop=round(100 * m.drop))
                             for m in marked)
        lines.append(f"{seat_label(view, match.names, seat, lang)}: {said}")
    return fit("\n".join(lines))


class AnalysisPresenter:
    def __init__(self, client: discord.Client, boards: BoardPresenter):
        self.client = client
        self.boards = boards

    async def post(self, event: AnalysisReady) -> bool:
        """In the match thread, then archived again (posting reopened it)."""
        match = event.match
        thread = await self.boards.thread_of(match)
        if thread is None:
            return False
        await thread.send(analysis_text(match, event.view, event.mistakes, event.lang),
                          allowed_mentions=discord.AllowedMentions.none())
        await archive(self.client, thread, match)
        return True
