"""Play or inspect a game in a terminal, without Discord.

    python -m bot.games epaminondas            # two people at one keyboard
    python -m bot.games archimedes --random 40 # play 40 random plies, then continue by hand
    python -m bot.games replay match-17.txt    # replay a match record, checking every move
Type a move in the game's notation, `moves` to list the legal ones, `view N` for seat N's private view (`view`
alone: the public one), `as N MOVE` to act for seat N during a secret setup, `quit` to stop. A mistake, at the
prompt or on the command line, is answered in one line.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, NoReturn

from bot.engine.base import Game, IllegalMoveError, MoveSyntaxError

from .record import RecordError, parse_record, replay
from .registry import GAMES, get_game


class OneLineParser(argparse.ArgumentParser):
    """argparse whose mistakes are one line (pointing to --help) instead of the whole usage block."""

    def __init__(self, *args: Any, error_status: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.error_status = error_status

    def error(self, message: str) -> NoReturn:
        self.exit(self.error_status, f"{self.prog}: {message} (see --help)\n")


def json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not valid JSON ({exc.msg} at character {exc.pos + 1}): {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f'must be a JSON object such as \'{{"army": "draft"}}\', not {text!r}')
    return value


def options_problem(game: Game, options: dict[str, Any]) -> str | None:
    """What is wrong with `--options` for this game, in one line (None if nothing the game's options declare)."""
    known = {spec.key: spec for spec in game.info.options}
    for key, value in options.items():
        spec = known.get(key)
        if spec is None:
            offered = ", ".join(known) or "none"
            return f"{game.info.title} has no option {key!r} (its options: {offered})"
        values = value if spec.per_seat and isinstance(value, list) else [value]
        if spec.choices and any(v not in spec.choices for v in values):
            each = "a list of " if spec.per_seat else ""
            return f"option {key!r} must be {each}{' or '.join(map(repr, spec.choices))}, not {json.dumps(value)}"
    return None


def seat_number(text: str, players: int) -> int:
    """A seat typed at the prompt; ValueError with a message fit to show as it is."""
    if not text.isdigit() or int(text) >= players:
        raise ValueError(f"a seat is a number from 0 to {players - 1}, not {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["replay"]:
        return replay_main(argv[1:])
    parser = OneLineParser(prog="python -m bot.games", description=__doc__.splitlines()[0],
                           epilog="python -m bot.games replay FILE replays and checks a match record")
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", type=json_object, default=None, help='JSON, e.g. \'{"army": "draft"}\'')
    parser.add_argument("--random", type=int, default=0, metavar="N", help="start with N random plies")
    args = parser.parse_args(argv)

    game = get_game(args.game)
    info = game.info
    players = info.min_players if args.players is None else args.players
    if not info.min_players <= players <= info.max_players:
        allowed = (f"exactly {info.min_players}" if info.min_players == info.max_players
                   else f"{info.min_players} to {info.max_players}")
        parser.error(f"{info.title} is for {allowed} players, not {players}")
    problem = options_problem(game, args.options or {})
    if problem:
        parser.error(f"argument --options: {problem}")
    try:
        state = game.new_state(players, args.seed, args.options)
    except (ValueError, TypeError) as exc:  # what the engine itself refuses in the options
        parser.error(f"argument --options: {exc}")
    rng = random.Random(args.seed)
    for _ in range(args.random):
        acting = game.to_act(state)
        if not acting:
            break
        seat = rng.choice(acting)
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    return play(game, state, players)


def play(game: Game, state: Any, players: int) -> int:
    """The prompt: a move for the first seat to act, or `as N MOVE`, `moves`, `view [N]`, `quit`. A mistake gets
    one line starting with "!" and the prompt again."""
    viewer: int | None = None
    while True:
        print(game.render_text(game.view(state, viewer)))
        outcome = game.outcome(state)
        if outcome:
            print(f"Game over: {outcome.reason} (winners: {list(outcome.winners) or 'none, a draw'})")
            return 0
        acting = game.to_act(state)
        seat = acting[0]
        try:
            line = input(f"seat {seat} ({', '.join(map(str, acting))} may act) > ").strip()
        except (EOFError, KeyboardInterrupt):
            print()
            return 0
        if line in ("quit", "exit"):
            return 0
        if line == "moves":
            print(" ".join(game.legal_moves(state, seat)))
            continue
        try:
            if line == "view" or line.startswith("view "):
                rest = line[4:].strip()
                viewer = seat_number(rest, players) if rest else None
                continue
            if line == "as" or line.startswith("as "):  # during a simultaneous setup: `as 1 <move>`
                parts = line.split(None, 2)
                if len(parts) < 3:
                    raise ValueError("write `as SEAT MOVE`, e.g. `as 1 deploy ...`")
                seat, line = seat_number(parts[1], players), parts[2]
            state, events = game.apply(state, seat, line)
        except (ValueError, MoveSyntaxError, IllegalMoveError) as exc:
            print(f"! {exc}")
            continue
        for ev in events:
            text = game.describe(ev) if ev.get("visible_to") is None else None
            if text:
                print(f"  {text}")


def replay_main(argv: list[str]) -> int:
    """Replay a match record (bot/games/record.py): check every move, print the final position and the result.
    Exit status 0 when every move was checked, 1 for a bad record (or argument), 2 when the record hides part of the
    match."""
    parser = OneLineParser(prog="python -m bot.games replay", description=replay_main.__doc__, error_status=1)
    parser.add_argument("file", type=Path, help="a match record ('-' reads standard input)")
    parser.add_argument("--view", type=int, default=None, metavar="SEAT",
                        help="print the final position as SEAT sees it (default: the public view)")
    args = parser.parse_args(argv)
    try:
        data = sys.stdin.buffer.read() if str(args.file) == "-" else args.file.read_bytes()
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark, as some Windows editors save, is no part of the text
    except UnicodeDecodeError as exc:
        print(f"cannot read {args.file}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
              "a match record is saved as UTF-8", file=sys.stderr)
        return 1
    try:
        record = parse_record(text)
        run = replay(record)
    except RecordError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
    if args.view is not None and not 0 <= args.view < record.num_players:
        parser.error(f"--view must be a seat from 0 to {record.num_players - 1}, not {args.view}")
    game = run.game
    players = ", ".join(f"{seat} {name}" for seat, name in enumerate(record.names))
    seed = "withheld" if record.seed is None else record.seed
    print(f"{game.info.title}, {record.num_players} players ({players}), seed {seed}")
    if not run.states:
        print(f"Not replayed: {run.stopped}.")
        return 2
    print(game.render_text(game.view(run.final_state, args.view)))
    print(f"{run.replayed} of {run.total} moves replayed and checked.")
    if run.stopped:
        print(f"Stopped early: {run.stopped}.")
        return 2
    if run.outcome:
        print(f"Result: {run.outcome.reason} (winners: {', '.join(map(str, run.outcome.winners)) or 'none, a draw'})")
    else:
        print("The match goes on.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
