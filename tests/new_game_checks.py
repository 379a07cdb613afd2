"""What tests/test_adding_a_game.py runs in a copy of the checkout where Nim (tests/new_game/) was added as the README
says: the game is offered by /play, explained by /rules (in English for every language), played to its end on
simulated Discord, and its pictures' words describe its heaps and sides. Not collected in the checkout itself,
where there is no Nim: its name does not start with test_."""

from __future__ import annotations

from pathlib import Path

import bot
from bot.games.registry import GAMES, rules_diagram
from bot_helpers import board_posts, move, start_match, text_of
from test_i18n import locales  # noqa: F401  (a fixture: each member her client's language)

ROOT = Path(__file__).resolve().parent.parent


def test_this_runs_in_the_copy_with_nim():
    assert Path(bot.__file__).resolve().is_relative_to(ROOT) and "nim" in GAMES


async def test_nim_is_offered_explained_played_and_described(world, locales):
    play = world.bot.tree.get_command("play")
    assert "nim" in [choice.value for choice in play.get_parameter("game").choices]

    locales[world.carol.id] = "es"  # an English-only game: its guide in English for every language
    rules = await world.carol.slash(world.channel, "rules", game="nim")
    embed = rules.response.embeds[0]
    assert "Nim" in embed.title and embed.description.startswith("**The heaps.** Three heaps of counters")
    (diagram,) = rules.response.attachments
    assert await diagram.read() == rules_diagram("nim", "es")
    assert "Heaps: heap a: 3, heap b: 4, heap c: 5." in diagram.description

    thread, match_id = await start_match(world, "nim", world.alice, world.bob)
    first = next(a for a in board_posts(thread)[-1].attachments if a.filename == "board.png").description
    assert first == (f"Nim board, match #{match_id}, move 0. To move: alice (First). "
                     "Heaps: heap a: 3, heap b: 4, heap c: 5.")

    for member, taken in ((world.alice, "c5"), (world.bob, "b4")):
        played = await move(member, thread, match_id, taken)
        assert played.response.content.startswith("✅"), played.response.content
    described = await world.bob.click(board_posts(thread)[-1], label="Describe")
    assert described.response.content.startswith(f"Nim, match #{match_id}, move 2: your view as bob (Second).")
    assert "Last move: bob (Second) played b4, taking 4 from heap b." in described.response.content
    assert "Heaps: heap a: 3, heap b: 0, heap c: 0." in described.response.content

    won = await move(world.alice, thread, match_id, "a3")
    assert won.response.content.startswith("✅"), won.response.content
    final = board_posts(thread)[-1]
    assert "🏆 **alice** (First) wins: took the last counter." in text_of(final)
    words = next(a for a in final.attachments if a.filename == "board.png").description
    assert "alice (First) won: took the last counter." in words and "Heaps: heap a: 0, heap b: 0, heap c: 0." in words
    match = await world.bot.matches.get_match(match_id)
    assert not match.active and match.result["winners"] == [0]
