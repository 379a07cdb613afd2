"""The /rules pictures illustrate what each game's guide explains, each a legal position of the real rules."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

import renderers
from bot.games.registry import get_game
from bot.games import registry

EXAMPLES = {d.key: d.rules_example for d in registry.REGISTERED if d.rules_example}  # each game's /rules position


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def example(key: str) -> dict:
    return renderers.rules_example_view(get_game(key), EXAMPLES[key])


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_the_rules_picture_is_the_example_position_with_its_caption_made_smaller(key):
    full = registry.renderer_of(key).draw(example(key))
    diagram = decode(registry.rules_diagram(key))
    assert diagram.size == (round(full.width * renderers.RULES_DIAGRAM_SCALE),
                            round(full.height * renderers.RULES_DIAGRAM_SCALE))
    expected = full.resize(diagram.size, resample=Image.Resampling.BICUBIC)
    difference = ImageStat.Stat(ImageChops.difference(diagram, expected)).mean
    assert max(difference) < 1.0  # the same picture, give or take the palette's edge shades
    start = get_game(key)
    start_view = start.view(start.new_state(EXAMPLES[key].players, 0, EXAMPLES[key].options), None)
    start_picture = registry.renderer_of(key).draw(start_view).resize(diagram.size)
    assert diagram.tobytes() != start_picture.tobytes()


def test_myriath_shows_placed_tiles_of_both_players_and_a_placement_that_scored():
    view = example("myriath")
    owners = {tile["owner"] for tile in view["tiles"] if tile["kind"] != "O"}
    assert owners == {0, 1} and sum(tile["kind"] == "O" for tile in view["tiles"]) == 2
    last = view["tiles"][-1]
    scored = [c for c in view["contacts"] if last["index"] in c["tiles"] and c["ends"][c["tiles"].index(last["index"])]]
    assert len(scored) >= 2  # its score dots: both its ends touch another tile
    assert min(view["scores"]) > 0 and view["last_move"] == last["move"]


def test_myrmidons_shows_values_on_pieces_and_a_fight_that_revealed_the_defender():
    view = example("myrmidons")
    own = [cell for cell in view["cells"].values() if cell["owner"] == view["viewer"]]
    assert len(own) == 6 and all(cell["sword"] is not None for cell in own)
    fight = view["last_action"]["fights"][0]
    defender = view["cells"][fight["square"]]
    assert defender["owner"] != view["viewer"] and defender["revealed"] and defender["sword"] == 4
    assert fight["result"] == "repelled" and view["last_action"]["repelled"]


def test_mycenae_shows_a_loaded_knight_that_moved_and_unloaded():
    view = example("mycenae")
    assert view["viewer"] == 0 and view["armies"][0] == "mycenae"
    loaded = {square: pieces for square, pieces in view["cargo"].items() if pieces}
    assert len(loaded) == 3 and "e4" in loaded  # the knight that jumped to e4 still carries its rook
    assert view["last_move"].startswith("unload e4")
