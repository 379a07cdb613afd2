"""Fingerprints of the board pictures: the sha256 of every picture of a fixed sample of views, per game, to show
that a change to the drawing code leaves every picture as it was, byte for byte.

    python -m benchmarks.picture_hashes                          # the full sample: how many views and pictures
    python -m benchmarks.picture_hashes --write before.json      # ... and every picture's hash, kept in a file
    python -m benchmarks.picture_hashes --check before.json      # the pictures that differ from the file's (exit 1)
    python -m benchmarks.picture_hashes --small --write tests/picture_hashes.json   # the regression test's file

The sample, for every game: seeded random games (bot/engine/playout.py) of every player count, and of the option
sets that change the picture; in each, positions spaced evenly from the start to the end (both included); for each
position its public view and every seat's private view. Of each view, the PNG render() makes, alternately with the
seats' default names and with given names in several scripts. On every third view also draw(view,
board_only=True), and on every third another one draw(view), encoded as the bot encodes them (the /rules diagram's
two pictures before they are scaled). Every fifth view's pictures are drawn in a second language (a made-up one:
the English words in capitals with accents, longer), whose words reach the layers' legends.

--small keeps every 11th view of the full sample (~35 a game: what tests/test_render_hashes.py checks, in a few
seconds). The caches of the renderers are emptied first, so that what an earlier picture of the process built (a
palette, a layer) cannot change these.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import PIL
from PIL import features

from bot.engine.playout import random_plies
from bot.games.registry import GAMES, get_game, renderer_of
from renderers import common
from renderers.common import english, in_language
from renderers.png import encode_png

SMALL_STEP = 11  # --small: every 11th view (prime to 2, 3 and 5, so it still meets every kind of picture)
NAMES = ("Zoë Ångström-Bartholomew the Unreasonably Long", "王小明", "Дмитрий", "Max 😀🎲")


@dataclass(frozen=True)
class Sample:
    """How much of one game the full sample takes: `seeds` games per player count and option set, `positions` of
    each game."""

    seeds: int
    positions: int
    options: tuple[dict | None, ...] = (None,)  # option sets; a callable value gets the player count


SAMPLES = {
    "archimedes": Sample(seeds=10, positions=12),
    "epaminondas": Sample(seeds=10, positions=12),
    "myrmidons": Sample(seeds=4, positions=10, options=(
        None, {"army": "draft", "memory": "on"}, {"army": "random", "memory": "off"})),
    "mycenae": Sample(seeds=3, positions=5, options=(None, {"armies": "mycenae"})),
    "myriath": Sample(seeds=5, positions=6),
}


def made_up_language(template: str, params: dict, plural: str | None = None) -> str:
    """A second language for the sample: every word longer, in capitals with accents."""
    return english(template, params, plural).upper().replace("A", "Ä").replace("O", "Ö").replace(" ", "  ")


def _options(key: str, options: dict | None, players: int) -> dict | None:
    """An option set for this player count: a per-seat option given as one value means that value for every seat."""
    if options is None:
        return None
    info = get_game(key).info
    return {name: [value] * players if info.option(name).per_seat and isinstance(value, str) else value
            for name, value in options.items()}


def views(key: str) -> Iterator[tuple[str, int, dict]]:
    """(label, player count, view) of the game's full sample, always the same ones in the same order."""
    game, sample = get_game(key), SAMPLES[key]
    for players in range(game.info.min_players, game.info.max_players + 1):
        for number, options in enumerate(sample.options):
            chosen = _options(key, options, players)
            for seed in range(sample.seeds):
                states, last = [], None
                for ply in random_plies(game, players, seed, chosen):
                    states.append(ply.state)
                    last = ply
                if last is not None:
                    states.append(game.apply(last.state, last.seat, last.move)[0])
                count = min(sample.positions, len(states))
                picked = sorted({round(i * (len(states) - 1) / max(1, count - 1)) for i in range(count)})
                for ply in picked:
                    for viewer in (None, *range(players)):
                        label = f"{players}p options{number} seed{seed} ply{ply} " + (
                            "public" if viewer is None else f"seat{viewer}")
                        yield label, players, game.view(states[ply], viewer)


def pictures(key: str, index: int, players: int, view: dict) -> Iterator[tuple[str, bytes]]:
    """(what, PNG) of the pictures made of the sample's index-th view."""
    renderer = renderer_of(key)
    names = None if index % 2 == 0 else list(NAMES[:players])
    translate, language = (made_up_language, "made-up") if index % 5 == 4 else (english, "en")
    yield (f"render names={'given' if names else 'default'} {language}",
           in_language(translate, renderer.render, view, player_names=names))
    if index % 3 == 1:
        yield f"board_only {language}", encode_png(in_language(translate, renderer.draw, view, board_only=True))
    elif index % 3 == 2:
        yield f"draw names={'given' if names else 'default'} {language}", encode_png(
            in_language(translate, renderer.draw, view, names))


def clear_caches() -> None:
    """Every cache of the shared drawing and of the renderers emptied, as in a process just started."""
    for module in (common, *map(renderer_of, GAMES)):
        for value in vars(module).values():
            with contextlib.suppress(AttributeError, TypeError):
                value.cache_clear()


def hashes(keys: list[str], small: bool = False) -> dict[str, dict[str, str]]:
    """{game: {"<view label> | <picture>": sha256 of its PNG}} for the full sample, or the small one."""
    clear_caches()
    result: dict[str, dict[str, str]] = {}
    for key in keys:
        found = result[key] = {}
        for index, (label, players, view) in enumerate(views(key)):
            if small and index % SMALL_STEP:
                continue
            for what, png in pictures(key, index, players, view):
                found[f"{label} #{index} | {what}"] = hashlib.sha256(png).hexdigest()
    return result


def _in_small(name: str) -> bool:
    """Whether a picture of the full sample (named as hashes() names it) is in the small one."""
    return int(name.split(" | ")[0].rsplit("#", 1)[1]) % SMALL_STEP == 0


def environment() -> dict[str, Any]:
    """What the bytes of a picture depend on besides the code: the drawing and compressing libraries."""
    from importlib.metadata import version

    return {"Pillow": PIL.__version__, "FreeType": features.version("freetype2"),
            "raqm": features.version("raqm"), "zlib-ng": version("zlib-ng")}


def differences(expected: dict[str, dict[str, str]], found: dict[str, dict[str, str]]) -> list[str]:
    """Every picture whose hash differs, or that one side has and the other lacks."""
    lines = []
    for key in sorted(set(expected) | set(found)):
        mine, theirs = found.get(key, {}), expected.get(key, {})
        for name in sorted(set(mine) | set(theirs)):
            if mine.get(name) != theirs.get(name):
                lines.append(f"{key}: {name}: expected {theirs.get(name, 'nothing')}, got {mine.get(name, 'nothing')}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"some of: {', '.join(SAMPLES)} (default: all)")
    parser.add_argument("--small", action="store_true", help="every 11th view only (the regression test's sample)")
    parser.add_argument("--write", type=Path, help="write every picture's hash to this JSON file")
    parser.add_argument("--check", type=Path, help="compare every picture's hash with this JSON file's")
    args = parser.parse_args(argv)
    keys = args.games or list(SAMPLES)
    if set(keys) - set(SAMPLES):
        parser.error(f"no sample for {', '.join(sorted(set(keys) - set(SAMPLES)))}")
    found = hashes(keys, args.small)
    for key, pictured in found.items():
        views_hashed = len({name.split(" | ")[0] for name in pictured})
        print(f"{key}: {views_hashed} views, {len(pictured)} pictures")
    if args.write:
        args.write.write_text(json.dumps({"environment": environment(), "hashes": found}, indent=1, sort_keys=True)
                              + "\n")
    if args.check:
        expected = {key: {name: digest for name, digest in pictured.items() if not args.small or _in_small(name)}
                    for key, pictured in json.loads(args.check.read_text())["hashes"].items() if key in found}
        different = differences(expected, found)
        for line in different:
            print(line)
        total = sum(len(p) for p in found.values())
        print(f"{total - len(different)} of {total} pictures as in {args.check}" if different
              else f"all {total} pictures as in {args.check}")
        return 1 if different else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
