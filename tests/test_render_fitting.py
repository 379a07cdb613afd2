"""Every word drawn on a board picture fits, in every language and with any name (issue 39).

Measured on the drawn boxes, not read back: renderers/common.py records each line of text drawn (its ink, and the
box the layout gave it) and the shapes placed beside words (recording_drawn). A text is cut when it ends in an
ellipsis, reaches past its box or its picture, or runs into another text or such a shape. Captions may wrap or step
down a size; only a player's display name may be shortened (the computer's names and the games' own words never
are), and then her side still shows on her badge."""

from __future__ import annotations

import contextlib
from itertools import combinations

import pytest

import renderers
from bot.engine.playout import random_plies
from bot.games import registry
from bot.games.registry import GAMES
from bot.i18n import LANGUAGES
from bot.workers import picture_words
from renderers import common

COMPUTERS = ["Strategos (normal)", "Strategos (normal, Vermilion)"]  # two computer seats carry their side
# Display names of 20 characters (Discord allows 32) in Latin, Cyrillic, CJK and Arabic script.
LONG_NAMES = ["Maximiliana Oberhoff", "Екатерина Васильевна", "張偉明李娜王芳劉洋陳靜楊帆趙磊黃敏周傑吳",
              "عبد الرحمن بن خالدون"]
NAME_SETS = [
    [COMPUTERS[0], LONG_NAMES[0], COMPUTERS[1], LONG_NAMES[3]],  # a computer against a player, then a player's win
    [LONG_NAMES[1], COMPUTERS[1], LONG_NAMES[2], COMPUTERS[0]],
    [LONG_NAMES[2], LONG_NAMES[3], LONG_NAMES[0], LONG_NAMES[1]],
]


SETUP_OPTIONS = {"myrmidons": [lambda players: {"army": "draft"}],
                 "mycenae": [lambda players: {"armies": ["mycenae"] * players}]}


def sample_views(key: str) -> list[dict]:
    """Seeded random games for each player count: the start (the setup phases, where a game has them), two
    positions in the middle and the end, publicly and from the first seat; and the /rules example."""
    game = GAMES[key]
    views = []
    for players in sorted({game.info.min_players, game.info.max_players}):
        plies = list(random_plies(game, players, seed=5))
        last = plies[-1]
        states = [plies[i].state for i in sorted({0, 1, 2, len(plies) // 3, 2 * len(plies) // 3})]
        states.append(game.apply(last.state, last.seat, last.move)[0])
        views += [game.view(state, viewer) for state in states for viewer in (None, 0)]
    for options in SETUP_OPTIONS.get(key, []):  # the other setup phases: choosing an army, loading cargo
        players = game.info.max_players
        plies = list(random_plies(game, players, seed=5, options=options(players), max_plies=3))
        views += [game.view(ply.state, viewer) for ply in plies for viewer in (None, 0)]
    example = next((d.rules_example for d in registry.REGISTERED if d.key == key and d.rules_example), None)
    if example:
        views.append(renderers.rules_example_view(game, example))
    return views


def _clear_caches() -> None:
    """Layers, badges and lines are cached: cleared, so the recording sees them drawn."""
    for module in (common, *map(registry.renderer_of, GAMES)):
        for value in vars(module).values():
            with contextlib.suppress(AttributeError, TypeError):
                value.cache_clear()


def _inside(inner: common.Box, outer: common.Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _meet(a: common.Box, b: common.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def problems(drawn: list[common.Drawn], names: list[str]) -> list[str]:
    """What is cut in one picture's drawing (see the module's docstring)."""
    found = []
    shortened_names = {name[:k].rstrip() + "…" for name in names if name not in COMPUTERS
                       for k in range(4, len(name))}
    texts = [d for d in drawn if d.text]
    words = " ".join(d.text for d in texts)  # a wrapped line's parts in order
    for at in (i for i, ch in enumerate(words) if ch == "…"):
        if not any(words.endswith(short, 0, at + 1) for short in shortened_names):
            found.append(f"shortened: {words[max(0, at - 40):at + 20]!r}")
    for d in texts:
        frame = (0, 0, d.target.width, d.target.height)
        if not _inside(d.ink, frame):
            found.append(f"past the picture: {d.text!r} {d.ink}")
        elif d.room and not _inside(d.ink, d.room):
            found.append(f"past its box: {d.text!r} {d.ink} in {d.room}")
    for a, b in combinations(drawn, 2):
        if (a.text or b.text) and a.target is b.target and _meet(a.ink, b.ink):
            found.append(f"overlap: {a.text or 'a shape'!r} {a.ink} and {b.text or 'a shape'!r} {b.ink}")
    return found


def _sides_shown(view: dict, drawn: list[common.Drawn], names: list[str], lang: str) -> list[str]:
    """A badge whose player's name differs from her side's still names the side, in the picture's language, first
    on its detail line ("Süd · 6 auf dem Brett", or the side alone)."""
    sides = view.get("seat_names") or []
    translate = picture_words(lang)
    return [f"side {side!r} of {names[seat]!r} not shown" for seat, side in enumerate(sides)
            if side != names[seat] and not any(d.text == translate(side, {}) or
                                               d.text.startswith(translate(side, {}) + " · ") for d in drawn)]


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_drawn_text_fits_in_every_language_with_long_and_computer_names(key, lang):
    draw = registry.renderer_of(key).draw
    _clear_caches()
    found: dict[str, None] = {}
    for i, view in enumerate(sample_views(key)):
        names = NAME_SETS[i % len(NAME_SETS)][: view["num_players"]]
        for cached in (common.fit_text, *_text_caches(key)):
            cached.cache_clear()
        _, drawn = common.recording_drawn(common.in_language, picture_words(lang), draw, view, names)
        for problem in problems(drawn, names) + _sides_shown(view, drawn, names, lang):
            found.setdefault(problem)
    assert not found, "\n".join(list(found)[:20])


def _text_caches(key: str) -> list:
    """A renderer's caches of drawn words (badges, caption lines), cleared before each picture so that each
    picture's words are all recorded."""
    module = registry.renderer_of(key)
    return [getattr(module, name) for name in ("badge_image", "text_line") if hasattr(module, name)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_diagrams_name_the_seats_in_the_pictures_language(lang):
    """/rules pictures have no players: their seats are named by their sides, in the server's language ("Süd
    (du)", "Nord am Zug"; never "South (du)")."""
    translate = picture_words(lang)
    for declaration in registry.REGISTERED:
        if not declaration.rules_example or not registry.can_render(declaration.key):
            continue
        _clear_caches()
        _, drawn = common.recording_drawn(common.in_language, translate, registry.rules_diagram.__wrapped__,
                                          declaration.key, lang)
        words = " ".join(d.text for d in drawn)
        view = renderers.rules_example_view(declaration.game, declaration.rules_example)
        for side in view["seat_names"]:
            if translate(side, {}) != side:
                assert translate(side, {}) in words and side not in words, (declaration.key, side, words)


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_myrmidons_fights_show_their_result_beside_the_square_clear_of_the_pieces(lang):
    """The result word ("resistió", "a tenu", "siegte") sat under the marker between the two pieces and was cut or
    touched them; with more fights than the panel holds, it says how many more."""
    view = next(v for v in sample_views("myrmidons") if v.get("last_action") and v["last_action"]["fights"])
    fight = view["last_action"]["fights"][0]
    fights = [fight, {**fight, "result": "win" if fight["result"] != "win" else "repelled"}, fight]
    view = {**view, "last_action": {**view["last_action"], "fights": fights}}
    _clear_caches()
    translate = picture_words(lang)
    _, drawn = common.recording_drawn(common.in_language, translate, registry.renderer_of("myrmidons").draw, view,
                                      NAME_SETS[0][:2])
    assert not problems(drawn, NAME_SETS[0][:2])
    words = [d.text for d in drawn]
    shown = sum(1 for d in drawn if not d.text) // 2  # each fight shown: its two pieces, clear of every word
    assert shown >= 1 and translate("won" if fights[0]["result"] == "win" else "held", {}) in words
    more = translate("+{count} more fight", {"count": 3 - shown}, "+{count} more fights")
    assert more in " ".join(words)  # on one line or wrapped


def test_a_status_line_too_long_for_one_line_breaks_at_its_dash():
    """'Strategos (normal) gewinnt — Dunkel hat mehr Steine drüben (1 z…' was cut; it now reads on two lines, the
    result then its reason, when each fits a line."""
    status = "Strategos (normal) gewinnt — Dunkel hat mehr Steine drüben (1 zu 0)"
    fnt = common.font(common.TEXT_MIN, bold=True)
    room = common.text_width(status, fnt) * 0.7
    assert common.status_lines(status, fnt, room) == ["Strategos (normal) gewinnt —",
                                                       "Dunkel hat mehr Steine drüben (1 zu 0)"]
    assert common.status_lines(status, fnt, room * 2) == [status]
    narrow = common.status_lines(status, fnt, common.text_width("Dunkel hat mehr Steine", fnt))
    assert " ".join(narrow) == status and len(narrow) > 2  # word by word when a half does not fit either
