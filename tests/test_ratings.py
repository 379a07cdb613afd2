"""Ratings (bot/ratings): openskill's Plackett-Luce numbers, ties and draws, the display scale, replays."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from bot.ratings import (
    MODEL,
    POINTS_PER_MU,
    PROVISIONAL_GAMES,
    MatchResult,
    Rating,
    RatingError,
    UnknownGame,
    display_rating,
    rate_match,
    rating_label,
    replay,
)

GUILD = 1


def result(match_id, game, members, standings, finished_at=None, guild=GUILD):
    return MatchResult.of(match_id, guild, game, members, standings, finished_at or float(match_id))


def library(ratings, ranks):
    """openskill itself, called the documented way: one-player teams, lower rank is better, equal ranks tie."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def moved(changes):
    return [(c.mu_after, c.sigma_after) for c in changes]


# --- the library's own numbers ---------------------------------------------------------------------------------


def test_two_players_match_the_library():
    changes, _ = rate_match(result(1, "epaminondas", [10, 20], [[1], [0]]), {})
    assert moved(changes) == library([(25, 25 / 3)] * 2, [2, 1])
    assert [c.outcome for c in changes] == ["L", "W"]
    assert changes[1].mu_after > 25 > changes[0].mu_after


def test_three_players_match_the_library():
    changes, _ = rate_match(result(1, "mycenae", [10, 20, 30], [[2], [0], [1]]), {})
    assert moved(changes) == library([(25, 25 / 3)] * 3, [2, 3, 1])
    assert [c.place for c in changes] == [2, 3, 1]
    assert [c.outcome for c in changes] == ["L", "L", "W"]


def test_four_players_with_existing_ratings_match_the_library():
    current = {
        10: Rating(GUILD, "myriath", 10, mu=31.0, sigma=3.2, games=12),
        20: Rating(GUILD, "myriath", 20, mu=22.5, sigma=5.0, games=4),
        40: Rating(GUILD, "myriath", 40, mu=18.0, sigma=2.1, games=30),
    }
    changes, after = rate_match(result(1, "myriath", [10, 20, 30, 40], [[3], [1], [0], [2]]), current)
    expected = library([(31.0, 3.2), (22.5, 5.0), (25, 25 / 3), (18.0, 2.1)], [3, 2, 4, 1])
    assert moved(changes) == expected
    assert [(r.mu, r.sigma) for r in after] == expected
    assert [c.games for c in changes] == [13, 5, 1, 31]


def test_tied_places_are_equal_ranks_for_the_library():
    # Four players: two share second place.
    changes, _ = rate_match(result(1, "mycenae", [10, 20, 30, 40], [[2], [0, 3], [1]]), {})
    assert moved(changes) == library([(25, 25 / 3)] * 4, [2, 3, 1, 2])
    assert changes[0].mu_after == changes[3].mu_after
    assert [c.place for c in changes] == [2, 3, 1, 2]


def test_a_draw_is_one_group_and_counts_as_a_draw():
    current = {10: Rating(GUILD, "archimedes", 10, mu=30.0, sigma=4.0, games=9)}
    changes, after = rate_match(result(1, "archimedes", [10, 20], [[0, 1]]), current)
    assert moved(changes) == library([(30.0, 4.0), (25, 25 / 3)], [1, 1])
    # Drawing with a weaker player costs the stronger one and pays the weaker one.
    assert changes[0].mu_after < 30.0 and changes[1].mu_after > 25.0
    assert [c.outcome for c in changes] == ["D", "D"]
    assert [(r.wins, r.draws, r.losses) for r in after] == [(0, 1, 0), (0, 1, 0)]


def test_shared_first_place_with_someone_below_is_a_win():
    changes, _ = rate_match(result(1, "mycenae", [10, 20, 30], [[0, 1], [2]]), {})
    assert [c.outcome for c in changes] == ["W", "W", "L"]


# --- display scale -----------------------------------------------------------------------------------------------


def test_display_starts_at_1500_and_is_provisional_until_the_fifth_game():
    assert display_rating(MODEL.mu) == 1500
    assert rating_label(MODEL.mu, 0) == "1500?"
    labels = []
    results = [result(i, "epaminondas", [10, 20 + i], [[0, 1]]) for i in range(1, 7)]  # draws: stays at 1500
    for change in replay(results).changes:
        if change.member_id == 10:
            labels.append(change.label_after)
    assert labels == ["1500?", "1500?", "1500?", "1500?", "1500", "1500"]
    assert PROVISIONAL_GAMES == 5


def test_400_display_points_are_ten_to_one_in_the_plackett_luce_likelihood():
    # Two settled players (tiny sigma): P(a first) = e^(mu_a/c) / (e^(mu_a/c) + e^(mu_b/c)), c = sqrt(2 beta^2).
    c = math.sqrt(2 * MODEL.beta**2)
    mu_a = MODEL.mu + 400 / POINTS_PER_MU
    p = math.exp(mu_a / c) / (math.exp(mu_a / c) + math.exp(MODEL.mu / c))
    assert p == pytest.approx(10 / 11)
    assert display_rating(mu_a) == 1900


def test_a_change_summarises_before_after_and_delta_that_add_up():
    changes, _ = rate_match(result(1, "epaminondas", [10, 20], [[1], [0]]), {})
    loser, winner = changes
    assert winner.after - winner.before == winner.delta > 0
    assert winner.summary() == f"1500? → {winner.after}? (+{winner.delta})"
    assert loser.summary() == f"1500? → {loser.after}? ({loser.delta})"


# --- streaks, recent results, replays ---------------------------------------------------------------------------


def test_streak_and_recent_results():
    # Member 10 wins three, loses one, draws, then wins twice.
    standings = [[[0], [1]]] * 3 + [[[1], [0]]] + [[[0, 1]]] + [[[0], [1]]] * 2
    results = [result(i + 1, "archimedes", [10, 20], s) for i, s in enumerate(standings)]
    rating = replay(results).ratings[(GUILD, "archimedes", 10)]
    assert (rating.games, rating.wins, rating.draws, rating.losses) == (7, 5, 1, 1)
    assert rating.recent == "WWWLDWW"
    assert (rating.streak, rating.streak_text) == (2, "W2")
    assert not rating.provisional and rating.label == str(rating.display)


def test_recent_results_keep_the_last_ten():
    results = [result(i + 1, "archimedes", [10, 20], [[0], [1]] if i < 12 else [[1], [0]]) for i in range(13)]
    rating = replay(results).ratings[(GUILD, "archimedes", 10)]
    assert rating.recent == "WWWWWWWWWL" and rating.streak == 1


def test_replay_is_deterministic_and_keeps_servers_and_games_apart():
    results = [
        result(1, "epaminondas", [10, 20], [[0], [1]], guild=1),
        result(2, "epaminondas", [10, 20], [[1], [0]], guild=2),
        result(3, "archimedes", [10, 20], [[1], [0]], guild=1),
        result(4, "mycenae", [10, 20, 30], [[2], [1], [0]], guild=1),
        result(5, "epaminondas", [10, 20], [[0], [1]], guild=1),
    ]
    first, second = replay(results), replay(list(results))
    assert first.ratings == second.ratings and first.changes == second.changes
    # Member 10 on server 1 in Epaminondas saw only matches 1 and 5.
    assert [c.match_id for c in first.changes if c.key() == (1, "epaminondas", 10)] == [1, 5]
    assert first.ratings[(2, "epaminondas", 10)].losses == 1
    assert first.ratings[(1, "epaminondas", 10)].wins == 2


def test_the_same_match_twice_is_refused():
    r = result(1, "epaminondas", [10, 20], [[0], [1]])
    with pytest.raises(RatingError, match="twice"):
        replay([r, r])


# --- bad input -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, members, standings, message",
    [
        ("chess", [1, 2], [[0], [1]], "unknown game 'chess'"),
        ("epaminondas", [1, 2, 3], [[0], [1], [2]], "for 2-2 players, not 3"),
        ("epaminondas", [1, 1], [[0], [1]], "more than one seat"),
        ("epaminondas", [1, 2], [[0]], "exactly once"),
        ("epaminondas", [1, 2], [[0], [0, 1]], "exactly once"),
        ("mycenae", [1, 2, 3], [[0], [], [1, 2]], "non-empty"),
    ],
)
def test_bad_results_are_refused_with_a_clear_message(game, members, standings, message):
    with pytest.raises(RatingError, match=message):
        MatchResult.of(1, GUILD, game, members, standings, 1.0)


def test_an_unknown_game_is_its_own_error():
    with pytest.raises(UnknownGame):
        MatchResult.of(1, GUILD, "chess", [1, 2], [[0], [1]], 1.0)


def test_a_rating_from_another_server_is_refused():
    foreign = {10: Rating(2, "epaminondas", 10, mu=30.0, sigma=3.0)}
    with pytest.raises(RatingError, match="another server"):
        rate_match(result(1, "epaminondas", [10, 20], [[0], [1]]), foreign)
