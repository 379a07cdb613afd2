"""Mycenae in words: pieces per corner, who is out, every piece by square with the cargo its viewer knows of."""

from __future__ import annotations

from typing import Sequence

from bot.games.describing import Describer, Player, View, square_order
from bot.i18n import N_, t, tn

PIECE_NAMES = {"K": N_("king"), "R": N_("rook"), "B": N_("bishop"), "N": N_("knight"), "P": N_("pawn")}


def piece_name(lang: str, piece: View) -> str:
    if piece.get("mycenaean"):
        return t(lang, "Mycenaean knight")
    return t(lang, PIECE_NAMES[piece["type"]])


def cargo_text(lang: str, cargo: Sequence[View]) -> str:
    return ", ".join(t(lang, PIECE_NAMES[p["type"]]) for p in cargo)


def material(lang: str, view: View) -> list[str]:
    counts = [0] * view["num_players"]
    for piece in view["board"]:
        counts[piece["owner"]] += 1
    out = set(view.get("out") or [])
    return [tn(lang, "{count} piece", "{count} pieces", n) + (", " + t(lang, "out") if seat in out else "")
            for seat, n in enumerate(counts)]


def last_move(lang: str, view: View) -> tuple[int | None, str]:
    return view.get("last_mover"), ""


def pieces(lang: str, view: View) -> list[list[str]]:
    by_seat: list[list[str]] = [[] for _ in range(view["num_players"])]
    own, known = view.get("cargo") or {}, view.get("known_cargo") or {}
    for piece in sorted(view["board"], key=lambda p: square_order(p["square"])):
        text = f"{piece['square']} {piece_name(lang, piece)}"
        square = piece["square"]
        if square in own:  # the viewer's own knight: she knows its cargo
            carried = (t(lang, "carrying {cargo}", cargo=cargo_text(lang, own[square])) if own[square]
                       else t(lang, "empty"))
            text += " (" + carried + ")"
        elif square in known and known[square]:  # what everyone saw it load
            text += " (" + t(lang, "known to carry {cargo}", cargo=cargo_text(lang, known[square])) + ")"
        by_seat[piece["owner"]].append(text)
    return by_seat


def counted_kind(lang: str, letter: str, count: int) -> str:
    if letter == "K":
        return tn(lang, "{count} king", "{count} kings", count)
    if letter == "R":
        return tn(lang, "{count} rook", "{count} rooks", count)
    if letter == "B":
        return tn(lang, "{count} bishop", "{count} bishops", count)
    return tn(lang, "{count} pawn", "{count} pawns", count)


def counted(lang: str, letters: Sequence[str]) -> str:
    """"1 king, 2 bishops, 3 pawns": unseen pieces by kind, in the order K R B P."""
    return ", ".join(counted_kind(lang, letter, letters.count(letter)) for letter in "KRBP" if letter in letters)


def hidden_cargo(lang: str, view: View, player: Player) -> list[str]:
    """What the viewer can tell of each other player's cargo: the pieces nobody has seen since the secret setup
    and the knights that can hold them (her setup knights still hers: bot/games/mycenae/sampling.py says why no
    public fact narrows it further); any other knight holds only what everyone saw it load. Everything here is
    public, so every viewer is told the same of a player."""
    if view.get("viewer") is None:
        return []
    lines = []
    for seat, letters in enumerate(view["unseen"]):
        if seat == view["viewer"] or seat in (view.get("out") or []) or not letters:
            continue
        knights = sorted((sq for sq in view["sealed"] if any(p["square"] == sq and p["owner"] == seat
                                                             for p in view["board"])), key=square_order)
        line = t(lang, "{player} has {pieces} you have not seen, somewhere in the knights on {squares}.",
                 player=player(seat), pieces=counted(lang, letters), squares=", ".join(knights))
        if "K" in letters and len(knights) > 1:
            line += " " + t(lang, "Any of these can hold the king; no other knight can.")
        lines.append(line)
    return lines


DESCRIBER = Describer(pieces=pieces, last_move=last_move, material=material, extras=hidden_cargo)
