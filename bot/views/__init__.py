"""Discord UI: the board post, the move picker, challenges, resign and draw prompts.

Every component is a DynamicItem whose custom_id carries what it acts on, so buttons survive restarts.
"""

from .board import BoardButton
from .challenge import ChallengeButton
from .endings import DrawAnswer, ResignConfirm
from .options import OptionButton, OptionSelect
from .picker import PickerButton, PickerSelect, SetupButton

PERSISTENT_ITEMS = (
    BoardButton, ChallengeButton, DrawAnswer, ResignConfirm, PickerButton, PickerSelect, OptionButton, OptionSelect,
    SetupButton,
)

__all__ = ["PERSISTENT_ITEMS"]
