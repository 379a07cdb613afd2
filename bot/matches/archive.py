"""What a match leaves behind, as each reader may read it: history pages, the exported record, the move list and
the replay's views.

Everything here reads the move log through `effective_moves` (movelog.py), so a taken-back move is gone from the
history, the exported record, the replay and every rebuilt state alike. Each reader gets only what she may know:
a player's own secret setup moves are hers, nobody else's, until the match is over (history.py, record.py). Nothing
here changes a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from bot.domain import LoggedMove, Match
from bot.games.record import format_record, replay_moves
from bot.i18n import ENGLISH, N_, t

from . import errors
from .actions import MatchActions
from .history import history_lines, mark_planned, paginate
from .movelog import effective_moves


@dataclass(frozen=True)
class HistoryPage:
    match: Match
    title: str
    text: str
    page: int  # 0-based, clamped to the pages there are
    pages: int


@dataclass(frozen=True)
class Export:
    match: Match
    filename: str
    text: str


class MatchArchive:
    def __init__(self, actions: MatchActions):
        self.actions = actions
        self.repo = actions.repo

    async def history(self, match_id: int, user_id: int, guild_id: int | None, page: int = 0,
                      lang: str = ENGLISH) -> HistoryPage:
        """A page of the match's history as `user_id` may read it (a player sees her own secret moves), in `lang`."""
        actions = self.actions
        match = await actions.match_for(match_id, user_id, guild_id)
        game = actions.game_of(match)
        sides = actions.view(match, None).get("seat_names")
        entries = await self.actions.moves_of(match)
        lines = history_lines(game, entries, match.names, match.seat_of(user_id), finished=not match.active,
                              sides=[t(lang, side) for side in sides] if sides else sides, lang=lang, timed=True)
        if not match.active:  # which moves were planned replies stays with their player until the end
            lines = mark_planned(lines, entries, await self.repo.plans.planned_versions(match.id), lang)
        pages = paginate(lines)
        page = min(max(page, 0), len(pages) - 1)
        title = t(lang, "{game} · match #{match} — history", game=game.info.title, match=match.id)
        return HistoryPage(match, title, pages[page], page, len(pages))

    async def export(self, match_id: int, user_id: int, guild_id: int | None) -> Export:
        """The match record as `user_id` may read it: her own secrets, nobody else's, while the match runs."""
        match = await self.actions.match_for(match_id, user_id, guild_id)
        text = format_record(
            game=match.game, num_players=len(match.seats), seed=match.seed, options=match.options,
            entries=await self.actions.moves_of(match), names=match.names, viewer=match.seat_of(user_id),
            result=match.result, date=match.created_at, match_id=match.id, timed=True,
        )
        return Export(match, f"match-{match.id}.txt", text)

    async def finished_match(self, match_id: int, user_id: int, guild_id: int | None) -> Match:
        """A finished match of the server, for /replay: a running one would show moves in the making."""
        match = await self.actions.match_for(match_id, user_id, guild_id)
        if match.active:
            raise errors.UserError(N_("Match #{match} is still being played, so it has no replay yet: the thread "
                                      "gets one when it ends. `/history` shows its moves so far."), match=match.id)
        return match

    @staticmethod
    def replay_views(match: Match, moves: Sequence[LoggedMove], seen_by: int | None = None) -> list[dict[str, Any]]:
        """Every position of a finished match for its replay: with everything revealed (every army, all cargo),
        or as the player of seat `seen_by` saw it at each move (what she knew, and what it proved). Refused for a
        match still being played: its secrets are still secrets. Pure and slow: run it off the event loop."""
        if match.active:
            raise errors.UserError(N_("Match #{match} is still being played, so it has no replay yet."),
                                   match=match.id)
        run = replay_moves(match.game, len(match.seats), match.seed, match.options, moves, names=match.names)
        return run.revealed_views() if seen_by is None else run.views(seen_by)

    async def move_log(self, match_id: int, viewer_seat: int | None) -> list[str]:
        """The move list as `viewer_seat` may read it: secret moves of others are shown as such."""
        lines = []
        for entry in effective_moves(await self.repo.moves(match_id)):
            text = entry.move if not entry.private or entry.seat == viewer_seat else "(secret setup)"
            lines.append(text)
        return lines
