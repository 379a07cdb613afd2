"""The move picker as Discord's own client uses it: a menu whose custom id stays the same across an edit keeps
showing the last choice, and choosing that value again sends nothing. Every step must therefore come with menus of
their own, or a repeated choice (the same knight for two pieces in a row) can never be made."""

from __future__ import annotations

import discord

from bot_helpers import board_posts, buttons, components, is_disabled, open_match, start_match, stored, text_of


class DiscordClient:
    """One member's client: it remembers what each select menu (message, custom id) shows as chosen and, like
    Discord's, does not send an interaction when that same value is picked again."""

    def __init__(self, world, member):
        self.world, self.member = world, member
        self.shown: dict[tuple[int, str], str] = {}
        self.sent = 0

    async def choose(self, message, value: str) -> None:
        for menu in components(stored(self.world, message)):
            if isinstance(menu, discord.SelectMenu) and any(o.value == value for o in menu.options):
                key = (message.id, menu.custom_id)
                if self.shown.get(key) == value:
                    return  # the menu already shows it: the client stays silent
                self.shown[key] = value
                self.sent += 1
                await self.member.select(message, [value], custom_id=menu.custom_id)
                return
        raise AssertionError(f"no menu offers {value!r}")


async def test_the_same_knight_twice_in_a_row_completes_the_mycenae_cargo_setup(world):
    thread, match_id = await open_match(world, "mycenae", [world.alice, world.bob])
    setup_dm = world.alice.user.dm_channel.last_message
    picker = (await world.alice.user.click(setup_dm, label="Set up in private")).response
    client = DiscordClient(world, world.alice.user)
    path = ["b2", "c1", "d2", "c1", "b2", "c1", "c1"]  # the Rook, a Bishop and two Pawns in c1: c1 twice at the end
    for knight in path:
        await client.choose(picker, knight)
    assert client.sent == len(path)  # every choice reached the bot
    shown = stored(world, picker)
    assert "cargo b2:K,P d2:B c1:R,B,P,P" in text_of(shown)
    assert not is_disabled(buttons(shown)["Confirm"])
    await world.alice.user.click(picker, label="Confirm")
    assert text_of(stored(world, picker)).startswith("✅ You played")
    again = await world.alice.user.click(setup_dm, label="Set up in private")
    assert again.response.content == "Your setup is done — nothing more to set up here."


async def test_each_step_of_a_picker_has_menus_of_its_own(world):
    thread, match_id = await open_match(world, "mycenae", [world.alice, world.bob])
    setup_dm = world.alice.user.dm_channel.last_message
    picker = (await world.alice.user.click(setup_dm, label="Set up in private")).response

    def menu_ids() -> set[str]:
        return {c.custom_id for c in components(stored(world, picker))
                if isinstance(c, discord.SelectMenu)}

    seen: set[str] = set()
    for knight in ["b2", "b2", "b2"]:
        ids = menu_ids()
        assert ids and not ids & seen
        seen |= ids
        await world.alice.user.select(picker, [knight], custom_id=next(iter(ids)))
    await world.alice.user.click(picker, label="Back")
    assert not menu_ids() & seen  # Back too: the step shown again is a new menu


async def test_explore_takes_the_same_choice_again_after_back(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    panel = (await world.bob.click(board_posts(thread)[-1], label="Explore")).response
    client = DiscordClient(world, world.bob)
    await client.choose(panel, "a1")
    await world.bob.click(panel, label="◀ Back")
    await client.choose(panel, "a1")  # the same piece again, in the menu the Back drew
    assert client.sent == 2
    await client.choose(panel, "-d4")
    assert "1. alice `a1-d4`" in text_of(stored(world, panel))


def test_menus_of_one_page_say_which_options_each_holds():
    from bot.engine.base import PickerOption
    from bot.views.menus import option_menus

    squares = [PickerOption(f"{c}{r}", f"{c}{r}") for r in range(1, 4) for c in "abcdefghijklmn"]  # 42 pieces
    menus = option_menus(squares, "Which piece moves?", 0, 4, "en")
    assert [m.placeholder for m in menus] == ["Which piece moves? (a1–k2)", "Which piece moves? (l2–n3)"]
    assert [len(m.options) for m in menus] == [25, 17]
    long = [PickerOption(f"King in the knight on {s.value}", s.value) for s in squares[:27]]
    assert [m.placeholder for m in option_menus(long, "Which?", 0, 4, "en")] == ["Which? (1–25)", "Which? (26–27)"]
    assert [m.placeholder for m in option_menus(squares[:5], "Which?", 0, 4, "en")] == ["Which?"]  # one menu
