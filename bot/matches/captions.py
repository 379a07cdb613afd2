"""The words of a board post: who played what, what it did, whose turn it is or how the match ended.

Pure text from public facts only (the public view and public events), so a caption can never carry a secret.
"""

from __future__ import annotations

from typing import Any, Sequence

from bot.games import Event, Game, Outcome, is_visible
from bot.storage import Match


def seat_label(view: dict[str, Any], names: Sequence[str], seat: int) -> str:
    seat_names = view.get("seat_names") or []
    side = f" ({seat_names[seat]})" if seat < len(seat_names) else ""
    return f"**{names[seat]}**{side}"


# The caption already says who played which move and who won; narrating those events again only repeats it.
RESTATED_BY_CAPTION = frozenset({"move", "order", "win"})


def narrate(game: Game, events: Sequence[Event], viewer: int | None = None) -> list[str]:
    """Narration lines for the events `viewer` may see (None: the public) that the caption does not state."""
    lines = []
    for ev in events:
        if is_visible(ev, viewer) and ev.get("type") not in RESTATED_BY_CAPTION:
            text = game.describe(ev)
            if text:
                lines.append(text)
    return lines


def result_line(view: dict[str, Any], names: Sequence[str], outcome: Outcome) -> str:
    if not outcome.winners:
        return f"🤝 The match is drawn: {outcome.reason}."
    winners = " and ".join(seat_label(view, names, s) for s in outcome.winners)
    verb = "wins" if len(outcome.winners) == 1 else "share the win"
    return f"🏆 {winners} {verb}: {outcome.reason}."


def turn_caption(
    game: Game,
    match: Match,
    view: dict[str, Any],
    *,
    last: tuple[int, str | None, Sequence[Event]] | None = None,
    secret_setup: bool = False,
) -> str:
    """`last` = (seat, public move text or None for a secret move, events) of the action just taken."""
    names = match.names
    lines = [f"**{game.info.title}** · match #{match.id} · move {view.get('ply', 0)}"]
    if last is not None:
        seat, move, events = last
        who = seat_label(view, names, seat)
        played = f"{who} played `{move}`" if move else f"{who} made a secret move"
        story = [line.rstrip(".") for line in narrate(game, events)]  # some games narrate whole sentences
        lines.append(played + (" — " + "; ".join(story) if story else "") + ".")
    outcome = Outcome.from_json(view.get("outcome")) if view.get("outcome") else None
    if match.result and not outcome:
        outcome = Outcome.from_json(match.result)
    if outcome:
        lines.append(result_line(view, names, outcome))
    else:
        acting = view.get("to_act") or []
        if acting and secret_setup:
            lines.append("Secret setup: " + ", ".join(seat_label(view, names, s) for s in acting)
                         + " — press **Move** to set up in private; nobody else sees your choices.")
        elif acting:
            lines.append(", ".join(seat_label(view, names, s) for s in acting) + " to move.")
    scores = view.get("scores")
    if scores is not None:
        lines.append("Scores: " + " · ".join(f"{names[i]} {format_score(v)}" for i, v in enumerate(scores)))
    return "\n".join(lines)


def format_score(value: float) -> str:
    whole = int(value)
    return f"{whole}½" if value - whole >= 0.5 else str(whole)
