"""The computer's work per move is bounded by what the position costs, counted in engine calls (never read off a
clock, which would make the move depend on the machine's load): a regression shows as a count, not as a flaky
timing."""

from __future__ import annotations

import json

import pytest

from bot.ai import policy as policy_module
from bot.games.registry import choose_move, get_game, policy_for
from bot.engine.playout import random_plies
from test_ai import moves_in_fresh_interpreters

# One search iteration at most: the meter is read between iterations, so the last one may overshoot the limit
# by a tree descent and a playout.
ITERATION_SLACK = 200


def _view(game, state, seat) -> dict:
    return json.loads(json.dumps(game.view(state, seat)))


@pytest.fixture
def engine_calls(monkeypatch):
    """Counts every `apply` and `legal_moves` call of the games named, whoever makes it."""
    counts: dict[str, int] = {}

    def watch(key: str):
        game = get_game(key)
        counts[key] = 0
        apply, legal_moves = game.apply, game.legal_moves

        def counted_apply(*args):
            counts[key] += 1
            return apply(*args)

        def counted_legal_moves(*args):
            counts[key] += 1
            return legal_moves(*args)

        monkeypatch.setattr(game, "apply", counted_apply)
        monkeypatch.setattr(game, "legal_moves", counted_legal_moves)
        return game

    watch.counts = counts
    return watch


@pytest.fixture
def spent(monkeypatch):
    """The meter of every decision made, to read what it charged."""
    meters = []
    metered = policy_module.Policy.metered

    def keep(self, limit):
        clone = metered(self, limit)
        meters.append(clone.meter)
        return clone

    monkeypatch.setattr(policy_module.Policy, "metered", keep)
    return meters


@pytest.mark.parametrize("options, prefix", [({"army": "draft"}, "army "), (None, "deploy ")])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_myrmidons_draft_or_deployment_takes_a_handful_of_engine_calls(options, prefix, level, engine_calls):
    """Thousands of draft armies (hundreds of deployments) once made the first move take minutes: a set-up is
    picked from the few best by its heuristic, without a search through the opponent's set-ups."""
    game = engine_calls("myrmidons")
    state = game.new_state(2, 3, options)
    seat = game.to_act(state)[0]
    view = _view(game, state, seat)
    engine_calls.counts["myrmidons"] = 0
    move = choose_move(view, level=level, seed=1)
    assert move.startswith(prefix) and move in game.legal_moves(state, seat)
    assert engine_calls.counts["myrmidons"] <= 30


@pytest.mark.parametrize("key, n", [("myriath", 4), ("mycenae", 4), ("myrmidons", 2), ("epaminondas", 2)])
def test_an_opening_stays_within_the_levels_work(key, n, engine_calls, spent):
    """Openings of the slowest games, with the real budgets of the normal level: the meter ends the search, and
    the engine calls counted independently of it agree."""
    game = engine_calls(key)
    plies = list(random_plies(game, n, 4))
    policy = policy_for(game.info.key)
    for ply in plies[1:4]:
        view = _view(game, ply.state, ply.seat)
        engine_calls.counts[key] = 0
        choose_move(view, level="normal", seed=2)
        limit = policy.work("normal", n)
        assert spent[-1].spent <= limit + ITERATION_SLACK
        assert engine_calls.counts[key] <= limit + ITERATION_SLACK


SIZES = [("epaminondas", 2, None), ("archimedes", 2, None), ("myriath", 4, None), ("myrmidons", 2, None),
         ("myrmidons", 2, {"army": "draft"}), ("mycenae", 2, None), ("mycenae", 4, None)]


@pytest.mark.parametrize("key, n, options", SIZES)
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_work_limit_ends_a_decision_whatever_its_iterations(key, n, options, level, monkeypatch, engine_calls,
                                                                  spent):
    """With iteration counts no position reaches, a small work limit still ends every decision near it."""
    game = engine_calls(key)
    policy = policy_for(game.info.key)
    monkeypatch.setattr(policy, "normal_iterations", 10 ** 6)
    monkeypatch.setattr(policy, "hard_iterations", 10 ** 6)
    monkeypatch.setattr(policy, f"{level}_work", 300)
    limit = policy.work(level, n)  # 300, or as much more as the game gives this level with more seats
    assert 300 <= limit <= 600
    plies = list(random_plies(game, n, 9, options))
    for ply in (plies[len(plies) // 4], plies[len(plies) // 2]):
        view = _view(game, ply.state, ply.seat)
        engine_calls.counts[key] = 0
        assert choose_move(view, level=level, seed=3) in ply.moves
        assert spent[-1].spent <= limit + ITERATION_SLACK
        assert engine_calls.counts[key] <= limit + ITERATION_SLACK


_OTHER_PROCESS = """
import json, sys
from bot.games.registry import choose_move, get_game, policy_for
policy = policy_for(sys.argv[1])
policy.hard_iterations = 10 ** 6
policy.hard_work = 1500
print(choose_move(json.loads(sys.stdin.read()), level="hard", seed=5))
"""


@pytest.mark.parametrize("key, n", [("myrmidons", 2), ("myriath", 3), ("mycenae", 4)])
def test_a_move_ended_by_the_work_limit_is_the_same_in_a_fresh_interpreter(key, n, monkeypatch):
    """The work limit is counted, not timed: the same view, level and seed give the same move in another process
    (with other string hashing) as here."""
    game = get_game(key)
    policy = policy_for(game.info.key)
    monkeypatch.setattr(policy, "hard_iterations", 10 ** 6)
    monkeypatch.setattr(policy, "hard_work", 1500)
    plies = list(random_plies(game, n, 7))
    ply = plies[len(plies) // 2]
    view = json.dumps(game.view(ply.state, ply.seat))
    here = choose_move(json.loads(view), level="hard", seed=5)
    assert moves_in_fresh_interpreters(_OTHER_PROCESS, key, view) == [here, here]


@pytest.mark.parametrize("players, normal", [(2, 150), (3, 225), (4, 300)])
def test_myriath_normal_searches_more_with_more_seats_and_hard_does_not(players, normal):
    # Three opponents' replies share a 4-player tree's visits; the work limit still bounds the time (see above).
    policy = policy_for("myriath")
    assert policy.iterations("normal", players) == normal == policy.normal_iterations * players // 2
    assert policy.work("normal", players) == policy.normal_work * players / 2
    assert policy.iterations("hard", players) == policy.hard_iterations
    assert policy.work("hard", players) == policy.hard_work and policy.work("easy", players) == policy.easy_work
