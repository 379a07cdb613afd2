"""Every text and marker on a board picture reads at phone width, and no caption line is cut.

Discord shows a picture about 390 px wide on a phone: a ~1000 px board is shown at ~0.4 of its size there. Every
text drawn (coordinates, captions, panels, legends, the digits and labels inside pieces) must be at least 9 px
high at that scale. Measured on the fonts' pixel size as drawn, divided by the supersampling of sprites drawn
large and reduced. The same holds for the markers that carry meaning without text: Myrmidons' sword, shield and
movement icons on tiles, Mycenae's owner emblems on pieces and Myriath's score marks, measured as the height of
the pixels each painter covers. A line other than a player's name is never shortened with an ellipsis."""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass

import pytest
from PIL import Image, ImageDraw

import renderers
from bot.games.registry import GAMES
from bot.engine.playout import random_plies
from bot.games.mycenae import renderer as mycenae
from bot.games.myriath import renderer as myriath
from bot.games.myrmidons import renderer as myrmidons
from bot.i18n import LANGUAGES
from bot.workers import picture_words
from renderers import common
from bot.games import registry

EXAMPLES = {d.key: d.rules_example for d in registry.REGISTERED if d.rules_example}  # each game's /rules position

PHONE_WIDTH = 390
MIN_HEIGHT = 9  # px at phone width
NAMES = ["Alice", "Bob", "Carol", "Dan"]


@dataclass(frozen=True)
class Drawn:
    text: str
    size: float  # the font's pixel size at the picture's scale


class TextRecorder:
    """Records every ImageDraw.text call; inside a supersampled sprite's painting, sizes are divided by its scale."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.drawn: list[Drawn] = []
        self.scale = 1
        original_text = ImageDraw.ImageDraw.text
        recorder = self

        def text(self, xy, text, fill=None, font=None, *args, **kwargs):
            recorder.drawn.append(Drawn(text, font.size / recorder.scale))
            return original_text(self, xy, text, fill, font, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
        for module in (common, *map(registry.renderer_of, registry.GAMES)):
            if hasattr(module, "supersampled"):
                monkeypatch.setattr(module, "supersampled", self._scaled(module.supersampled, common.SUPERSAMPLE))
        monkeypatch.setattr(myriath, "_antialiased", self._scaled(myriath._antialiased, common.SUPERSAMPLE))
        self._clear_caches()

    def _scaled(self, function, scale):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            self.scale = scale
            try:
                return function(*args, **kwargs)
            finally:
                self.scale = 1
        return wrapper

    @staticmethod
    def _clear_caches() -> None:
        """Sprites, stamps and layers are cached: cleared, so this test sees them drawn."""
        for module in (common, *map(registry.renderer_of, registry.GAMES)):
            for value in vars(module).values():
                with contextlib.suppress(AttributeError, TypeError):
                    value.cache_clear()


class MarkerRecorder:
    """Wraps each marker painter: paints it once more on an empty canvas of the same size and records the height
    of what it covered, at the picture's scale (the text recorder's sprite scale). Shapes of a renderer without
    markers record nothing."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, texts: TextRecorder):
        self.heights: list[tuple[str, float]] = []
        self.texts = texts
        monkeypatch.setattr(myrmidons, "ICON_PAINTERS",
                            tuple(self._measured(f"icon {p.__name__}", p) for p in myrmidons.ICON_PAINTERS))
        monkeypatch.setattr(mycenae, "_paint_emblem", self._measured("emblem", mycenae._paint_emblem))
        monkeypatch.setattr(myriath, "_paint_score_disc", self._measured("score disc", myriath._paint_score_disc))

    def _measured(self, name, painter):
        def wrapper(draw, *args, **kwargs):
            blank = Image.new("RGBA", draw.im.size, (0, 0, 0, 0))
            painter(ImageDraw.Draw(blank), *args, **kwargs)
            box = blank.getbbox()
            self.heights.append((name, (box[3] - box[1]) / self.texts.scale))
            return painter(draw, *args, **kwargs)
        return wrapper


def sample_views(key: str) -> list[dict]:
    """Positions through a seeded random game for every player count, every view, and the /rules example."""
    game = GAMES[key]
    views = []
    for players in range(game.info.min_players, game.info.max_players + 1):
        plies = list(random_plies(game, players, seed=3))
        picked = plies[:: max(1, len(plies) // 8)] + plies[-1:]
        for i, ply in enumerate(picked):
            views += [game.view(ply.state, viewer) for viewer in (None, *range(players))]
        last = plies[-1]
        final = game.apply(last.state, last.seat, last.move)[0]
        views.append(game.view(final, None))
    if key in EXAMPLES:
        views.append(renderers.rules_example_view(game, EXAMPLES[key]))
    return views


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_every_text_is_at_least_9_px_high_at_phone_width_and_no_line_is_cut(key, lang, monkeypatch):
    """In every language: a longer German or French word must fit as the English one did."""
    recorder = TextRecorder(monkeypatch)
    widest = 0
    for view in sample_views(key):
        img = common.in_language(picture_words(lang), registry.renderer_of(key).draw, view,
                                 NAMES[: view["num_players"]])
        widest = max(widest, img.width)
    scale = PHONE_WIDTH / widest
    small = sorted({(round(d.size * scale, 1), d.text) for d in recorder.drawn if d.size * scale < MIN_HEIGHT})
    assert not small, f"{len(small)} texts under {MIN_HEIGHT} px at {PHONE_WIDTH} px wide: {small[:12]}"
    cut = sorted({d.text for d in recorder.drawn if d.text.endswith("…")})
    assert not cut, cut


MARKED = {"myrmidons": {"icon _paint_sword", "icon _paint_shield", "icon _paint_move"}, "mycenae": {"emblem"},
          "myriath": {"score disc"}}


@pytest.mark.parametrize("key", sorted(MARKED))
def test_every_marker_is_at_least_9_px_high_at_phone_width(key, monkeypatch):
    """Sword / shield / movement icons on Myrmidons' tiles, owner emblems on Mycenae's pieces and Myriath's
    score marks (the marker on every kind of piece and place, in every view)."""
    markers = MarkerRecorder(monkeypatch, TextRecorder(monkeypatch))
    widest = 0
    for view in sample_views(key):
        img = registry.renderer_of(key).draw(view, NAMES[: view["num_players"]])
        widest = max(widest, img.width)
    assert {name for name, _ in markers.heights} == MARKED[key]  # every marker was drawn, hence measured
    scale = PHONE_WIDTH / widest
    small = sorted({(name, round(height * scale, 1)) for name, height in markers.heights
                    if height * scale < MIN_HEIGHT})
    assert not small, f"{len(small)} markers under {MIN_HEIGHT} px at {PHONE_WIDTH} px wide: {small[:12]}"


def test_mycenae_setup_line_with_four_players_is_whole(monkeypatch):
    """'Secret setup: … still choosing cargo' lost its end ("still choosing car…") with several players."""
    recorder = TextRecorder(monkeypatch)
    game = GAMES["mycenae"]
    state = game.new_state(4, 0, {"armies": ["mycenae"] * 4})
    names = ["Alexandrina", "Bartholomew", "Cassiopeia", "Demetrius"]
    registry.renderer_of("mycenae").draw(game.view(state, None), names)
    status = [d.text for d in recorder.drawn if "choosing cargo" in d.text.lower()]
    assert status and not status[0].endswith("…")  # a shorter wording, never a cut one
    assert all(name in status[0] for name in names)


def test_a_very_long_name_is_shortened_inside_a_status_line_whose_own_words_stay(monkeypatch):
    recorder = TextRecorder(monkeypatch)
    game = GAMES["epaminondas"]
    view = game.view(game.new_state(2, 0, None), None)
    registry.renderer_of("epaminondas").draw(view, ["W" * 60, "Bob"])
    status = [d.text for d in recorder.drawn if d.text.endswith("to move")]
    assert status and "W" * 17 + "…" in status[0]
