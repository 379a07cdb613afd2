"""Discord UI: the board's buttons, the move picker, challenges, options, resign and draw prompts, league sign-up.

Every component is a DynamicItem whose custom_id carries what it acts on, so buttons survive restarts. A click
becomes one service call and its answer is shown; what follows in the thread is the presenters' work.
"""

from __future__ import annotations

import discord

from bot.storage import Challenge, Match

from .board import BoardButton, board_buttons
from .challenge import ChallengeButton, challenge_buttons
from .common import single_view
from .endings import DrawAnswer, ResignConfirm, draw_buttons
from .leaderboard import LeaderboardButton
from .leagues import LeagueButton
from .options import OptionButton, OptionSelect
from .picker import PickerButton, PickerSelect, SetupButton, setup_prompt_view
from .records import RECORD_ITEMS, RematchButton, takeback_buttons
from .requests import ConfirmMove, ConsentButton, consent_buttons

PERSISTENT_ITEMS = (
    BoardButton, ChallengeButton, DrawAnswer, ResignConfirm, PickerButton, PickerSelect, OptionButton, OptionSelect,
    SetupButton, ConsentButton, ConfirmMove, LeaderboardButton, LeagueButton, *RECORD_ITEMS,
)


class DiscordControls:
    """The buttons the presenters attach to their posts (bot.presenters.Controls)."""

    def board(self, match: Match, *, disabled: bool = False) -> discord.ui.View:
        return board_buttons(match, disabled=disabled)

    def challenge(self, challenge: Challenge) -> discord.ui.View | None:
        return challenge_buttons(challenge)

    def draw_answers(self, match: Match, *, disabled: bool = False) -> discord.ui.View:
        return draw_buttons(match, disabled=disabled)

    def setup_prompt(self, match_id: int) -> discord.ui.View:
        return setup_prompt_view(match_id)

    def consent(self, match: Match) -> discord.ui.View:
        return consent_buttons(match)

    def finished(self, match: Match) -> discord.ui.View:
        return single_view(RematchButton(match.id))

    def takeback_answers(self, match: Match, *, disabled: bool = False) -> discord.ui.View:
        return takeback_buttons(match, disabled=disabled)


__all__ = ["PERSISTENT_ITEMS", "DiscordControls"]
