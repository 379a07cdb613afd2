"""The buttons the presenters attach to their posts.

The buttons themselves (with what a click does) live in bot/views, one layer up; the presenters are handed an
object with these builders when the bot is wired together (bot/app.py), so they never import the views.
"""

from __future__ import annotations

from typing import Protocol

import discord

from bot.domain import Challenge, Match


class Controls(Protocol):
    def board(self, match: Match, *, disabled: bool = False, lang: str = "en") -> discord.ui.View: ...

    def challenge(self, challenge: Challenge, lang: str = "en") -> discord.ui.View | None: ...

    def draw_answers(self, match: Match, *, disabled: bool = False, lang: str = "en") -> discord.ui.View: ...

    def setup_prompt(self, match_id: int, lang: str = "en") -> discord.ui.View: ...

    def consent(self, match: Match, lang: str = "en") -> discord.ui.View: ...

    def finished(self, match: Match, lang: str = "en") -> discord.ui.View: ...  # the final post's buttons (Rematch)

    def takeback_answers(self, match: Match, *, disabled: bool = False,
                         lang: str = "en") -> discord.ui.View: ...
