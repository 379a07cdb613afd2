"""Discord UI: the board's buttons, the move picker, challenges, options, resign and draw prompts, league sign-up.

Every component is a DynamicItem whose custom_id carries what it acts on, so buttons survive restarts. A click
becomes one service call and its answer is shown; what follows in the thread is the presenters' work.
"""

from __future__ import annotations

import discord

from bot.domain import Challenge, Match

from .board import BoardButton, board_buttons
from .challenge import ChallengeButton, challenge_buttons
from .common import single_view
from .endings import DrawAnswer, ResignConfirm, draw_buttons
from .explore import EXPLORE_ITEMS
from .leaderboard import LeaderboardButton
from .leagues import LeagueButton
from .options import ClockSelect, OptionButton, OptionSelect
from .picker import NextMatchButton, PickerButton, PickerSelect, PrivateMoveButton, SetupButton, setup_prompt_view
from .history import RECORD_ITEMS, RematchButton, takeback_buttons
from .requests import ConfirmMove, ConsentButton, consent_buttons

PERSISTENT_ITEMS = (
    BoardButton, ChallengeButton, DrawAnswer, ResignConfirm, PickerButton, PickerSelect, OptionButton, OptionSelect,
    SetupButton, ConsentButton, ConfirmMove, LeaderboardButton, LeagueButton, ClockSelect, *RECORD_ITEMS,
    *EXPLORE_ITEMS, PrivateMoveButton, NextMatchButton,
)


class DiscordControls:
    """The buttons the presenters attach to their posts (bot.presenters.Controls)."""

    def board(self, match: Match, *, disabled: bool = False, lang: str = "en") -> discord.ui.View:
        return board_buttons(match, disabled=disabled, lang=lang)

    def challenge(self, challenge: Challenge, lang: str = "en") -> discord.ui.View | None:
        return challenge_buttons(challenge, lang)

    def draw_answers(self, match: Match, *, disabled: bool = False, lang: str = "en") -> discord.ui.View:
        return draw_buttons(match, disabled=disabled, lang=lang)

    def setup_prompt(self, match_id: int, lang: str = "en") -> discord.ui.View:
        return setup_prompt_view(match_id, lang)

    def consent(self, match: Match, lang: str = "en") -> discord.ui.View:
        return consent_buttons(match, lang=lang)

    def finished(self, match: Match, lang: str = "en") -> discord.ui.View:
        return single_view(RematchButton(match.id, lang))

    def takeback_answers(self, match: Match, *, disabled: bool = False, lang: str = "en") -> discord.ui.View:
        return takeback_buttons(match, disabled=disabled, lang=lang)


__all__ = ["PERSISTENT_ITEMS", "DiscordControls"]
