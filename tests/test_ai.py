"""The computer opponent: legal, deterministic, blind to what its seat may not know, fast at the easy level and
better than random.

Search levels are exercised with small budgets (the real ones are measured by `python -m benchmarks.computer`, not here)
so the whole file stays quick.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import bot.games.registry
from bot.ai import LEVELS
from bot.ai.mcts import Budget, Search
from bot.ai.policy import Policy, stratified
from bot.games.registry import choose_move, get_game, policy_for
from bot.games.mycenae import position
from bot.engine.playout import random_plies
from bot.workers import computer_pool

SIZES = [
    ("epaminondas", 2, None),
    ("archimedes", 2, None),
    ("myriath", 2, None),
    ("myriath", 3, None),
    ("myriath", 4, None),
    ("myrmidons", 2, None),
    ("myrmidons", 2, {"army": "draft"}),
    ("mycenae", 2, None),
    ("mycenae", 2, {"armies": ["mycenae", "mycenae"]}),
    ("mycenae", 3, {"armies": ["mycenae", "mycenae", "mycenae"]}),
    ("mycenae", 4, None),
]


def _ids(size: tuple) -> str:
    key, n, options = size
    return f"{key}-{n}" + ("-" + "-".join(str(v) for v in options.values()) if options else "")


@pytest.fixture
def small_budgets(monkeypatch):
    """Searches of a few dozen iterations: the same code paths as the real levels, a fraction of the time."""
    for key in ("epaminondas", "archimedes", "myriath", "myrmidons", "mycenae"):
        policy = policy_for(key)
        monkeypatch.setattr(policy, "normal_iterations", 10)
        monkeypatch.setattr(policy, "hard_iterations", 16)


def _private_view(game, state, seat) -> dict:
    """The view exactly as a worker process receives it: through JSON."""
    return json.loads(json.dumps(game.view(state, seat)))


def _positions(key: str, n: int, options, seed: int, every: int):
    """Every `every`-th position of a seeded random game, the first (a set-up) always included."""
    game = get_game(key)
    for i, ply in enumerate(random_plies(game, n, seed, options)):
        if i % every == 0:
            yield ply


@pytest.mark.parametrize("size", SIZES, ids=_ids)
def test_easy_plays_a_legal_move_everywhere(size):
    key, n, options = size
    game = get_game(key)
    checked = 0
    for ply in _positions(key, n, options, seed=3, every=9):
        move = choose_move(_private_view(game, ply.state, ply.seat), level="easy", seed=ply.state.ply)
        assert move in ply.moves
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("size", SIZES, ids=_ids)
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_search_levels_play_legal_moves(size, level, small_budgets):
    key, n, options = size
    game = get_game(key)
    plies = list(_positions(key, n, options, seed=5, every=1))
    for ply in (plies[0], plies[len(plies) // 3], plies[2 * len(plies) // 3]):
        move = choose_move(_private_view(game, ply.state, ply.seat), level=level, seed=1)
        assert move in ply.moves


def test_every_secret_setup_move_kind():
    """Myrmidons deployment and draft, Mycenae cargo: the computer's first move is one of its setup moves."""
    cases = [("myrmidons", 2, None, "deploy "), ("myrmidons", 2, {"army": "draft"}, "army "),
             ("mycenae", 2, None, "cargo "), ("mycenae", 4, {"armies": ["mycenae"] * 4}, "cargo ")]
    for key, n, options, prefix in cases:
        game = get_game(key)
        state = game.new_state(n, 11, options)
        for seat in game.to_act(state):
            if not game.legal_moves(state, seat)[0].startswith(prefix):
                continue
            move = choose_move(_private_view(game, state, seat), level="easy", seed=2)
            assert move.startswith(prefix) and move in game.legal_moves(state, seat)


def _consent_position():
    """A three-player Mycenae position where a player is asked to let her pieces be loaded."""
    game = get_game("mycenae")
    for ply in random_plies(game, 3, 0, {"armies": ["mycenae"] * 3}):
        if "consent" in ply.moves:
            return game, ply
    raise AssertionError("no load request in that random game")


@pytest.mark.parametrize("level", LEVELS)
def test_mycenae_consent_is_answered(level, small_budgets):
    game, ply = _consent_position()
    move = choose_move(_private_view(game, ply.state, ply.seat), level=level, seed=4)
    assert move in ("consent", "refuse")


def _two_player_position(pieces: dict[str, str], cargo: dict[str, str]):
    rows = [" ".join(pieces.get(f"{f}{r}", ".") for f in "abcdefgh") for r in range(8, 0, -1)]
    return position("\n".join(rows), 2, 0, cargo, ("mycenae", "mycenae"))


@pytest.mark.parametrize("level", LEVELS)
def test_mycenae_two_player_request_is_answered_from_the_asked_seat_alone(level, small_budgets):
    """h8 is asked; a1's hidden cargo (the king in d4 or in b2) is not in h8's view, so it cannot change the
    answer."""
    game = get_game("mycenae")
    answers = set()
    for cargo in ({"d4": "0K", "b2": "0B"}, {"d4": "0B", "b2": "0K"}):
        state = _two_player_position({"d4": "0M", "b2": "0M", "c5": "1R", "h8": "1K", "h7": "1P"}, cargo)
        state, _ = game.apply(state, 0, "load d4 c5")
        view = _private_view(game, state, 1)
        assert game.legal_moves(state, 1) == ["consent", "refuse"]
        answers.add(choose_move(view, level=level, seed=4))
    assert len(answers) == 1 and answers <= {"consent", "refuse"}


@pytest.mark.parametrize("level", LEVELS)
def test_mycenae_two_player_computer_asks_when_a_request_is_all_it_has(level, small_budgets):
    """h8's only knight sits in the corner with its king inside, hemmed in by a1's pieces: asking to load them is
    its only action."""
    game = get_game("mycenae")
    state = _two_player_position({"a1": "0K", "h8": "1M", "g8": "0R", "g7": "0B", "h7": "0B", "f7": "0R",
                                  "g6": "0N", "c1": "0M"}, {"h8": "1K", "c1": "0P"})
    state, _ = game.apply(state, 0, "a1-a2")
    moves = game.legal_moves(state, 1)
    assert moves and all(m.startswith("load h8 ") for m in moves)
    move = choose_move(_private_view(game, state, 1), level=level, seed=4)
    assert move in moves
    state, events = game.apply(state, 1, move)
    assert events[0]["type"] == "request" and game.to_act(state) == [0]


@pytest.mark.parametrize("size", SIZES, ids=_ids)
def test_same_view_level_and_seed_give_the_same_move(size, small_budgets):
    key, n, options = size
    game = get_game(key)
    plies = list(_positions(key, n, options, seed=8, every=1))
    ply = plies[len(plies) // 2]
    view = _private_view(game, ply.state, ply.seat)
    for level in LEVELS:
        assert choose_move(view, level=level, seed=42) == choose_move(json.loads(json.dumps(view)), level=level,
                                                                      seed=42)


@pytest.mark.parametrize("key, n, options", [
    ("myrmidons", 2, None),
    ("mycenae", 2, {"armies": ["mycenae", "mycenae"]}),
    ("mycenae", 3, {"armies": ["mycenae", "mycenae", "mycenae"]}),
])
def test_what_the_seat_cannot_see_does_not_change_the_move(key, n, options, small_budgets):
    """Two full states that differ only in the opponents' secrets (two different draws consistent with the
    computer's view) give the same move, at every level."""
    game = get_game(key)
    for ply in list(_positions(key, n, options, seed=6, every=1))[4:]:
        seat = ply.seat
        view = game.view(ply.state, seat)
        first = game.sample_state(view, random.Random(1))
        second = game.sample_state(view, random.Random(2))
        if game.dump(first) != game.dump(second):
            break
    else:
        raise AssertionError("no position of that game had secrets to draw")
    assert game.view(first, seat) == game.view(second, seat) == view
    for level in LEVELS:
        assert choose_move(_private_view(game, first, seat), level=level, seed=9) == \
            choose_move(_private_view(game, second, seat), level=level, seed=9)


def test_easy_stays_within_its_time_budget():
    times = []
    for key, n, options in SIZES:
        game = get_game(key)
        for ply in _positions(key, n, options, seed=12, every=15):
            view = _private_view(game, ply.state, ply.seat)
            # CPU time, as the budget is stated: wall time on a shared machine also counts the other work on it
            start = time.process_time()
            choose_move(view, level="easy", seed=0)
            times.append(time.process_time() - start)
    assert times
    assert statistics.median(times) < 0.05
    assert max(times) < 0.25  # generous


def _play(key: str, levels: list[str], seed: int, max_plies: int = 400) -> tuple[int, ...]:
    game = get_game(key)
    rng = random.Random(seed)
    state = game.new_state(len(levels), seed)
    for ply in range(max_plies):
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        if levels[seat] == "random":
            move = rng.choice(game.legal_moves(state, seat))
        else:
            move = choose_move(game.view(state, seat), level=levels[seat], seed=seed + ply)
        state, _ = game.apply(state, seat, move)
    result = game.outcome(state)
    return result.winners if result else ()


@pytest.mark.parametrize("key", ["epaminondas", "archimedes", "myriath"])
def test_easy_beats_random(key):
    wins = 0
    for seed in range(4):
        levels = ["easy", "random"] if seed % 2 == 0 else ["random", "easy"]
        wins += levels.index("easy") in _play(key, levels, seed) and 1
    assert wins >= 3


def test_choose_move_can_cross_to_a_worker_process():
    """The match layer calls it in another process: the function pickles by name and its input is plain JSON."""
    assert pickle.loads(pickle.dumps(choose_move)) is bot.games.registry.choose_move
    game = get_game("epaminondas")
    state = game.new_state(2, 0)
    view = _private_view(game, state, 0)
    assert choose_move(view, level="easy", seed=0) in game.legal_moves(state, 0)


def test_refuses_a_view_that_is_not_to_act():
    game = get_game("epaminondas")
    state = game.new_state(2, 0)
    with pytest.raises(ValueError):
        choose_move(game.view(state, 1), level="easy", seed=0)
    with pytest.raises(ValueError):
        choose_move(game.view(state, None), level="easy", seed=0)
    with pytest.raises(ValueError):
        choose_move(game.view(state, 0), level="grandmaster", seed=0)


def moves_in_fresh_interpreters(script: str, key: str, view: str) -> list[str]:
    """The move `script` prints for `view` (JSON) in two fresh interpreters with other string hashing."""
    return [subprocess.run(
        [sys.executable, "-c", script, key], input=view, capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": hash_seed}, cwd=Path(__file__).resolve().parents[1],
    ).stdout.strip() for hash_seed in ("1", "2")]


_OTHER_PROCESS = """
import json, sys
from bot.games.registry import choose_move, get_game, policy_for
policy = policy_for(sys.argv[1])
policy.normal_iterations = 10  # as the small_budgets fixture sets it in this process
print(choose_move(json.loads(sys.stdin.read()), level="normal", seed=5))
"""


@pytest.mark.parametrize("key", ["myrmidons", "mycenae"])
def test_the_move_does_not_depend_on_the_process(key, small_budgets):
    """A worker process has its own string hashing; nothing may depend on it (set order, hash())."""
    game = get_game(key)
    plies = list(random_plies(game, 2, 7))
    ply = plies[len(plies) // 2]
    view = json.dumps(game.view(ply.state, ply.seat))
    here = choose_move(json.loads(view), level="normal", seed=5)
    assert moves_in_fresh_interpreters(_OTHER_PROCESS, key, view) == [here, here]


def test_the_computers_worker_starts_with_every_first_use_table_built():
    """Myriath's placement catalogue (~0.6 s) and Myrmidons' ranked draft armies are built on first use; the worker's
    first import builds them, so that its first think is not its slowest (it once took 200 ms at easy)."""
    import subprocess
    import sys

    probe = (
        "import bot.games.warm\n"
        "from bot.games.myriath import geometry\n"
        "from bot.games.myrmidons import policy\n"
        "print(geometry.catalogue.cache_info().currsize, policy._armies_best_first.cache_info().currsize)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["1", "1"]
    with computer_pool() as pool:  # and the bot's pool gives its workers exactly that module first
        assert pool.submit(_warm_tables).result(timeout=60) == (1, 1)


def _warm_tables() -> tuple[int, int]:
    from bot.games.myriath import geometry
    from bot.games.myrmidons import policy
    return geometry.catalogue.cache_info().currsize, policy._armies_best_first.cache_info().currsize


def test_a_stratified_pool_keeps_the_proportions_of_its_draws_in_their_order():
    draws = [("a", i) for i in range(50)] + [("b", i) for i in range(30)] + [("c", i) for i in range(20)]
    random.Random(3).shuffle(draws)
    kept = stratified(draws, lambda draw: draw[0], 10)
    assert sorted(Counter(d[0] for d in kept).items()) == [("a", 5), ("b", 3), ("c", 2)]
    assert kept == [d for d in draws if d in kept]  # in the order drawn, the first of each kind
    assert all(draws.index(d) < draws.index(e) for d in kept for e in draws if e[0] == d[0] and e not in kept)
    kept = stratified(draws, lambda draw: draw[0], 7)  # 3.5, 2.1, 1.4: the largest remainders get the rest
    assert len(kept) == 7 and Counter(d[0] for d in kept) == {"a": 4, "b": 2, "c": 1}
    assert stratified(draws[:5], lambda draw: 0, 5) == draws[:5]


class _Gamble:
    """A two-ply game with one hidden bit: seat 0 plays safe (worth 0.4 to it) or strikes; the strike wins (bit 1)
    or is repelled (bit 0), which both seats then see, and seat 1 answers by parrying (0.5 each) or punishing,
    which takes the game from a repelled striker and loses it against one that won. Striking is worth
    0.6 * 0.5 + 0.4 * 0 = 0.3 against a seat 1 that answers what it saw: safe is right."""

    def to_act(self, state):
        return (0,) if not state["moves"] else (1,) if state["moves"] == ("strike",) else ()

    def legal_moves(self, state, seat):
        return ["safe", "strike"] if seat == 0 else ["parry", "punish"]

    def apply(self, state, seat, move):
        return {**state, "moves": state["moves"] + (move,)}, []

    def outcome(self, state):
        return None


class _GamblePolicy(Policy):
    playout_depth = 0
    max_candidates = 2

    def evaluate(self, state, num_players):
        moves = state["moves"]
        if moves == ("safe",):
            mine = 0.4
        elif len(moves) < 2 or moves[1] == "parry":
            mine = 0.5
        else:
            mine = 1.0 if state["won"] else 0.0
        return [mine, 1.0 - mine]

    def observation(self, state):
        return state["won"] if state["moves"][:1] == ("strike",) else ()


class _BlindGamblePolicy(_GamblePolicy):
    def observation(self, state):
        return None


@pytest.mark.parametrize("policy_class, chosen", [(_GamblePolicy, "safe"), (_BlindGamblePolicy, "strike")])
def test_a_reply_is_chosen_knowing_the_result_everyone_saw(policy_class, chosen):
    """Without the observation, seat 1's node is shared by won and repelled strikes: punishing averages 0.6 for
    seat 0 there, so seat 1 parries, and the strike looks worth 0.5, more than playing safe."""
    pool = [{"moves": (), "won": won} for won in (True, False, True, True, False, True, False, True, True, False)]
    search = Search(policy_class(_Gamble()), 2, Budget(3000, len(pool), 0.35), random.Random(1))
    assert search.run(pool, 0, ["safe", "strike"]) == chosen
