"""Nim in words: the heaps belong to nobody, so the position is one sentence."""

from __future__ import annotations

from bot.games.describing import Describer, View
from bot.i18n import t

from .game import HEAPS


def last_move(lang: str, view: View) -> tuple[int | None, str]:
    move = view["last_move"]
    return (view["ply"] - 1) % 2, t(lang, "taking {count} from heap {heap}", count=int(move[1:]), heap=move[0])


def position(lang: str, view: View) -> str:
    heaps = ", ".join(t(lang, "heap {heap}: {count}", heap=heap, count=size)
                      for heap, size in zip(HEAPS, view["heaps"]))
    return t(lang, "Heaps: {heaps}.", heaps=heaps)


DESCRIBER = Describer(pieces=lambda lang, view: [], last_move=last_move, position=position)
