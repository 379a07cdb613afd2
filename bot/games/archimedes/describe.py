"""Archimedes in words: ships burnt and rebuilt, fleets and ports, every ship by square."""

from __future__ import annotations

from bot.games.describing import Describer, View, grid_squares
from bot.i18n import t, tn


def last_move(lang: str, view: View) -> tuple[int | None, str]:
    last = view.get("last") or {}
    did = []
    if last.get("rebuild"):
        did.append(t(lang, "a ship rebuilt in port"))
    destroyed = [d["square"] for d in last.get("destroyed") or []]
    if destroyed:
        did.append(t(lang, "burning {count}: {squares}", count=len(destroyed), squares=", ".join(destroyed)))
    return last.get("seat"), ", ".join(did)


def material(lang: str, view: View) -> list[str]:
    return [tn(lang, "{count} ship, {reserve} in reserve, port {port}",
               "{count} ships, {reserve} in reserve, port {port}", s, reserve=r, port=p)
            for s, r, p in zip(view["ships"], view["reserve"], view["ports"])]


DESCRIBER = Describer(pieces=grid_squares, last_move=last_move, material=material)
