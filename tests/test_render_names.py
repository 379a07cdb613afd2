"""Player names in any script: every character is drawn by a bundled font that has it (never the .notdef box), on
every game's board picture, and long names are still cut with an ellipsis to fit."""

from __future__ import annotations

import json
import unicodedata

import pytest
from PIL import Image, ImageChops, ImageDraw, features

from bot.games.registry import GAMES
from renderers import common, font_coverage
from renderers.common import CAPTION_HEIGHT
from renderers.league import Division, Row, standings_picture
from bot.games import registry

# Two names per script, of the same length: drawn as boxes they would look alike.
NAMES = {
    "latin": ("Zoë Ångström", "Łukasz Øster"),
    "greek": ("Αλέξανδρος", "Περσεφόνη"),
    "cyrillic": ("Дмитрий", "Людмила"),
    "arabic": ("محمد علي", "ليلى حسن"),
    "hebrew": ("דוד כהן", "שרה לוי"),
    "chinese": ("王小明", "李大伟"),
    "japanese": ("さくら・タナカ", "ユウキ・やまだ"),
    "korean": ("김민준", "이서연"),
    "devanagari": ("राहुल शर्मा", "प्रिया वर्मा"),
    "emoji": ("Max 😀🎲🔥", "Eva 🐉✨🚀"),
    "emoji sequences": ("❤️ 👍🏽 👨‍👩‍👧", "⭐️ 👋🏿 🏳️‍🌈"),
}
ALL_NAMES = [name for pair in NAMES.values() for name in pair]
NOTDEF = "\U0010fffd"  # a private-use code point no bundled font has: drawn as the font's .notdef glyph


def glyph_mask(text: str, fnt) -> bytes:
    mask = Image.new("L", (4 * int(fnt.size), 2 * int(fnt.size)))
    ImageDraw.Draw(mask).text((fnt.size, fnt.size), text, font=fnt, fill=255, anchor="ls")
    return mask.tobytes()


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_character_is_drawn_by_a_font_that_has_it(name, bold):
    fnt = common.font(26, bold=bold)
    chain = common.fallback_chain(fnt)
    runs = common.text_runs(name, bold)
    assert "".join(chars for chars, _ in runs) == "".join(ch for ch in name if not common._skin_tone(ch))
    for chars, index in runs:
        run_font, file_name = chain[index]
        coverage = common.font_coverage(file_name)
        notdef = glyph_mask(NOTDEF, run_font)
        for ch in chars:
            if ch.isspace() or unicodedata.category(ch) in ("Mn", "Cf") or 0xFE00 <= ord(ch) <= 0xFE0F:
                continue  # spaces, marks and joiners draw nothing alone
            assert ord(ch) in coverage, (name, ch, file_name)
            assert glyph_mask(ch, run_font) != notdef, (name, ch, file_name)


def test_a_character_no_font_has_becomes_a_replacement_mark_not_a_box():
    runs = common.text_runs("Ann \U0001fae0", False)  # U+1FAE0 (Unicode 14) is in none of the bundled fonts
    assert runs == (("Ann " + common.REPLACEMENT, 0),)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_long_names_are_cut_with_an_ellipsis_to_fit(name):
    fnt = common.font(28, bold=True)
    long = name * 6
    cut = common.fit_text(long, fnt, 260)
    assert cut.endswith("…") and len(cut) < len(long)
    assert common.text_width(cut, fnt) <= 260
    mask, _, _ = common._text_stamp(cut, fnt, "lm")
    assert mask.width <= 262  # the drawn ink, not only the advance, stays in the room (antialiasing aside)
    assert cut[-2] not in "\u200d\ufe0f"  # no joiner left dangling before the ellipsis


def test_text_in_several_fonts_sits_on_the_same_line_as_latin_text():
    fnt = common.font(28, bold=True)
    for anchor in ("lm", "la", "rm", "mm"):
        _, _, latin_top = common._text_stamp("Hx", fnt, anchor)
        _, _, mixed_top = common._text_stamp("Hx 王小明", fnt, anchor)
        assert abs(latin_top - mixed_top) <= 8  # the CJK glyphs rise a little above H, never a line apart


def caption(key: str, names: list[str]) -> Image.Image:
    game = GAMES[key]
    players = game.info.min_players
    view = game.view(game.new_state(players, 0, None), None)
    img = registry.renderer_of(key).draw(view, (names * players)[:players])
    return img.crop((0, img.height - CAPTION_HEIGHT - 40, img.width, img.height))


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_every_board_picture_draws_names_in_every_script(key):
    """Two different names of the same length and script give different captions: boxes would look alike."""
    for script, (first, second) in NAMES.items():
        one, other = caption(key, [first]), caption(key, [second])
        assert ImageChops.difference(one, other).getbbox() is not None, script


@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_board_pictures_with_names_in_every_script_encode(key):
    game = GAMES[key]
    players = game.info.max_players
    view = game.view(game.new_state(players, 0, None), None)
    for i in range(0, len(ALL_NAMES), players):
        png = registry.render(view, player_names=(ALL_NAMES[i:] + ALL_NAMES)[:players])
        assert png.startswith(b"\x89PNG")


def test_arabic_and_devanagari_are_shaped_where_pillow_has_libraqm():
    """With libraqm (this project's Pillow has it where FriBiDi is installed) letters join and reorder; without
    it the names are still drawn, unshaped."""
    fnt = common.font(28)
    for word in ("محمد", "शर्मा"):
        whole = common._text_stamp(word, fnt, "ls")[0]
        letters = sum(common.text_width(ch, fnt) for ch in word)
        assert whole.getbbox() is not None
        if features.check_feature("raqm"):
            assert common.LAYOUT == {"direction": "ltr"}
            assert abs(common.text_width(word, fnt) - letters) > 1  # joined or conjunct forms, not letters in a row
        else:
            assert common.LAYOUT == {}


def test_the_coverage_file_matches_the_fonts_character_maps():
    """fonts/coverage.json (read by the pictures instead of the fonts' tables) is what the fonts really hold;
    after changing a font, `python -m renderers.font_coverage` writes it again."""
    assert json.loads(font_coverage.COVERAGE_FILE.read_text()) == font_coverage.measured()
    assert 0x738B in common.font_coverage("DroidSansFallback.ttf")  # 王
    assert 0x738B not in common.font_coverage("DejaVuSans.ttf")
    assert ord("A") in common.font_coverage("DejaVuSans.ttf") and -1 not in common.font_coverage("Symbola.ttf")


def test_league_standings_draw_names_in_every_script():
    def picture(name: str) -> bytes:
        rows = [Row(1, name, "2", "1", 2, 2, 1510), Row(2, "Bob", "0", "0", 2, 0, 1490)]
        return standings_picture("Spring league", "Myrmidons", "points, then SB", [Division(None, rows)])

    for script, (first, second) in NAMES.items():
        assert picture(first) != picture(second), script
