"""The Explore step picture: the board post's own picture, pixel for pixel, under a banner that marks assumptions."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.games.registry import get_game
from bot.engine.playout import random_plies
from renderers.explore import ASSUMED_COLOUR, BANNER_COLOUR, BANNER_HEIGHT, explore_png
from bot.games import registry


@pytest.mark.parametrize("key", sorted(registry.GAMES))
@pytest.mark.parametrize("assumed", [False, True])
def test_explore_picture_is_the_board_under_a_banner(key, assumed):
    game = get_game(key)
    plies = list(random_plies(game, 2, 3))
    view = game.view(plies[len(plies) // 2].state, 0)
    picture = Image.open(io.BytesIO(explore_png(view, ["alice", "bob"], "EXPLORE · match #3", assumed=assumed,
                                                    renderer=registry.renderer_of(key))))
    board = Image.open(io.BytesIO(registry.render(view, player_names=["alice", "bob"]))).convert("RGB")
    picture = picture.convert("RGB")
    assert picture.size == (board.width, board.height + BANNER_HEIGHT)
    below = picture.crop((0, BANNER_HEIGHT, picture.width, picture.height))
    assert ImageChops.difference(below, board).getbbox() is None
    assert picture.getpixel((2, 2)) == (ASSUMED_COLOUR if assumed else BANNER_COLOUR)
    banner = picture.crop((0, 0, picture.width, BANNER_HEIGHT))
    assert (255, 255, 255) in {colour for _, colour in banner.getcolors(4096)}  # the text is there
