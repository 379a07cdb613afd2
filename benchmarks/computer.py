"""Strength and speed of the computer opponent: seeded games between levels, seats alternated.

    python -m benchmarks.computer                                   # every game, every matchup, 20 games each
    python -m benchmarks.computer epaminondas myriath --games 40 --matchups hard-random,normal-easy --jobs 2
    python -m benchmarks.computer myriath --players 4 --games 12
    python -m benchmarks.computer myrmidons --options '{"army": "draft"}' --matchups hard-uct
    python -m benchmarks.computer myrmidons --matchups hard-easy --games 96 --first-game 192   # unused seeds
    python -m benchmarks.computer --positions --jobs 1       # time per move of every level over fixed positions

Matchups are `<level>-<opponent>`, the opponent a level, `random` (a uniformly random legal move) or `uct`: plain
Monte Carlo tree search (UCT over every legal move, uniformly random playouts to the end, no game knowledge),
determinised from the same seat view as the computer, given as much CPU time per move as the hard level has
spent on average per searched move so far in that game (before its first, the hard level's budget). With three or
four players the tested level takes one seat (rotating over all seats from game to game) and the opponent every
other; a "win" is finishing first, a shared first place counting as its share. A game still running after
`--max-plies` counts as half a win and is reported as unfinished.

The level `prior` is the hard level guessing hidden pieces as it did before it inferred them from behaviour
(`Policy.infers` off), `posterior` the hard level weighing its guesses by the game's posterior (`Policy.infers`
on): `posterior-prior` measures what the posterior is worth at the same work limit. `--work F` scales
both search levels' iterations and work limits by F (both sides alike), for runs that must fit a short time.
`--positions` plays no games: it times every level's move (CPU time, one decision at a time) over the positions of
one seeded random game per game, player count and army option (`POSITION_SIZES`): its first four plies (set-ups,
drafts, the first cargo) and every `--every`-th ply after, each seat to act in turn, and prints each level's median,
p99 and maximum against its budget (a move may take 1.5x the budget at most, the median at most the budget). Run it
with `--jobs 1` on a quiet machine: other work on the cores inflates CPU times too.

A run prints its table and writes nothing, unless `--out DIR` names a folder (outside the package): its numbers are
then merged into DIR/bench_results.json and DIR/BENCH.md is rewritten from all of them, so the benchmark can be
run in parts. docs/performance.md keeps the table of record.

    python -m benchmarks.computer mycenae --out bench-out
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import statistics
import time
from multiprocessing import Pool
from pathlib import Path

import bot
import renderers
from bot.engine.base import seeded_rng
from bot.engine.playout import random_plies
from bot.games.registry import GAMES, REGISTERED, choose_move, get_game, policy_for, prepare_games
from bot.ai import decide
from bot.ai.mcts import Budget, Search
from bot.ai.policy import Meter, Policy

# The shipped packages: generated numbers never go in there.
PACKAGES = tuple(Path(package.__file__).resolve().parent for package in (bot, renderers))
RESULTS = "bench_results.json"
REPORT = "BENCH.md"
MATCHUPS = ("hard-random", "hard-easy", "normal-easy", "hard-uct")
HARD_BUDGET = 2.0  # CPU seconds: what the hard level's iterations and work are calibrated to
BUDGETS = {"easy": 0.05, "normal": 0.5, "hard": HARD_BUDGET}  # CPU seconds per move, at the median
WORST = 1.5  # no move over this many times its level's budget
# Every game at every player count, and each army option that changes what the computer decides (drafts): what
# each declares as its benchmark positions.
POSITION_SIZES = tuple((declaration.key, players, options) for declaration in REGISTERED
                       for players, options in declaration.positions)
SEARCHED = 0.05  # CPU seconds: a hard move quicker than this was decided without search (a forced move, a set-up)


class PlainUCT(Policy):
    """No game knowledge at all: every legal move is a candidate, playouts are uniformly random (cut after
    `playout_depth` plies, then judged a draw), a finished game is the only judgement."""

    playout_depth = 400
    max_candidates = 10 ** 9
    root_pool = 10 ** 9


class ClockedMeter(Meter):
    """Runs out at a CPU-time deadline: a benchmark opponent may read the clock, the computer never does."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.process_time() + seconds

    @property
    def exhausted(self) -> bool:
        return time.process_time() >= self.deadline


def uct_move(view: dict, seconds: float, seed: int) -> str:
    """Plain UCT's move for `view["viewer"]` after `seconds` of CPU time, determinised like the computer: a
    pool of states sampled from the seat's view (as many as the game's own policy uses; one, the exact state,
    in a game without secrets)."""
    game = get_game(view["game"])
    seat = view["viewer"]
    rng = seeded_rng(seed, "uct", view.get("ply"), seat)
    policy = PlainUCT(game)
    policy.meter = ClockedMeter(seconds)
    pool = [game.sample_state(view, rng) for _ in range(policy_for(game.info.key).determinisations)]
    moves = game.legal_moves(pool[0], seat)
    if len(moves) == 1:
        return moves[0]
    root_moves = policy.root_candidates(pool[0], seat, rng, view["num_players"])
    return Search(policy, view["num_players"], Budget(10 ** 9, len(pool), policy.exploration), rng).run(
        pool, seat, root_moves)


PRIOR = "prior"  # the hard level without the posterior: what it was before it inferred
POSTERIOR = "posterior"  # the hard level with the posterior, whether or not the game's policy uses it by default


def bench_policy(key: str, level: str, work: float) -> Policy:
    """The game's policy for `level` with its search budgets scaled by `work`; for `prior`, the hard level's
    guessing from the rules and habits alone; for `posterior`, the hard level's weighing its guesses by the game's
    posterior (`Game.likelihood`)."""
    base = policy_for(key)
    policy = copy.copy(base)
    policy.infers = {PRIOR: False, POSTERIOR: True}.get(level, base.infers)
    for name in ("normal_iterations", "hard_iterations"):
        setattr(policy, name, max(1, round(getattr(base, name) * work)))
    for name in ("normal_work", "hard_work"):
        setattr(policy, name, getattr(base, name) * work)
    return policy


def play_one(task: tuple[str, int, str, str, int, int, dict | None, float]
             ) -> tuple[float, bool, dict[str, list[float]]]:
    """One seeded game: (score of the tested level, unfinished?, CPU seconds per move by level)."""
    key, num_players, tested, opponent, index, max_plies, options, work = task
    game = get_game(key)
    tested_seat = index % num_players
    levels = [tested if seat == tested_seat else opponent for seat in range(num_players)]
    seed = 1000 * index + 17
    rng = random.Random(seed)
    state = game.new_state(num_players, seed, options)
    times: dict[str, list[float]] = {}
    for ply in range(max_plies):
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        level = levels[seat]
        if level == "random":
            move = rng.choice(game.legal_moves(state, seat))
            state, _ = game.apply(state, seat, move)
            continue
        view = json.loads(json.dumps(game.view(state, seat)))  # what a worker process would receive
        # CPU time of this process: what a move costs on one core, whatever else shares the machine.
        start = time.process_time()
        if level == "uct":
            searched = [t for t in times.get("hard", ()) if t >= SEARCHED]
            move = uct_move(view, statistics.mean(searched) if searched else HARD_BUDGET, seed + ply)
        elif level in (PRIOR, POSTERIOR) or work != 1.0:
            move = decide(bench_policy(key, level, work), view, level="hard" if level in (PRIOR, POSTERIOR) else level,
                          seed=seed + ply)
        else:
            move = choose_move(view, level=level, seed=seed + ply)
        times.setdefault(level, []).append(time.process_time() - start)
        state, _ = game.apply(state, seat, move)
    result = game.outcome(state)
    if result is None:
        return 0.5, True, times
    if not result.winners:
        return 1.0 / num_players, False, times
    return (1.0 / len(result.winners) if tested_seat in result.winners else 0.0), False, times


def time_position(task: tuple[str, dict, str, int]) -> tuple[str, str, float]:
    """CPU seconds of one decision: (game name, level, seconds)."""
    name, view, level, seed = task
    start = time.process_time()
    choose_move(view, level=level, seed=seed)
    return name, level, time.process_time() - start


def position_views(key: str, num_players: int, options: dict | None, every: int, seed: int = 5) -> list[dict]:
    """The views to time: each seat to act at the first four plies of one random game and every `every`-th after."""
    game = get_game(key)
    plies = list(random_plies(game, num_players, seed, options))
    views = []
    for ply in plies[:4] + plies[4::every]:
        for seat in game.to_act(ply.state):
            if len(game.legal_moves(ply.state, seat)) > 1:  # a forced move is never searched
                views.append(json.loads(json.dumps(game.view(ply.state, seat))))
    return views


def time_positions(levels: list[str], every: int, pool: Pool, sizes=POSITION_SIZES) -> list[dict]:
    tasks = [(_name(key, options) + f" / {n}", view, level, 1000 + i)
             for key, n, options in sizes for i, view in enumerate(position_views(key, n, options, every))
             for level in levels]
    found: dict[tuple[str, str], list[float]] = {}
    for name, level, seconds in pool.imap(time_position, tasks):
        found.setdefault((name, level), []).append(seconds)
    return [{"game": name, "level": level, **_timing(values)} for (name, level), values in found.items()]


def positions_table(rows: list[dict]) -> str:
    lines = ["| game / players | level | positions | CPU time per move: median / p99 / max | within budget |",
             "|---|---|---|---|---|"]
    for r in rows:
        budget = BUDGETS[r["level"]]
        ok = r["median"] <= budget and r["max"] <= WORST * budget
        lines.append(f"| {r['game']} | {r['level']} | {r['moves']} | {_ms(r['median'])} / {_ms(r['p99'])} / "
                     f"{_ms(r['max'])} ms | {'yes' if ok else 'NO'} |")
    by_level: dict[str, list[dict]] = {}
    for r in rows:
        by_level.setdefault(r["level"], []).append(r)
    lines += ["", "| level | budget (max) | positions | worst median | worst p99 | max |", "|---|---|---|---|---|---|"]
    for level, rs in by_level.items():
        lines.append(f"| {level} | {_ms(BUDGETS[level])} ({_ms(WORST * BUDGETS[level])}) ms | "
                     f"{sum(r['moves'] for r in rs)} | {_ms(max(r['median'] for r in rs))} ms | "
                     f"{_ms(max(r['p99'] for r in rs))} ms | {_ms(max(r['max'] for r in rs))} ms |")
    return "\n".join(lines)


def run(key: str, num_players: int, matchup: str, games: int, max_plies: int, pool: Pool,
        options: dict | None = None, first_game: int = 0, work: float = 1.0) -> dict:
    tested, opponent = matchup.split("-")
    tasks = [(key, num_players, tested, opponent, i, max_plies, options, work)
             for i in range(first_game, first_game + games)]
    scores, unfinished, times = [], 0, {}
    for score, open_, game_times in pool.imap(play_one, tasks):
        scores.append(score)
        unfinished += open_
        for level, values in game_times.items():
            times.setdefault(level, []).extend(values)
    return {
        "game": _name(key, options), "players": num_players, "matchup": matchup, "games": games,
        "first_game": first_game, "work": work, "wins": sum(scores), "unfinished": unfinished, "max_plies": max_plies,
        # Game by game, from `first_game` on (the seeds are the game numbers): two versions compared seed for seed.
        "scores": scores,
        "times": {level: _timing(values) for level, values in times.items()},
    }


def _name(key: str, options: dict | None) -> str:
    """The game and the options it was played with, e.g. `myrmidons (army=draft)`."""
    if not options:
        return key
    return f"{key} ({', '.join(f'{name}={value}' for name, value in sorted(options.items()))})"


def _timing(values: list[float]) -> dict:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return {"moves": len(values), "median": statistics.median(values), "p99": p99, "max": values[-1]}


def _interval(wins: float, games: int) -> tuple[float, float]:
    """95 % Wilson interval of a win rate, in per cent: how far a small sample can be from the true rate."""
    z, p = 1.96, wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return 100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half)


def _row(r: dict) -> str:
    rate = 100.0 * r["wins"] / r["games"]
    low, high = _interval(r["wins"], r["games"])
    tested = r["matchup"].split("-")[0]
    timing = " ".join(
        f"{level}: {_ms(t['median'])} / {_ms(t['p99'])} / {_ms(t['max'])} ms (n={t['moves']})"
        for level, t in sorted(r["times"].items(), key=lambda kv: kv[0] != tested)
    )
    open_ = f", {r['unfinished']} unfinished" if r["unfinished"] else ""
    first = r.get("first_game", 0)
    seeds = f" (games {first}–{first + r['games'] - 1})" if first else ""
    if r.get("work", 1.0) != 1.0:
        seeds += f" (work ×{r['work']:g})"
    return (f"| {r['game']} | {r['players']} | {r['matchup'].replace('-', ' vs ')}{seeds} | "
            f"{r['wins']:g}/{r['games']} = {rate:.0f} % ({low:.0f}–{high:.0f}){open_} | {timing} |")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def table(results: list[dict]) -> str:
    lines = [
        "| game | players | matchup | wins of the first-named (95 % interval) "
        "| CPU time per move: median / p99 / max (moves) |",
        "|---|---|---|---|---|",
    ]
    lines += [_row(r) for r in results]
    return "\n".join(lines)


def level_times(results: list[dict]) -> str:
    """Each level's time per move over every game measured: the median of the pairings' medians, the largest p99
    and the largest maximum (the moves themselves are not kept)."""
    by_level: dict[str, list[dict]] = {}
    for r in results:
        for level, t in r["times"].items():
            by_level.setdefault(level, []).append(t)
    lines = ["| level | moves | CPU time per move: median of medians / worst p99 / max |", "|---|---|---|"]
    for level in sorted(by_level, key=lambda name: (("easy", "normal", "hard", "uct") + (name,)).index(name)):
        ts = by_level[level]
        lines.append(f"| {level} | {sum(t['moves'] for t in ts)} | {_ms(statistics.median(t['median'] for t in ts))} / "
                     f"{_ms(max(t['p99'] for t in ts))} / {_ms(max(t['max'] for t in ts))} ms |")
    return "\n".join(lines)


def _load(out: Path) -> dict[str, dict]:
    path = out / RESULTS
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _write(out: Path, all_results: dict[str, dict]) -> None:
    (out / RESULTS).write_text(json.dumps(all_results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    ordered = sorted(all_results.values(), key=lambda r: (r["game"], r["players"], MATCHUPS.index(r["matchup"])
                                                          if r["matchup"] in MATCHUPS else 9))
    (out / REPORT).write_text(
        "# Computer opponent: measured strength and speed\n\n"
        "Written by `python -m benchmarks.computer`. Seeded games, seats alternated (with three or four players the\n"
        "tested level takes each seat in turn against the opponent level in all others; a win is finishing first, a\n"
        "shared first place counting as its share). Times are CPU seconds of `choose_move` per move (one core; the\n"
        "benchmark machine's 2 cores were shared with other work, so wall-clock times there were noisier), taken\n"
        "from the moves of those same games. The samples are small (the games column says how small): the interval\n"
        "after each rate is the 95 % Wilson interval, the range of true rates such a sample is consistent with.\n\n"
        + table(ordered) + "\n\n" + level_times(ordered) + "\n", encoding="utf-8"
    )


def _out_folder(text: str) -> Path:
    """The folder `--out` names, created if needed; never inside the package."""
    out = Path(text).resolve()
    for package in PACKAGES:
        if out == package or package in out.parents:
            raise argparse.ArgumentTypeError(f"{text} is inside the package ({package}); choose a folder outside it")
    if out.exists() and not out.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a folder")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.computer")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--games", dest="count", type=int, default=20, help="games per matchup")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matchups", default=",".join(MATCHUPS))
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--max-plies", type=int, default=600)
    parser.add_argument("--first-game", type=int, default=0, metavar="N",
                        help="number the games from N (each game's seed is its number): seeds a change was not "
                             "chosen on")
    parser.add_argument("--options", type=json.loads, default=None, metavar="JSON",
                        help='the games\' options, e.g. \'{"army": "draft"}\' for Myrmidons with drafted armies')
    parser.add_argument("--out", type=_out_folder, metavar="DIR",
                        help="merge the results into DIR/bench_results.json and DIR/BENCH.md (default: print only)")
    parser.add_argument("--work", type=float, default=1.0, metavar="F",
                        help="scale both search levels' iterations and work limits by F (both sides alike)")
    parser.add_argument("--positions", action="store_true",
                        help="time every level over fixed positions instead of playing games (see above)")
    parser.add_argument("--every", type=int, default=10, help="with --positions: every N-th ply after the fourth")
    parser.add_argument("--levels", default="easy,normal,hard", help="with --positions: the levels to time")
    args = parser.parse_args(argv)
    if args.positions:
        with Pool(args.jobs, initializer=prepare_games) as pool:  # warm, as the bot's worker is
            sizes = [size for size in POSITION_SIZES if size[0] in args.games]  # every game unless some are named
            print(positions_table(time_positions(args.levels.split(","), args.every, pool, sizes)), flush=True)
        return 0
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    results = []
    with Pool(args.jobs, initializer=prepare_games) as pool:
        for key in args.games:
            info = get_game(key).info
            if not info.min_players <= args.players <= info.max_players:
                continue
            for matchup in args.matchups.split(","):
                r = run(key, args.players, matchup, args.count, args.max_plies, pool, args.options,
                        args.first_game, args.work)
                print(_row(r), flush=True)
                results.append(r)
                if args.out is not None:  # after every matchup, so that an interrupted run keeps what it measured
                    stored = _load(args.out)
                    since = f"/from {args.first_game}" if args.first_game else ""
                    since += f"/work {args.work:g}" if args.work != 1.0 else ""
                    stored[f"{r['game']}/{r['players']}/{r['matchup']}{since}"] = r
                    _write(args.out, stored)
    print()
    print(table(results))
    print()
    print(level_times(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
