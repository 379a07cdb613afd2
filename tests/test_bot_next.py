"""/next and the Next match button: the match that has waited longest for you, privately, ready to play."""

from __future__ import annotations

from bot_helpers import buttons, move, private_answer, start_match, text_of
from conftest import ON_BOTH

HOUR = 3600


async def three_waiting_matches(world):
    """Three matches where alice must act, whose turns began an hour apart: #1 (she opens it), #2 (bob opened
    and moved), #3 (she opens it). Returns their (thread, match id)s in that order."""
    first = await start_match(world, "epaminondas", world.alice, world.bob)
    await world.env.advance_time(HOUR)
    second = await start_match(world, "epaminondas", world.bob, world.alice)
    await world.env.advance_time(HOUR)
    played = await move(world.bob, *second, "a1-d4")
    assert played.response.content.startswith("✅"), played.response.content
    await world.env.advance_time(HOUR)
    third = await start_match(world, "epaminondas", world.alice, world.carol)
    await world.env.advance_time(HOUR)
    return first, second, third


def shown_match(answer) -> int:
    content = text_of(answer)
    assert "has waited longest for you" in content, content
    return int(content.split("Match #", 1)[1].split(" ", 1)[0])


@ON_BOTH
async def test_next_shows_the_match_that_waited_longest_then_the_next_one(world):
    (thread1, match1), (_, match2), (_, match3) = await three_waiting_matches(world)

    shown = await world.alice.slash(world.channel, "next")
    assert shown.ephemeral
    answer = private_answer(shown)
    assert shown_match(answer) == match1 and "you play **Light**" in text_of(answer)
    assert [a.filename for a in answer.attachments] == ["your-view.png"]
    assert set(buttons(answer)) == {"Move"}

    # Her move's private answer takes her on: #2 began its turn before #3 did.
    played = await move(world.alice, thread1, match1, "a1-d4")
    assert set(buttons(played.response)) == {"Next match", "Take back"}
    onward = await world.alice.click(played.response, label="Next match")
    assert onward.ephemeral and shown_match(private_answer(onward)) == match2

    # Its Move opens the picker on that match.
    opened = await world.alice.click(private_answer(onward), label="Move")
    assert opened.ephemeral and f"**Your move** in match #{match2}" in text_of(private_answer(opened))

    # Carol's only match waits for alice, not for her.
    idle = await world.carol.slash(world.channel, "next")
    assert private_answer(idle).content == "Nothing is waiting for you."
    assert match3 != match2


async def test_the_next_match_and_move_buttons_work_after_a_restart(world):
    (thread1, match1), (_, match2), _ = await three_waiting_matches(world)
    played = await move(world.alice, thread1, match1, "a1-d4")
    shown = await world.alice.slash(world.channel, "next")
    await world.restart()

    onward = await world.alice.click(played.response, label="Next match")
    assert shown_match(private_answer(onward)) == match2
    opened = await world.alice.click(private_answer(shown), label="Move")
    assert f"**Your move** in match #{match2}" in text_of(private_answer(opened))


async def test_a_move_button_of_a_board_that_moved_on_is_refused(world):
    (thread1, match1), _, _ = await three_waiting_matches(world)
    shown = await world.alice.slash(world.channel, "next")
    await move(world.alice, thread1, match1, "a1-d4")
    late = await world.alice.click(private_answer(shown), label="Move")
    assert private_answer(late).content.startswith("This board is out of date"), private_answer(late).content
