"""Myrmidons in words: fights, pieces on the board and eliminated, every myrmidon by square as its viewer knows it."""

from __future__ import annotations

from bot.games.describing import Describer, Player, View, square_order
from bot.i18n import t, tn
from .game import fighter_text


def myrmidon(lang: str, cell: View) -> str:
    if not cell.get("known"):
        return t(lang, "hidden myrmidon")
    if cell.get("commander"):
        return t(lang, "Commander")
    return f"{cell['name']} {cell['code']}"


def last_move(lang: str, view: View) -> tuple[int | None, str]:
    action = view.get("last_action") or {}
    did = []
    for fight in action.get("fights") or []:
        a, d = fight["attacker"], fight["defender"]
        outcome = t(lang, "wins") if fight["result"] == "win" else \
            t(lang, "is repelled to {square}", square=fight["attacker_end"])
        did.append(t(lang, "fight on {square}: {attacker} attacks {defender} and {outcome}", square=fight["square"],
                     attacker=t(lang, fighter_text(a)), defender=t(lang, fighter_text(d)), outcome=outcome))
    return action.get("seat"), "; ".join(did)


def material(lang: str, view: View) -> list[str]:
    on_board = [0, 0]
    for cell in view["cells"].values():
        on_board[cell["owner"]] += 1
    return [tn(lang, "{pieces} on the board, {count} eliminated", "{pieces} on the board, {count} eliminated", lost,
               pieces=n)
            for n, lost in zip(on_board, view["eliminated"])]


def pieces(lang: str, view: View) -> list[list[str]]:
    by_seat: list[list[str]] = [[], []]
    for square in sorted(view["cells"], key=square_order):
        cell = view["cells"][square]
        by_seat[cell["owner"]].append(f"{square} {myrmidon(lang, cell)}")
    return by_seat


def extras(lang: str, view: View, player: Player) -> list[str]:
    lines = []
    if view.get("undeployed"):
        lines.append(t(lang, "Still to deploy: {pieces}.",
                       pieces=", ".join(f"{p['name']} {p['code']}" for p in view["undeployed"])))
    return lines


DESCRIBER = Describer(pieces=pieces, last_move=last_move, material=material, extras=extras)
