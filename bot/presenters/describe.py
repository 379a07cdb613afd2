"""Words for a board picture, for players who cannot see it: its alt text and the text board.

Both are built from the very view dict the picture is drawn from (the public view for a public post), so a
description can say nothing the picture's audience may not know. What is common to every game is here; what one
game says about its position (the last move, material, pieces, the rest) is its package's `describe.py`, declared
as its describer (bot/games/describing.py). The alt text fits Discord's 1,024 characters;
the text board lists every piece by square, per player, in the game's notation, in messages of at most 2,000.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from bot.games import Outcome
from bot.games.describing import Describer
from bot.games.registry import declaration_of, get_game
from bot.i18n import ENGLISH, t, tn

from .captions import format_score, names_its_side, side_name
from .text import fit

MAX_ALT_TEXT = 1024  # Discord's limit for an attachment's description
MAX_MESSAGE = 2000  # Discord's limit for a message's content

View = dict[str, Any]


# --- the facts both descriptions share ------------------------------------------------------------------------


def describer(view: View) -> Describer:
    """The words of the view's game (its package's describe.py)."""
    return declaration_of(view["game"]).describer


def side_of(view: View, seat: int, lang: str = ENGLISH) -> str:
    return side_name(view, seat, lang) or f"{seat + 1}"


def player(view: View, names: Sequence[str], seat: int, lang: str = ENGLISH) -> str:
    """'alice (Light)': a member's name with her side, as a screen reader reads it (no markdown)."""
    side = side_of(view, seat, lang)
    name = names[seat] if seat < len(names) else side
    return name if name == side or names_its_side(view, name, seat) else f"{name} ({side})"


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
    seat, did = describer(view).last_move(lang, view)
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
    per_seat = describer(view).material(lang, view)
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
             status_line(lang, view, names), describer(view).position(lang, view), material_line(lang, view, names)]
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
    pieces = describer(view).pieces(lang, view)
    for seat, items in enumerate(pieces):
        if items:
            lines.append(f"{side_of(view, seat, lang)}: {', '.join(items)}.")
    return fit(" ".join(lines), MAX_ALT_TEXT)


def rating_chart_alt_text(who: str, title: str, points: Sequence[tuple[float, int]], lang: str = ENGLISH) -> str:
    """The rating chart's description: how many games it covers and where the rating went."""
    if not points:
        return t(lang, "Rating chart of {who} in {game}: no rated games yet.", who=who, game=title)
    ratings = [round(p[1]) for p in points]
    return fit(tn(lang, "Rating chart of {who} in {game} over {count} rated game: from {first} to {last}, highest "
                        "{high}, lowest {low}.", "Rating chart of {who} in {game} over {count} rated games: from "
                        "{first} to {last}, highest {high}, lowest {low}.", len(points) - 1, who=who, game=title,
                     first=ratings[0], last=ratings[-1], high=max(ratings), low=min(ratings)), MAX_ALT_TEXT)


def text_board(title: str, view: View, names: Sequence[str], *, match_id: int | None = None,
               lang: str = ENGLISH) -> list[str]:
    """The board as text a screen reader reads well: the alt text's facts, then every piece by square, one
    paragraph per player; split into messages of at most 2,000 characters (a paragraph too long for one
    message is cut at a comma)."""
    paragraphs = summary_lines(lang, title, view, names, match_id, "board")
    pieces = describer(view).pieces(lang, view)
    for seat, items in enumerate(pieces):
        if seat >= view.get("num_players", len(names)):
            break
        listing = ", ".join(items) if items else t(lang, "none")
        paragraphs.append(t(lang, "{player}, {count} on the board: {pieces}.",
                            player=player(view, names, seat, lang), count=len(items), pieces=listing))
    paragraphs += describer(view).extras(lang, view, lambda seat: player(view, names, seat, lang))
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
