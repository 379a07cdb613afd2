"""The posterior over hidden pieces: what a player did with a piece makes its identity more or less likely, the
computer's search and Explore weigh their draws by it, and it never reads a secret."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from types import SimpleNamespace

import pytest
from mycenae_twins import twin_plies

from bot.ai import decide
from bot.ai.policy import weighted
from bot.games.mycenae import GAME as MYCENAE
from bot.games.mycenae.board import KING, NAMES as MYCENAE_NAMES, piece
from bot.games.mycenae.posterior import likelihood as mycenae_likelihood
from bot.games.myrmidons import GAME as MYRMIDONS
from bot.games.myrmidons.board import NAMES, PER_SEAT
from bot.games.myrmidons import posterior as myrmidons_posterior
from bot.games.myrmidons.posterior import piece_likelihood
from bot.games.myrmidons.state import position
from bot.games.registry import policy_for
from bot.matches.explore import Sandbox, results_of

SQUARE = {name: sq for sq, name in enumerate(NAMES)}

# North's Commander stayed on c7 all game while the other five marched to rank 5 one square at a time: by the
# rules alone any of the six could be the Commander (none went more than one square in a move).
STILL = """
. . nC . . .
. . . . . .
n513 n441 . n324 n252 n135
. . s513 . . .
. . . . . .
. . . . . .
s441 s324 sC . s252 s135
"""


@pytest.fixture
def setup_neutral(monkeypatch):
    """The STILL position's North deployment put its Commander in the f corner, which the set-up term finds
    unlikely: these tests weigh the behaviour alone."""
    monkeypatch.setattr(myrmidons_posterior, "SETUP_SHARPNESS", 1.0)


def still_commander_state():
    state = position(STILL, to_move=0)
    actions, travelled = [0] * (2 * PER_SEAT), [0] * (2 * PER_SEAT)
    for name in ("a5", "b5", "d5", "e5", "f5"):
        index = state.board[SQUARE[name]]
        actions[index], travelled[index] = 4, 1
    return replace(state, actions=tuple(actions), travelled=tuple(travelled))


def commander_share(view, draws, weights, still: int) -> float:
    return sum(w for d, w in zip(draws, weights) if d.commander(1) == still) / sum(weights)


def test_a_commander_like_history_raises_the_chance_of_being_the_commander(setup_neutral):
    state = still_commander_state()
    view = MYRMIDONS.view(state, 0)
    still = state.board[SQUARE["c7"]]
    rng = random.Random(3)
    draws = [MYRMIDONS.sample_state(view, rng) for _ in range(300)]
    prior = commander_share(view, draws, [1.0] * len(draws), still)
    posterior = commander_share(view, draws, [MYRMIDONS.likelihood(view, d) for d in draws], still)
    assert prior < 0.35 and posterior > 0.8


def test_a_commander_deployed_as_players_deploy_it_is_likelier_than_one_in_a_corner():
    state = MYRMIDONS.new_state(2, 1, None)
    state, _ = MYRMIDONS.apply(state, 0, "deploy C,5/1/3,4/4/1,3/2/4,2/5/2,1/3/5")
    state, _ = MYRMIDONS.apply(state, 1, "deploy 4/4/1,C,5/1/3,3/2/4,1/3/5,2/5/2")
    view = MYRMIDONS.view(state, 0)
    rng = random.Random(3)
    draws = [MYRMIDONS.sample_state(view, rng) for _ in range(300)]
    weights = [MYRMIDONS.likelihood(view, d) for d in draws]
    b_or_e = (PER_SEAT + 1, PER_SEAT + 4)  # North's pieces 2 and 5 started on the b and e files

    def share(ws):
        return sum(w for d, w in zip(draws, ws) if d.commander(1) in b_or_e) / sum(ws)

    assert share([1.0] * len(draws)) < 0.45 and share(weights) > 0.6
    # flanked by the hardest swords is likelier than by the softest
    best = ["4/4/1", "C", "5/1/3", "3/2/4", "1/3/5", "2/5/2"]
    soft = ["5/1/3", "C", "1/3/5", "3/2/4", "4/4/1", "2/5/2"]
    assert myrmidons_posterior.setup_likelihood(best) > 3 * myrmidons_posterior.setup_likelihood(soft)


def test_the_commander_is_the_piece_least_likely_to_have_marched_and_attacked():
    quiet = piece_likelihood("C", 1, 1, 0, 0, 0) / piece_likelihood("5/1/3", 5, 3, 0, 0, 0)
    busy = piece_likelihood("C", 1, 1, 5, 2, 3) / piece_likelihood("5/1/3", 5, 3, 5, 2, 3)
    assert busy < quiet / 100
    # a hard sword is likelier than a soft one to have started a fight
    assert piece_likelihood("5/1/3", 5, 1, 1, 1, 1) > piece_likelihood("1/3/5", 1, 5, 1, 1, 1)


def test_the_search_pool_follows_the_posterior_and_charges_its_cost_to_the_meter(setup_neutral):
    state = still_commander_state()
    view = MYRMIDONS.view(state, 0)
    still = state.board[SQUARE["c7"]]
    infers = policy_for("myrmidons").metered(10 ** 9)
    prior = copy.copy(policy_for("myrmidons"))
    prior.infers = False
    prior = prior.metered(10 ** 9)
    with_posterior = infers.sample_pool(view, random.Random(5), "hard", 16)
    without = prior.sample_pool(view, random.Random(5), "hard", 16)
    assert len(with_posterior) == len(without) == 16
    assert sum(s.commander(1) == still for s in with_posterior) >= 10
    assert sum(s.commander(1) == still for s in without) <= 4
    draws = 16 * infers.posterior_oversampling
    assert infers.meter.spent == pytest.approx(draws * (infers.sample_cost + infers.likelihood_cost))
    assert prior.meter.spent == pytest.approx(16 * prior.pool_oversampling * prior.sample_cost)


def test_the_evaluation_bets_on_the_posteriors_commander_not_one_in_as_many_suspects(setup_neutral):
    state = still_commander_state()
    view = MYRMIDONS.view(state, 0)
    still, marched = state.board[SQUARE["c7"]], state.board[SQUARE["a5"]]
    infers = policy_for("myrmidons").metered(10 ** 9)
    infers.sample_pool(view, random.Random(5), "hard", 16)
    prior = copy.copy(policy_for("myrmidons"))
    prior.infers = False
    prior = prior.metered(10 ** 9)
    prior.sample_pool(view, random.Random(5), "hard", 16)
    assert prior._guess(state, 1, still) == prior._guess(state, 1, marched) == pytest.approx(1 / 6)
    assert infers._guess(state, 1, still) > 0.5 and infers._guess(state, 1, marched) < 0.15
    # a piece that went two squares in one move is no suspect: no chance at all
    moved = replace(state, travelled=tuple(2 if i == marched else t for i, t in enumerate(state.travelled)))
    assert infers._guess(moved, 1, marched) == 0.0
    assert sum(infers._guess(moved, 1, i) for i in range(PER_SEAT, 2 * PER_SEAT)) == pytest.approx(1.0)
    # the odds come from the view alone: the twin whose secret differs gets the same ones
    a, b = twins()
    odds = []
    for twin in (a, b):
        policy = policy_for("myrmidons").metered(10 ** 9)
        policy.sample_pool(MYRMIDONS.view(twin, 0), random.Random(5), "hard", 16)
        odds.append(policy.commander_odds)
    assert odds[0] == odds[1] and odds[0] is not None
    assert policy_for("myrmidons").commander_odds is None  # kept on the decision's copy only


def test_weighted_keeps_each_key_in_proportion_to_its_weight_and_repeats_a_rare_one():
    draws = ["a"] * 9 + ["b"]
    pool = weighted(draws, [1.0] * 9 + [9.0], lambda d: d, 10, random.Random(1))
    assert pool.count("b") == 5 and pool.count("a") == 5
    assert weighted(draws, [0.0] * 10, lambda d: d, 10, random.Random(1)).count("b") == 1  # nothing to prefer


def twins():
    """Two Myrmidons positions that differ only in North's hidden values (the Commander and the 5/1/3 swapped):
    the same public record, different secrets."""
    a = still_commander_state()
    pieces = list(a.pieces)
    commander, striker = a.board[SQUARE["c7"]], a.board[SQUARE["a5"]]
    pieces[commander], pieces[striker] = (replace(pieces[commander], kind=pieces[striker].kind),
                                          replace(pieces[striker], kind=pieces[commander].kind))
    return a, replace(a, pieces=tuple(pieces))


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_computers_move_never_depends_on_a_myrmidons_secret(level):
    a, b = twins()
    assert a.commander(1) != b.commander(1)
    view_a, view_b = MYRMIDONS.view(a, 0), MYRMIDONS.view(b, 0)
    assert view_a == view_b
    draws = [MYRMIDONS.sample_state(view_a, random.Random(9)) for _ in range(20)]
    assert [MYRMIDONS.likelihood(view_a, d) for d in draws] == [MYRMIDONS.likelihood(view_b, d) for d in draws]
    policy = policy_for("myrmidons")
    assert decide(policy, view_a, level=level, seed=4) == decide(policy, view_b, level=level, seed=4)


def test_the_computers_move_never_depends_on_a_mycenae_secret():
    for a, b, _, _ in twin_plies(2, ["plain", "mycenae"], 1, seed=7, plies=12):
        if MYCENAE.outcome(a) is None and MYCENAE.to_act(a) == [0] and a.ply >= 8:
            break
    assert a.cargo != b.cargo
    view_a, view_b = MYCENAE.view(a, 0), MYCENAE.view(b, 0)
    assert view_a == view_b
    policy = policy_for("mycenae")
    assert decide(policy, view_a, level="normal", seed=2) == decide(policy, view_b, level="normal", seed=2)


def test_a_king_is_likelier_in_the_knight_kept_home_than_in_the_one_sent_forward():
    home, forward = MYCENAE_NAMES.index("b1"), MYCENAE_NAMES.index("e4")
    view = {"viewer": 1, "num_players": 2, "unseen": [["K", "R"], []], "knight_moves": {"e4": 4}}
    king = piece(0, KING)
    kept = SimpleNamespace(cargo={home: (king,), forward: ()})
    sent = SimpleNamespace(cargo={home: (), forward: (king,)})
    assert mycenae_likelihood(view, kept) > 10 * mycenae_likelihood(view, sent)
    # once the king has been seen, where the draws put it is no guess: every draw counts alike
    seen = {**view, "unseen": [["R"], []]}
    assert mycenae_likelihood(seen, kept) == mycenae_likelihood(seen, sent) == 1.0


def test_mycenae_counts_each_knights_moves_in_public_and_older_dumps_load():
    state = MYCENAE.new_state(2, 3, {"armies": ["mycenae", "plain"]})
    for seat in MYCENAE.to_act(state):
        state, _ = MYCENAE.apply(state, seat, MYCENAE.legal_moves(state, seat)[0])
    assert MYCENAE.view(state, 1)["knight_moves"] == {}
    after, _ = MYCENAE.apply(state, 0, "b2-a4")  # the a1 corner's Mycenaean knight on b2 jumps
    origin, target = "b2", "a4"
    assert MYCENAE.view(after, 1)["knight_moves"] == {target: 1} == MYCENAE.view(after, None)["knight_moves"]
    assert origin not in MYCENAE.view(after, 1)["knight_moves"]
    assert MYCENAE.load(MYCENAE.dump(after)) == after
    older = {k: v for k, v in MYCENAE.dump(after).items() if k != "hops"}
    assert MYCENAE.load(older).hops == {}


def test_myrmidons_counts_moves_and_attacks_in_public_and_older_dumps_load():
    state = still_commander_state()
    after, _ = MYRMIDONS.apply(state, 0, "c4-c7")  # the 5/1/3 takes the Commander
    attacker = state.board[SQUARE["c4"]]
    assert after.actions[attacker] == 1 and after.attacks[attacker] == 1
    assert MYRMIDONS.load(MYRMIDONS.dump(after)) == after
    older = {k: v for k, v in MYRMIDONS.dump(after).items() if k not in ("actions", "attacks")}
    assert MYRMIDONS.load(older).actions == ()


def test_explore_offers_the_likeliest_result_first_with_its_share(setup_neutral):
    state = still_commander_state()
    sandbox = Sandbox("x", 1, 1, 0, MYRMIDONS, ["S", "N"], "t", 0, False, random.Random(4), [state])
    results = results_of(sandbox, 0, "c4-c7")
    assert len(results) > 2
    shares = [r.share for r in results]
    assert shares == sorted(shares, reverse=True) and sum(shares) == pytest.approx(1.0)
    first = results[0].state
    assert first.outcome is not None and first.outcome.winners == (0,)  # the still piece was the Commander
    assert shares[0] > 0.6
