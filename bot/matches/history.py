"""A match's history as numbered narration lines, and pages of them that fit a Discord embed.

Pure text from the move log: who played what, and what it did (captures, fights, burns, passes) in the game's
own words (`Game.describe`). A line holds only what its reader may know: events she may not see are left out
(`is_visible`), and a secret setup move of another seat reads "made a secret setup move" until the match is over.
Line N narrates the N-th logged entry, so history and match record (bot/games/record.py) number moves alike.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from bot.games import Event, Game, narrate
from bot.i18n import ENGLISH, localize, story_text, t

EMBED_DESCRIPTION_LIMIT = 4096  # Discord refuses a longer embed description
MOVES_PER_PAGE = 18  # a page a phone shows without much scrolling
EMPTY_HISTORY = "*No moves yet.*"

# These events say no more than the move text the line already shows ("a1: unload b2 P@c2" after `unload b2
# P@c2`); what a move did beyond itself (a capture, a fight, what a burn destroyed) has events of its own.
RESTATED_BY_MOVE = frozenset({"move", "order", "load", "unload", "burn"})

_MARKDOWN = re.compile(r"([\\*_~`|>])")


def escape(text: str) -> str:
    """A display name as literal text in Discord markdown: `**bob**` must not turn bold or break the line's."""
    return _MARKDOWN.sub(r"\\\1", " ".join(text.split()))


def _entry(item: Any) -> tuple[int, str, bool, list[Event]]:
    """(seat, move, private, events) of a logged move: the storage layer's rows or plain tuples."""
    if hasattr(item, "seat") and hasattr(item, "move"):
        return item.seat, item.move, bool(getattr(item, "private", False)), list(getattr(item, "events", []) or [])
    seat, move, *rest = item
    private = bool(rest[0]) if rest else False
    events = list(rest[1]) if len(rest) > 1 and rest[1] else []
    return seat, move, private, events


def history_lines(
    game: Game,
    entries: Iterable[Any],
    names: Sequence[str],
    viewer: int | None,
    *,
    finished: bool = False,
    sides: Sequence[str] | None = None,
    lang: str = ENGLISH,
    timed: bool = False,
) -> list[str]:
    """One markdown line per logged entry, as `viewer` (a seat, or None for the public) may read them.

    `entries`: the move log's rows (.seat, .move, .private, .events) or (seat, move, private, events) tuples,
    match-layer entries ("resign", "timeout", "draw") included. `finished`: the match is over, so secret setup
    moves are shown to everyone (their private events stay with their seat: they speak to it as "you").
    `sides`: each seat's side in the game ("Light", "h8"); default the game's seat names for two players.
    `timed`: each line ends with when the move was made (`created_at`, in the reader's own time zone) and the
    time it charged to its mover's clock (`clock_used`), where the entry has them.
    """
    if sides is None and len(game.info.seat_names) == len(names):
        sides = game.info.seat_names
    lines = []
    for number, item in enumerate(entries, 1):
        seat, move, private, events = _entry(item)
        who = _label(names, sides, seat)
        secret = private or game.is_private_move(move)
        if move == "resign":
            said = t(lang, "{player} resigned", player=who)
        elif move == "timeout":
            said = t(lang, "{player} ran out of time", player=who)
        elif move == "draw":
            said = t(lang, "{player} accepted the draw: the match is drawn by agreement", player=who)
        elif secret and not finished and seat != viewer:
            said = t(lang, "{player} made a secret setup move", player=who)
        else:
            said = f"{who}: `{move}`"
        story = [localize(lang, text) for text in narrate(game, events, viewer, RESTATED_BY_MOVE)]
        line = f"**{number}.** {said}" + (" — " + story_text(story) if story else "") + "."
        lines.append(line + _times(item, lang) if timed else line)
    return lines


def _times(item: Any, lang: str) -> str:
    """" · <when> · ⏱️ 3h 4m": when a logged move was made and what it charged to its mover's clock."""
    at, used = getattr(item, "created_at", None), getattr(item, "clock_used", None)
    text = f" · <t:{int(at)}:f>" if at is not None else ""
    return text + (f" · ⏱️ {duration(used, lang)}" if used is not None else "")


def duration(seconds: float, lang: str = ENGLISH) -> str:
    """A time on a clock, to the minute: "2d 5h", "3h 4m", "12m"."""
    minutes = int(seconds) // 60
    days, hours, minutes = minutes // (24 * 60), minutes // 60 % 24, minutes % 60
    if days:
        return t(lang, "{days}d {hours}h", days=days, hours=hours)
    if hours:
        return t(lang, "{hours}h {minutes}m", hours=hours, minutes=minutes)
    return t(lang, "{minutes}m", minutes=minutes)


def mark_planned(lines: list[str], entries: Sequence[Any], planned_versions: set[int],
                 lang: str = ENGLISH) -> list[str]:
    """Mark the lines of moves that were planned replies (`history_lines` gives one line per entry)."""
    return [f"{line} 🗓️ *{t(lang, 'planned reply')}*" if getattr(entry, "version", None) in planned_versions else line
            for line, entry in zip(lines, entries)]


def _label(names: Sequence[str], sides: Sequence[str] | None, seat: int) -> str:
    name = escape(names[seat]) if seat < len(names) else f"seat {seat}"
    side = f" ({escape(sides[seat])})" if sides and seat < len(sides) else ""
    return name + side


def paginate(
    lines: Sequence[str], *, per_page: int = MOVES_PER_PAGE, limit: int = EMBED_DESCRIPTION_LIMIT
) -> list[str]:
    """Split history lines into page texts of at most `per_page` lines and `limit` characters each, in order.

    A line too long for a page on its own (a burn that destroys a whole convoy, in a long game's names) is cut
    with "…" rather than dropped, so every move keeps its number. No lines give one page saying so."""
    if per_page < 1 or limit < 2:
        raise ValueError("a page needs room for at least one line")
    pages: list[str] = []
    page: list[str] = []
    size = 0
    for line in lines:
        if len(line) > limit:
            line = line[: limit - 1] + "…"
        # +1 for the newline that joins this line to the page's previous one
        if page and (len(page) >= per_page or size + 1 + len(line) > limit):
            pages.append("\n".join(page))
            page, size = [], 0
        size += len(line) + (1 if page else 0)
        page.append(line)
    if page:
        pages.append("\n".join(page))
    return pages or [EMPTY_HISTORY]


__all__ = ["EMBED_DESCRIPTION_LIMIT", "MOVES_PER_PAGE", "duration", "escape", "history_lines", "paginate"]
