"""What a player's own information proves about the opponent's hidden myrmidons (bot/games/myrmidons/knowledge.py):
scenarios for each kind of proof, and random complete games in which every proof holds of the hidden truth."""

from __future__ import annotations

import pytest

from bot.engine.playout import random_plies
from bot.games.myrmidons.knowledge import knowledge
from bot.games.registry import get_game
from bot.presenters.describe import text_board

GAME = get_game("myrmidons")
STANDARD_DEPLOY = "deploy 5/1/3,4/4/1,C,3/2/4,2/5/2,1/3/5"  # a7 5/1/3, b7 4/4/1, c7 C, d7 3/2/4, e7 2/5/2, f7 1/3/5


def norths_turn(seed: int = 1):
    state = GAME.apply(GAME.apply(GAME.new_state(2, seed, None), 0, STANDARD_DEPLOY)[0], 1, STANDARD_DEPLOY)[0]
    if GAME.to_act(state) == [0]:
        state = GAME.apply(state, 0, "a1-a2")[0]
    return state


def could_be(state, square, viewer=0):
    return next(p.could_be for p in knowledge(GAME.view(state, viewer)).pieces if p.square == square)


def test_a_piece_that_went_five_squares_is_the_only_five_mover_and_no_other_piece_can_be():
    state = GAME.apply(norths_turn(), 1, "f7-f2")[0]
    assert could_be(state, "f2") == ("1/3/5",)
    for square in ("a7", "b7", "c7", "d7", "e7"):
        assert "1/3/5" not in could_be(state, square)
        assert "C" in could_be(state, square), "a piece that has not moved may be the Commander"


def test_a_piece_that_went_three_squares_is_not_the_commander_nor_a_slower_type():
    state = GAME.apply(norths_turn(), 1, "d7-d4")[0]
    assert could_be(state, "d4") == ("5/1/3", "3/2/4", "1/3/5")
    assert knowledge(GAME.view(state, 0)).unseen == ("C", "5/1/3", "4/4/1", "3/2/4", "2/5/2", "1/3/5")


def test_a_public_view_and_a_fully_known_army_prove_nothing_more():
    state = norths_turn()
    assert knowledge(GAME.view(state, None)) is None
    assert knowledge(GAME.view(GAME.new_state(2, 1, None), 0)) is None, "nothing to tell during the setup"


def test_the_text_board_says_it_in_words():
    state = GAME.apply(norths_turn(), 1, "f7-f2")[0]
    text = "\n".join(text_board("Myrmidons", GAME.view(state, 0), ["alice", "Strategos (normal)"], match_id=7))
    assert "Hidden myrmidons of Strategos (normal) (North), as far as you can tell:" in text
    assert "f2: moved 5 squares at once (movement 5 or more); could be Messenger 1/3/5." in text
    assert "Not yet seen: Commander, Raider 5/1/3, Hoplite 4/4/1, Peltast 3/2/4, Shieldbearer 2/5/2, Messenger 1/3/5." \
        in text


@pytest.mark.parametrize("options", [None, {"army": "draft"}, {"army": "random"}, {"memory": "on"}])
def test_every_proof_holds_of_the_hidden_truth_in_random_games(options):
    """Whatever the viewer is told a hidden piece could be, its real type is among it; and what she is told
    narrows something down in some game (the proofs are not empty words)."""
    narrowed = 0
    for seed in range(12):
        for ply in random_plies(GAME, 2, seed, options):
            for viewer in (0, 1):
                known = knowledge(GAME.view(ply.state, viewer))
                if known is None:
                    continue
                truth = GAME.view(ply.state, known.seat)  # the owner's own view names every piece
                codes = {**{p["square"]: p["code"] for p in truth["cells"].values() if p["owner"] == known.seat}}
                for piece in known.pieces:
                    if piece.square is not None:
                        assert codes[piece.square] in piece.could_be, (seed, ply.state.ply, piece)
                        narrowed += len(piece.could_be) < (6 if known.army_known else 20)
    assert narrowed > 0
