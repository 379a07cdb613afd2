"""Myrmidons in words: fights, pieces on the board and eliminated, every myrmidon by square as its viewer knows it."""

from __future__ import annotations

from bot.games.describing import Describer, Player, View, square_order
from bot.i18n import t, tn
from .army import BY_CODE, COMMANDER_CODE
from .game import fighter_text
from .knowledge import HiddenPiece, knowledge


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


def type_text(lang: str, code: str) -> str:
    kind = BY_CODE[code]
    return t(lang, "Commander") if kind.is_commander else f"{kind.name} {code}"


def hidden_piece(lang: str, piece: HiddenPiece, army_known: bool) -> str:
    """One hidden piece as its viewer's information narrows it down: "c5: moved 3 squares at once (movement 3 or
    more); could be Peltast 3/2/4, Messenger 1/3/5"."""
    where = piece.square or t(lang, "eliminated")
    if piece.moved > 1:
        moved = tn(lang, "moved {count} square at once (movement {count} or more)",
                   "moved {count} squares at once (movement {count} or more)", piece.moved)
    elif piece.moved == 1:
        moved = t(lang, "moved one square at a time")
    else:
        moved = t(lang, "has not moved")
    if army_known or len(piece.could_be) <= 3:
        could_be = t(lang, "could be {types}", types=", ".join(type_text(lang, c) for c in piece.could_be))
    else:  # a drafted army she was not shown: a count says more than a list of a dozen types
        types = len([c for c in piece.could_be if c != COMMANDER_CODE])
        could_be = (tn(lang, "could be the Commander or any of {count} type you have not seen",
                       "could be the Commander or any of {count} types you have not seen", types)
                    if COMMANDER_CODE in piece.could_be else
                    tn(lang, "could be any of {count} type you have not seen",
                       "could be any of {count} types you have not seen", types))
    return f"{where}: {moved}; {could_be}."


def known_of_hidden(lang: str, view: View, player: Player) -> list[str]:
    """What the viewer's own information proves about each hidden enemy myrmidon (bot/games/myrmidons/knowledge)."""
    known = knowledge(view)
    if known is None:
        return []
    lines = [t(lang, "Hidden myrmidons of {player}, as far as you can tell:", player=player(known.seat))]
    lines += [hidden_piece(lang, piece, known.army_known) for piece in known.pieces]
    if known.unseen:
        lines.append(t(lang, "Not yet seen: {types}.", types=", ".join(type_text(lang, c) for c in known.unseen)))
    return ["\n".join(lines)]


def extras(lang: str, view: View, player: Player) -> list[str]:
    lines = []
    if view.get("undeployed"):
        lines.append(t(lang, "Still to deploy: {pieces}.",
                       pieces=", ".join(f"{p['name']} {p['code']}" for p in view["undeployed"])))
    return lines + known_of_hidden(lang, view, player)


DESCRIBER = Describer(pieces=pieces, last_move=last_move, material=material, extras=extras)
