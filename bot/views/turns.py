"""What the thread sees after an accepted action: the new board, or the offer to answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.matches import TurnReport

from .board import post_board

if TYPE_CHECKING:
    from bot.app import StrategosBot


async def announce(bot: StrategosBot, report: TurnReport) -> None:
    """Post the board that follows a move, a resignation or an agreed draw."""
    public_events = [e for e in report.events if e.get("visible_to") is None]
    if report.kind == "move":
        last = (report.seat, report.move, public_events)
    else:
        last = None
    await post_board(bot, report.match, last=last)
