"""The words of a board post: who played what, what it did, whose turn it is or how the match ended.

Pure text from public facts only (the public view and public events), so a caption can never carry a secret.
"""

from __future__ import annotations

from typing import Any, Sequence

from bot.games import Game, Outcome, is_visible, narrate
from bot.games.registry import declaration_of
from bot.i18n import ENGLISH, localize, story_text, t
from bot.matches.events import MovePlayed, Played
from bot.domain import Match

from .emojis import NO_EMOJIS, AppEmojis


def side_name(view: dict[str, Any], seat: int, lang: str = ENGLISH) -> str | None:
    """The name of a seat's side in `lang` ("Dark", "Oscuras"), or None when the game names none. The games name
    their sides in English and declare which names are words to translate (Mycenae's corners, like "a1", are
    squares and stay as they are)."""
    seat_names = view.get("seat_names") or []
    if seat >= len(seat_names):
        return None
    name = seat_names[seat]
    return t(lang, name) if name in declaration_of(view["game"]).side_names else name


def names_its_side(view: dict[str, Any], name: str, seat: int) -> bool:
    """Whether a seat's name already carries its side: two computer seats of one match are named "Strategos
    (easy, Yellow)" and "Strategos (easy, Blue)" (bot/matches/challenges.py), so the side is not said twice."""
    seat_names = view.get("seat_names") or []
    return seat < len(seat_names) and name.endswith(f", {seat_names[seat]})")


def seat_label(view: dict[str, Any], names: Sequence[str], seat: int, lang: str = ENGLISH,
               emojis: AppEmojis = NO_EMOJIS, piece: str | None = None) -> str:
    """"**alice** (Light)", the side after its app emoji where `emojis` has one (the emoji of the piece kind
    `piece`, where the game has one: the piece she moved)."""
    side = None if names_its_side(view, names[seat], seat) else side_name(view, seat, lang)
    return f"**{names[seat]}**" + (f" ({emojis.marked(view, seat, side, piece)})" if side else "")


def moved_piece(view: dict[str, Any], events: Sequence[dict[str, Any]]) -> str | None:
    """The piece kind a move's public events moved, where its game has emojis of its pieces ("a1_n")."""
    moved = declaration_of(view["game"]).moved_piece
    return moved([ev for ev in events if is_visible(ev, None)]) if moved is not None else None


# The caption already says who played which move and who won; narrating those events again only repeats it.
RESTATED_BY_CAPTION = frozenset({"move", "order", "win"})


def result_line(view: dict[str, Any], names: Sequence[str], outcome: Outcome, lang: str = ENGLISH,
                emojis: AppEmojis = NO_EMOJIS) -> str:
    if not outcome.winners:
        return t(lang, "🤝 The match is drawn: {reason}.", reason=outcome.reason)
    winners = t(lang, " and ").join(seat_label(view, names, s, lang, emojis) for s in outcome.winners)
    if len(outcome.winners) == 1:
        return t(lang, "🏆 {winner} wins: {reason}.", winner=winners, reason=outcome.reason)
    return t(lang, "🏆 {winners} share the win: {reason}.", winners=winners, reason=outcome.reason)


def turn_caption(
    game: Game,
    match: Match,
    view: dict[str, Any],
    *,
    played: MovePlayed | None = None,
    secret_setup: bool = False,
    lang: str = ENGLISH,
    emojis: AppEmojis = NO_EMOJIS,
) -> str:
    """The caption of a board post; `played` is the action that led to it (None: a first or re-posted board).
    Written in `lang` (the server's language), the games' own narration and end reasons included; each side named
    after its app emoji in `emojis`."""
    names = match.names
    lines = [t(lang, "**{game}** · match #{match} · move {ply}", game=game.info.title, match=match.id,
               ply=view.get("ply", 0))]
    if played is not None:
        lines += _action_lines(game, view, names, played, lang, emojis)
    outcome = Outcome.from_json(view.get("outcome")) if view.get("outcome") else None
    if match.result and not outcome:
        outcome = Outcome.from_json(match.result)
    if outcome:
        lines.append(result_line(view, names, outcome, lang, emojis))
    else:
        acting = view.get("to_act") or []
        players = ", ".join(seat_label(view, names, s, lang, emojis) for s in acting)
        if acting and secret_setup:
            lines.append(t(lang, "Secret setup: {players} — press **Move** to set up in private; nobody else sees "
                                 "your choices.", players=players))
        elif acting:
            lines.append(t(lang, "{players} to move.", players=players))
    scores = view.get("scores")
    if scores is not None:
        lines.append(t(lang, "Scores: {scores}",
                       scores=" · ".join(f"{names[i]} {format_score(v)}" for i, v in enumerate(scores))))
    if played is not None and played.ratings:
        lines.append(t(lang, "Ratings: {ratings}",
                       ratings=" · ".join(f"{names[c.seat]} {c.summary()}" for c in played.ratings)))
    return "\n".join(lines)


def _action_lines(game: Game, view: dict[str, Any], names: Sequence[str], played: MovePlayed,
                  lang: str = ENGLISH, emojis: AppEmojis = NO_EMOJIS) -> list[str]:
    lines = []
    piece = moved_piece(view, played.events) if emojis.mentions and played.kind is Played.MOVE else None
    who = seat_label(view, names, played.seat, lang, emojis, piece)
    story = story_of(game, played.events, lang)
    tail = (" — " + story_text(story) if story else "") + "."
    if played.kind is Played.MOVE:
        lines.append((t(lang, "{player} played `{move}`", player=who, move=played.move) if played.move
                      else t(lang, "{player} made a secret move", player=who)) + tail)
    elif played.kind is Played.TAKEBACK:
        lines.append(t(lang, "↩️ {player} took back `{move}` with everyone's consent.", player=who, move=played.move))
    elif played.kind in (Played.RESIGN, Played.TIMEOUT) and view.get("outcome") is None:
        did = t(lang, "{player} resigned and is out of the match", player=who) if played.kind is Played.RESIGN \
            else t(lang, "{player} ran out of time and is out of the match", player=who)
        lines.append(did + tail)
    for forced in played.forced:
        story = story_of(game, forced.events, lang)
        player = seat_label(view, names, forced.seat, lang, emojis)
        said = t(lang, "{player} had one legal move, played at once as they asked: `{move}`", player=player,
                 move=forced.move) if forced.chosen else \
            t(lang, "{player} had no choice: `{move}`", player=player, move=forced.move)
        lines.append(said + (" — " + story_text(story) if story else "") + ".")
    return lines


def story_of(game: Game, events: Sequence[dict[str, Any]], lang: str = ENGLISH) -> list[str]:
    """What the public events did, in `lang` (told in one run by `story_text`)."""
    return [localize(lang, line) for line in narrate(game, events, None, RESTATED_BY_CAPTION)]


def format_score(value: float) -> str:
    """'3', '2½', and '½' alone (not '0½') for a score that counts half points."""
    whole = int(value)
    if value - whole < 0.5:
        return str(whole)
    return f"{whole}½" if whole else "½"
