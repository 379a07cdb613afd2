"""Posts as Components V2 messages: one container holding the words, the picture with its alt text and the
buttons, no content; buttons routed by their custom ids across restarts; an old board greyed with its picture."""

from __future__ import annotations

import io

import discord

from bot_helpers import (
    board_posts, buttons, choose, components, is_disabled, move, open_match, start_match, stored, text_of,
)

from bot.presenters.describe import alt_text


def layout_of(message) -> discord.components.Container:
    """The one container a V2 post consists of."""
    assert message.flags.components_v2 and not message.content and not message.embeds
    assert len(message.components) == 1 and isinstance(message.components[0], discord.components.Container)
    assert len(components(message)) <= 40
    assert sum(len(c.content) for c in components(message) if isinstance(c, discord.components.TextDisplay)) <= 4000
    return message.components[0]


def gallery_of(message) -> discord.components.MediaGalleryComponent:
    galleries = [c for c in components(message) if isinstance(c, discord.components.MediaGalleryComponent)]
    assert len(galleries) == 1 and len(galleries[0].items) == 1
    return galleries[0]


def shows_its_attachment(message, filename: str) -> bool:
    """The gallery shows the message's own attachment `filename`."""
    attachment = next(a for a in message.attachments if a.filename == filename)
    return gallery_of(message).items[0].media.attachment_id == attachment.id


async def test_a_board_is_one_container_of_status_picture_and_buttons(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    board = board_posts(thread)[-1]
    container = layout_of(board)
    kinds = [type(c) for c in container.children]
    assert kinds[:2] == [discord.components.TextDisplay, discord.components.MediaGalleryComponent]
    assert set(kinds[2:]) == {discord.ActionRow}
    assert text_of(board) == container.children[0].content
    assert "**alice** (Light) to move" in text_of(board) and world.alice.mention in text_of(board)
    assert [u.id for u in board.mentions] == [world.alice.id]  # the text display's mention pings her alone
    assert shows_its_attachment(board, "board.png")
    match = await world.bot.matches.get_match(match_id)
    service = world.bot.matches
    expected = alt_text("Epaminondas", service.view(match, None), match.names, match_id=match_id, lang="en")
    assert gallery_of(board).items[0].description == expected[:1024]
    assert set(buttons(board)) == {"Move", "My view", "Describe", "Resign", "Offer draw", "Explore"}


async def test_board_buttons_work_after_a_restart(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    board = board_posts(thread)[-1]
    await world.restart()
    opened = await world.alice.click(board, label="Move")
    assert opened.ephemeral and "Which piece" in text_of(opened.response)


async def test_an_old_board_is_greyed_and_keeps_its_words_and_picture(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    first = board_posts(thread)[0]
    said = text_of(first)
    result = await move(world.alice, thread, match_id, "a1-d4")
    assert result.response.content.startswith("✅")
    old = stored(world, first)
    layout_of(old)
    assert all(is_disabled(b) for b in buttons(old).values()) and len(buttons(old)) == 6
    assert text_of(old) == said
    assert shows_its_attachment(old, "board.png")
    assert not any(is_disabled(b) for b in buttons(board_posts(thread)[-1]).values())


async def test_a_challenge_is_one_container_whose_buttons_work_after_a_restart(world):
    result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    assert result.response.content == "Challenge posted below."  # the private word stays plain text
    post = world.channel.last_message
    container = layout_of(post)
    assert isinstance(container.children[0], discord.components.TextDisplay)
    assert "**alice** challenges" in text_of(post) and world.bob.mention in text_of(post)
    assert {u.id for u in post.mentions} == {world.bob.id}
    assert list(buttons(post)) == ["Accept", "Decline", "Cancel"]
    await world.restart()
    await world.bob.click(post, label="Accept")
    now = stored(world, post)
    layout_of(now)
    assert "has started" in text_of(now) and "Match #1 is on in" in text_of(now) and not buttons(now)
    assert board_posts(world.channel.threads[-1])


async def test_league_announcement_and_standings_are_containers(world):
    role = world.guild.create_role("league mods", permissions=discord.Permissions(manage_guild=True))
    olga = world.guild.add_member(world.env.create_user("olga"), roles=[role])
    await olga.slash(world.channel, "league create", name="Autumn", game="epaminondas", format="round_robin")
    post = next(m for m in reversed(list(world.channel.history())) if text_of(m).startswith("🏆"))
    layout_of(post)
    assert list(buttons(post)) == ["Join", "Leave"]
    for member in (world.alice, world.bob):
        await member.click(post, label="Join")
    assert "alice" in text_of(stored(world, post)) and list(buttons(stored(world, post))) == ["Join", "Leave"]
    await olga.slash(world.channel, "league start", league="Autumn")
    match_id = (await world.bot.leagues.store.tables(
        (await world.bot.leagues.named(world.guild.id, "Autumn")).id))[0].match_id
    thread = next(t for t in world.channel.threads if f"#{match_id}:" in t.name)
    players = await world.bot.matches.get_match(match_id)
    by_id = {world.alice.id: world.alice, world.bob.id: world.bob}
    asked = await by_id[players.seats[0].user_id].click(board_posts(thread)[-1], label="Resign")
    await by_id[players.seats[0].user_id].click(asked.response, label="Yes, resign")
    league_thread = next(t for t in world.channel.threads if t.name.startswith("League:"))
    standings = [m for m in league_thread.history() if m.attachments][-1]
    layout_of(standings)
    assert "🏆 **Autumn** is over" in text_of(standings)
    assert shows_its_attachment(standings, "standings.png")
    assert gallery_of(standings).items[0].description.startswith("Standings of Autumn")
    rounds = [m for m in league_thread.history() if "Every match starts now" in text_of(m)]
    assert len(rounds) == 1 and layout_of(rounds[0])


async def test_my_view_is_a_private_container_with_its_picture_and_alt_text(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    mine = await world.bob.click(board_posts(thread)[-1], label="My view")
    assert mine.ephemeral
    shown = stored(world, mine.response)
    layout_of(shown)
    assert "you play **Dark**" in text_of(shown)
    assert shows_its_attachment(shown, "your-view.png")
    assert gallery_of(shown).items[0].description.startswith("Epaminondas")


async def test_the_dm_inviting_a_player_to_her_secret_setup_is_a_container(world):
    await open_match(world, "myrmidons", [world.alice, world.bob])
    invitation = world.alice.user.dm_channel.last_message
    layout_of(invitation)
    assert "you play **South**" in text_of(invitation) and "Set up in private" in buttons(invitation)
    opened = await world.alice.user.click(invitation, label="Set up in private")
    assert opened.ephemeral


async def test_private_answers_with_a_picture_are_containers(world):
    """/replay's answer (made a layout by the edit that completes it) and /league standings'."""
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    asked = await world.bob.click(board_posts(thread)[-1], label="Resign")
    await world.bob.click(asked.response, label="Yes, resign")
    replay = await world.carol.slash(world.channel, "replay", match=match_id)
    shown = stored(world, replay.response)
    layout_of(shown)
    assert text_of(shown).startswith(f"🎞️ Replay of Epaminondas match #{match_id}")
    assert shows_its_attachment(shown, "replay.gif")

    role = world.guild.create_role("league mods", permissions=discord.Permissions(manage_guild=True))
    olga = world.guild.add_member(world.env.create_user("olga"), roles=[role])
    await olga.slash(world.channel, "league create", name="Autumn", game="epaminondas", format="round_robin")
    standings = await world.carol.slash(world.channel, "league standings", league="Autumn")
    assert standings.ephemeral
    shown = stored(world, standings.response)
    layout_of(shown)
    assert text_of(shown) == "📊 **Autumn**"
    assert shows_its_attachment(shown, "standings.png")
    assert gallery_of(shown).items[0].description.startswith("Standings of Autumn")


def controls_of(message) -> set[str]:
    """The custom ids of a message's menus and buttons, which must all sit in its one container."""
    container = layout_of(message)
    kinds = [type(c) for c in container.children]
    assert kinds[0] is discord.components.TextDisplay and set(kinds[1:]) <= {
        discord.components.TextDisplay, discord.components.MediaGalleryComponent, discord.ActionRow}
    return {c.custom_id for c in components(message) if isinstance(c, (discord.Button, discord.SelectMenu))}


async def test_the_move_picker_is_one_container_with_its_preview_and_its_controls(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    picker = (await world.alice.click(board_posts(thread)[-1], label="Move")).response
    first = stored(world, picker)
    assert "**Your move** in match #" in text_of(first) and "Which piece" in text_of(first)
    ids = controls_of(first)
    assert not first.attachments and ids and all(i.startswith("sg:p:") for i in ids)
    assert {"Back", "Confirm", "Cancel"} <= set(buttons(first))
    await choose(world, world.alice, picker, "a1")
    await choose(world, world.alice, picker, "-d4")
    ready = stored(world, picker)
    assert "Ready to play **`a1-d4`**" in text_of(ready)
    assert all(i.startswith("sg:p:") for i in controls_of(ready))
    assert [type(c) for c in layout_of(ready).children][:2] == [discord.components.TextDisplay,
                                                              discord.components.MediaGalleryComponent]
    assert shows_its_attachment(ready, "preview.png")
    assert gallery_of(ready).items[0].description.startswith(
        f"Epaminondas, match #{match_id}, move 1: preview of your move, as alice (Light)")
    assert not is_disabled(buttons(ready)["Confirm"])
    await world.alice.click(picker, label="Confirm")
    played = stored(world, picker)
    layout_of(played)
    assert text_of(played) == "✅ You played `a1-d4`." and not played.attachments
    assert "Next match" in buttons(played)

    picker = (await world.bob.click(board_posts(thread)[-1], label="Move")).response
    await world.bob.click(picker, label="Cancel")
    cancelled = stored(world, picker)
    layout_of(cancelled)
    assert text_of(cancelled) == "Move cancelled. Nothing was played." and not buttons(cancelled)


async def test_the_explore_board_is_one_container_with_its_picture_alt_text_and_controls(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    panel = (await world.bob.click(board_posts(thread)[-1], label="Explore")).response
    for step in ("opened", "a1", "-d4"):
        if step != "opened":
            await choose(world, world.bob, panel, step)
        shown = stored(world, panel)
        assert "🔭 **Explore** match" in text_of(shown) and "as your view" in text_of(shown)
        ids = controls_of(shown)
        assert ids and all(i.startswith("sg:e:") for i in ids)
        assert {"◀ Back", "Play it", "⟲ Reset", "Share line"} <= set(buttons(shown))
        assert shows_its_attachment(shown, "explore.png")
        assert gallery_of(shown).items[0].description.startswith(
            f"Epaminondas, match #{match_id}, move {0 if step != '-d4' else 1}: your view as bob (Dark).")
    assert "1. alice `a1-d4`" in text_of(shown)


async def test_a_stale_board_that_still_acts_is_refused_and_greyed_when_clicked(world, monkeypatch):
    from bot.presenters.board import BoardPresenter

    async def retire_failed(self, thread, message_id, match, lang):
        return None  # as when Discord refused the greying edit

    monkeypatch.setattr(BoardPresenter, "retire", retire_failed)
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    first = board_posts(thread)[0]
    said = text_of(first)
    await move(world.alice, thread, match_id, "a1-d4")
    assert not any(is_disabled(b) for b in buttons(stored(world, first)).values())
    refused = await world.bob.click(first, label="Move")
    assert "This board is out of date" in text_of(refused.followups[-1] if refused.followups else refused.response)
    old = stored(world, first)
    assert all(is_disabled(b) for b in buttons(old).values())
    assert text_of(old) == said and shows_its_attachment(old, "board.png")


async def test_a_board_posted_before_layouts_is_greyed_as_it_was(world):
    """A legacy post (content, attachment, rows of buttons), as boards were before this version: greyed in place,
    still legacy, its words and picture kept."""
    from bot.presenters.layout import greyed
    from bot.views.board import board_buttons

    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    match = await world.bot.matches.get_match(match_id)
    channel = world.bot.get_channel(thread.id)
    legacy = await channel.send("an old board", file=discord.File(io.BytesIO(b"\x89PNG old"), filename="board.png"),
                                view=board_buttons(match))
    old = await channel.fetch_message(legacy.id)
    await old.edit(view=greyed(old))
    now = stored(world, legacy)
    assert not now.flags.components_v2 and now.content == "an old board"
    assert [a.filename for a in now.attachments] == ["board.png"]
    assert len(buttons(now)) == 6 and all(is_disabled(b) for b in buttons(now).values())
