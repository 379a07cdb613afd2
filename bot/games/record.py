"""Match records: a small text format for a match's moves, and an exact replay of it from the seed.

A record is plain UTF-8 text. The first line names the format; `Key: value` header lines follow, then one line
per logged action (a move, a resignation, an agreed draw, a time-out), numbered from 1:

    Strategos match record 1
    Game: epaminondas
    Rules: 1
    Players: 2
    Seat 0: alice
    Seat 1: bob
    Options: {}
    Seed: 8141
    Date: 2026-11-24
    Match: 17
    Viewer: all
    Result: 1 (alice resigned)

    1. 0 i2-i3
    2. 1 e11-d10
    3. 0 resign

Header keys (order free, unknown keys ignored so later versions can add some; lines starting with `#` and blank
lines are ignored anywhere):

    Game      the game's key (bot.games.GAMES)
    Rules     the engine's rules version the match was played under; replay refuses another one
    Players   the number of seats
    Seat N    the display name of seat N (0-based, as the rules pages number them)
    Options   the match options as one line of JSON ({} for the defaults)
    Seed      the match seed, or `withheld` (see below)
    Date      when the match started (free text, written as YYYY-MM-DD)
    Match     the match number on the server (optional)
    Viewer    whose knowledge the record holds: `all` once the match is over, else `public` or a seat number
    Result    `*` while the match runs; else the winning seats (`0`, `0,2`) or `draw`, then the reason in
              parentheses

A move line is `<number>. <seat> <text>`, optionally followed by when the move was made and what it charged to
its mover's clock, in braces (`{at 2026-12-07T22:52:01Z clock 3:04:00}`, hours:minutes:seconds; `clock` only in a
match with a clock; records of moves logged before Strategos kept their times have neither): the seat that acted and the move in the game's canonical notation (the
text may contain spaces: Mycenae's `cargo b2:K,B d2:R`). The seat is always written: it is needed wherever
several seats may act (a simultaneous secret setup, a resignation out of turn, a player knocked out of a
four-player game), and writing it everywhere keeps the format one rule. Match-layer actions use reserved words
that no game's notation uses:

    resign    the seat resigns (two seats left: the other wins; more: the seat is out and the game goes on)
    timeout   the seat ran out of time; the same as resign
    draw      the seat's agreement completed a draw by agreement: the match ends drawn

Secrets. A secret setup move (a Myrmidons deployment or draft, a Mycenae cargo: `Game.is_private_move`) is written
as `<secret>` in a record of a running match for anyone but its own seat: a record holds exactly what its reader
may know. Once the match is over every move is written out and the record is the same for everybody.

The seed decides the random draws (Myrmidons' random army and first player, Myriath's first player). In a game
with hidden information a draw may still be to come while the match runs (the first player is drawn when both
armies stand), so records of running hidden-information matches say `Seed: withheld`. Games without hidden
information draw only at the start, in public, so their records always carry the seed.

Replay (`replay`) rebuilds the game from the seed and applies every line in order, checking each: a move that
is not legal for that seat then, or any line after the end, is refused with an error naming its line. A record
that cannot be replayed whole says how far it went: a withheld seed stops it before move 1, a `<secret>` line
stops it just before that move (everything before it is checked). The result header is checked against the
replayed ending.

The same replay serves take-backs: `replay_moves` / `rebuild_state` rebuild the exact state from the match's
seed and its logged (seat, move) entries, match-layer entries included.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date as Date
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence

from bot.engine.base import JSON, Event, Game, IllegalMoveError, MoveSyntaxError, Outcome
from bot.engine.text import Text

from .engines import GAMES, get_game

FORMAT_LINE = "Strategos match record 1"
HIDDEN = "<secret>"  # the logs write secret moves the same way

RESIGN, TIMEOUT, DRAW = "resign", "timeout", "draw"
MATCH_ACTIONS = frozenset({RESIGN, TIMEOUT, DRAW})
"""Words the match layer logs in the move log beside the engine's moves."""

_MOVE_LINE = re.compile(r"^(\d+)\.\s+(\d+)\s+(\S.*?)(?:\s+\{at (\S+?)(?: clock (\d+):(\d\d):(\d\d))?\})?$")
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_RESULT = re.compile(r"^(\*|draw|\d+(?:\s*,\s*\d+)*)(?:\s+\((.*)\))?$")


class RecordError(ValueError):
    """A record that cannot be read, or a line that does not replay. The message names the line."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line


# --- the record --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordMove:
    seat: int
    move: str | None  # None: a secret setup move the record's reader may not know
    line: int | None = field(default=None, compare=False)  # where parse_record found it, for error messages
    at: int | None = None  # when it was made (Unix seconds); None: not recorded
    clock: int | None = None  # the seconds it charged to its mover's clock; None: no clock, or not recorded

    @property
    def hidden(self) -> bool:
        return self.move is None


@dataclass(frozen=True)
class Record:
    game: str
    num_players: int
    names: tuple[str, ...]
    options: JSON
    seed: int | None  # None: withheld while a hidden-information match runs
    rules_version: int
    moves: tuple[RecordMove, ...]
    result: Outcome | None = None  # None while the match runs
    viewer: int | None = None  # whose knowledge (None: the public); irrelevant once the match is over
    date: str | None = None
    match_id: int | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def complete(self) -> bool:
        """True when replay can check every line: the seed is there and no move is hidden."""
        return self.seed is not None and not any(m.hidden for m in self.moves)


def _entry(item: Any) -> tuple[int, str, bool]:
    """(seat, move, private) of a logged move: the storage layer's rows, or (seat, move[, private]) tuples."""
    if hasattr(item, "seat") and hasattr(item, "move"):
        return int(item.seat), str(item.move), bool(getattr(item, "private", False))
    seat, move, *rest = item
    return int(seat), str(move), bool(rest[0]) if rest else False


def _game(game: Game | str) -> Game:
    return get_game(game) if isinstance(game, str) else game


def _date_text(when: Date | datetime | str | float | None) -> str | None:
    if when is None:
        return None
    if isinstance(when, (int, float)):
        when = datetime.fromtimestamp(when, timezone.utc)
    if isinstance(when, datetime):
        return when.strftime("%Y-%m-%d")
    if isinstance(when, Date):
        return when.isoformat()
    return _one_line(str(when))


def _one_line(text: str) -> str:
    """Header values are single lines: a newline in a display name must not start a forged header or move."""
    return " ".join(text.split())


def make_record(
    game: Game | str,
    *,
    num_players: int,
    seed: int,
    options: JSON | None,
    entries: Iterable[Any],
    names: Sequence[str],
    viewer: int | None,
    result: Outcome | JSON | None,
    date: Date | datetime | str | float | None = None,
    match_id: int | None = None,
    timed: bool = False,
) -> Record:
    """The record of a match as `viewer` (a seat, or None for the public) may read it.

    `entries` are the move log's rows (anything with .seat, .move and .private, or (seat, move[, private])
    tuples), match-layer entries included; `result` is the match's result (an Outcome or its JSON), None while
    it runs. While it runs, other seats' secret setup moves are hidden and, for a hidden-information game, the
    seed is withheld; once it is over the record holds everything and is the same for every viewer.
    `timed`: each move keeps when it was made (.created_at) and what it charged to its mover's clock
    (.clock_used), where the entry has them.
    """
    game = _game(game)
    outcome = result if isinstance(result, Outcome) or result is None else Outcome.from_json(result)
    finished = outcome is not None
    moves = []
    for item in entries:
        seat, move, private = _entry(item)
        # Either mark is enough to hide: the log's flag, or the engine's own judgement of the text.
        secret = private or game.is_private_move(move)
        hidden = secret and not finished and seat != viewer
        at, used = (getattr(item, "created_at", None), getattr(item, "clock_used", None)) if timed else (None, None)
        moves.append(RecordMove(seat, None if hidden else move, at=None if at is None else int(at),
                                clock=None if used is None else round(used)))
    names = tuple(_one_line(n) or f"seat {i}" for i, n in enumerate(names))
    if len(names) != num_players:
        raise ValueError(f"{len(names)} names for {num_players} players")
    return Record(
        game=game.info.key,
        num_players=num_players,
        names=names,
        options=dict(options or {}),
        seed=seed if finished or not game.info.hidden_information else None,
        rules_version=game.RULES_VERSION,
        moves=tuple(moves),
        result=outcome,
        viewer=None if finished else viewer,
        date=_date_text(date),
        match_id=match_id,
    )


def format_record(record: Record | None = None, /, **match: Any) -> str:
    """The text of a record. Either pass a Record, or the keyword arguments of `make_record` to build one."""
    if record is None:
        record = make_record(**match)
    elif match:
        raise TypeError("pass a Record or make_record's keyword arguments, not both")
    lines = [
        FORMAT_LINE,
        f"Game: {record.game}",
        f"Rules: {record.rules_version}",
        f"Players: {record.num_players}",
        *(f"Seat {i}: {name}" for i, name in enumerate(record.names)),
        f"Options: {json.dumps(record.options, sort_keys=True, separators=(', ', ': '))}",
        f"Seed: {'withheld' if record.seed is None else record.seed}",
    ]
    if record.date:
        lines.append(f"Date: {record.date}")
    if record.match_id is not None:
        lines.append(f"Match: {record.match_id}")
    viewer = "all" if record.finished else "public" if record.viewer is None else str(record.viewer)
    lines.append(f"Viewer: {viewer}")
    lines.append(f"Result: {_result_text(record.result)}")
    lines.append("")
    for number, move in enumerate(record.moves, 1):
        lines.append(f"{number}. {move.seat} {HIDDEN if move.hidden else move.move}{_times_text(move)}")
    return "\n".join(lines) + "\n"


def _times_text(move: RecordMove) -> str:
    """A move line's " {at … clock …}", or nothing for a move without a recorded time."""
    if move.at is None:
        return ""
    at = datetime.fromtimestamp(move.at, timezone.utc).strftime(_TIME_FORMAT)
    if move.clock is None:
        return f" {{at {at}}}"
    hours, rest = divmod(move.clock, 3600)
    return f" {{at {at} clock {hours}:{rest // 60:02d}:{rest % 60:02d}}}"


def _result_text(outcome: Outcome | None) -> str:
    if outcome is None:
        return "*"
    who = ",".join(str(s) for s in outcome.winners) if outcome.winners else "draw"
    return f"{who} ({_one_line(outcome.reason)})" if outcome.reason else who


def parse_record(text: str) -> Record:
    """Read a record's text. Raises RecordError naming the line for anything it cannot read."""
    lines = text.removeprefix("\ufeff").splitlines()  # a byte-order mark, as some editors save, is no part of it
    first = next((i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")), None)
    if first is None or lines[first].strip() != FORMAT_LINE:
        raise RecordError(f"not a Strategos match record: the first line must be {FORMAT_LINE!r}",
                          None if first is None else first + 1)
    header: dict[str, tuple[str, int | None]] = {}
    names: dict[int, str] = {}
    moves: list[RecordMove] = []
    for index in range(first + 1, len(lines)):
        number = index + 1
        row = lines[index].strip()
        if not row or row.startswith("#"):
            continue
        found = _MOVE_LINE.match(row)
        if found:
            if int(found[1]) != len(moves) + 1:
                raise RecordError(f"expected move {len(moves) + 1}, found move {found[1]}", number)
            move = found[3].strip()
            at = _moment(found[4], number) if found[4] else None
            clock = int(found[5]) * 3600 + int(found[6]) * 60 + int(found[7]) if found[5] else None
            moves.append(RecordMove(int(found[2]), None if move == HIDDEN else move, number, at, clock))
            continue
        if moves:
            raise RecordError(f"expected a move line such as '{len(moves) + 1}. 0 a1-a2', found {row!r}", number)
        key, sep, value = row.partition(":")
        if not sep:
            raise RecordError(f"expected a header line 'Key: value' or a move line, found {row!r}", number)
        key, value = key.strip(), value.strip()
        seat_key = re.fullmatch(r"Seat (\d+)", key)
        if seat_key:
            names[int(seat_key[1])] = value
        elif key in header:
            raise RecordError(f"header {key!r} appears twice", number)
        else:
            header[key] = (value, number)

    def required(key: str) -> tuple[str, int | None]:
        if key not in header:
            raise RecordError(f"the record has no {key!r} header")
        return header[key]

    game_key, line = required("Game")
    if game_key not in GAMES:
        raise RecordError(f"unknown game {game_key!r}; known: {', '.join(GAMES)}", line)
    num_players = _integer(*required("Players"), "Players")
    if sorted(names) != list(range(num_players)):
        raise RecordError(f"expected one 'Seat N: name' line for each seat 0 to {num_players - 1}")
    options_text, line = header.get("Options", ("{}", None))
    try:
        options = json.loads(options_text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"Options is not valid JSON: {exc.msg}", line) from None
    if not isinstance(options, dict):
        raise RecordError("Options must be a JSON object such as {} or {\"army\": \"draft\"}", line)
    seed_text, line = required("Seed")
    seed = None if seed_text == "withheld" else _integer(seed_text, line, "Seed")
    rules = _integer(*header.get("Rules", ("1", None)), "Rules")
    result_text, line = header.get("Result", ("*", None))
    result = _parse_result(result_text, line)
    viewer_text, line = header.get("Viewer", ("public", None))
    viewer = None if viewer_text in ("all", "public") else _integer(viewer_text, line, "Viewer")
    match_id = _integer(*header["Match"], "Match") if "Match" in header else None
    for move in moves:
        if not 0 <= move.seat < num_players:
            raise RecordError(f"seat {move.seat} does not exist in a {num_players}-player match", move.line)
    return Record(
        game=game_key,
        num_players=num_players,
        names=tuple(names[i] for i in range(num_players)),
        options=options,
        seed=seed,
        rules_version=rules,
        moves=tuple(moves),
        result=result,
        viewer=viewer,
        date=header.get("Date", (None, None))[0],
        match_id=match_id,
    )


def _moment(text: str, line: int) -> int:
    try:
        return int(datetime.strptime(text, _TIME_FORMAT).replace(tzinfo=timezone.utc).timestamp())
    except ValueError:
        raise RecordError(f"a move's time must read like 2026-12-07T22:52:01Z, not {text!r}", line) from None


def _integer(text: str, line: int | None, key: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RecordError(f"{key} must be a whole number, not {text!r}", line) from None


def _parse_result(text: str, line: int | None) -> Outcome | None:
    found = _RESULT.match(text)
    if not found:
        raise RecordError(f"Result must be '*', 'draw' or the winning seats such as '0' or '0,2', not {text!r}",
                          line)
    if found[1] == "*":
        return None
    winners = () if found[1] == "draw" else tuple(int(s) for s in found[1].split(","))
    return Outcome(winners, found[2] or "")


# --- replay --------------------------------------------------------------------------------------------------


@dataclass
class Replay:
    """The states of a replayed match: states[0] is the start, states[i] the state after line i."""

    game: Game
    states: list[Any]
    events: list[list[Event]]  # events[i - 1]: what line i did
    outcome: Outcome | None  # how the match ended (the engine's outcome or a match-layer ending), None if not
    total: int  # lines in the record or log
    stopped: str | None = None  # why fewer than `total` lines were replayed; None when all were

    @property
    def replayed(self) -> int:
        return max(len(self.states) - 1, 0)

    @property
    def complete(self) -> bool:
        return self.stopped is None

    def views(self, viewer: int | None = None) -> list[JSON]:
        """The view of every replayed state as `viewer` sees it (None: public), e.g. for an animated replay."""
        return [self.game.view(state, viewer) for state in self.states]

    def revealed_views(self) -> list[JSON]:
        """Every replayed state with every secret shown (Game.revealed_view): for a finished match only."""
        return [self.game.revealed_view(state) for state in self.states]

    @property
    def final_state(self) -> Any:
        if not self.states:
            raise RecordError(self.stopped or "nothing was replayed")
        return self.states[-1]


def apply_entry(
    game: Game, state: Any, seat: int, move: str, names: Sequence[str] | None = None
) -> tuple[Any, list[Event], Outcome | None]:
    """Apply one logged entry, engine move or match-layer action. Returns (state, events, ending): `ending` is
    how the match ended with this entry, or None while it goes on.

    Resign and time-out knock the seat out through the engine's `eliminate` (with two seats in play the other
    wins; with more the game goes on without it). An engine without `eliminate` ends the match the way the
    match service does: the state stays as it was and every other seat in play wins. A draw by agreement leaves
    the state as it was.
    """
    name = names[seat] if names and seat < len(names) else f"seat {seat}"
    if move == DRAW:
        return state, [], Outcome((), Text("draw by agreement"))
    if move in (RESIGN, TIMEOUT):
        reason = (Text("{player} resigned", player=name) if move == RESIGN else
                  Text("{player} ran out of time", player=name))
        in_play = game.in_play(state)
        if seat not in in_play:
            raise IllegalMoveError(Text("{player} is no longer in the game", player=name))
        try:
            new_state, events = game.eliminate(state, seat, reason)
        except NotImplementedError:
            return state, [], Outcome(tuple(s for s in in_play if s != seat), reason)
        return new_state, events, game.outcome(new_state)
    acting = game.to_act(state)
    if seat not in acting:
        waiting = ", ".join(str(s) for s in acting)
        raise IllegalMoveError(Text("it is not seat {seat}'s turn (seats {waiting} to act)", seat=seat, waiting=waiting)
                               if len(acting) > 1 else
                               Text("it is not seat {seat}'s turn (seat {waiting} to act)", seat=seat, waiting=waiting))
    new_state, events = game.apply(state, seat, move)
    return new_state, events, game.outcome(new_state)


def _replay(
    game: Game,
    num_players: int,
    seed: int,
    options: JSON | None,
    entries: Sequence[RecordMove],
    names: Sequence[str] | None,
) -> Replay:
    """Replay `entries` in order; errors name the entry by its number (and its line, from a parsed record)."""
    state = game.new_state(num_players, seed, options)
    run = Replay(game, [state], [], game.outcome(state), len(entries))
    for index, entry in enumerate(entries):
        if entry.move is None:  # hidden
            run.stopped = (f"move {index + 1} is seat {entry.seat}'s secret setup, hidden in this record: moves "
                           f"1 to {index} were checked, the {len(entries) - index} from there on were not")
            return run
        if run.outcome is not None:
            raise RecordError(f"move {index + 1} comes after the end of the match ({run.outcome.reason})",
                              entry.line)
        try:
            state, events, run.outcome = apply_entry(game, state, entry.seat, entry.move, names)
        except (MoveSyntaxError, IllegalMoveError) as exc:
            raise RecordError(f"move {index + 1}: {entry.move!r} by seat {entry.seat} does not replay: {exc}",
                              entry.line) from None
        run.states.append(state)
        run.events.append(events)
    return run


def replay(record: Record | str) -> Replay:
    """Rebuild the match of a record from its seed, checking every line (RecordError names a bad one).

    A record that hides something replays as far as it can and says why it stopped (`Replay.stopped`)."""
    if isinstance(record, str):
        record = parse_record(record)
    game = get_game(record.game)
    if record.rules_version != game.RULES_VERSION:
        raise RecordError(f"the record was played under {record.game} rules version {record.rules_version}; this "
                          f"engine plays version {game.RULES_VERSION} and could replay it differently")
    if not game.info.min_players <= record.num_players <= game.info.max_players:
        raise RecordError(f"{game.info.title} is for {game.info.min_players} to {game.info.max_players} players, "
                          f"not {record.num_players}")
    if record.seed is None:
        return Replay(game, [], [], None, len(record.moves),
                      stopped="the seed is withheld until the match ends (it decides draws still to come), so "
                              "no move could be checked")
    try:
        run = _replay(game, record.num_players, record.seed, record.options, record.moves, record.names)
    except ValueError as exc:  # bad options: the engine refuses them when it builds the start
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"the engine refuses the record's options or players: {exc}") from None
    if run.complete:
        _check_result(record, run)
    return run


def _check_result(record: Record, run: Replay) -> None:
    claimed, reached = record.result, run.outcome
    if claimed is None and reached is not None and record.moves:
        # A record of a running match ends before its end; one that says so but ends is inconsistent.
        raise RecordError(f"the record says the match is still running, but the replay ends: {reached.reason}")
    if claimed is not None and reached is None:
        raise RecordError(f"the record says the match ended ({_result_text(claimed)}), but after the last move it "
                          f"goes on")
    if claimed is not None and reached is not None and set(claimed.winners) != set(reached.winners):
        raise RecordError(f"the record says {_result_text(claimed)}, but the replay ends {_result_text(reached)}")


def replay_moves(
    game: Game | str,
    num_players: int,
    seed: int,
    options: JSON | None,
    entries: Iterable[Any],
    names: Sequence[str] | None = None,
) -> Replay:
    """Replay a match from its seed and logged entries (the log's rows, or (seat, move) pairs), match-layer
    entries included. Raises RecordError naming the entry ("move 12") that does not replay."""
    game = _game(game)
    moves = [RecordMove(seat, move) for seat, move, _ in map(_entry, entries)]
    return _replay(game, num_players, seed, options, moves, names)


def rebuild_state(
    game: Game | str,
    num_players: int,
    seed: int,
    options: JSON | None,
    entries: Iterable[Any],
    names: Sequence[str] | None = None,
) -> Any:
    """The exact state after `entries`: for a take-back, pass every entry but the ones taken back."""
    return replay_moves(game, num_players, seed, options, entries, names).final_state


__all__ = [
    "FORMAT_LINE", "HIDDEN", "MATCH_ACTIONS", "Record", "RecordError", "RecordMove", "Replay", "apply_entry",
    "format_record", "make_record", "parse_record", "rebuild_state", "replay", "replay_moves",
]
