"""Myrmidons through the real bot and a simulated Discord: secret deployments (one player with closed DMs), moves,
an order, fights and a win — and, after every step, proof that nothing anyone was shown carries a secret.

A wiretap on the simulated Discord records every message the bot creates or edits, with who can see it. A referee
plays each accepted move on its own copy of the engine and checks every new record against it:
- public posts: each board picture is byte for byte the renderer's picture of the engine's public view, and no
  text names a value, a type or the Commander before a fight has made it public, nor a deployment;
- private messages (ephemeral or DM): one reader each; each picture is exactly that reader's own view (or, in the
  picker, her view after the move she is about to confirm), and no text holds the opponent's secrets.
"""

from __future__ import annotations

import pytest

import json
import re
from dataclasses import dataclass

from bot.presenters.describe import alt_text
from renderers.replay import replay_gif
from bot.games.myrmidons import GAME
from bot.games.myrmidons import renderer as myrmidons_renderer
from bot_helpers import (text_of, components,
    board_posts, buttons, choose, is_disabled, match_id_of, move, private_channels, stored, thread_of,
)
from bot.games import registry
from conftest import ON_BOTH

SEED = 1000  # the first match's seed (conftest counts seeds from 1000): the draw makes North move first
NAMES = ["alice", "bob"]
OPTIONS = {"army": "standard", "memory": "on"}
DEPLOY = {
    0: ["2/5/2", "4/4/1", "C", "5/1/3", "1/3/5", "3/2/4"],  # alice, South: files a to f of rank 1
    1: ["3/2/4", "1/3/5", "5/1/3", "C", "2/5/2", "4/4/1"],  # bob, North: files a to f of rank 7
}
# North starts. Composed by hand from the rules to show each kind of turn, then checked against the engine move by
# move (each is in legal_moves, and the last one ends the game): plain moves, an order (c1 is the Commander, d1 the
# 5/1/3), a fight won by a 1/3/5 over a 5/1/3, one won by a 3/2/4, one where a 1/3/5 is repelled by a 2/5/2 shield,
# and a 3/2/4 taking North's Commander on d7 for South's win.
SOUTH_WINS = ["b7-b4", "order N c1-c2 d1-d4", "b4-d4", "f1-f4", "e7-e5", "f4-d4", "a7-a5", "e1-e5", "a5-a4",
              "d4-d7"]
CODE = re.compile(r"(?<![\d/])[1-5]/[1-5]/[1-5](?![\d/])")


def deploy_text(seat: int) -> str:
    return "deploy " + ",".join(DEPLOY[seat])


# --- the wiretap -------------------------------------------------------------------------------------------------


@dataclass
class Sent:
    """One version of a message as Discord stored it: a new message or an edit."""

    channel_id: int
    message_id: int
    content: str
    files: list[tuple[str, str]]  # (filename, url)
    descriptions: dict[str, str]  # url -> the attachment's description (its alt text)
    component_ids: list[str]
    ephemeral: bool
    reader: int | None  # None: everyone who can read the channel; else the only user who can see it

    @property
    def public(self) -> bool:
        return self.reader is None


class Wiretap:
    """Records every message the simulated Discord stores or edits, whoever sent it and however."""

    def __init__(self, world):
        self.backend = world.env.backend
        self.sent: list[Sent] = []
        commit, edit = self.backend.commit_message, self.backend.edit_message

        def recording_commit(message, **kwargs):
            stored_message = commit(message, **kwargs)
            self._record(stored_message)
            return stored_message

        def recording_edit(channel_id, message_id, fields):
            stored_message = edit(channel_id, message_id, fields)
            self._record(stored_message)
            return stored_message

        self.backend.commit_message, self.backend.edit_message = recording_commit, recording_edit

    def _record(self, message) -> None:
        channel = self.backend.get_channel(message.channel_id)
        if message.is_ephemeral:
            reader = int(message.interaction_metadata["user"]["id"])
        elif channel.guild_id is None:
            reader = channel.recipient_ids[0]
        else:
            reader = None
        self.sent.append(Sent(
            channel_id=message.channel_id, message_id=message.id, content=text_of(message) or "",
            files=[(a["filename"], a["url"]) for a in message.attachments],
            descriptions={a["url"]: a.get("description") or "" for a in message.attachments},
            component_ids=[c.get("custom_id") or "" for c in components(message) if c.get("type") in (2, 3, 5, 6, 7, 8)],
            ephemeral=message.is_ephemeral, reader=reader,
        ))

    def image(self, url: str) -> bytes:
        return self.backend.cdn.get(url)


# --- the referee -------------------------------------------------------------------------------------------------


_PICTURES: dict[str, bytes] = {}


def _render(state, viewer: int | None) -> bytes:
    """The renderer's picture of the engine's view, as the bot should send it (cached: states repeat in checks)."""
    key = json.dumps([GAME.dump(state), viewer], sort_keys=True)
    if key not in _PICTURES:
        _PICTURES[key] = registry.render(GAME.view(state, viewer), player_names=NAMES)
    return _PICTURES[key]


class Referee:
    """Mirrors the match on its own engine and checks everything the wiretap recorded since the last check."""

    def __init__(self, world, tap: Wiretap):
        self.world, self.tap = world, tap
        self.seat_of = {world.alice.id: 0, world.bob.id: 1}
        self.state = GAME.new_state(2, SEED, OPTIONS)
        self.states = [self.state]  # every position, for the replay at the end
        self.public_pieces: dict[str, dict] = {}  # piece id -> its values, once a public fight report named it
        self.checked = 0
        self.images_checked: set[str] = set()
        self.pictures = {"board.png": 0, "your-view.png": 0, "preview.png": 0}  # how many were compared

    def play(self, seat: int, text: str) -> None:
        """A move the bot accepted: play it here too."""
        self.state, events = GAME.apply(self.state, seat, text)
        self.states.append(self.state)
        for ev in events:
            if ev["type"] == "fight" and ev["visible_to"] is None:
                for side in ("attacker", "defender"):
                    self.public_pieces[ev[side]["id"]] = ev[side]

    def check(self) -> None:
        for sent in self.tap.sent[self.checked:]:
            if sent.public:
                self._check_public(sent)
            else:
                self._check_private(sent)
        self.checked = len(self.tap.sent)

    def _check_public(self, sent: Sent) -> None:
        assert not any(c.startswith(("sg:p:", "sg:s:")) for c in sent.component_ids), sent  # pickers are private
        if any(name in ("replay.gif", "revealed.png") for name, _ in sent.files):
            self._check_reveal(sent)
            return
        for filename, url in self._new_images(sent):
            description = sent.descriptions[url]
            match_id = int(re.search(r"match #(\d+)", description).group(1))
            public = alt_text("Myrmidons", GAME.view(self.state, None), NAMES, match_id=match_id)
            assert filename == "board.png", sent
            assert self.tap.image(url) == _render(self.state, None), f"public picture is not the public view: {sent}"
            assert description == public, f"public alt text is not the public view's: {description!r}"
        for tell in self._tells(None):
            for text in (text_of(sent), *sent.descriptions.values()):
                assert tell not in text, f"public text gives away {tell!r}: {text!r}"
        public_codes = {p["code"] for p in self.public_pieces.values()}
        public_names = {p["name"] for p in self.public_pieces.values()}
        for code in CODE.findall(text_of(sent)):
            assert code in public_codes, f"{code} was never shown by a fight: {text_of(sent)!r}"
        for kind in GAME.view(self.state, 0)["armies"][0]:  # the types both armies share (standard)
            if kind["name"] not in public_names:
                assert kind["name"] not in text_of(sent), f"{kind['name']} is not public yet: {text_of(sent)!r}"

    def _check_reveal(self, sent: Sent) -> None:
        """The match's end, and only then: the final position and the replay with every army revealed."""
        assert GAME.outcome(self.state) is not None, f"a reveal before the end: {sent}"
        assert [name for name, _ in sent.files] == ["revealed.png", "replay.gif"], sent
        revealed = GAME.revealed_view(self.state)
        assert all(cell["known"] for cell in revealed["cells"].values())
        words = alt_text("Myrmidons", revealed, NAMES, match_id=int(re.search(r"match #(\d+)", text_of(sent)).group(1)))
        for filename, url in self._new_images(sent):
            if filename == "revealed.png":
                assert self.tap.image(url) == registry.render(revealed, player_names=list(NAMES))
                assert sent.descriptions[url] == words
            else:
                expected = replay_gif([GAME.revealed_view(s) for s in self.states], player_names=NAMES,
                                      renderer=myrmidons_renderer)
                assert self.tap.image(url) == expected, f"the replay is not the match revealed: {sent}"
                assert sent.descriptions[url].endswith(words), sent.descriptions[url]
        assert "everything hidden is shown" in text_of(sent)

    def _check_private(self, sent: Sent) -> None:
        seat = self.seat_of[sent.reader]
        for filename, url in self._new_images(sent):
            if filename == "your-view.png":
                expected = _render(self.state, seat)
            else:
                assert filename == "preview.png", sent
                ready = re.search(r"Ready to play \*\*`([^`]+)`\*\*", text_of(sent)).group(1)
                # a preview of a move with a fight would show its result before it is played
                _, events = GAME.apply(self.state, seat, ready)
                assert not any(ev["type"] == "fight" for ev in events), f"a preview of {ready} tells its result"
                preview = GAME.preview(self.state, seat, ready)
                assert preview is not None
                if GAME.is_private_move(ready):
                    assert preview["first_player"] is None  # who starts stays unknown until the setup is final
                expected = registry.render(preview, player_names=list(NAMES))
            assert self.tap.image(url) == expected, f"private picture is not {NAMES[seat]}'s own view: {sent}"
            assert f"as {NAMES[seat]} (" in sent.descriptions[url], sent.descriptions[url]  # whose side it shows
        for tell in self._tells(seat):
            for text in (text_of(sent), *sent.descriptions.values()):
                assert tell not in text, f"{NAMES[seat]} was told {tell!r}: {text!r}"

    def _new_images(self, sent: Sent) -> list[tuple[str, str]]:
        """Attachments not seen before (an edit that only greys out buttons keeps its old picture)."""
        new = [(name, url) for name, url in sent.files if url not in self.images_checked]
        self.images_checked.update(url for _, url in new)
        for name, _ in new:
            self.pictures[name] = self.pictures.get(name, 0) + 1
        return new

    def _tells(self, viewer: int | None) -> list[str]:
        """Texts that would give away something `viewer` (None: the public) does not know: a deployment, or a piece
        of the other side that no public fight has shown, named with its id or square."""
        tells = []
        for seat in (0, 1):
            if seat == viewer:
                continue
            tells += [deploy_text(seat), ",".join(DEPLOY[seat])]
            for cell in GAME.view(self.state, seat)["cells"].values():
                if cell["owner"] == seat and cell["id"] not in self.public_pieces:
                    tells += [f"{cell['id']} {cell['name']}", f"{cell['square']}: {cell['name']}",
                              f"{cell['square']} {cell['name']}"]
        if viewer is None and not any(p["commander"] for p in self.public_pieces.values()):
            tells.append("Commander")
        return tells


# --- acting as the players ---------------------------------------------------------------------------------------


async def post_challenge_with_options(world, memory: str = "on"):
    """/play myrmidons, the options panel (army left at standard, memory chosen), Post challenge."""
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob)
    assert panel.ephemeral and "`army`" in panel.response.content and "`memory`" in panel.response.content
    await choose(world, world.alice, panel.response, memory)
    return panel


async def deploy_in_picker(world, ref, actor, picker, seat: int) -> None:
    """Pick the pieces square by square, then Confirm (the referee checks each step, the preview too)."""
    home = "1" if seat == 0 else "7"
    for file, code in zip("abcdef", DEPLOY[seat]):
        assert f"Which piece stands on {file}{home}?" in text_of(stored(world, picker))
        assert not stored(world, picker).attachments  # no picture until the row is complete
        await choose(world, actor, picker, code)
        ref.check()
    ready = stored(world, picker)
    assert f"Ready to play **`{deploy_text(seat)}`**" in text_of(ready)
    assert [a.filename for a in ready.attachments] == ["preview.png"]  # her own row, checked by the referee
    await actor.click(picker, label="Confirm")
    assert text_of(stored(world, picker)) == f"✅ You played `{deploy_text(seat)}`."


def close_dms(world, member) -> None:
    dm = member.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)


# --- the tests ---------------------------------------------------------------------------------------------------


@pytest.mark.replays
@ON_BOTH
async def test_whole_match_secret_deployments_order_fights_and_a_win_without_leaks(world):
    tap = Wiretap(world)
    ref = Referee(world, tap)  # ref.check() right after each action: leaks are looked for before anything else
    close_dms(world, world.bob)

    # the options panel: ephemeral, army standard by default, memory chosen, then the public challenge
    panel = await post_challenge_with_options(world, memory="on")
    menus = [c for row in stored(world, panel.response).components for c in row.children]
    assert {o.value for menu in menus for o in getattr(menu, "options", []) if o.default} == {"standard", "on"}
    await world.alice.click(panel.response, label="Post challenge")
    ref.check()
    challenge = world.channel.last_message
    assert "Options: army: standard, memory: on" in text_of(challenge)
    assert {u.id for u in challenge.mentions} == {world.bob.id}

    # Accept: a thread whose setup-phase board mentions both players
    await world.bob.click(challenge, label="Accept")
    ref.check()
    thread = thread_of(world)
    match_id = match_id_of(thread)
    assert thread.name == f"Myrmidons #{match_id}: alice vs bob"
    setup_board = board_posts(thread)[-1]
    assert "Secret setup: **alice** (South), **bob** (North)" in text_of(setup_board)
    assert {u.id for u in setup_board.mentions} == {world.alice.id, world.bob.id}
    assert set(buttons(setup_board)) == {"Move", "My view", "Describe", "Resign", "Offer draw", "Explore"}
    assert await private_channels(world, match_id) == {world.alice.id: "dm", world.bob.id: "pending"}
    assert world.bob.user.dm_channel.last_message is None  # his DMs are closed

    # alice deploys from her DM: the button opens an ephemeral picker there
    invitation = world.alice.user.dm_channel.last_message
    assert "you play **South**" in text_of(invitation) and "Set up in private" in buttons(invitation)
    opened = await world.alice.user.click(invitation, label="Set up in private")
    assert opened.ephemeral
    await deploy_in_picker(world, ref, world.alice.user, opened.response, 0)
    ref.play(0, deploy_text(0))
    ref.check()
    progress = thread.last_message
    assert text_of(progress) == (f"🔒 **alice** has made a secret setup move. Still setting up: {world.bob.mention} "
                                "— press **Move** on the board to continue in private.")
    assert [u.id for u in progress.mentions] == [world.bob.id]
    assert len(board_posts(thread)) == 1  # no new board, nothing more said
    # ...but the board, redrawn in place, no longer says she is deploying: its picture and words are the public's now
    redrawn = stored(world, setup_board)
    assert "Secret setup: **bob** (North)" in text_of(redrawn) and "**alice** (South)" not in text_of(redrawn)
    public = world.bot.matches.view(await world.bot.matches.get_match(match_id), None)
    assert public["setup"][0]["deployed"] and not any(cell["known"] for cell in public["cells"].values())
    assert await redrawn.attachments[0].read() == registry.render(public, player_names=["alice", "bob"])
    assert redrawn.attachments[0].description == alt_text("Myrmidons", public, ["alice", "bob"], match_id=match_id)

    # her deployment is final
    again = await world.alice.user.click(invitation, label="Set up in private")
    assert again.ephemeral and again.response.content == "Your setup is done — nothing more to set up here."
    retyped = await move(world.alice, thread, match_id, deploy_text(0))
    assert retyped.ephemeral and retyped.response.content == "It is not your turn — waiting for bob."
    ref.check()

    # bob's invitation waited for his next My view, with the button; he deploys from there
    mine = await world.bob.click(setup_board, label="My view")
    ref.check()  # his picture is his own view: his empty home row, alice's row of blank pieces
    assert mine.ephemeral
    assert "📬 Your Myrmidons match" in text_of(mine.response) and "you play **North**" in text_of(mine.response)
    assert "Set up in private" in buttons(mine.response)
    picker = await world.bob.click(mine.response, label="Set up in private")
    assert picker.ephemeral
    await deploy_in_picker(world, ref, world.bob, picker.response, 1)
    ref.play(1, deploy_text(1))
    ref.check()
    first = board_posts(thread)[-1]
    lines = text_of(first).splitlines()[1:]
    assert [line for line in lines if not line.startswith("⏳")] == [
        "**bob** (North) made a secret move — North has deployed. Both armies stand ready. North moves first.",
        "**bob** (North) to move.",
        world.bob.mention,
    ]
    assert [line for line in lines if line.startswith("⏳")][0].startswith("⏳ **bob** must move <t:")
    assert [u.id for u in first.mentions] == [world.bob.id]
    assert all(is_disabled(b) for b in buttons(stored(world, setup_board)).values())

    # the play: notation, the picker for an order and for an attack, fights, and the win
    players = [world.alice, world.bob]
    for ply, text in enumerate(SOUTH_WINS):
        seat = 1 - ply % 2  # North first
        player = players[seat]
        if text.startswith("order"):
            await play_order_in_picker(world, thread, ref, player, text)
        elif text == "b4-d4":
            await play_attack_in_picker(world, thread, ref, player, text)
        else:
            result = await move(player, thread, match_id, text)
            assert result.ephemeral and result.response.content == f"✅ You played `{text}` in match #{match_id}."
        ref.play(seat, text)
        ref.check()
        board = board_posts(thread)[-1]
        if ply % 3 == 0 and "Describe" in buttons(board):
            # the board in words, from each player's own view: the referee checks it tells nothing more
            for reader in players:
                described = await reader.click(board, label="Describe")
                assert described.ephemeral and "on the board:" in described.response.content
            ref.check()
        assert f"**{NAMES[seat]}** ({['South', 'North'][seat]}) played `{text}`" in text_of(board)
        if GAME.outcome(ref.state) is None:
            assert [u.id for u in board.mentions] == [players[1 - seat].id]
        if text == "b4-d4":  # a fight's report names both pieces' values, in the thread for everyone
            assert ("Fight on d4: North's Messenger (sword 1, shield 3, move 5) beats South's Raider (sword 5, "
                    "shield 1, move 3)." in text_of(board))
            assert "South's Raider on d4 is eliminated" in text_of(board)
            assert not GAME.view(ref.state, None)["cells"]["d4"]["known"]  # memory on: the picture shows it blank
        if text == "e1-e5":
            repelled = ("Fight on e5: South's Messenger (sword 1, shield 3, move 5) is repelled by North's "
                        "Shieldbearer (sword 2, shield 5, move 2), back to e4.")
            assert repelled in text_of(board)
            reposted = await world.bob.slash(world.channel, "board", match=match_id)  # any board post: public view
            assert reposted.ephemeral
            ref.check()

    final = board_posts(thread)[-1]
    assert "Fight on d7: South's Peltast (sword 3, shield 2, move 4) beats North's Commander." in text_of(final)
    assert "🏆 **alice** (South) wins: South eliminated the enemy Commander." in text_of(final)
    assert set(buttons(final)) == {"Rematch"}
    assert {u.id for u in final.mentions} == {world.alice.id, world.bob.id}
    over = await world.alice.user.click(invitation, label="Set up in private")
    assert over.response.content == "This match is already over."
    ref.check()

    # who saw what: bob never got a DM; everything private of his was ephemeral and his alone
    assert world.bob.user.dm_channel.last_message is None
    bobs = [s for s in tap.sent if s.reader == world.bob.id]
    assert all(s.ephemeral for s in bobs)
    assert any(name == "preview.png" for s in bobs for name, _ in s.files)
    for s in tap.sent:
        if deploy_text(1) in text_of(s) or "Which piece stands on a7?" in text_of(s):
            assert s.reader == world.bob.id and s.ephemeral, s
    # and the checks were not empty: every board post (one from /board) and the setup board's redraw, both
    # deployment previews and the fight-free order's preview, bob's view
    assert ref.pictures == {"board.png": 4 + len(SOUTH_WINS), "your-view.png": 1, "preview.png": 3, "replay.gif": 1,
                            "revealed.png": 1}

    # /replay seen_by: the match as bob saw it at every move (it is over: his view is no secret any more)
    as_bob = await world.alice.slash(world.channel, "replay", match=match_id, seen_by=world.bob)
    shown = stored(world, as_bob.response)
    assert text_of(shown) == f"🎞️ Replay of Myrmidons match #{match_id} as bob saw it, move by move."
    assert await shown.attachments[0].read() == replay_gif([GAME.view(s, 1) for s in ref.states],
                                                           player_names=NAMES, renderer=myrmidons_renderer)
    outsider = await world.alice.slash(world.channel, "replay", match=match_id, seen_by=world.carol)
    assert outsider.response.content == f"carol did not play in match #{match_id}."


async def play_order_in_picker(world, thread, ref, player, text: str) -> None:
    """order → direction → participants → Confirm; a preview picture only when the order has no fight (a fight's
    result must not be seen before committing)."""
    opened = await player.click(board_posts(thread)[-1], label="Move")
    picker = opened.response
    assert opened.ephemeral and "Choose a myrmidon to move, or give an order" in text_of(picker)
    ref.check()
    _, direction, *items = text.split()
    for token in ("order", direction, *items):
        await choose(world, player, picker, token)
        ref.check()
    ready = stored(world, picker)
    _, events = GAME.apply(ref.state, ref.seat_of[player.id], text)
    fights = any(ev["type"] == "fight" for ev in events)
    assert f"Ready to play **`{text}`**" in text_of(ready)
    assert [a.filename for a in ready.attachments] == ([] if fights else ["preview.png"])
    await player.click(picker, label="Confirm")
    assert text_of(stored(world, picker)) == f"✅ You played `{text}`."


async def play_attack_in_picker(world, thread, ref, player, text: str) -> None:
    """An attack in the picker: ready to confirm, but no preview, which would tell the fight's result first."""
    src, dst = text.split("-")
    picker = (await player.click(board_posts(thread)[-1], label="Move")).response
    await choose(world, player, picker, src)
    assert f"{dst} (attack)" in {o.label for c in components(stored(world, picker))
                                  for o in getattr(c, "options", [])}
    await choose(world, player, picker, dst)
    ready = stored(world, picker)
    _, events = GAME.apply(ref.state, ref.seat_of[player.id], text)
    fights = any(ev["type"] == "fight" for ev in events)
    assert f"Ready to play **`{text}`**" in text_of(ready)
    assert [a.filename for a in ready.attachments] == ([] if fights else ["preview.png"])
    ref.check()
    await player.click(picker, label="Confirm")


async def start_deployed_match(world):
    """A match with both armies deployed by typed /move (alice's panel left at its defaults). North starts."""
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob)
    await world.alice.click(panel.response, label="Post challenge")
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    match_id = match_id_of(thread)
    for member, seat in ((world.alice, 0), (world.bob, 1)):
        typed = await move(member, thread, match_id, deploy_text(seat))
        assert typed.ephemeral  # the deployment is echoed to its owner only
        assert typed.response.content == f"✅ You played `{deploy_text(seat)}` in match #{match_id}."
    return thread, match_id


async def test_move_autocomplete_lists_single_moves_and_orders_as_typed(world):
    thread, match_id = await start_deployed_match(world)

    async def suggested(member, typed):
        return [c["value"] for c in await member.autocomplete(thread, "move", "move", typed, match=match_id)]

    assert set(await suggested(world.bob, "b7-")) == {  # his 1/3/5 on b7 moves up to 5, in 3 directions
        "b7-b6", "b7-b5", "b7-b4", "b7-b3", "b7-b2", "b7-a6", "b7-c6", "b7-d5", "b7-e4", "b7-f3"}
    assert await suggested(world.alice, "") == []  # not her turn
    await move(world.bob, thread, match_id, "b7-b4")

    orders = await suggested(world.alice, "order")
    assert len(orders) == 19 and all(o.startswith("order ") for o in orders)
    assert await suggested(world.alice, "order N c1") == [
        "order N c1-c2 d1-d2", "order N c1-c2 d1-d3", "order N c1-c2 d1-d4"]
    assert await suggested(world.alice, "ORDER n b1") == [  # any case; b1 comes first on rank 1 (file a→f)
        "order N b1-b2 c1-c2", "order N b1-b2 c1-c2 d1-d2", "order N b1-b2 c1-c2 d1-d3", "order N b1-b2 c1-c2 d1-d4"]
    assert await suggested(world.bob, "order") == []


async def test_closed_dms_player_deploys_from_the_boards_move_button(world):
    close_dms(world, world.bob)
    tap = Wiretap(world)
    ref = Referee(world, tap)
    panel = await post_challenge_with_options(world, memory="on")
    await world.alice.click(panel.response, label="Post challenge")
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    match_id = match_id_of(thread)
    board = board_posts(thread)[-1]
    ref.check()

    picker = await world.bob.click(board, label="Move")  # no DM, no My view: the board's Move opens his setup
    assert picker.ephemeral
    await deploy_in_picker(world, ref, world.bob, picker.response, 1)
    ref.play(1, deploy_text(1))
    assert text_of(thread.last_message).startswith("🔒 **bob** has made a secret setup move. Still setting up: "
                                                  f"{world.alice.mention}")
    ref.check()

    mine = await world.bob.click(board, label="My view")  # the invitation still waited for him, now without a button
    assert "📬 Your Myrmidons match" in text_of(mine.response) and not buttons(mine.response)
    ref.check()
    assert (await private_channels(world, match_id))[world.bob.id] == "ephemeral"


async def test_setup_button_in_a_dm_survives_a_restart(world):
    panel = await world.alice.slash(world.channel, "play", game="myrmidons", opponent=world.bob)
    await world.alice.click(panel.response, label="Post challenge")
    await world.bob.click(world.channel.last_message, label="Accept")
    invitation = world.alice.user.dm_channel.last_message

    await world.restart()

    opened = await world.alice.user.click(invitation, label="Set up in private")
    assert opened.ephemeral and "Which piece stands on a1?" in text_of(opened.response)
