"""Explore boards' pictures, and a shared line posted in the match thread.

A step's picture is the board as the explorer may see it under a banner saying it is a sandbox (amber where it
rests on an assumed result), drawn in the board render queue. A shared line is the public pictures of the line as
an animated GIF, built in the render queue too (a line is at most a few dozen short frames).
"""

from __future__ import annotations

import io

import discord

from bot.games.registry import renderer_of
from bot.i18n import ENGLISH, N_, localize
from bot.matches import MatchService, errors
from bot.matches.explore import ExploreStep, SharedLine, picture_banner
from renderers.explore import explore_png
from renderers.replay import replay_gif

from .board import BoardPresenter
from .pictures import render_in
from .text import fit

EXPLORE_FILENAME = "explore.png"
LINE_FILENAME = "line.gif"


# Drawn in a picture worker process: what reaches it must pickle, so the game's renderer (a module, which does not)
# is looked up there, by the view's game.

def explore_picture(view: dict, names: list[str], banner: str, *, assumed: bool) -> bytes:
    return explore_png(view, names, banner, assumed=assumed, renderer=renderer_of(view["game"]))


def line_gif(views: list[dict], *, player_names: list[str]) -> bytes:
    return replay_gif(views, player_names=player_names, renderer=renderer_of(views[0]["game"]))


async def explore_file(step: ExploreStep, lang: str = ENGLISH, *, description: str | None = None) -> discord.File:
    """The step's picture, its banner and caption in `lang` (the explorer's: the board is hers alone), described
    for screen readers by `description`."""
    sandbox = step.sandbox
    png = await render_in(lang, explore_picture, step.view, list(sandbox.names),
                          localize(lang, picture_banner(sandbox)), assumed=sandbox.assumed)
    return discord.File(io.BytesIO(png), filename=EXPLORE_FILENAME, description=description)


class ExplorePresenter:
    def __init__(self, service: MatchService, boards: BoardPresenter):
        self.service = service
        self.boards = boards

    async def post_line(self, shared: SharedLine) -> None:
        """Post the line in its match's thread: its text and an animated GIF of its public pictures."""
        match = await self.service.get_match(shared.match_id)
        thread = await self.boards.thread_of(match)
        if thread is None:
            raise errors.UserError(N_("That match's thread is gone, so I can't post the line there. Nothing was "
                                      "posted."))
        lang = await self.service.language(match.guild_id)  # a public post: the server's language
        gif = await render_in(lang, line_gif, shared.views, player_names=list(shared.names))
        await thread.send(fit(localize(lang, shared.text)), file=discord.File(io.BytesIO(gif), filename=LINE_FILENAME),
                          allowed_mentions=discord.AllowedMentions.none())


__all__ = ["EXPLORE_FILENAME", "ExplorePresenter", "LINE_FILENAME", "explore_file"]
