"""What a game package declares: everything the rest of Strategos needs from one game, in one object.

Each game is a package under bot/games/ (`game.py` the pure engine, `renderer.py` its pictures, `policy.py` the
computer's judgement, `guide/` the /rules texts) whose `declaration.py` ties them together; the registry
(registry.py) lists the declarations, checks each one as it is registered and derives every lookup by key from
them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from bot.ai.policy import Policy
from bot.engine.base import Game
from renderers import BoardRenderer
from renderers.rules_examples import RulesExample

GUIDE_LANGUAGE = "en"  # every game has a guide in English (guide/en.md); other languages are guide/<lang>.md


class DeclarationError(TypeError):
    """A game package declares something the rest of Strategos cannot use: the message says what and why."""


@dataclass(frozen=True)
class GameDeclaration:
    game: Game  # the engine
    renderer: BoardRenderer  # the module drawing its boards: render(view, *, player_names) and draw(view, ...)
    policy: Callable[[Game], Policy]  # the computer opponent's knowledge of the game, given the engine
    guides: Path  # the /rules texts: en.md, and <lang>.md for each translation
    # The /rules picture: a short example position, or None for the start position (which explains it already).
    rules_example: RulesExample | None = None
    # Engine event types that show something hidden: a move that caused one can't be taken back, and Explore
    # treats its result as unknown (a Myrmidons fight names both pieces' values).
    revealing_events: frozenset[str] = frozenset()
    # Typed moves played only after the player confirms them: first word of the move -> the question.
    confirmations: Mapping[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.game.info.key

    def guide(self, lang: str) -> Path:
        """The guide in `lang`, else the English one."""
        translated = self.guides / f"{lang}.md"
        return translated if translated.is_file() else self.guides / f"{GUIDE_LANGUAGE}.md"

    def check(self) -> None:
        """Raise DeclarationError unless every part is there: checked when the game is registered, not when a
        player first resigns or the computer first thinks."""
        if not isinstance(self.game, Game):
            raise DeclarationError(f"{self.game!r} is not an engine (a bot.engine.base.Game)")
        key = self.key
        engine = type(self.game)
        # Every match can end by resignation or time-out (eliminate); Explore and the computer rebuild positions
        # from a view (sample_state). The contract's defaults only raise.
        missing = [name for name in ("eliminate", "sample_state") if getattr(engine, name) is getattr(Game, name)]
        if missing:
            raise DeclarationError(f"{key}: the engine {engine.__name__} does not implement {', '.join(missing)}")
        for name in ("render", "draw"):
            if not callable(getattr(self.renderer, name, None)):
                raise DeclarationError(f"{key}: the renderer has no {name}()")
        if not (isinstance(self.policy, type) and issubclass(self.policy, Policy)):
            raise DeclarationError(f"{key}: the policy must be a bot.ai.policy.Policy class")
        if not (self.guides / f"{GUIDE_LANGUAGE}.md").is_file():
            raise DeclarationError(f"{key}: no guide at {self.guides / f'{GUIDE_LANGUAGE}.md'}")
        if self.revealing_events and not self.game.info.hidden_information:
            raise DeclarationError(f"{key}: revealing events declared for a game without hidden information")


__all__ = ["DeclarationError", "GUIDE_LANGUAGE", "GameDeclaration"]
