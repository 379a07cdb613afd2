"""The words of a board post: who played what, what it did, whose turn it is or how the match ended.

Pure text from public facts only (the public view and public events), so a caption can never carry a secret.
"""

from __future__ import annotations

from typing import Any, Sequence

from bot.games import Game, Outcome, narrate
from bot.matches.events import MovePlayed
from bot.storage import Match


def seat_label(view: dict[str, Any], names: Sequence[str], seat: int) -> str:
    seat_names = view.get("seat_names") or []
    side = f" ({seat_names[seat]})" if seat < len(seat_names) else ""
    return f"**{names[seat]}**{side}"


# The caption already says who played which move and who won; narrating those events again only repeats it.
RESTATED_BY_CAPTION = frozenset({"move", "order", "win"})


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
    played: MovePlayed | None = None,
    secret_setup: bool = False,
) -> str:
    """The caption of a board post; `played` is the action that led to it (None: a first or re-posted board)."""
    names = match.names
    lines = [f"**{game.info.title}** · match #{match.id} · move {view.get('ply', 0)}"]
    if played is not None:
        lines += _action_lines(game, view, names, played)
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
    if played is not None and played.ratings:
        lines.append("Ratings: " + " · ".join(f"{names[c.seat]} {c.summary()}" for c in played.ratings))
    return "\n".join(lines)


def _action_lines(game: Game, view: dict[str, Any], names: Sequence[str], played: MovePlayed) -> list[str]:
    lines = []
    who = seat_label(view, names, played.seat) if played.seat >= 0 else ""
    story = [line.rstrip(".") for line in narrate(game, played.events, None, RESTATED_BY_CAPTION)]  # some games narrate whole sentences
    tail = (" — " + "; ".join(story) if story else "") + "."
    if played.kind == "move":
        lines.append((f"{who} played `{played.move}`" if played.move else f"{who} made a secret move") + tail)
    elif played.kind == "takeback":
        lines.append(f"↩️ {who} took back `{played.move}` with everyone's consent.")
    elif played.kind in ("resign", "timeout") and view.get("outcome") is None:
        did = "resigned" if played.kind == "resign" else "ran out of time"
        lines.append(f"{who} {did} and is out of the match" + tail)
    for forced in played.forced:
        story = [line.rstrip(".") for line in narrate(game, forced.events, None, RESTATED_BY_CAPTION)]
        lines.append(f"{seat_label(view, names, forced.seat)} had no choice: `{forced.move}`"
                     + (" — " + "; ".join(story) if story else "") + ".")
    return lines


def format_score(value: float) -> str:
    whole = int(value)
    return f"{whole}½" if value - whole >= 0.5 else str(whole)
