"""The reveal once a match is over (Game.revealed_view): every secret shown, the same for everyone; a game that
hides nothing shows its public view."""

from __future__ import annotations

import pytest

from bot.engine.playout import final_state, random_plies
from bot.games.registry import GAMES, get_game

HIDING = {"myrmidons", "mycenae"}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_game_that_hides_nothing_reveals_its_public_view(key):
    game = get_game(key)
    state = final_state(game, 2, 3)
    if key in HIDING:
        assert game.revealed_view(state) != game.view(state, None)
    else:
        assert game.revealed_view(state) == game.view(state, None)


@pytest.mark.parametrize("options", [None, {"army": "draft"}, {"memory": "on"}])
def test_myrmidons_reveals_every_army_and_every_value(options):
    game = get_game("myrmidons")
    for ply in random_plies(game, 2, 5, options):
        revealed = game.revealed_view(ply.state)
        assert revealed["viewer"] is None
        pieces = [*revealed["cells"].values(), *revealed["eliminated_pieces"]]
        assert all(p["known"] and p["code"] for p in pieces)
        for seat in (0, 1):  # what each owner sees of her own pieces, everyone sees now
            own = game.view(ply.state, seat)
            for square, cell in own["cells"].items():
                if cell["owner"] == seat:
                    assert revealed["cells"][square]["code"] == cell["code"]
            if revealed["setup"][seat]["army_chosen"]:
                assert revealed["armies"][seat] == own["armies"][seat]


def test_mycenae_reveals_every_knights_cargo():
    game = get_game("mycenae")
    for ply in random_plies(game, 3, 2, {"armies": ["mycenae"] * 3}):
        revealed = game.revealed_view(ply.state)
        assert revealed["viewer"] is None
        for seat in range(3):
            own = game.view(ply.state, seat)["cargo"]
            assert all(revealed["cargo"][square] == cargo for square, cargo in own.items())
