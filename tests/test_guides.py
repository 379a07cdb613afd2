"""The /rules guides: they fit a Discord embed, and what they say about moves, options and secrets is what the
engines do."""

from __future__ import annotations

import re

import pytest

from bot.cogs.rules import guide_text
from bot.games import IllegalMoveError
from bot.games.registry import GAMES, get_game
from bot.games.epaminondas.game import position_from_squares
from bot.games.myrmidons import INFO as MYRMIDONS
from bot.presenters.text import EMBED_DESCRIPTION_LIMIT


def occupied(game, state, seat):
    board = game.view(state, None)["board"]
    return {f"{chr(97 + f)}{r + 1}" for r in range(12) for f in range(14) if board[r][f] == seat}


@pytest.mark.parametrize("key", GAMES)
def test_every_guide_fits_one_embed(key):
    assert 0 < len(guide_text(key)) <= EMBED_DESCRIPTION_LIMIT


def test_epaminondas_capture_rule_names_no_move_that_does_not_exist():
    text = guide_text("epaminondas")
    assert "bounce" not in text.lower()
    assert "as long as yours or longer, there is no such move" in text
    game = get_game("epaminondas")
    equal = position_from_squares(["d2", "d3"], ["d4", "d5", "a12"])  # two against two: illegal, not a bounce
    with pytest.raises(IllegalMoveError):
        game.apply(equal, 0, "d2xd4")
    assert not any(move.endswith("d4") for move in game.legal_moves(equal, 0))


def test_epaminondas_notation_examples_do_what_the_guide_says():
    notation = guide_text("epaminondas").split("**Notation.**")[1]
    assert re.findall(r"`([a-n]\d+[-x][a-n]\d+)`", notation) == ["b1-b3", "b1-b4", "b2-b3", "d2xd5"]
    game = get_game("epaminondas")
    start = game.new_state(2, 0)
    light = occupied(game, start, 0)
    for move, left, arrived in (("b1-b3", {"b1"}, {"b3"}), ("b1-b4", {"b1", "b2"}, {"b3", "b4"}),
                                ("b2-b3", {"b2"}, {"b3"})):
        after = occupied(game, game.apply(start, 0, move)[0], 0)
        assert after == light - left | arrived, move
    # "with your pieces on d2, d3 and d4 and enemy pieces on d5 and d6"
    state = position_from_squares(["d2", "d3", "d4"], ["d5", "d6", "a12"])
    after = game.apply(state, 0, "d2xd5")[0]
    assert occupied(game, after, 0) == {"d3", "d4", "d5"} and occupied(game, after, 1) == {"a12"}


def test_myrmidons_guide_says_which_rule_is_the_rulebooks_and_which_the_popular_variant():
    text = guide_text("myrmidons")
    assert "many players prefer" in text and "`memory: on`" in text and "rulebook's base rule" in text
    memory = next(option for option in MYRMIDONS.options if option.key == "memory")
    assert memory.default == "off" and "on" in memory.choices  # off (the default) keeps revealed pieces face up


def test_mycenae_guide_tells_take_overs_two_player_requests_and_what_others_can_deduce():
    text = guide_text("mycenae")
    assert "With three or more players you may load" not in text
    assert "(with two players, your opponent's)" in text
    assert "a Mycenaean knight taken over this way loses its cargo" in text
    assert "**What the others can know.**" in text and "never how they are shared out" in text
