"""What the thread sees after an accepted action: the new board, or during a secret setup a short status."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.matches import TurnReport

from .board import fetch_thread, post_board
from .common import mentions

if TYPE_CHECKING:
    from bot.app import StrategosBot


async def announce(bot: StrategosBot, report: TurnReport) -> None:
    """Post the board that follows a move, a resignation or an agreed draw."""
    match = report.match
    if report.kind == "move" and report.move is None and bot.matches.in_secret_setup(match):
        await _setup_progress(bot, report)
        return
    public_events = [e for e in report.events if e.get("visible_to") is None]
    last = (report.seat, report.move, public_events) if report.kind == "move" else None
    await post_board(bot, match, last=last)


async def _setup_progress(bot: StrategosBot, report: TurnReport) -> None:
    """One player finished a secret setup step: say so (nothing more) and remind whoever is still at it."""
    thread = await fetch_thread(bot, report.match)
    if thread is None:
        return
    waiting = [report.match.user_of(s) for s in bot.matches.to_act(report.match)]
    ping, allowed = mentions(waiting)
    await thread.send(
        f"🔒 **{report.match.seats[report.seat].user_name}** has made a secret setup move. "
        f"Still setting up: {ping} — press **Move** on the board to continue in private.",
        allowed_mentions=allowed,
    )
