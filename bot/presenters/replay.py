"""The animated replay of a finished match: posted in its thread when it ends, and made again for /replay.

A replay takes seconds for a long match (every position drawn and compressed), so it is built in a worker thread
of its own, never on the event loop and never in the board render queue, where it would hold up the boards of
matches being played. One replay is built at a time: they are rare, and the cores belong to the boards.
"""

from __future__ import annotations

import asyncio
import io
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

import discord

from bot.games import registry
from bot.games.record import RecordError
from bot.matches import MatchService, errors
from bot.matches.events import MatchEnded
from bot.domain import LoggedMove, Match
from renderers.common import in_language
from renderers.replay import replay_gif

from bot.i18n import ENGLISH, N_, t

from .board import BoardPresenter
from .channels import archive
from .describe import MAX_ALT_TEXT, alt_text
from bot.workers import picture_words
from .text import fit

log = logging.getLogger(__name__)

REPLAY_FILENAME = "replay.gif"
_EXECUTOR = ThreadPoolExecutor(1, thread_name_prefix="replay")


def replay_caption(match: Match, title: str, lang: str = ENGLISH) -> str:
    return t(lang, "🎞️ Replay of {game} match #{match}: every move from the start, the final position held.",
             game=title, match=match.id)


class ReplayPresenter:
    def __init__(self, client: discord.Client, service: MatchService, boards: BoardPresenter, *,
                 post_at_end: bool = True):
        self.client = client
        self.post_at_end = post_at_end
        self.service = service
        self.boards = boards

    async def gif(self, match: Match, lang: str = ENGLISH) -> bytes | None:
        """The GIF of the public course of a finished match, its words in `lang`; None for a game without
        pictures."""
        if not registry.can_render(match.game):
            return None
        moves = await self.service.moves_of(match)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_EXECUTOR, self._build, match, moves, lang)

    def _build(self, match: Match, moves: Sequence[LoggedMove], lang: str = ENGLISH) -> bytes:
        # Public views only: the replay is shown to everyone, so it holds what the public saw, move by move.
        return in_language(picture_words(lang), replay_gif, self.service.public_views(match, moves),
                           player_names=match.names, renderer=registry.renderer_of(match.game))

    async def gif_file(self, match: Match, lang: str = ENGLISH, final_view: dict | None = None) -> discord.File | None:
        """The replay as an attachment, described from the final public position (what every frame shows)."""
        try:
            data = await self.gif(match, lang)
        except RecordError:  # a match played under older rules than this bot's
            raise errors.UserError(
                N_("This match's moves no longer replay under the current rules, so I can't make its replay.")) from None
        if data is None:
            return None
        return discord.File(io.BytesIO(data), filename=REPLAY_FILENAME,
                            description=self.describe(match, lang, final_view))

    def describe(self, match: Match, lang: str, final_view: dict | None = None) -> str:
        """The replay's description; `final_view`: the match's final public view when the caller has it."""
        game = self.service.game_of(match)
        view = final_view if final_view is not None else self.service.view(match, None)
        final = alt_text(game.info.title, view, match.names, match_id=match.id, lang=lang)
        return fit(t(lang, "Animated replay, every move from the start. Final position: {final}", final=final),
                       MAX_ALT_TEXT)

    async def match_ended(self, event: MatchEnded) -> bool:
        """Post the replay right after the final board, then close the thread again (posting reopened it)."""
        if not self.post_at_end:
            return True
        match, lang = event.match, event.lang
        thread = await self.boards.thread_of(match)
        if thread is None:
            return False
        try:
            file = await self.gif_file(match, lang, event.view)
        except Exception:  # a replay is a bonus: a log that no longer replays must not fail the match's end
            log.exception("match=%s guild=%s could not build its replay", match.id, match.guild_id)
            return True
        if file is None:
            return True
        title = self.service.game_of(match).info.title
        await thread.send(fit(replay_caption(match, title, lang)), file=file,
                          allowed_mentions=discord.AllowedMentions.none())
        await archive(self.client, thread, match)
        return True


__all__ = ["REPLAY_FILENAME", "ReplayPresenter", "replay_caption"]
