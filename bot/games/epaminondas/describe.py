"""Epaminondas in words: phalanxes and captures, pieces and crossings, every piece by square."""

from __future__ import annotations

from bot.games.describing import Describer, View, grid_squares
from bot.i18n import t, tn


def last_move(lang: str, view: View) -> tuple[int | None, str]:
    last = view.get("last") or {}
    moved = len(last.get("from", []))
    did = t(lang, "a phalanx of {count}", count=moved) if moved > 1 else ""
    captured = last.get("captured") or []
    if captured:
        did += (", " if did else "") + t(lang, "capturing {count}: {squares}", count=len(captured),
                                         squares=", ".join(captured))
    return last.get("seat"), did


def material(lang: str, view: View) -> list[str]:
    return [tn(lang, "{count} piece, {across} across", "{count} pieces, {across} across", p, across=a)
            for p, a in zip(view["counts"], view["crossings"])]


DESCRIBER = Describer(pieces=grid_squares, last_move=last_move, material=material)
