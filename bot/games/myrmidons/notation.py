"""Myrmidons notation: each move kind as a frozen value whose str() is the canonical text, and the parser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence, Union

from bot.engine.base import MoveSyntaxError
from bot.engine.grid import DIRECTION_NAMES, parse_square
from .army import BY_CODE, canonical_army
from .board import FILES, NAMES, RANKS, _index, front_key

@dataclass(frozen=True)
class Army:
    """`army 5/1/3,4/4/1,…`: the secret choice of five types in a draft (any order; listed in table order)."""

    types: tuple[str, ...]

    def __str__(self) -> str:
        return "army " + ",".join(canonical_army(self.types))


@dataclass(frozen=True)
class Deploy:
    """`deploy 2/5/2,4/4/1,C,…`: the secret deployment, listing the home rank from file a to file f."""

    codes: tuple[str, ...]

    def __str__(self) -> str:
        return "deploy " + ",".join(self.codes)


@dataclass(frozen=True)
class Step:
    """`c1-c4`: one myrmidon moves (and fights when c4 holds an enemy)."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"{NAMES[self.src]}-{NAMES[self.dst]}"


@dataclass(frozen=True)
class Order:
    """`order NE b1-c2 a1-d4`: the Commander and friends next to it move along one direction."""

    direction: int
    items: tuple[tuple[int, int], ...]  # (from, to), as written; `front_to_back` is the canonical sequence

    def front_to_back(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(self.items, key=lambda item: front_key(self.direction, item[0])))

    def __str__(self) -> str:
        items = " ".join(f"{NAMES[a]}-{NAMES[b]}" for a, b in self.front_to_back())
        return f"order {DIRECTION_NAMES[self.direction]} {items}"


Move = Union[Army, Deploy, Step, Order]


def _square(text: str) -> int:
    file, rank = parse_square(text, FILES, RANKS)
    return _index(file, rank)


def _pair(text: str) -> tuple[int, int]:
    parts = text.split("-")
    if len(parts) != 2:
        raise MoveSyntaxError(f"'{text}' is not a move (write the two squares like c1-c4)")
    return _square(parts[0]), _square(parts[1])


def _code(text: str) -> str:
    code = text.strip().upper()
    if code not in BY_CODE:
        raise MoveSyntaxError(
            f"'{text.strip()}' is not a myrmidon type (write C for the Commander, or sword/shield/movement "
            "adding up to 9, like 5/1/3)"
        )
    return code


def _codes(text: str) -> tuple[str, ...]:
    if not text.strip():
        raise MoveSyntaxError("list the pieces, separated by commas")
    return tuple(_code(part) for part in text.split(","))


def parse_move(text: str) -> Move:
    """Parse any move of the game; raises MoveSyntaxError when the text is not one."""
    words = text.strip().split(None, 1)
    if not words:
        raise MoveSyntaxError("Type a move, like c1-c4, or an order like order N c1-c2 b1-b3")
    head, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    if head == "deploy":
        return Deploy(_codes(rest))
    if head == "army":
        return Army(_codes(rest))
    if head == "order":
        parts = rest.replace(",", " ").split()
        if not parts or parts[0].upper() not in DIRECTION_NAMES:
            raise MoveSyntaxError("An order starts with a direction: N, NE, E, SE, S, SW, W or NW")
        if len(parts) < 2:
            raise MoveSyntaxError("An order lists its participants' moves, like order N c1-c2 b1-b4")
        return Order(DIRECTION_NAMES.index(parts[0].upper()), tuple(_pair(p) for p in parts[1:]))
    if len(words) > 1:
        raise MoveSyntaxError(f"'{text.strip()}' is not a move (a move looks like c1-c4)")
    return Step(*_pair(words[0]))


def format_move(move: Move) -> str:
    return str(move)


def deploy_move(codes: Sequence[str]) -> str:
    """The canonical deployment for `codes` listed from file a to file f ("C" for the Commander)."""
    return str(Deploy(tuple(_code(c) for c in codes)))


def army_move(codes: Iterable[str]) -> str:
    """The canonical draft move for five types, in any order."""
    return str(Army(tuple(_code(c) for c in codes)))


def order_move(direction: str, items: Iterable[tuple[str, str]]) -> str:
    """The canonical order for a direction name and (from, to) square names, in any order."""
    return str(Order(DIRECTION_NAMES.index(direction.upper()), tuple((_square(a), _square(b)) for a, b in items)))


def is_setup_move(text: str) -> bool:
    words = text.strip().split(None, 1)
    return bool(words) and words[0].lower() in ("deploy", "army")
