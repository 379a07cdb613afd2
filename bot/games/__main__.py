"""Play or inspect a game in a terminal, without Discord.

    python -m bot.games epaminondas            # two people at one keyboard
    python -m bot.games archimedes --random 40 # play 40 random plies, then continue by hand
    python -m bot.games replay match-17.txt    # replay a match record, checking every move
Type a move in the game's notation, `moves` to list the legal ones, `view N` for seat N's private view,
`quit` to stop.
"""

from __future__ import annotations

import argparse
import json
import random

import sys
from pathlib import Path

from . import GAMES, IllegalMoveError, MoveSyntaxError, get_game
from .record import RecordError, parse_record, replay


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["replay"]:
        return replay_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bot.games", description=__doc__.splitlines()[0],
                                     epilog="python -m bot.games replay FILE replays and checks a match record")
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", type=json.loads, default=None, help='JSON, e.g. \'{"army": "draft"}\'')
    parser.add_argument("--random", type=int, default=0, metavar="N", help="start with N random plies")
    args = parser.parse_args(argv)

    game = get_game(args.game)
    players = args.players or game.info.min_players
    state = game.new_state(players, args.seed, args.options)
    rng = random.Random(args.seed)
    for _ in range(args.random):
        acting = game.to_act(state)
        if not acting:
            break
        seat = rng.choice(acting)
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))

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
        except EOFError:
            return 0
        if line in ("quit", "exit"):
            return 0
        if line == "moves":
            print(" ".join(game.legal_moves(state, seat)))
            continue
        if line.startswith("view"):
            rest = line[4:].strip()
            viewer = int(rest) if rest else None
            continue
        if line.startswith("as "):  # during a simultaneous setup: `as 1 <move>`
            _, who, line = line.split(" ", 2)
            seat = int(who)
        try:
            state, events = game.apply(state, seat, line)
        except (MoveSyntaxError, IllegalMoveError) as exc:
            print(f"! {exc}")
            continue
        for ev in events:
            text = game.describe(ev) if ev.get("visible_to") is None else None
            if text:
                print(f"  {text}")


def replay_main(argv: list[str]) -> int:
    """Replay a match record (bot/games/record.py): check every move, print the final position and the result.
    Exit status 0 when every move was checked, 1 for a bad record, 2 when the record hides part of the match."""
    parser = argparse.ArgumentParser(prog="python -m bot.games replay", description=replay_main.__doc__)
    parser.add_argument("file", type=Path, help="a match record ('-' reads standard input)")
    parser.add_argument("--view", type=int, default=None, metavar="SEAT",
                        help="print the final position as SEAT sees it (default: the public view)")
    args = parser.parse_args(argv)
    try:
        text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        record = parse_record(text)
        run = replay(record)
    except RecordError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
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
