"""A game is one package and one registration: tic-tac-toe with a hidden draw for the first move, a game of the tests
alone (tests/tictactoe), is registered here and played through the match service and through the real bot, with
nothing else changed. A declaration missing part of the engine contract fails at registration."""

from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.engine.base import Game
from bot.games import engines, registry
from bot.games.declaration import DeclarationError
from bot.games.engines import PACKAGES
from bot.matches import catalogue, errors
from bot.matches.events import MatchEnded, MovePlayed
from bot_helpers import text_of, board_posts, move, start_match, stored
from tictactoe.declaration import DECLARATION as TICTACTOE
from tictactoe.game import TicTacToeGame

# The hider hides in the left hand, the guesser guesses right: wrong, so the hider (X) marks first and wins down
# the a-file.
OPENING = ["hide left", "guess right"]
MARKS = ["a1", "b1", "a2", "b2", "a3"]  # hider, guesser, hider, guesser, hider


@pytest.fixture
def tictactoe():
    """Tic-tac-toe registered for one test, and taken away again so no other test sees it."""
    registry.register(TICTACTOE)
    yield TICTACTOE
    registry.unregister(TICTACTOE.key)
    assert "tictactoe" not in registry.GAMES


@pytest.fixture
async def world(tictactoe, world):
    """The bot, started with tic-tac-toe registered (its commands offer the games registered at start)."""
    yield world


# `service`: tests/conftest.py (on SQLite and on PostgreSQL), its clock one second later at each reading, seed 7.


# --- registration -------------------------------------------------------------------------------------------------

def test_the_built_in_games_are_registered_in_the_order_play_offers_them():
    assert [d.key for d in registry.REGISTERED] == list(registry.GAMES) == [p.rsplit(".", 1)[1] for p in PACKAGES]
    assert [info.key for info in catalogue.offered()] == list(registry.GAMES)
    assert all(d.engine is engines.engine_of(d.key) for d in registry.REGISTERED)  # one engine part per game


def test_a_game_is_known_only_while_registered(tictactoe):
    assert registry.get_game("tictactoe") is tictactoe.game
    assert registry.revealing_events("tictactoe") == {"coin"}
    assert registry.confirmation_for("tictactoe", "guess left").startswith("Guess this hand?")
    assert registry.confirmation_for("tictactoe", "b2") is None
    with pytest.raises(DeclarationError, match="registered already"):
        registry.register(tictactoe)


def engine_without(method: str) -> Game:
    """A tic-tac-toe engine that left one method of the contract at its default, which only raises."""
    return type(f"TicTacToeWithout_{method}", (TicTacToeGame,), {method: getattr(Game, method)})()


@pytest.mark.parametrize("method", ["eliminate", "sample_state"])
def test_an_engine_missing_a_method_of_the_contract_fails_at_registration(method):
    careless = replace(TICTACTOE, engine=replace(TICTACTOE.engine, game=engine_without(method)))
    with pytest.raises(DeclarationError, match=f"tictactoe: the engine .* does not implement {method}"):
        registry.register(careless)
    assert "tictactoe" not in registry.GAMES


@pytest.mark.parametrize("change, complaint", [
    ({"renderer": sys.modules[__name__]}, "the renderer has no render"),
    ({"policy": object}, "the policy must be a bot.ai.policy.Policy class"),
    ({"guides": Path(__file__).parent}, "no guide at"),
    ({"engine": replace(TICTACTOE.engine, game="tictactoe")}, "is not an engine"),
    ({"engine": TICTACTOE.game}, "is not an engine part"),
    ({"describer": None}, "the describer must be a bot.games.describing.Describer"),
    ({"side_names": ("Hider",)}, "side_names must be a frozenset"),
    ({"rules_page": None}, "rules_page must name its rules page"),
    ({"benchmark_positions": ((3, None),)}, "a benchmark position for 3 players"),
])
def test_a_declaration_missing_a_part_fails_at_registration(change, complaint):
    with pytest.raises(DeclarationError, match=complaint):
        registry.register(replace(TICTACTOE, **change))
    assert "tictactoe" not in registry.GAMES


CARELESS = """from bot.games.declaration import GameDeclaration
from tictactoe.declaration import DECLARATION as T

DECLARATION = GameDeclaration(engine=T.engine, renderer=T.renderer, policy=T.policy, guides=T.guides,
                              side_names=frozenset(), rules_page="careless.md")
"""


@pytest.mark.parametrize("files, module, complaint", [
    ({"declaration.py": CARELESS}, "engine", "careless has no engine.py"),
    ({"engine.py": ""}, "engine", "careless.engine declares no ENGINE"),
    ({"declaration.py": CARELESS}, "declaration",
     "careless.declaration: GameDeclaration.__init__() missing 1 required keyword-only argument: 'describer'"),
])
def test_a_package_that_forgets_a_part_stops_the_start_with_one_line(tmp_path, monkeypatch, files, module, complaint):
    package = tmp_path / "careless"
    package.mkdir()
    for name, text in {"__init__.py": "", **files}.items():
        (package / name).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [name for name in sys.modules if name.split(".")[0] == "careless"]:  # another case's package
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(DeclarationError) as refused:
        engines.declared("careless", module, module.upper())
    assert str(refused.value) == complaint


def test_revealing_events_need_hidden_information():
    perfect = type("OpenTicTacToe", (TicTacToeGame,), {"info": replace(TicTacToeGame.info, hidden_information=False)})
    with pytest.raises(DeclarationError, match="revealing events declared for a game without hidden information"):
        registry.register(replace(TICTACTOE, engine=replace(TICTACTOE.engine, game=perfect())))


def loaded_in_a_fresh_interpreter(imports: str) -> list[str]:
    """The modules of pictures and of the computer a fresh interpreter has loaded after `import <imports>`."""
    script = (f"import sys, {imports}\n"
              "print([m for m in sys.modules if m.split('.')[0] in ('PIL', 'renderers') or m.startswith('bot.ai')\n"
              "       or m.endswith(('.renderer', '.policy', '.declaration', '.describe', 'registry'))])")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout
    return eval(out)


def test_the_engines_import_without_pictures_or_the_computer():
    """Each game's engine and engine part are pure: importing them loads neither Pillow nor the computer's code."""
    engines_ = ", ".join(f"{package}.game, {package}.engine" for package in PACKAGES)
    assert loaded_in_a_fresh_interpreter(engines_) == []


def every_module(package: str) -> str:
    folder = Path(__file__).resolve().parents[1].joinpath(*package.split("."))
    return ", ".join(".".join((package, *path.relative_to(folder).with_suffix("").parts)).removesuffix(".__init__")
                     for path in sorted(folder.rglob("*.py")))


@pytest.mark.parametrize("layer", ["bot.storage", "bot.matches", "bot.ratings", "bot.games.engines"])
def test_the_lower_layers_reach_the_games_through_the_engines_alone(layer):
    """The store, the match layer and the ratings, every module of them, know the games by their engines'
    catalogue: no picture, no renderer, no computer, no registry (bot/app.py hands down the computer's choose_move
    and its worker)."""
    assert loaded_in_a_fresh_interpreter(layer) == []
    assert loaded_in_a_fresh_interpreter(every_module(layer) if layer != "bot.games.engines" else layer) == []


def test_the_scan_of_a_fresh_interpreter_sees_pictures_and_the_computer():
    loaded = loaded_in_a_fresh_interpreter("bot.games.registry")
    assert {"PIL", "renderers", "bot.ai", "bot.games.registry", "bot.games.epaminondas.renderer"} <= set(loaded)


# --- through the match service ------------------------------------------------------------------------------------

async def test_a_registered_game_plays_through_the_service(tictactoe, service):
    seen = []

    async def listen(event):
        seen.append(event)
        return True

    service.bus.subscribe(listen)
    guesser, hider = 1, 2
    challenge = await service.create_challenge(guild_id=9, channel_id=8, challenger_id=guesser, challenger_name="g",
                                               game_key="tictactoe", invited=[hider])
    challenge = await service.accept_challenge(challenge.id, hider, "h")
    match = await service.get_match(challenge.match_id)
    assert service.to_act(match) == [1] and service.game_of(match).in_secret_setup(service.state_of(match))

    await service.submit_move(match.id, hider, "hide left")
    match = await service.get_match(match.id)
    public, guessers = service.view(match, None), service.view(match, 0)
    assert public["hand"] is None and guessers["hand"] is None and service.view(match, 1)["hand"] == "left"
    assert "hide left" not in " ".join(await service.move_log(match.id, None))

    # a typed guess asks first; its answer shows where the coin was, so it can't be taken back
    question = await service.move_command(match.id, guesser, 9, "guess right")
    assert question.move == "guess right" and question.question.startswith("Guess this hand?")
    report = await service.submit_move(match.id, guesser, "guess right")
    assert [e["type"] for e in report.events] == ["coin"]
    records = service
    with pytest.raises(errors.UserError, match="revealed hidden information \\(a coin\\)"):
        await records.ask_takeback(match.id, guesser)

    for i, square in enumerate(MARKS):
        report = await service.submit_move(match.id, (hider, guesser)[i % 2], square)
    assert report.outcome.winners == (1,) and not report.match.active
    await service.drain()
    played = [e for e in seen if isinstance(e, MovePlayed)]
    assert [e.move for e in played] == [None, "guess right", *MARKS]  # the hidden hand never in an event
    assert any(isinstance(e, MatchEnded) for e in seen)


# --- through the bot on (simulated) Discord -----------------------------------------------------------------------

async def test_a_registered_game_plays_a_whole_match_on_discord(world):
    thread, match_id = await start_match(world, "tictactoe", world.alice, world.bob)  # /play offers it

    hidden = await move(world.bob, thread, match_id, "hide left")
    assert hidden.ephemeral and hidden.response.content.startswith("✅")
    before_guess = list(thread.history())
    assert before_guess and not any("left" in text_of(m) for m in before_guess)  # the hand is the hider's secret
    asked = await move(world.alice, thread, match_id, "guess right")
    assert "Guess this hand?" in asked.response.content
    await world.alice.click(asked.response, label="Yes, guess right")
    assert "✅ You played" in text_of(stored(world, asked.response))
    assert "The coin was in the left hand: Hider moves first." in text_of(board_posts(thread)[-1])

    for i, square in enumerate(MARKS):
        played = await move((world.bob, world.alice)[i % 2], thread, match_id, square)
        assert played.response.content.startswith("✅"), played.response.content

    final = board_posts(thread)[-1]
    assert "🏆" in text_of(final)
    (picture,) = final.attachments
    png = await picture.read()
    service = world.bot.matches
    match = await service.get_match(match_id)
    assert png == registry.render(service.view(match, None), player_names=match.names)
    assert Image.open(io.BytesIO(png)).size[0] == 340


async def test_a_registered_game_has_its_rules_on_discord(world):
    result = await world.carol.slash(world.channel, "rules", game="tictactoe")
    embed = result.response.embeds[0]
    assert "Tic-tac-toe" in embed.title and "**Drawing lots.**" in embed.description  # its guide/en.md
    (diagram,) = result.response.attachments
    assert diagram.filename == "rules.png"
    assert await diagram.read() == registry.rules_diagram("tictactoe")
