"""Mycenae's notation: each move kind as a frozen value whose str() is the canonical text, and the parser."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from bot.engine.base import MoveSyntaxError
from bot.engine.grid import parse_square
from bot.engine.text import Text
from .board import CARRIED_BY_LETTER, NAMES, PROMOTION_LETTERS, STEP_TEXT, TAKE_TEXT

@dataclass(frozen=True)
class PieceMove:
    origin: int
    target: int
    capture: bool
    promotion: str = ""  # "R", "B" or "N"

    def __str__(self) -> str:
        text = (TAKE_TEXT if self.capture else STEP_TEXT)[self.origin][self.target]
        return f"{text}={self.promotion}" if self.promotion else text


@dataclass(frozen=True)
class Load:
    knight: int
    squares: tuple[int, ...]  # sorted

    def __str__(self) -> str:
        return _load_text(self.knight, self.squares)


@dataclass(frozen=True)
class Unload:
    knight: int
    placements: tuple[tuple[int, str], ...]  # (square, letter), sorted by square

    def __str__(self) -> str:
        return f"unload {NAMES[self.knight]} " + " ".join(f"{letter}@{NAMES[sq]}" for sq, letter in self.placements)


@dataclass(frozen=True)
class Burn:
    knight: int

    def __str__(self) -> str:
        return f"burn {NAMES[self.knight]}"


@dataclass(frozen=True)
class CargoSetup:
    loads: tuple[tuple[int, tuple[str, ...]], ...]  # (knight square, letters in K R B P order) as written

    def __str__(self) -> str:
        return "cargo " + " ".join(f"{NAMES[sq]}:{','.join(letters)}" for sq, letters in self.loads)


@dataclass(frozen=True)
class Answer:
    consent: bool

    def __str__(self) -> str:
        return "consent" if self.consent else "refuse"


Move = PieceMove | Load | Unload | Burn | CargoSetup | Answer

_PIECE_MOVE = re.compile(r"([a-z]\d{1,2})\s*([-x])\s*([a-z]\d{1,2})\s*(?:=?\s*([a-z]))?")
_PLACEMENT = re.compile(r"([a-z])@([a-z]\d{1,2})")
_CARGO_ITEM = re.compile(r"([a-z]\d{1,2}):([a-z](?:,[a-z])*)")
HELP = Text("Write a move like b1-b5, b1xb5, a7-a8=R, load c4 b3 d5, unload c4 K@b5 P@d5 or burn c4")


def _square(text: str) -> int:
    f, r = parse_square(text, 8, 8)
    return f * 8 + r


def _load_text(knight: int, squares: Sequence[int]) -> str:
    return f"load {NAMES[knight]} " + " ".join(NAMES[sq] for sq in squares)


def _cargo_letters(text: str) -> tuple[str, ...]:
    letters = text.upper().split(",")
    if any(letter not in CARRIED_BY_LETTER for letter in letters):
        raise MoveSyntaxError(Text("'{text}': a knight carries K, R, B or P", text=text))
    return tuple(sorted(letters, key="KRBP".index))


@lru_cache(maxsize=8192)  # moves are frozen values, and the same texts come back from legal_moves again and again
def parse_move(text: str) -> Move:
    """Text -> move; case and extra spaces are forgiven, the canonical form is what str() gives back."""
    words = text.split()
    if not words:
        raise MoveSyntaxError(HELP)
    head, rest = words[0].lower(), words[1:]
    if head in ("consent", "refuse") and not rest:
        return Answer(head == "consent")
    if head == "burn" and len(rest) == 1:
        return Burn(_square(rest[0]))
    if head == "load" and len(rest) >= 2:
        squares = [_square(w) for w in rest[1:]]
        if len(set(squares)) != len(squares):
            raise MoveSyntaxError(Text("A load names each square once"))
        return Load(_square(rest[0]), tuple(sorted(squares)))
    if head == "unload" and len(rest) >= 2:
        placements = []
        for w in rest[1:]:
            m = _PLACEMENT.fullmatch(w.lower())
            if not m or m.group(1).upper() not in CARRIED_BY_LETTER:
                raise MoveSyntaxError(Text("'{text}' is not a placement (write a piece letter K, R, B or P, @ and a "
                                           "square)", text=w))
            placements.append((_square(m.group(2)), m.group(1).upper()))
        if len({sq for sq, _ in placements}) != len(placements):
            raise MoveSyntaxError(Text("An unload places each piece on a different square"))
        return Unload(_square(rest[0]), tuple(sorted(placements)))
    if head == "cargo" and rest:
        loads = []
        for w in rest:
            m = _CARGO_ITEM.fullmatch(w.lower())
            if not m:
                raise MoveSyntaxError(Text("'{text}' is not a knight's cargo (write it like b2:K,P)", text=w))
            loads.append((_square(m.group(1)), _cargo_letters(m.group(2))))
        return CargoSetup(tuple(loads))
    m = _PIECE_MOVE.fullmatch(text.strip().lower())
    if not m:
        raise MoveSyntaxError(Text("'{text}' is not a move. {help}", text=text.strip(), help=HELP))
    promotion = (m.group(4) or "").upper()
    if promotion and promotion not in PROMOTION_LETTERS:
        raise MoveSyntaxError(Text("A pawn promotes to R, B or N"))
    return PieceMove(_square(m.group(1)), _square(m.group(3)), m.group(2) == "x", promotion)


def parse_load(text: str) -> Load:
    """A load kept in the state as text (a pending or refused request)."""
    move = parse_move(text)
    if not isinstance(move, Load):
        raise ValueError(f"not a load: {text!r}")
    return move
