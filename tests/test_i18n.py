"""The languages: every text in every catalogue with the same placeholders, every slash command translated within
Discord's rules, English for anything missing, and a match played by a Spanish and a German member."""

from __future__ import annotations

import ast
import inspect
import json
import pickle
import random
import re
from dataclasses import replace
from pathlib import Path

import discord
import pytest
import simcord.interactions
from babel.messages.pofile import read_po

from bot import extract_texts as extract
from bot import i18n
from bot.cogs.rules import guide_text
from bot.cogs.translator import CatalogueTranslator
import bot.engine
import bot.games
from bot.games import IllegalMoveError, Outcome, Text, registry
from bot.games.registry import GAMES
from bot.domain import League
from bot.matches import errors
from bot.matches.leagues import league_title
from bot.i18n import LANGUAGES, catalogue_path, language_of, placeholders, t
from bot.presenters.describe import MAX_ALT_TEXT, MAX_MESSAGE, alt_text, text_board
from bot.workers import picture_words
from bot.presenters.text import EMBED_DESCRIPTION_LIMIT
from bot_helpers import text_of, buttons, board_posts, move, start_match, stored
from renderers.common import in_language

DISCORD_LOCALES = {"es": discord.Locale.spain_spanish, "fr": discord.Locale.french, "de": discord.Locale.german,
                   "pt_BR": discord.Locale.brazil_portuguese}
NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord: letters, digits, - and _, 1–32 characters, lowercase


def template_keys() -> set[tuple[str | None, str]]:
    with extract.TEMPLATE.open("rb") as file:
        return extract.keys_of(read_po(file))


def catalogue(lang: str):
    with catalogue_path(lang).open("rb") as file:
        return read_po(file)


def test_the_template_lists_every_text_the_code_and_the_commands_use():
    assert extract.main(["--check"]) == 0, "run python -m bot.extract_texts"
    keys = template_keys()
    assert (None, "{players} to move.") in keys and ("command_name", "play") in keys
    assert ("choice_name", "Epaminondas") not in keys  # the games' names are names


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_is_translated_with_the_same_placeholders(lang):
    translations = catalogue(lang)
    translated = {extract.key_of(m): m for m in translations if m.id}
    for key in template_keys():
        message = translated.get(key)
        assert message is not None and message.string and not message.fuzzy, f"{lang} lacks {key}"
        english = key[1] if isinstance(key[1], tuple) else (key[1],)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if len(english) == 2:  # a plural entry: every form its language has, each with the plural's placeholders
            assert placeholders(english[0]) == placeholders(english[1]), key
            assert len(forms) == translations.num_plurals and all(forms), f"{lang}: {key} → {forms!r}"
        for form in forms:
            assert placeholders(form) == placeholders(english[0]), f"{lang}: {key} → {form!r}"
            if english[0].startswith(("✅", "🏆", "🤝", "⏳", "💤", "↩️")):
                assert form.startswith(english[0][0]), f"{lang}: {key} must keep its emoji first"
    assert set(translated) == template_keys(), f"{lang} has texts the code no longer uses"


def test_the_template_holds_a_plural_entry_for_every_text_that_pluralises(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('Text("{count} tile placed", plural="{count} tiles placed", count=n)\n'
                      'tn(lang, "{count} ship", "{count} ships", n, context="x")\n'
                      'say("{count} left", plural="{count} left", count=n)\n'
                      't(lang, "{count} kings", count=n)\n')
    assert extract.code_texts((tmp_path,)) == {
        (None, ("{count} tile placed", "{count} tiles placed")): f"{tmp_path.name}/sample.py:1",
        ("x", ("{count} ship", "{count} ships")): f"{tmp_path.name}/sample.py:2",
        (None, ("{count} left", "{count} left")): f"{tmp_path.name}/sample.py:3",
        (None, "{count} kings"): f"{tmp_path.name}/sample.py:4"}
    keys = template_keys()
    assert (None, ("{count} tile placed, {left} in supply", "{count} tiles placed, {left} in supply")) in keys
    assert (None, ("{pieces} · {count} crossed", "{pieces} · {count} crossed")) in keys


@pytest.mark.parametrize(("lang", "one", "none", "many"), [
    ("en", "1 tile placed, 3 in supply", "0 tiles placed, 3 in supply", "2 tiles placed, 3 in supply"),
    ("fr", "1 tuile posée, 3 en réserve", "0 tuile posée, 3 en réserve", "2 tuiles posées, 3 en réserve"),
    ("es", "1 ficha colocada, 3 en reserva", "0 fichas colocadas, 3 en reserva", "2 fichas colocadas, 3 en reserva"),
    ("pt_BR", "1 peça colocada, 3 em estoque", "0 peça colocada, 3 em estoque", "2 peças colocadas, 3 em estoque"),
])
def test_a_count_takes_its_languages_plural_form(lang, one, none, many):
    def placed(n: int) -> str:
        return i18n.tn(lang, "{count} tile placed, {left} in supply", "{count} tiles placed, {left} in supply", n,
                       left=3)
    assert [placed(1), placed(0), placed(2)] == [one, none, many]
    text = Text("{count} tile placed, {left} in supply", plural="{count} tiles placed, {left} in supply", count=0,
                left=3)
    assert t(lang, text) == none and str(text) == "0 tiles placed, 3 in supply"


def test_a_picture_says_a_count_in_its_languages_form():
    from renderers.common import say
    assert in_language(picture_words("fr"), say, "{pieces} · {count} crossed", plural="{pieces} · {count} crossed",
                       pieces="28 pièces", count=1) == "28 pièces · 1 passée"
    assert say("{count} piece", plural="{count} pieces", count=1) == "1 piece"
    assert say("{count} piece", plural="{count} pieces", count=0) == "0 pieces"
    assert in_language(picture_words("de"), say, "{count} piece", plural="{count} pieces", count=3) == "3 Steine"


def test_a_text_with_a_plural_keeps_it_through_json_and_pickle_and_an_old_record_still_translates():
    text = Text("{side} eliminated {count} enemy piece", plural="{side} eliminated {count} enemy pieces",
                side=Text("North"), count=1)
    again = Text.from_json(json.loads(json.dumps(text.to_json())))
    copied = pickle.loads(pickle.dumps(text))
    for other in (again, copied):
        assert other == text == "North eliminated 1 enemy piece" and other.plural == text.plural
        assert t("fr", other) == "Nord a éliminé 1 pièce ennemie"
    # stored before the plural existed: its template is the entry's English plural, and it has no "plural" key
    old = Text.from_json({"text": "{side} eliminated {count} enemy pieces",
                          "params": {"side": {"text": "North", "params": {}}, "count": 4}})
    assert str(old) == "North eliminated 4 enemy pieces" and old.plural is None
    assert t("fr", old) == "Nord a éliminé 4 pièces ennemies"
    assert t("de", old) == "Nord hat 4 gegnerische Figuren ausgeschaltet"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_board_caption_keeps_the_mark_a_repair_finds_posts_by(lang):
    caption = t(lang, "**{game}** · match #{match} · move {ply}", game="Mycenae", match=12, ply=3)
    assert "#12 ·" in caption


async def test_every_command_is_translated_within_discords_rules(world):
    tree = world.bot.tree
    translator = CatalogueTranslator()
    commands = [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]
    for locale in DISCORD_LOCALES.values():
        code = locale.value
        names = [c["name_localizations"][code] for c in commands]
        assert len(names) == len(set(names)), f"{code}: two commands share a name"
        for command in commands:
            for name in [command["name_localizations"][code]]:
                assert NAME.match(name) and name == name.lower(), (code, name)
            assert 1 <= len(command["description_localizations"][code]) <= 100, (code, command["name"])
            options = command.get("options", [])
            option_names = [o["name_localizations"][code] for o in options]
            assert len(option_names) == len(set(option_names)), (code, command["name"], option_names)
            for option in options:
                name = option["name_localizations"][code]
                assert NAME.match(name) and name == name.lower(), (code, name)
                assert 1 <= len(option["description_localizations"][code]) <= 100, (code, name)
                for choice in option.get("choices", []):
                    shown = choice.get("name_localizations", {}).get(code, choice["name"])
                    assert 1 <= len(shown) <= 100, (code, shown)
    play = next(c for c in commands if c["name"] == "play")
    assert play["name_localizations"]["es-ES"] == "jugar" and play["name_localizations"]["de"] == "spielen"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_button_labels_fit(lang):
    for label in ("Move", "My view", "Describe", "Resign", "Offer draw", "Back", "◀ More", "More ▶", "Confirm",
                  "Cancel"):
        assert 1 <= len(t(lang, label)) <= 80


@pytest.mark.parametrize("lang", LANGUAGES)
def test_descriptions_fit_in_every_language(lang):
    names = ["Ω" * 32, "x" * 32, "y" * 32, "z" * 32]
    for key, game in GAMES.items():
        players = game.info.max_players
        state, rng = game.new_state(players, 2, None), random.Random(2)
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
            view = game.view(state, 0)
            assert len(alt_text(game.info.title, view, names[:players], match_id=99999, lang=lang)) <= MAX_ALT_TEXT
        assert all(len(m) <= MAX_MESSAGE for m in text_board(game.info.title, view, names[:players], lang=lang))


def is_sentence(node: ast.expr) -> bool:
    """An f-string, a string literal, or one glued to something with +."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_sentence(node.left) or is_sentence(node.right)
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def refusals_given_as_finished_sentences(path: Path) -> list[str]:
    """Where `path` raises a UserError (or a subclass) with an f-string or a plain string literal: a finished
    English sentence the member's language can't replace. An N_ text (with params) or a name is fine."""
    kinds = {name for name, value in vars(errors).items()
             if inspect.isclass(value) and issubclass(value, errors.UserError)}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name in kinds and is_sentence(node.args[0]):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node.args[0])[:60]}")
    return found


def test_every_refusal_of_the_match_layer_is_a_translatable_text():
    matches = Path(errors.__file__).parent
    found = [where for path in sorted(matches.glob("*.py")) for where in refusals_given_as_finished_sentences(path)]
    assert found == []


def test_the_refusal_scan_sees_f_strings_and_plain_sentences(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('raise errors.UserError(f"Match #{match_id} is over.")\n'
                      'raise UserError("Nope.")\n'
                      'raise errors.NotYourChallenge("Not yours.")\n'
                      'raise errors.UserError(N_("Match #{match} is over."), match=1)\n'
                      'raise errors.UserError(refusal + " Nothing was saved.")\n'
                      'raise errors.UserError(NOT_IN_SERVER)\n'
                      'raise errors.RateLimited(hits[0] + window - now)\n')
    assert [where.split(":")[1] for where in refusals_given_as_finished_sentences(sample)] == ["1", "2", "3", "5"]


def test_a_language_we_do_not_have_gets_english():
    assert language_of(discord.Locale.japanese) == "en" and language_of("xx-YY") == "en" and language_of(None) == "en"
    assert language_of(discord.Locale.latin_american_spanish) == "es"
    assert t(language_of("ja"), "It is not your turn.") == "It is not your turn."
    assert t("es", "a text no catalogue has {x}", x=1) == "a text no catalogue has 1"


def test_a_translation_with_a_wrong_placeholder_falls_back_to_english(monkeypatch):
    i18n.load()
    broken = dict(i18n._catalogues["de"])
    broken[(None, "To move: {players}.")] = "Am Zug: {spieler}."
    monkeypatch.setitem(i18n._catalogues, "de", broken)
    assert t("de", "To move: {players}.", players="bob") == "To move: bob."


# --- through the real bot: a Spanish and a German member ---------------------------------------------------------


@pytest.fixture
def locales(monkeypatch):
    """SimCord 3.2 sends every interaction as en-US from an en-US server: give each member her client's locale
    and the server its preferred locale, as Discord does."""
    chosen: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def with_locales(backend, *, user_id, guild_id, **kwargs):
        record, payload = original(backend, user_id=user_id, guild_id=guild_id, **kwargs)
        payload["locale"] = chosen.get(user_id, "en-US")
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locales)
    return chosen


async def test_a_spanish_and_a_german_member_each_read_their_language(world, locales):
    alice, bob = world.alice, world.bob
    locales[alice.id], locales[bob.id] = "es-ES", "de"
    locales[world.carol.id] = "ja"  # a language we don't have
    thread, match_id = await start_match(world, "epaminondas", alice, bob)
    board = board_posts(thread)[-1]
    assert "**alice** (Light) to move." in text_of(board)  # the server's language: English here
    assert list(buttons(board))[:3] == ["Move", "My view", "Describe"]

    played = await move(alice, thread, match_id, "a1-d4")
    assert played.response.content == f"✅ Jugaste `a1-d4` en la partida #{match_id}."
    early = await move(alice, thread, match_id, "a2-a3")
    assert early.response.content == "No es tu turno — esperando a bob."

    mine = await bob.click(board_posts(thread)[-1], label="My view")
    assert text_of(mine.response).startswith(f"Deine Sicht auf Partie #{match_id} (Epaminondas) — du spielst **Dunkel**.")
    assert mine.response.attachments[0].description.startswith(
        f"Epaminondas, Partie #{match_id}, Zug 1: deine Sicht als bob (Dunkel). Letzter Zug: alice (Hell) spielte a1-d4")
    described = await alice.click(board_posts(thread)[-1], label="Describe")
    assert described.response.content.startswith(
        f"Epaminondas, partida #{match_id}, jugada 1: tu vista como alice (Claras).")
    assert "Le toca a: bob (Oscuras)." in described.response.content
    outsider = await world.carol.click(board_posts(thread)[-1], label="My view")
    assert outsider.response.content == "You are not playing in this match."
    suggestions = await bob.autocomplete(thread, "move", "move", "f12-f1", match=match_id)
    assert {"name": "f12-f10 (f12 nach f10)", "value": "f12-f10"} in suggestions


async def test_public_posts_follow_the_servers_language(world, locales):
    world.env.backend.get_guild(world.guild.id).preferred_locale = "es-ES"
    locales[world.bob.id] = "de"
    await world.carol.slash(world.channel, "games")  # any interaction tells the bot the server's language
    await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    challenge = world.channel.last_message
    assert text_of(challenge).startswith(f"⚔️ ¡**alice** desafía {world.bob.mention} a **Epaminondas**!")
    assert list(buttons(challenge)) == ["Aceptar", "Rechazar", "Cancelar"]
    await world.bob.click(challenge, label="Aceptar")
    assert "✅ Aceptado — la partida ha empezado." in text_of(stored(world, challenge))
    thread = world.channel.threads[-1]
    match_id = int(re.search(r"#(\d+)", thread.name).group(1))
    board = board_posts(thread)[-1]
    assert text_of(board).startswith(f"**Epaminondas** · partida #{match_id} · jugada 0\nJuega **alice** (Claras).")
    assert list(buttons(board)) == [
        "Jugar", "Mi vista", "Describir", "Abandonar", "Ofrecer tablas", "Explorar"]
    assert board.attachments[0].description.startswith(f"Tablero de Epaminondas, partida #{match_id}, jugada 0.")
    played = await move(world.alice, thread, match_id, "a1-d4")
    assert played.response.content.startswith("✅ You played")  # her own client: English
    assert "**alice** (Claras) jugó `a1-d4`" in text_of(board_posts(thread)[-1])
    mine = await world.bob.click(board_posts(thread)[-1], label="Mi vista")  # the Spanish post; he reads German
    assert text_of(mine.response).startswith("Deine Sicht")
    offered = await world.bob.click(board_posts(thread)[-1], label="Ofrecer tablas")
    assert offered.response.content == "Remis angeboten. Dein Gegner kann im Thread annehmen oder ablehnen."
    offer = thread.last_message
    assert text_of(offer).startswith("🤝 **bob** ofrece tablas.")
    await world.alice.click(offer, label="Rechazar tablas")
    assert text_of(stored(world, offer)) == "Oferta de tablas rechazada por **alice**. ¡Seguid jugando!"


# --- /rules guides ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translated_game_has_a_guide_in_every_language_that_fits_an_embed(lang):
    """A game translated at all is translated into every language; one in English only is in the report of
    `python -m bot.extract_texts` instead (tests/test_adding_a_game.py adds one)."""
    translated_games = [key for key in GAMES if registry.declaration_of(key).translations()]
    assert translated_games
    for key in translated_games:
        english, translated = guide_text(key), guide_text(key, lang)
        assert translated != english, f"{lang} has no guide for {key}"
        assert len(translated) <= EMBED_DESCRIPTION_LIMIT
        # the notation is the same in every language: every `code` of the English guide is in the translation
        for code in re.findall(r"`([^`]+)`", english):
            assert f"`{code}`" in translated, f"{lang}/{key}.md lacks `{code}`"


async def test_rules_answer_in_the_askers_language(world, locales):
    locales[world.alice.id], locales[world.carol.id] = "fr", "ko"
    french = await world.alice.slash(world.channel, "rules", game="epaminondas")
    embed = french.response.embeds[0]
    assert embed.title == "Epaminondas — comment jouer" and embed.description.startswith("Deux armées de 28")
    assert embed.footer.text == "2 joueurs · lancez une partie avec /play"
    assert french.response.attachments[0].description.startswith("Epaminondas : la position de départ.")
    korean = await world.carol.slash(world.channel, "rules", game="epaminondas")  # a language we lack: English
    assert korean.response.embeds[0].description == guide_text("epaminondas")


@pytest.mark.vacation_days(30)
async def test_clock_and_record_answers_in_the_askers_language(world, locales):
    locales[world.alice.id] = "pt-BR"
    away = await world.alice.slash(world.channel, "away", days=2)
    assert away.response.content.startswith("💤 Seus relógios estão pausados até <t:")
    back = await world.alice.slash(world.channel, "back")
    assert back.response.content.startswith("👋 Bem-vindo de volta")
    notify = await world.alice.slash(world.channel, "notify", turns="on")
    assert notify.response.content == ("Salvo. Uma DM sempre que for sua vez: **sim** · lembretes quando seu tempo "
                                       "estiver acabando: **sim**.")
    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    clock = await world.alice.slash(thread, "clock", match=match_id)
    assert clock.response.content.startswith(f"Partida #{match_id}: 3 dias por lance.\n⏳ **alice** deve jogar <t:")
    listed = await world.alice.slash(world.channel, "games")
    assert listed.response.content.startswith(f"**Suas partidas**\n• #{match_id} Archimedes contra bob — sua vez · "
                                              "seu lance vence <t:")
    suggested = await world.alice.autocomplete(thread, "move", "match", "")
    assert suggested[0]["name"] == f"#{match_id} Archimedes contra bob — sua vez"


async def test_history_and_ratings_frames_in_the_askers_language(world, locales):
    locales[world.alice.id] = "fr"
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await move(world.alice, thread, match_id, "a1-d4")
    history = await world.alice.slash(thread, "history", match=match_id)
    assert history.response.embeds[0].footer.text == "Page 1 sur 1"
    assert history.response.embeds[0].title == f"Epaminondas · partie #{match_id} — historique"
    board = await world.alice.slash(world.channel, "leaderboard", game="epaminondas")
    embed = board.response.embeds[0]
    assert embed.title == "Classement de Epaminondas" and embed.description.startswith("Personne n’a encore joué")
    profile = await world.alice.slash(world.channel, "profile")
    assert profile.response.content == "**alice** n’a pas encore de partie classée sur ce serveur."
    asked = await world.bob.click(board_posts(thread)[-1], label="Resign")
    await world.bob.click(asked.response, label="Yes, resign")
    history = await world.alice.slash(thread, "history", match=match_id)
    assert "**2.** bob (Sombres) a abandonné" in history.response.embeds[0].description  # the moves' words too


async def test_settings_in_the_managers_language(world, locales):
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    dave = world.guild.add_member(world.env.create_user("dave"), roles=[role])
    locales[dave.id] = "de"
    saved = await dave.slash(world.channel, "settings", setting="challenge_expiry", value="6 hours")
    assert saved.response.content.startswith(
        "Gespeichert. Laufende Partien behalten die Uhr, mit der sie begannen.\n**Servereinstellungen**\n"
        "• **Standard-Bedenkzeit**: 3 Tage — Zeit pro Zug")
    assert "• **Ablauf von Herausforderungen**: 6 Stunden — wie lange" in saved.response.content
    offered = await dave.autocomplete(world.channel, "settings", "value", "", setting="challenge_expiry")
    assert {"name": "6 Stunden", "value": "6 hours"} in offered


def test_catalogues_are_read_once_per_process(monkeypatch):
    """Reading the four catalogues takes ~0.2 s; every bot start (many in the tests) must not pay it again."""
    i18n.load()
    reads = []
    monkeypatch.setattr(i18n, "read_catalogue", lambda lang: reads.append(lang) or {})
    i18n.load()
    assert reads == []


async def test_a_league_answers_each_member_in_hers_and_posts_in_the_servers(world, locales):
    world.env.backend.get_guild(world.guild.id).preferred_locale = "fr"
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    olga = world.guild.add_member(world.env.create_user("olga"), roles=[role])
    locales[olga.id], locales[world.alice.id] = "de", "es-ES"
    created = await olga.slash(world.channel, "league create", name="Herbst", game="epaminondas",
                               format="round_robin")
    assert created.response.content.startswith(
        "✅ Die Anmeldung für **Herbst** ist offen (Epaminondas · jeder gegen jeden · 3 Tage pro Zug · "
        "gewertet)."), created.response.content
    post = next(m for m in world.channel.history() if text_of(m).startswith("🏆"))
    assert "Organisateur : <@" in text_of(post) and "Les inscriptions se terminent <t:" in text_of(post)
    assert list(buttons(post)) == ["Rejoindre", "Quitter"]
    assert any(thread.name == "Ligue : Herbst" for thread in world.channel.threads)

    joined = await world.alice.click(post, label="Rejoindre")
    assert joined.response.content.startswith("✅ Estás en **Herbst**. Empieza <t:")
    again = await world.alice.click(post, label="Rejoindre")
    assert again.response.content == "Ya estás en **Herbst**."  # the service's refusal, in her language
    early = await olga.slash(world.channel, "league start", league="Herbst")
    assert early.response.content == "**Herbst** braucht mindestens 2 Spieler zum Start; angemeldet sind 1."
    english = await world.bob.click(post, label="Rejoindre")  # a member whose language we lack reads English
    assert english.response.content.startswith("✅ You are in **Herbst**. It starts <t:")
    assert "Joueurs (2) : alice, bob" in text_of(stored(world, post))

    cancelled = await olga.slash(world.channel, "league cancel", league="Herbst")
    assert cancelled.response.content == "🚫 **Herbst** ist abgesagt."
    thread = next(thread for thread in world.channel.threads if thread.name == "Ligue : Herbst")
    assert text_of(thread.last_message).startswith("🚫 **Herbst** a été annulée : annulée par son organisateur.")
    assert "🚫 Annulée." in text_of(stored(world, post))


async def test_refusals_of_the_match_layer_answer_in_the_members_language(world, locales):
    locales[world.bob.id] = "de"
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    running = await world.bob.slash(world.channel, "replay", match=match_id)
    assert running.ephemeral and running.response.content == (
        f"Partie #{match_id} läuft noch, daher gibt es noch keine Wiederholung: der Thread bekommt eine, wenn sie "
        "endet. `/history` zeigt die bisherigen Züge.")
    english = await world.alice.slash(world.channel, "replay", match=match_id)
    assert english.response.content.startswith(f"Match #{match_id} is still being played, so it has no replay yet")


# --- the engines' own texts and the pictures' words --------------------------------------------------------------


def engine_refusals_given_as_finished_sentences(path: Path) -> list[str]:
    """Where `path` raises IllegalMoveError / MoveSyntaxError with an f-string or a plain string literal: a
    finished English sentence no language can replace (a `Text(...)` or a name holding one is fine)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name in ("IllegalMoveError", "MoveSyntaxError") and is_sentence(node.args[0]):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node.args[0])[:60]}")
    return found


def test_every_refusal_of_the_engines_is_a_translatable_text():
    roots = (Path(bot.engine.__file__).parent, Path(bot.games.__file__).parent)  # the contract and every game
    paths = sorted(path for root in roots for path in root.rglob("*.py") if path.name not in ("bench.py", "__main__.py"))
    assert len(paths) > 20
    found = [where for path in paths for where in engine_refusals_given_as_finished_sentences(path)]
    assert found == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_engines_refusal_narration_and_end_reason_read_in_each_language(lang):
    game = GAMES["epaminondas"]
    state = game.new_state(2, 0, None)
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(state, 0, "a1xa4")
    text = refused.value.args[0]
    assert str(text) == "a4 is empty, nothing to capture: write a1-a4"  # English where nothing translates it
    translated = t(lang, text)
    assert translated != str(text) and "a1-a4" in translated  # notation stays as it is
    over, events = game.eliminate(state, 1, Text("{player} resigned", player="bob"))
    outcome = Outcome.from_json(json.loads(json.dumps(game.outcome(over).to_json())))  # as the database keeps it
    assert str(outcome.reason) == "bob resigned" and "bob" in t(lang, outcome.reason) != "bob resigned"
    narrated = game.describe(events[-1])
    assert "bob" in t(lang, narrated) and t(lang, narrated) != str(narrated)


def test_a_text_keeps_its_template_through_json_and_pickle():
    text = Text("{side} has no legal move", side=Text("Dark"))
    again = Text.from_json(json.loads(json.dumps(text.to_json())))
    copied = pickle.loads(pickle.dumps(text))
    for other in (again, copied):
        assert other == text == "Dark has no legal move"
        assert t("de", other) == t("de", text) == "Dunkel hat keinen legalen Zug"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pictures_draw_their_words_in_the_language_given(lang):
    game = GAMES["archimedes"]
    view = game.view(game.new_state(2, 0, None), 0)
    english = registry.render(view, player_names=["alice", "bob"])
    translated = in_language(picture_words(lang), registry.render, view, player_names=["alice", "bob"])
    assert translated != english
    assert registry.render(view, player_names=["alice", "bob"]) == english  # the cached layers kept their English


async def test_engine_refusals_follow_each_member_and_pictures_the_server(world, locales):
    """A Spanish and a German member in a server whose language is German: each reads the engine's refusal of her
    own illegal move in her language; the board posts, their pictures and the end reason are in German."""
    alice, bob = world.alice, world.bob
    world.env.backend.get_guild(world.guild.id).preferred_locale = "de"
    locales[alice.id], locales[bob.id] = "es-ES", "de"
    await world.carol.slash(world.channel, "games")  # any interaction tells the bot the server's language
    await alice.slash(world.channel, "play", game="epaminondas", opponent=bob)
    await bob.click(world.channel.last_message, label="Annehmen")
    thread = world.channel.threads[-1]
    match_id = int(re.search(r"#(\d+)", thread.name).group(1))

    refused = await move(alice, thread, match_id, "a1xa4")
    assert refused.ephemeral and "a4 está vacía, no hay nada que capturar: escribe a1-a4" in refused.response.content
    await move(alice, thread, match_id, "a1-d4")
    refused = await move(bob, thread, match_id, "a1-a2")
    assert refused.ephemeral and "a1 ist leer" in refused.response.content

    service = world.bot.matches
    match = await service.get_match(match_id)
    board = board_posts(thread)[-1]
    assert "**alice** (Hell) spielte `a1-d4`" in text_of(board)
    german = in_language(picture_words("de"), registry.render, service.view(match, None), player_names=match.names)
    posted = await board.attachments[0].read()
    assert posted == german != registry.render(service.view(match, None), player_names=match.names)

    asked = await bob.click(board, label="Aufgeben")
    await bob.click(asked.response, label="Ja, aufgeben")
    final = board_posts(thread)[-1]
    assert "🏆" in text_of(final) and "bob hat aufgegeben" in text_of(final), text_of(final)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_standings_pictures_legend_and_headers_fit_in_every_language(lang):
    from bot.presenters.leagues import LEGEND
    from renderers import league
    from renderers.common import font, text_width

    assert text_width(t(lang, LEGEND), font(20)) <= league.WIDTH - 2 * league.PAD  # drawn whole, never cut
    headers = [t(lang, header) for header, _, _ in league.COLUMNS]
    assert headers[1:] != [header for header, _, _ in league.COLUMNS[1:]]  # translated, not left in English
    assert all(text_width(h, font(20)) <= 48 for h in headers[2:6])  # the narrow number columns' headers
    assert text_width(headers[6], font(20)) <= 90  # the rating, right of the wins


@pytest.mark.parametrize("lang, expected", [("en-US", "Monthly (season 2)"), ("de", "Monthly (Saison 2)"),
                                            ("es-ES", "Monthly (temporada 2)"), ("fr", "Monthly (saison 2)")])
def test_a_leagues_season_reads_in_each_language(lang, expected):
    league = League(id=1, guild_id=1, channel_id=1, name="Monthly", season=2, previous_id=1, game="epaminondas",
                    format="swiss", rounds=3, total_rounds=3, table_size=2, clock_seconds=None, rated=True,
                    division_size=10, signup_hours=48.0, repeat="monthly", organiser_id=1, status="running",
                    signup_ends_at=0.0, created_at=0.0, started_at=0.0, finished_at=None, round=1,
                    results_shown=0, message_id=None, thread_id=None)
    assert t(language_of(lang), league_title(league)) == expected
    assert league_title(replace(league, season=1)) == "Monthly"


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("es", Text("{side} has more pieces across ({mine} to {theirs})", side=Text("Dark"), mine=3, theirs=1),
     "Las Oscuras tienen más piezas al otro lado (3 a 1)"),
    ("fr", Text("{side} plays {move}", side=Text("Light"), move="a1-a3"), "Les Clairs jouent a1-a3"),
    ("pt_BR", Text("{side} has no pieces left", side=Text("Dark")), "As Escuras não têm mais peças"),
    ("es", Text("{side} has no legal move", side=Text("Dark")), "No hay ninguna jugada legal para Oscuras"),
    ("de", Text("Choosing cargo: {players}", players="alice"), "Ladung wird gewählt: alice"),
    ("de", Text("{side}'s {piece} (sword {sword}, shield {shield}, move {move})", side=Text("South"),
                piece="Shieldbearer", sword=2, shield=5, move=2),
     "Shieldbearer von Süd (Schwert 2, Schild 5, Bewegung 2)"),
])
def test_sides_named_in_the_plural_take_a_plural_verb_and_other_words_read_right(lang, text, expected):
    assert t(lang, text) == expected


def test_a_tables_text_marked_with_a_plural_takes_its_form_from_the_count_it_is_shown_with():
    assert t("fr", "only {count} signed up when sign-up ended", count=1) == \
        "seulement 1 inscrit à la fin des inscriptions"
    assert t("fr", "only {count} signed up when sign-up ended", count=3) == \
        "seulement 3 inscrits à la fin des inscriptions"
    assert t("en", "only {count} signed up when sign-up ended", count=1) == "only 1 signed up when sign-up ended"
