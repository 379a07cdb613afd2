"""Reminders and the turn DMs members asked for (/notify). Only public facts: a deadline, a name, a link; never
anything of a player's hidden information."""

from __future__ import annotations

from bot.i18n import t
from bot.matches import catalogue
from bot.matches.events import MovePlayed, TurnReminder, VacationDaySpent
from bot.matches.private import DmSender

from .board import BoardPresenter
from .clock_text import due, duration, in_the_bank


from .text import fit, mentions, message_link

class ClockPresenter:
    def __init__(self, boards: BoardPresenter, send_dm: DmSender):
        self.boards = boards
        self.send_dm = send_dm

    async def remind(self, event: TurnReminder) -> bool:
        """A DM with the deadline and a link to the thread; when DMs are closed, a mention in the thread."""
        match = event.match
        user_id = match.user_of(event.seat)
        if user_id is None:
            return True
        title = catalogue.info(match.game).title
        lang = event.lang  # a DM: the server's language
        link = message_link(match.guild_id, match.thread_id, match.board_message_id) or ""
        text = t(lang, "⏰ Your move in {game} match #{match} is due {due}. {link}", game=title, match=match.id,
                 due=due(event.deadline), link=link).strip()
        if event.bank is not None:
            text += "\n" + t(lang, "You have {bank}.", bank=in_the_bank(event.bank, lang))
        if await self.send_dm(user_id, fit(text), None, None):
            return True
        thread = await self.boards.thread_of(match)
        if thread is None:
            return False
        ping, allowed = mentions([user_id])
        await thread.send(fit(t(lang, "⏰ {player} your move is due {due}.", player=ping, due=due(event.deadline))),
                          allowed_mentions=allowed)
        return True

    async def vacation_day_spent(self, event: VacationDaySpent) -> bool:
        """One DM: her time ran out, a vacation day was spent instead, which matches it extended, what is left.
        Best effort: the board's deadline already shows the day more."""
        user_id = event.match.user_of(event.seat)
        if user_id is None:
            return True
        lang = event.lang
        text = t(lang, "🏖️ Your time ran out in match #{match}, so one of your vacation days was spent instead: "
                       "24 hours more on your clock in {matches}. You have {left} of vacation left this year.",
                 match=event.match.id, matches=", ".join(f"#{m}" for m in event.extended),
                 left=duration(event.left, lang))
        await self.send_dm(user_id, fit(text), None, None)
        return True

    async def turn_began(self, played: MovePlayed) -> None:
        """DM the players whose turn this move began, if they asked for it (/notify). Best effort: the board post
        already mentions them, so a closed DM loses nothing. Its clock and the members' choices: as the move
        left them."""
        match, prefs = played.match, played.prefs
        if not match.active or played.board.clock is None:
            return
        clock = played.board.clock
        waiting = [s for s in played.board.to_act if s != played.seat and match.seats[s].is_member]
        if not waiting:
            return
        wanted = [s for s in waiting if match.member_id(s) in prefs and prefs[match.member_id(s)].turn_dms]
        if not wanted:
            return
        title = catalogue.info(match.game).title
        lang = played.lang
        link = message_link(match.guild_id, match.thread_id, match.board_message_id) or ""
        for seat in wanted:
            deadline = clock.deadlines.get(seat)
            text = t(lang, "🎲 Your turn in {game} match #{match}. It is due {due}. {link}", game=title,
                     match=match.id, due=due(deadline), link=link) if deadline else \
                t(lang, "🎲 Your turn in {game} match #{match}. {link}", game=title, match=match.id, link=link)
            await self.send_dm(match.member_id(seat), fit(text.strip()), None, None)


__all__ = ["ClockPresenter"]
