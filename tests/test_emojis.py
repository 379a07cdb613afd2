"""App emojis: each game's sides drawn as its pieces, uploaded once at start-up, shown in /games and the board posts'
texts; the text board and the alt texts stay words."""

from __future__ import annotations

import base64
import io
import logging
import re
from dataclasses import replace
from types import SimpleNamespace

import discord
import pytest
from PIL import Image

from bot.games.declaration import DeclarationError
from bot.games.registry import REGISTERED, declaration_of, get_game
from bot.presenters.emojis import (EMOJI_SIZE, MAX_APP_EMOJIS, MAX_EMOJI_BYTES, emoji_png, upload_missing,
                                   wanted_emojis)
from bot.settings import Settings, SettingsError
from bot_helpers import EPAMINONDAS_LIGHT_WINS, board_posts, open_match, play_moves, start_match, text_of
from conftest import GUILD_ID

EMOJI_UPLOAD = re.compile(r".*/applications/\d+/emojis$")


@pytest.fixture
def settings(database):
    """The bot of these tests shows its app emojis (the other tests' bots read their texts in words)."""
    return Settings(token=None, database=database, dev_guild=GUILD_ID, log_level="INFO", app_emojis=True)


def uploads(world) -> list:
    return [r for r in world.env.backend.http_requests if r.method == "POST" and EMOJI_UPLOAD.fullmatch(r.path)]


def mention(world, name: str) -> str:
    found = [e for e in world.env.backend.application_emojis.values() if e.name == name]
    assert len(found) == 1, name
    return f"<:{name}:{found[0].id}>"


def test_every_side_of_every_game_has_an_emoji_of_its_pieces():
    wanted = wanted_emojis()
    for declaration in REGISTERED:
        game = get_game(declaration.key)
        for players in range(game.info.min_players, game.info.max_players + 1):
            sides = game.view(game.new_state(players, 0, None), None)["seat_names"]
            assert {declaration.emoji_name(side) for side in sides} <= set(wanted), (declaration.key, players)
    assert "sg_myrmidons_south" in wanted and "sg_mycenae_h8" in wanted and "sg_myriath_green" in wanted
    assert all(re.fullmatch(r"sg_[a-z]+_[a-z0-9_]+", name) and len(name) <= 32 for name in wanted)


def test_mycenaes_pieces_have_emojis_of_their_kinds_within_discords_limit():
    wanted = wanted_emojis()
    for corner in ("a1", "a8", "h8", "h1"):  # each army's other pieces; its king is its side's emoji
        assert {f"sg_mycenae_{corner}_{kind}" for kind in ("r", "b", "n", "p", "horse")} <= set(wanted)
        assert f"sg_mycenae_{corner}_k" not in wanted
    assert len(wanted) <= MAX_APP_EMOJIS
    moved = declaration_of("mycenae").moved_piece
    assert moved([{"type": "move", "corner": "h8", "piece": "N", "mycenaean": True}]) == "h8_horse"
    assert moved([{"type": "capture", "piece": "R"}, {"type": "move", "corner": "a1", "piece": "R"}]) == "a1_r"
    assert moved([{"type": "move", "corner": "a1", "piece": "K"}]) is None  # the side's own emoji
    assert moved([{"type": "unload", "corner": "a1"}]) is None


def test_piece_emojis_need_a_way_to_name_the_moved_one():
    declaration = declaration_of("mycenae")
    with pytest.raises(DeclarationError, match="moved_piece"):
        replace(declaration, moved_piece=None).check()
    with pytest.raises(DeclarationError, match="named as a side's"):
        replace(declaration, piece_emojis={"a1": declaration.side_emojis["a1"]}).check()


def test_each_emoji_is_a_small_square_png():
    for name, sprite in wanted_emojis().items():
        data = emoji_png(sprite)
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG" and image.size == (EMOJI_SIZE, EMOJI_SIZE) == (128, 128), name
        assert len(data) <= MAX_EMOJI_BYTES, name
        alpha = image.convert("RGBA").getchannel("A")
        assert alpha.getextrema() == (0, 255), name  # a piece on a transparent ground, not an empty square


def test_a_game_naming_an_emoji_discord_refuses_is_not_registered():
    declaration = declaration_of("epaminondas")
    bad = replace(declaration, side_emojis={"Light and shade": declaration.side_emojis["Light"]})
    with pytest.raises(DeclarationError, match="sg_epaminondas_light and shade"):
        bad.check()


def test_the_setting_turns_them_off():
    assert Settings.load({}, dotenv=None).app_emojis
    assert not Settings.load({"STRATEGOS_APP_EMOJIS": "off"}, dotenv=None).app_emojis
    with pytest.raises(SettingsError, match="STRATEGOS_APP_EMOJIS must be on or off"):
        Settings.load({"STRATEGOS_APP_EMOJIS": "maybe"}, dotenv=None)


async def test_the_first_start_uploads_every_emoji_and_the_next_none(world):
    sent = uploads(world)
    assert sorted(r.json["name"] for r in sent) == sorted(wanted_emojis())  # one call each
    header, data = sent[0].json["image"].split(",", 1)
    assert header == "data:image/png;base64"
    assert Image.open(io.BytesIO(base64.b64decode(data))).size == (128, 128)

    await world.restart()
    assert len(uploads(world)) == len(sent)  # all there: nothing uploaded again
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    assert f"**alice** ({mention(world, 'sg_epaminondas_light')} Light) to move" in text_of(board_posts(thread)[-1])


async def test_board_posts_and_games_show_the_sides_emojis_and_the_text_board_words(world):
    light, dark = mention(world, "sg_epaminondas_light"), mention(world, "sg_epaminondas_dark")
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS[:1], [world.alice])
    board = board_posts(thread)[-1]
    assert f"**alice** ({light} Light) played `{EPAMINONDAS_LIGHT_WINS[0]}`" in text_of(board)
    assert f"**bob** ({dark} Dark) to move." in text_of(board)
    assert "<:" not in board.attachments[0].description  # the alt text: words

    _, m2 = await open_match(world, "mycenae", [world.bob, world.alice])
    listed = (await world.alice.slash(world.channel, "games")).response.content.splitlines()
    assert any(line.startswith(f"• {light} #{match_id} Epaminondas vs bob") for line in listed)
    assert any(line.startswith(f"• {mention(world, 'sg_mycenae_h8')} #{m2} Mycenae vs bob") for line in listed)

    described = await world.bob.click(board, label="Describe")
    typed = await world.alice.slash(thread, "board", match=match_id, text=True)
    for text in (described.response.content, typed.response.content):
        assert "(Dark)" in text and "<:" not in text and "sg_" not in text

    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS[1:], [world.bob, world.alice])
    assert f"🏆 **alice** ({light} Light) wins" in text_of(board_posts(thread)[-1])


async def test_the_last_moves_line_shows_the_piece_moved_and_the_text_board_words(world):
    thread, match_id = await open_match(world, "mycenae", [world.alice, world.bob])
    service, players = world.bot.matches, [world.alice, world.bob]
    while True:  # the armies' secret cargo first, if they load any
        match = await service.get_match(match_id)
        game, state = service.game_of(match), service.state_of(match)
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        if not moves[0].startswith("cargo"):
            break
        await play_moves(world, thread, match_id, [moves[0]], [players[seat]])
    assert seat == 0 and "b2-a4" in moves  # alice's a1 army: its Mycenaean knight from b2
    await play_moves(world, thread, match_id, ["b2-a4"], [world.alice])
    board = board_posts(thread)[-1]
    horse, king = mention(world, "sg_mycenae_a1_horse"), mention(world, "sg_mycenae_h8")
    assert f"**alice** ({horse} a1) played `b2-a4`" in text_of(board)
    assert f"**bob** ({king} h8) to move." in text_of(board)  # a side is its king
    assert "<:" not in board.attachments[0].description
    typed = await world.alice.slash(thread, "board", match=match_id, text=True)
    assert "<:" not in typed.response.content and "sg_" not in typed.response.content


async def test_a_failed_upload_leaves_its_side_in_words_and_the_start_goes_on(world, caplog):
    world.env.backend.application_emojis.clear()  # a new application: every emoji missing
    world.env.inject_error("POST", "/applications/*/emojis", status=400, message="Invalid Form Body")
    before = len(uploads(world))
    with caplog.at_level(logging.WARNING, logger="bot.presenters.emojis"):
        await world.restart()
    refused = uploads(world)[before]
    assert len(uploads(world)) - before == len(wanted_emojis())  # the others are still uploaded, once each
    warnings = [r for r in caplog.records if r.name == "bot.presenters.emojis"]
    assert len(warnings) == 1 and refused.json["name"] in warnings[0].getMessage()

    thread, match_id = await open_match(world, "myrmidons", [world.alice, world.bob])
    words = {"sg_myrmidons_south": "**alice** (South)", "sg_myrmidons_north": "**bob** (North)"}
    shown = text_of(board_posts(thread)[-1])
    for name, label in words.items():
        if name == refused.json["name"]:
            assert label in shown
        else:
            assert f"({mention(world, name)} " in shown


async def test_without_the_emojis_list_every_side_is_in_words(world):
    world.env.inject_error("GET", "/applications/*/emojis")
    before = len(uploads(world))
    await world.restart()
    assert len(uploads(world)) == before  # nothing uploaded blindly
    thread, _ = await start_match(world, "epaminondas", world.alice, world.bob)
    assert "**alice** (Light) to move" in text_of(board_posts(thread)[-1])


class Emoji(str):
    """An emoji as discord.py gives it: its name, and its mention as its text."""

    @property
    def name(self) -> str:
        return self.split(":")[1]


class SiblingFirst:
    """An application whose emojis another process starting at the same time uploads just before this one."""

    def __init__(self):
        self.emojis: dict[str, str] = {}
        self.creates = 0

    async def fetch_application_emojis(self):
        return [Emoji(mention) for mention in self.emojis.values()]

    async def create_application_emoji(self, *, name: str, image: bytes):
        self.creates += 1
        self.emojis[name] = f"<:{name}:{len(self.emojis) + 1}>"  # the sibling's upload, then ours is refused
        raise discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"), "name already taken")


async def test_an_emoji_a_sibling_process_uploaded_first_is_used_without_a_warning(caplog):
    app = SiblingFirst()
    with caplog.at_level(logging.WARNING, logger="bot.presenters.emojis"):
        found = await upload_missing(app)
    assert app.creates == len(wanted_emojis()) and not caplog.records
    assert found.mentions == app.emojis
