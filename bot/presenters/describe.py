"""Words for a board picture, for players who cannot see it: its alt text and the text board.

Both are built from the very view dict the picture is drawn from (the public view for a public post), so a
description can say nothing the picture's audience may not know. The alt text fits Discord's 1,024 characters;
the text board lists every piece by square, per player, in the game's notation, in messages of at most 2,000.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from bot.games import Outcome
from bot.games.registry import get_game
from bot.i18n import ENGLISH, N_, t

from .captions import format_score, side_name
from .text import fit

MAX_ALT_TEXT = 1024  # Discord's limit for an attachment's description
MAX_MESSAGE = 2000  # Discord's limit for a message's content

View = dict[str, Any]


# --- the facts both descriptions share ------------------------------------------------------------------------


def side_of(view: View, seat: int, lang: str = ENGLISH) -> str:
    return side_name(view, seat, lang) or f"{seat + 1}"


def player(view: View, names: Sequence[str], seat: int, lang: str = ENGLISH) -> str:
    """'alice (Light)': a member's name with her side, as a screen reader reads it (no markdown)."""
    side = side_of(view, seat, lang)
    name = names[seat] if seat < len(names) else side
    return name if name == side else f"{name} ({side})"


def header(lang: str, title: str, view: View, names: Sequence[str], match_id: int | None, kind: str) -> str:
    """What the picture is: a match's public board, one player's view, or the preview of her move."""
    ply = view.get("ply", 0)
    where = t(lang, "match #{match}, move {ply}", match=match_id, ply=ply) if match_id is not None \
        else t(lang, "move {ply}", ply=ply)
    viewer = view.get("viewer")
    if kind == "start":
        return t(lang, "{game}: the starting position.", game=title)
    if kind == "preview" and viewer is not None:
        return t(lang, "{game}, {where}: preview of your move, as {side}.", game=title, where=where,
                 side=player(view, names, viewer, lang))
    if viewer is not None:
        return t(lang, "{game}, {where}: your view as {side}.", game=title, where=where,
                 side=player(view, names, viewer, lang))
    return t(lang, "{game} board, {where}.", game=title, where=where)


def last_move_line(lang: str, view: View, names: Sequence[str]) -> str | None:
    move = view.get("last_move")
    if not move:
        return None
    seat, did = LAST_MOVES.get(view.get("game", ""), _no_last)(lang, view)
    if seat is None:
        line = t(lang, "Last move: {move}", move=move)
    else:
        line = t(lang, "Last move: {player} played {move}", player=player(view, names, seat, lang), move=move)
    return line + (f", {did}." if did else ".")


def status_line(lang: str, view: View, names: Sequence[str]) -> str:
    outcome = Outcome.from_json(view.get("outcome")) if view.get("outcome") else None
    if outcome is not None:
        if not outcome.winners:
            return t(lang, "The match is drawn: {reason}.", reason=outcome.reason)
        winners = ", ".join(player(view, names, s, lang) for s in outcome.winners)
        return t(lang, "{winners} won: {reason}.", winners=winners, reason=outcome.reason)
    acting = view.get("to_act") or []
    if not acting:
        return ""
    return t(lang, "To move: {players}.", players=", ".join(player(view, names, s, lang) for s in acting))


def material_line(lang: str, view: View, names: Sequence[str]) -> str:
    per_seat = MATERIAL.get(view.get("game", ""), _no_material)(lang, view)
    scores = view.get("scores")
    parts = []
    for seat in range(view.get("num_players", len(names))):
        facts = [per_seat[seat]] if seat < len(per_seat) and per_seat[seat] else []
        if scores is not None:
            facts.append(t(lang, "score {score}", score=format_score(scores[seat])))
        if facts:
            parts.append(f"{player(view, names, seat, lang)}: {', '.join(facts)}")
    return "; ".join(parts) + ("." if parts else "")


def summary_lines(lang: str, title: str, view: View, names: Sequence[str], match_id: int | None,
                  kind: str) -> list[str]:
    lines = [header(lang, title, view, names, match_id, kind), last_move_line(lang, view, names),
             status_line(lang, view, names), material_line(lang, view, names)]
    return [line for line in lines if line]


def alt_text(title: str, view: View, names: Sequence[str], *, match_id: int | None = None, kind: str = "board",
             lang: str = ENGLISH) -> str:
    """The description of a board picture: which game, whose turn, the last move and what it did, each player's
    material or score, and for a private view whose side it shows; at most 1,024 characters."""
    return fit(" ".join(summary_lines(lang, title, view, names, match_id, kind)), MAX_ALT_TEXT)


def rules_alt_text(game_key: str, lang: str = ENGLISH) -> str:
    """The /rules diagram's description: the starting position it shows, piece by piece where that fits."""
    game = get_game(game_key)
    view = game.view(game.new_state(game.info.min_players, 0, None), None)  # what the registry.rules_diagram draws
    names = [side_of(view, s, lang) for s in range(game.info.min_players)]
    lines = summary_lines(lang, game.info.title, {**view, "to_act": [], "last_move": None}, names, None, "start")
    pieces = PIECES.get(game_key, _no_pieces)(lang, view)
    for seat, items in enumerate(pieces):
        if items:
            lines.append(f"{side_of(view, seat, lang)}: {', '.join(items)}.")
    return fit(" ".join(lines), MAX_ALT_TEXT)


def rating_chart_alt_text(who: str, title: str, points: Sequence[tuple[float, int]], lang: str = ENGLISH) -> str:
    """The rating chart's description: how many games it covers and where the rating went."""
    if not points:
        return t(lang, "Rating chart of {who} in {game}: no rated games yet.", who=who, game=title)
    ratings = [round(p[1]) for p in points]
    return fit(t(lang, "Rating chart of {who} in {game} over {games} rated games: from {first} to {last}, "
                           "highest {high}, lowest {low}.", who=who, game=title, games=len(points) - 1,
                     first=ratings[0], last=ratings[-1], high=max(ratings), low=min(ratings)), MAX_ALT_TEXT)


def text_board(title: str, view: View, names: Sequence[str], *, match_id: int | None = None,
               lang: str = ENGLISH) -> list[str]:
    """The board as text a screen reader reads well: the alt text's facts, then every piece by square, one
    paragraph per player; split into messages of at most 2,000 characters (a paragraph too long for one
    message is cut at a comma)."""
    paragraphs = summary_lines(lang, title, view, names, match_id, "board")
    pieces = PIECES.get(view.get("game", ""), _no_pieces)(lang, view)
    for seat, items in enumerate(pieces):
        if seat >= view.get("num_players", len(names)):
            break
        listing = ", ".join(items) if items else t(lang, "none")
        paragraphs.append(t(lang, "{player}, {count} on the board: {pieces}.",
                            player=player(view, names, seat, lang), count=len(items), pieces=listing))
    paragraphs += EXTRAS.get(view.get("game", ""), _no_extras)(lang, view, names)
    return pack(paragraphs, MAX_MESSAGE)


_STEP = re.compile(r"\b([a-z]\d{1,2})([-x])([a-z]\d{1,2})\b")
_AT = re.compile(r"\b([A-Z])@([a-z]\d{1,2})\b")


def spoken_move(move: str, lang: str = ENGLISH) -> str:
    """An autocomplete label that reads well aloud: 'c7xc11 (c7 takes c11)'; a screen reader would say
    'c7 x c11' or 'a1 minus d4' for the bare notation. The notation stays first, as it is typed."""
    def step(found: re.Match) -> str:
        src, kind, dst = found.groups()
        return t(lang, "{src} to {dst}", src=src, dst=dst) if kind == "-" else \
            t(lang, "{src} takes {dst}", src=src, dst=dst)

    spoken = _AT.sub(lambda found: t(lang, "{piece} at {square}", piece=found[1], square=found[2]),
                     _STEP.sub(step, move))
    label = move if spoken == move else f"{move} ({spoken})"
    return label if len(label) <= 100 else move[:100]


def pack(paragraphs: Sequence[str], limit: int) -> list[str]:
    """Paragraphs joined by blank lines into as few messages of at most `limit` characters as fit."""
    chunks: list[str] = []
    for paragraph in paragraphs:
        while len(paragraph) > limit:  # a long listing: cut after a comma, never inside a square's name
            cut = paragraph.rfind(", ", 0, limit - 1)
            cut = cut + 1 if cut > 0 else limit
            chunks.append(paragraph[:cut])
            paragraph = paragraph[cut:].lstrip()
        chunks.append(paragraph)
    messages: list[str] = []
    for chunk in chunks:
        if messages and len(messages[-1]) + 2 + len(chunk) <= limit:
            messages[-1] += "\n\n" + chunk
        else:
            messages.append(chunk)
    return messages


# --- per game: what the last move did, each player's material, every piece by square ---------------------------


def _no_last(lang: str, view: View) -> tuple[int | None, str]:
    return None, ""


def _no_material(lang: str, view: View) -> list[str]:
    return []


def _no_pieces(lang: str, view: View) -> list[list[str]]:
    return []


def _no_extras(lang: str, view: View, names: Sequence[str]) -> list[str]:
    return []


def _grid_squares(view: View) -> list[list[str]]:
    """Epaminondas and Archimedes: board[rank][file] holds the owner's seat or None."""
    squares: list[list[str]] = [[] for _ in range(view.get("num_players", 2))]
    for r, row in enumerate(view["board"]):
        for f, owner in enumerate(row):
            if owner is not None:
                squares[owner].append(f"{chr(ord('a') + f)}{r + 1}")
    return [sorted(s, key=_square_order) for s in squares]


def _square_order(square: str) -> tuple[str, int]:
    return square[0], int(square[1:])


def _epaminondas_last(lang: str, view: View) -> tuple[int | None, str]:
    last = view.get("last") or {}
    moved = len(last.get("from", []))
    did = t(lang, "a phalanx of {count}", count=moved) if moved > 1 else ""
    captured = last.get("captured") or []
    if captured:
        did += (", " if did else "") + t(lang, "capturing {count}: {squares}", count=len(captured),
                                         squares=", ".join(captured))
    return last.get("seat"), did


def _epaminondas_material(lang: str, view: View) -> list[str]:
    return [t(lang, "{pieces} pieces, {across} across", pieces=p, across=a)
            for p, a in zip(view["counts"], view["crossings"])]


def _archimedes_last(lang: str, view: View) -> tuple[int | None, str]:
    last = view.get("last") or {}
    did = []
    if last.get("rebuild"):
        did.append(t(lang, "a ship rebuilt in port"))
    destroyed = [d["square"] for d in last.get("destroyed") or []]
    if destroyed:
        did.append(t(lang, "burning {count}: {squares}", count=len(destroyed), squares=", ".join(destroyed)))
    return last.get("seat"), ", ".join(did)


def _archimedes_material(lang: str, view: View) -> list[str]:
    return [t(lang, "{ships} ships, {reserve} in reserve, port {port}", ships=s, reserve=r, port=p)
            for s, r, p in zip(view["ships"], view["reserve"], view["ports"])]


def _myrmidon(lang: str, cell: View) -> str:
    if not cell.get("known"):
        return t(lang, "hidden myrmidon")
    if cell.get("commander"):
        return t(lang, "Commander")
    return f"{cell['name']} {cell['code']}"


def _myrmidons_last(lang: str, view: View) -> tuple[int | None, str]:
    action = view.get("last_action") or {}
    did = []
    for fight in action.get("fights") or []:
        a, d = fight["attacker"], fight["defender"]
        outcome = t(lang, "wins") if fight["result"] == "win" else \
            t(lang, "is repelled to {square}", square=fight["attacker_end"])
        did.append(t(lang, "fight on {square}: {attacker} attacks {defender} and {outcome}", square=fight["square"],
                     attacker=f"{a['name']} {a['code']}", defender=f"{d['name']} {d['code']}", outcome=outcome))
    return action.get("seat"), "; ".join(did)


def _myrmidons_material(lang: str, view: View) -> list[str]:
    on_board = [0, 0]
    for cell in view["cells"].values():
        on_board[cell["owner"]] += 1
    return [t(lang, "{pieces} on the board, {lost} eliminated", pieces=n, lost=lost)
            for n, lost in zip(on_board, view["eliminated"])]


def _myrmidons_pieces(lang: str, view: View) -> list[list[str]]:
    pieces: list[list[str]] = [[], []]
    for square in sorted(view["cells"], key=_square_order):
        cell = view["cells"][square]
        pieces[cell["owner"]].append(f"{square} {_myrmidon(lang, cell)}")
    return pieces


def _myrmidons_extras(lang: str, view: View, names: Sequence[str]) -> list[str]:
    lines = []
    if view.get("undeployed"):
        lines.append(t(lang, "Still to deploy: {pieces}.",
                       pieces=", ".join(f"{p['name']} {p['code']}" for p in view["undeployed"])))
    return lines


MYCENAE_PIECES = {"K": N_("king"), "R": N_("rook"), "B": N_("bishop"), "N": N_("knight"), "P": N_("pawn")}


def _mycenae_piece(lang: str, piece: View) -> str:
    if piece.get("mycenaean"):
        return t(lang, "Mycenaean knight")
    return t(lang, MYCENAE_PIECES[piece["type"]])


def _cargo_text(lang: str, cargo: Sequence[View]) -> str:
    return ", ".join(t(lang, MYCENAE_PIECES[p["type"]]) for p in cargo) or t(lang, "empty")


def _mycenae_material(lang: str, view: View) -> list[str]:
    counts = [0] * view["num_players"]
    for piece in view["board"]:
        counts[piece["owner"]] += 1
    out = set(view.get("out") or [])
    return [t(lang, "{pieces} pieces", pieces=n) + (", " + t(lang, "out") if seat in out else "")
            for seat, n in enumerate(counts)]


def _mycenae_last(lang: str, view: View) -> tuple[int | None, str]:
    return view.get("last_mover"), ""


def _mycenae_pieces(lang: str, view: View) -> list[list[str]]:
    pieces: list[list[str]] = [[] for _ in range(view["num_players"])]
    own, known = view.get("cargo") or {}, view.get("known_cargo") or {}
    for piece in sorted(view["board"], key=lambda p: _square_order(p["square"])):
        text = f"{piece['square']} {_mycenae_piece(lang, piece)}"
        square = piece["square"]
        if square in own:  # the viewer's own knight: she knows its cargo
            text += " (" + t(lang, "carrying {cargo}", cargo=_cargo_text(lang, own[square])) + ")"
        elif square in known and known[square]:  # what everyone saw it load
            text += " (" + t(lang, "known to carry {cargo}", cargo=_cargo_text(lang, known[square])) + ")"
        pieces[piece["owner"]].append(text)
    return pieces


def _myriath_last(lang: str, view: View) -> tuple[int | None, str]:
    tiles = view.get("tiles") or []
    last = next((tile for tile in reversed(tiles) if tile["move"] == view.get("last_move")), None)
    return (last["owner"] if last else None), ""


def _myriath_tiles(view: View) -> list[list[str]]:
    tiles: list[list[str]] = [[] for _ in range(view["num_players"])]
    for tile in view.get("tiles") or []:
        tiles[tile["owner"]].append(tile["move"])
    return tiles


def _myriath_material(lang: str, view: View) -> list[str]:
    return [t(lang, "{tiles} tiles placed, {left} in supply", tiles=len(placed), left=sum(supply.values()))
            for placed, supply in zip(_myriath_tiles(view), view["supplies"])]


def _myriath_pieces(lang: str, view: View) -> list[list[str]]:
    return _myriath_tiles(view)


def _myriath_extras(lang: str, view: View, names: Sequence[str]) -> list[str]:
    kinds = {kind["key"]: kind["name"] for kind in view.get("tile_kinds") or []}
    lines = []
    for seat, supply in enumerate(view["supplies"]):
        left = ", ".join(f"{count} × {kinds.get(key, key)} ({key})" for key, count in supply.items() if count)
        lines.append(t(lang, "{player} has in supply: {tiles}.", player=player(view, names, seat, lang),
                       tiles=left or t(lang, "none")))
    return lines


LAST_MOVES: dict[str, Callable[[str, View], tuple[int | None, str]]] = {
    "epaminondas": _epaminondas_last, "archimedes": _archimedes_last, "myrmidons": _myrmidons_last,
    "mycenae": _mycenae_last, "myriath": _myriath_last,
}
MATERIAL: dict[str, Callable[[str, View], list[str]]] = {
    "epaminondas": _epaminondas_material, "archimedes": _archimedes_material, "myrmidons": _myrmidons_material,
    "mycenae": _mycenae_material, "myriath": _myriath_material,
}
PIECES: dict[str, Callable[[str, View], list[list[str]]]] = {
    "epaminondas": lambda lang, view: _grid_squares(view), "archimedes": lambda lang, view: _grid_squares(view),
    "myrmidons": _myrmidons_pieces, "mycenae": _mycenae_pieces, "myriath": _myriath_pieces,
}
EXTRAS: dict[str, Callable[[str, View, Sequence[str]], list[str]]] = {
    "myrmidons": _myrmidons_extras, "myriath": _myriath_extras,
}
