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
from dataclasses import dataclass
from typing import Any, Sequence

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
REVEALED_FILENAME = "revealed.png"
_EXECUTOR = ThreadPoolExecutor(1, thread_name_prefix="replay")


def replay_caption(match: Match, title: str, lang: str = ENGLISH, seen_by: str | None = None) -> str:
    if seen_by is not None:
        return t(lang, "🎞️ Replay of {game} match #{match} as {player} saw it, move by move.",
                 game=title, match=match.id, player=seen_by)
    return t(lang, "🎞️ Replay of {game} match #{match}: every move from the start, the final position held.",
             game=title, match=match.id)


REVEAL_CAPTION = N_("Now that the match is over, everything hidden is shown: the final position and the replay, "
                    "every secret revealed. `/replay` can also show it as one player saw it, move by move.")


@dataclass(frozen=True)
class Replay:
    gif: bytes
    final: dict[str, Any]  # the final position as the replay shows it
    hid_something: bool  # whether the replay shows what the public never saw (a reveal)


class ReplayPresenter:
    def __init__(self, client: discord.Client, service: MatchService, boards: BoardPresenter, *,
                 post_at_end: bool = True):
        self.client = client
        self.post_at_end = post_at_end
        self.service = service
        self.boards = boards

    async def replay(self, match: Match, lang: str = ENGLISH, seen_by: int | None = None,
                     public: dict[str, Any] | None = None) -> Replay | None:
        """The GIF of a finished match, its words in `lang`: with everything revealed, or as the player of seat
        `seen_by` saw it; None for a game without pictures. `public`: the final position as the public saw it,
        when the caller has it."""
        if not registry.can_render(match.game):
            return None
        moves = await self.service.moves_of(match)
        if public is None:
            public = self.service.view(match, None)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_EXECUTOR, self._build, match, moves, lang, seen_by, public)

    def _build(self, match: Match, moves: Sequence[LoggedMove], lang: str, seen_by: int | None,
               public: dict[str, Any]) -> Replay:
        # Only for a finished match (replay_views refuses any other): its secrets are secrets no more.
        views = self.service.replay_views(match, moves, seen_by)
        data = in_language(picture_words(lang), replay_gif, views, player_names=match.names,
                           renderer=registry.renderer_of(match.game))
        return Replay(data, views[-1], seen_by is None and views[-1] != public)

    async def gif_file(self, match: Match, lang: str = ENGLISH, seen_by: int | None = None) -> discord.File | None:
        """The replay as an attachment, described from its final position (what every frame ends on)."""
        replay = await self._replay_or_refusal(match, lang, seen_by)
        return None if replay is None else self._gif_attachment(match, lang, replay)

    async def _replay_or_refusal(self, match: Match, lang: str, seen_by: int | None,
                                 public: dict[str, Any] | None = None) -> Replay | None:
        try:
            return await self.replay(match, lang, seen_by, public)
        except RecordError:  # a match played under older rules than this bot's
            raise errors.UserError(
                N_("This match's moves no longer replay under the current rules, so I can't make its replay.")) from None

    def _gif_attachment(self, match: Match, lang: str, replay: Replay) -> discord.File:
        return discord.File(io.BytesIO(replay.gif), filename=REPLAY_FILENAME,
                            description=self.describe(match, lang, replay.final))

    def describe(self, match: Match, lang: str, final_view: dict) -> str:
        """The replay's description, from the final position it shows."""
        game = self.service.game_of(match)
        final = alt_text(game.info.title, final_view, match.names, match_id=match.id, lang=lang)
        return fit(t(lang, "Animated replay, every move from the start. Final position: {final}", final=final),
                       MAX_ALT_TEXT)

    def _revealed_picture(self, match: Match, lang: str, replay: Replay) -> discord.File:
        """The final position with everything revealed, as a picture of its own beside the replay."""
        png = in_language(picture_words(lang), registry.render, replay.final, player_names=match.names)
        game = self.service.game_of(match)
        words = alt_text(game.info.title, replay.final, match.names, match_id=match.id, lang=lang)
        return discord.File(io.BytesIO(png), filename=REVEALED_FILENAME, description=fit(words, MAX_ALT_TEXT))

    async def match_ended(self, event: MatchEnded) -> bool:
        """Post the replay right after the final board (with the final position revealed, where the game hid
        something), then close the thread again (posting reopened it)."""
        if not self.post_at_end:
            return True
        match, lang = event.match, event.lang
        thread = await self.boards.thread_of(match)
        if thread is None:
            return False
        try:
            replay = await self._replay_or_refusal(match, lang, None, event.view)
            files = []
            if replay is not None:
                if replay.hid_something:
                    loop = asyncio.get_running_loop()
                    files.append(await loop.run_in_executor(_EXECUTOR, self._revealed_picture, match, lang, replay))
                files.append(self._gif_attachment(match, lang, replay))
        except Exception:  # a replay is a bonus: a log that no longer replays must not fail the match's end
            log.exception("match=%s guild=%s could not build its replay", match.id, match.guild_id)
            return True
        if not files:
            return True
        title = self.service.game_of(match).info.title
        caption = replay_caption(match, title, lang)
        if replay is not None and replay.hid_something:
            caption += "\n" + t(lang, REVEAL_CAPTION)
        await thread.send(fit(caption), files=files, allowed_mentions=discord.AllowedMentions.none())
        await archive(self.client, thread, match)
        return True


__all__ = ["REPLAY_FILENAME", "ReplayPresenter", "replay_caption"]
