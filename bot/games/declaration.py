"""What a game package declares: everything the rest of Strategos needs from one game, in one object.

Each game is a package under bot/games/ (`game.py` the pure engine, `engine.py` its engine part, `renderer.py` its
pictures, `policy.py` the computer's judgement, `describe.py` its words for the alt text and the text board,
`guide/` the /rules texts) whose `declaration.py` ties them together. The engines' catalogue (engines.py) lists the
packages and loads their engine parts alone; the registry (registry.py) loads the declarations, checks each one as
it is registered and derives every lookup by key from them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from PIL import Image

from bot.ai.policy import Policy
from bot.engine.base import Event, Game
from renderers import BoardRenderer
from renderers.rules_examples import RulesExample

from .describing import Describer
from .engine_declaration import DeclarationError, EngineDeclaration

GUIDE_LANGUAGE = "en"  # every game has a guide in English (guide/en.md); other languages are guide/<lang>.md
RULES_PAGES = "docs/rules/"  # where the full rules live, in the repository (not shipped with the bot)

# A side's app emoji (bot/presenters/emojis.py): its sprite drawn at a size, the size given (128).
EmojiSprite = Callable[[int], Image.Image]
EMOJI_NAME = re.compile(r"[a-z0-9_]{2,32}")  # what Discord takes as an emoji's name (2-32 letters, digits, _)

# A position the benchmarks play from: (players, options or None for the defaults).
BenchmarkPosition = tuple[int, Mapping[str, Any] | None]


@dataclass(frozen=True, kw_only=True)
class GameDeclaration:
    engine: EngineDeclaration  # the engine part, what the match layer sees (the package's engine.py)
    renderer: BoardRenderer  # the module drawing its boards: render(view, *, player_names) and draw(view, ...)
    policy: Callable[[Game], Policy]  # the computer opponent's knowledge of the game, given the engine
    guides: Path  # the /rules texts: en.md, and <lang>.md for each translation
    describer: Describer  # its words for the alt text and the text board (the package's describe.py)
    # The seat names of its views that are words, marked N_ to be translated where they are shown ("Light");
    # seat names that are not words (Mycenae's corner squares) stay as they are.
    side_names: frozenset[str]
    rules_page: str  # its full rules in the repository, docs/rules/<game>.md: any Markdown
    # The /rules picture: a short example position, or None for the start position (which explains it already).
    rules_example: RulesExample | None = None
    # The positions `python -m benchmarks.computer --positions` times the computer on; None: every player count
    # with the default options. Add the options that change what the computer decides (Myrmidons' drafts).
    benchmark_positions: tuple[BenchmarkPosition, ...] | None = None
    # Its app emojis, one per side: the side's name as its views name it ("Light", "a1") -> the sprite of its
    # pieces. They mark the sides in the texts that name them (/games, a board post's players), uploaded once as
    # sg_<game>_<side>; a side without one is named in words alone.
    side_emojis: Mapping[str, EmojiSprite] = field(default_factory=dict)
    # Its app emojis per piece kind, beside the sides': a key ("a1_n") -> the sprite of that piece, uploaded as
    # sg_<game>_<key>; `moved_piece` says which of them the public events of a move moved (None: the side's emoji
    # stands for it), and the last move's line marks its player with that piece.
    piece_emojis: Mapping[str, EmojiSprite] = field(default_factory=dict)
    moved_piece: Callable[[Sequence[Event]], str | None] | None = None

    @property
    def game(self) -> Game:
        return self.engine.game

    @property
    def key(self) -> str:
        return self.engine.key

    @property
    def revealing_events(self) -> frozenset[str]:
        return self.engine.revealing_events

    @property
    def confirmations(self) -> Mapping[str, str]:
        return self.engine.confirmations

    @property
    def legal_moves_public(self) -> bool:
        return self.engine.legal_moves_public

    @property
    def package(self) -> Path:
        """The game's package folder (its guides are in it)."""
        return self.guides.parent

    @property
    def positions(self) -> tuple[BenchmarkPosition, ...]:
        info = self.game.info
        if self.benchmark_positions is not None:
            return self.benchmark_positions
        return tuple((players, None) for players in range(info.min_players, info.max_players + 1))

    def emoji_name(self, side: str) -> str:
        """The name of the app emoji marking `side` (or the piece kind `side` names): "sg_epaminondas_light"."""
        return f"sg_{self.key}_{side}".lower()

    def emojis(self) -> dict[str, EmojiSprite]:
        """Every app emoji of the game by name: its sides' and its piece kinds'."""
        return {self.emoji_name(key): sprite
                for key, sprite in (*self.side_emojis.items(), *self.piece_emojis.items())}

    def guide(self, lang: str) -> Path:
        """The guide in `lang`, else the English one."""
        translated = self.guides / f"{lang}.md"
        return translated if translated.is_file() else self.guides / f"{GUIDE_LANGUAGE}.md"

    def translations(self) -> list[str]:
        """The languages its guide is translated into: a game without any is English only."""
        return sorted(path.stem for path in self.guides.glob("*.md") if path.stem != GUIDE_LANGUAGE)

    def check(self) -> None:
        """Raise DeclarationError unless every part is there: checked when the game is registered, not when a
        player first resigns, the computer first thinks or a screen reader first asks."""
        if not isinstance(self.engine, EngineDeclaration):
            raise DeclarationError(f"{self.engine!r} is not an engine part (an EngineDeclaration, in engine.py)")
        self.engine.check()
        key = self.key
        for name in ("render", "draw"):
            if not callable(getattr(self.renderer, name, None)):
                raise DeclarationError(f"{key}: the renderer has no {name}()")
        if not (isinstance(self.policy, type) and issubclass(self.policy, Policy)):
            raise DeclarationError(f"{key}: the policy must be a bot.ai.policy.Policy class")
        if not (self.guides / f"{GUIDE_LANGUAGE}.md").is_file():
            raise DeclarationError(f"{key}: no guide at {self.guides / f'{GUIDE_LANGUAGE}.md'}")
        if not isinstance(self.describer, Describer):
            raise DeclarationError(f"{key}: the describer must be a bot.games.describing.Describer")
        if not (isinstance(self.side_names, frozenset) and all(isinstance(s, str) for s in self.side_names)):
            raise DeclarationError(f"{key}: side_names must be a frozenset of the seat names that are words")
        if not (isinstance(self.rules_page, str) and self.rules_page.endswith(".md")):
            raise DeclarationError(f"{key}: rules_page must name its rules page, {RULES_PAGES}{key}.md")
        for side, sprite in (*self.side_emojis.items(), *self.piece_emojis.items()):
            if not (EMOJI_NAME.fullmatch(self.emoji_name(side)) and callable(sprite)):
                raise DeclarationError(f"{key}: the emoji of {side!r} needs a sprite and a name of 2 to 32 letters, "
                                       f"digits and underscores (not {self.emoji_name(side)!r})")
        if self.side_emojis.keys() & self.piece_emojis.keys():
            raise DeclarationError(f"{key}: a piece kind's emoji is named as a side's")
        if bool(self.piece_emojis) != (self.moved_piece is not None):
            raise DeclarationError(f"{key}: piece emojis need moved_piece, which names one of them for a move")
        info = self.game.info
        for players, _options in self.positions:
            if not info.min_players <= players <= info.max_players:
                raise DeclarationError(f"{key}: a benchmark position for {players} players, who cannot play it")


__all__ = ["BenchmarkPosition", "DeclarationError", "EmojiSprite", "GUIDE_LANGUAGE", "GameDeclaration"]
