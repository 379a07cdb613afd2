"""A game's engine part: what the match layer, the ratings and the store need from one game, declared by the game's
`engine.py` and listed by the engines' catalogue (engines.py). It imports the engine contract alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from bot.engine.base import Game


class DeclarationError(TypeError):
    """A game package declares something the rest of Strategos cannot use: the message says what and why."""


@dataclass(frozen=True)
class EngineDeclaration:
    game: Game  # the engine
    # Engine event types that show something hidden: a move that caused one can't be taken back, and Explore
    # treats its result as unknown (a Myrmidons fight names both pieces' values).
    revealing_events: frozenset[str] = frozenset()
    # Typed moves played only after the player confirms them: first word of the move -> the question.
    confirmations: Mapping[str, str] = field(default_factory=dict)
    # Whether how many legal moves a seat has is known to everyone (it depends on nothing hidden): only then may
    # a turn with a single legal move be played at once for a member who asked for that. Never where it depends
    # on the player's own secrets (Myrmidons' piece values, Mycenae's cargo), which others would learn from it.
    legal_moves_public: bool = False

    @property
    def key(self) -> str:
        return self.game.info.key

    def check(self) -> None:
        """Raise DeclarationError unless the engine is complete: checked when the game is registered, not when a
        player first resigns or the computer first thinks."""
        if not isinstance(self.game, Game):
            raise DeclarationError(f"{self.game!r} is not an engine (a bot.engine.base.Game)")
        engine = type(self.game)
        # Every match can end by resignation or time-out (eliminate); Explore and the computer rebuild positions
        # from a view (sample_state). The contract's defaults only raise.
        missing = [name for name in ("eliminate", "sample_state") if getattr(engine, name) is getattr(Game, name)]
        if missing:
            raise DeclarationError(f"{self.key}: the engine {engine.__name__} does not implement {', '.join(missing)}")
        if self.revealing_events and not self.game.info.hidden_information:
            raise DeclarationError(f"{self.key}: revealing events declared for a game without hidden information")


__all__ = ["DeclarationError", "EngineDeclaration"]
