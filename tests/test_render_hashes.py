"""The board pictures byte for byte: a sample of views of every game, each picture's sha256 against the hashes kept
in tests/picture_hashes.json (benchmarks/picture_hashes.py says which views and pictures). A drawing change that
was not meant to change a picture fails here; one that was, regenerates the file (see REGENERATE)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import picture_hashes
from bot.games import registry
from renderers.common import in_language

HASH_FILE = Path(__file__).with_name("picture_hashes.json")
REGENERATE = ("If the pictures were meant to change, look at a few of them (python -m benchmarks.renders or the "
              "demo), then write the file again:\n    python -m benchmarks.picture_hashes --small --write "
              "tests/picture_hashes.json\nand say in the commit which pictures change and why.")


def test_the_sampled_pictures_are_byte_for_byte_as_recorded():
    recorded = json.loads(HASH_FILE.read_text())
    found = picture_hashes.hashes(list(picture_hashes.SAMPLES), small=True)
    different = picture_hashes.differences(recorded["hashes"], found)
    environment = picture_hashes.environment()
    libraries = ("" if environment == recorded["environment"] else
                 f"\nThe file was written with {recorded['environment']}, this run has {environment}: the libraries "
                 "alone can change the bytes.")
    shown = "\n".join(different[:10]) + (f"\n... and {len(different) - 10} more" if len(different) > 10 else "")
    assert not different, f"{len(different)} pictures differ from {HASH_FILE.name}:\n{shown}{libraries}\n{REGENERATE}"
    assert all(len(pictured) >= 30 for pictured in found.values()), "every game's sample has its pictures"


@pytest.mark.parametrize("key", list(registry.GAMES))
def test_a_pictures_bytes_do_not_depend_on_the_language_of_the_first_picture_of_the_process(key):
    """A board's palette is built once, by the first picture that needs it: one in another language must not
    leave its words in the palette of every later one."""
    game = registry.get_game(key)
    view = game.view(game.new_state(game.info.min_players, 0, None), None)
    renderer = registry.renderer_of(key)
    picture_hashes.clear_caches()
    english_first = renderer.render(view)
    picture_hashes.clear_caches()
    in_language(picture_hashes.made_up_language, renderer.render, view)
    assert renderer.render(view) == english_first
