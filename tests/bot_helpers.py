"""Helpers for the SimCord tests: act as users, read what they see."""

from __future__ import annotations

import asyncio
import inspect
import re

import discord

from bot.i18n import ENGLISH, LANGUAGES, t
from bot.presenters.layout import text_of as layout_text, walk
from bot.presenters.pictures import RenderQueue
from bot.views.challenge import POSTED

# Found with the engines by a greedy search over seeded games (both sides cooperating); each is a whole game.
EPAMINONDAS_LIGHT_WINS = ["a1-d4", "f12-f9", "c1-c6", "d12-i7", "c4-c9", "g9-l4", "c7xc11", "j6xn2", "c9-c12",
                          "a12xc12", "c10xc12", "h11-i10"]
ARCHIMEDES_BLACK_WINS = ["d1-g1", "h5-h1", "a4-a5", "e7-e3", "c1-e1", "g6-g3", "d2-c1", "f6-c6", "b4-f4", "h1-d1",
                         "a5-e5", "c6-a4", "b2-d2", "g7-a1", "d2-a5"]


def components(message) -> list:
    """Every component of a message, nested ones included (a Components V2 layout's container and rows), as
    discord.py's objects or, for a simcord ResponseMessage, as the payload's dicts."""
    if message.components and isinstance(message.components[0], dict):
        from simcord.components import walk_components
        return list(walk_components(message.components))
    return list(walk(message.components))


def text_of(message) -> str:
    """What a message says: its content, or the words of its Components V2 layout's text displays."""
    parts = getattr(message, "components", None)  # a recorder's note of a post (simcord's Sent) has none
    if message.content or not parts:
        return message.content
    if not isinstance(parts[0], dict):
        return layout_text(message)
    from simcord.components import component_mentions
    return component_mentions(message.components)


def buttons(message) -> dict[str, discord.ui.Button]:
    """Label → button of a message (discord.Message or simcord ResponseMessage)."""
    found = {}
    for child in components(message):
        kind = child.get("type") if isinstance(child, dict) else getattr(child, "type", None)
        if kind not in (2, discord.ComponentType.button):
            continue
        label = child.get("label") if isinstance(child, dict) else getattr(child, "label", None)
        if label:
            found[label] = child
    return found


def challenge_id_of(post) -> int:
    """The challenge a challenge post acts on: its buttons' custom ids name it."""
    button = buttons(post)["Accept"]
    custom_id = button.get("custom_id") if isinstance(button, dict) else button.custom_id
    return int(re.match(r"sg:c:(\d+):", custom_id).group(1))


def is_disabled(button) -> bool:
    return button.disabled if hasattr(button, "disabled") else bool(button.get("disabled"))


def thread_of(world, index: int = -1):
    return world.channel.threads[index]


def match_id_of(thread) -> int:
    return int(re.search(r"#(\d+)", thread.name).group(1))


def board_posts(thread) -> list[discord.Message]:
    return [m for m in thread.history() if m.attachments and any(a.filename == "board.png" for a in m.attachments)]


def posted_challenge(result) -> bool:
    """Whether /play posted its challenge: privately it says so (in the challenger's language), the challenge
    itself follows in public."""
    said = {t(lang, POSTED) for lang in (ENGLISH, *LANGUAGES)}
    return (result.ephemeral and result.response.content in said
            and len(result.followups) == 1 and not result.followups[0].ephemeral)


async def start_match(world, game: str, challenger, opponent):
    """/play, Accept; returns (thread, match id)."""
    result = await challenger.slash(world.channel, "play", game=game, opponent=opponent)
    assert posted_challenge(result), result.response.content
    post = world.channel.last_message
    await opponent.click(post, label="Accept")
    thread = thread_of(world)
    return thread, match_id_of(thread)


async def move(member, thread, match_id: int, text: str):
    return await member.slash(thread, "move", match=match_id, move=text)


async def play_moves(world, thread, match_id: int, moves: list[str], players) -> None:
    """Alternate /move between the players (seat 0 first), asserting each is accepted."""
    for i, text in enumerate(moves):
        result = await move(players[i % 2], thread, match_id, text)
        assert result.ephemeral
        assert result.response.content.startswith("✅"), result.response.content


def hold_renders(world, monkeypatch) -> asyncio.Event:
    """Every board render waits, as if stuck behind a thousand others, until the returned event is set."""
    gate = asyncio.Event()
    original = RenderQueue.run

    async def held(self, func, *args, **kwargs):
        await world.env.external_wait(gate.wait(), reason="a render stuck behind a thousand others")
        return await original(self, func, *args, **kwargs)

    monkeypatch.setattr(RenderQueue, "run", held)
    return gate


def stored(world, message) -> discord.Message:
    """The message as it is now (after edits), as the user's client would show it."""
    from simcord.results import to_discord_message

    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    return to_discord_message(world.env, world.env.backend.get_message(channel_id, message.id))


async def choose(world, member, message, value: str):
    """Pick `value` in whichever select menu of the (ephemeral) message offers it."""
    for comp in components(stored(world, message)):
        if isinstance(comp, discord.SelectMenu) and any(o.value == value for o in comp.options):
            return await member.select(message, [value], custom_id=comp.custom_id)
    raise AssertionError(f"no menu offers {value!r}")


async def open_match(world, game: str, members, **options):
    """/play by members[0] naming members[1:] (as many as the game has players), everyone accepts."""
    named = {"opponent": members[1]}
    if len(members) > 2:
        named["opponent2"] = members[2]
    if len(members) > 3:
        named["opponent3"] = members[3]
    result = await members[0].slash(world.channel, "play", game=game, players=len(members), **named, **options)
    if result.ephemeral and result.response.components:  # an options panel: post it with the defaults
        await members[0].click(result.response, label="Post challenge")
    post = world.channel.last_message
    for member in members[1:]:
        await member.click(post, label="Accept")
    thread = thread_of(world)
    return thread, match_id_of(thread)


async def play_out(world, thread, match_id, members, choose, *, restart_after=None, limit=600):
    """Play a match to its end through /move: `choose(game, state, seat, moves)` picks each move (the test's
    player thinking, read from the engine). Optionally restarts the bot after that many moves. Returns the
    number of moves played."""
    played = 0
    while played < limit:
        service = world.bot.matches
        match = await service.get_match(match_id)
        if not match.active:
            return played
        game, state = service.game_of(match), service.state_of(match)
        seat = game.to_act(state)[0]
        text = choose(game, state, seat, game.legal_moves(state, seat))
        result = await move(members[seat], thread, match_id, text)
        assert result.response.content.startswith("✅"), (text, result.response.content)
        played += 1
        if restart_after is not None and played == restart_after:
            await world.restart()
    raise AssertionError(f"match {match_id} did not end within {limit} moves")


class HeldDatabase:
    """Holds back every call into the bot's storage layer until released, to show that an interaction is
    acknowledged before anything waits on the database.

    It finds the storage objects by where their class lives (`bot.storage`), walking the bot's attributes, so it
    does not depend on what the store is called or how it is split; each of their coroutine methods is wrapped on
    the instance. A held call waits on an event, declared to SimCord as an outside input so the simulated Discord
    settles around it: `click`/`slash` return while the handler is still held.

        with HeldDatabase(world) as held:
            result = await world.bob.click(post, label="Move")
            assert result.acknowledged and held.calls
        await world.env.settle()   # released: the handler finishes
    """

    STORAGE_PACKAGE = "bot.storage"

    def __init__(self, world):
        self.env = world.env
        self.bot = world.bot
        self.calls: list[str] = []
        self._released = None
        self._wrapped: list[tuple[object, str]] = []

    def stores(self) -> list[object]:
        """Every object of the storage layer the bot reaches through its own objects' attributes."""
        found, seen, todo = [], set(), [self.bot]
        while todo:
            obj = todo.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if type(obj).__module__.startswith(self.STORAGE_PACKAGE):
                found.append(obj)
            todo += [value for value in getattr(obj, "__dict__", {}).values() if _ours(value)]
        return found

    def __enter__(self):
        self._released = asyncio.Event()
        for store in self.stores():
            for name, _ in inspect.getmembers(type(store), inspect.iscoroutinefunction):
                setattr(store, name, self._held(f"{type(store).__name__}.{name}", getattr(store, name)))
                self._wrapped.append((store, name))
        assert self._wrapped, "no storage object found on the bot"
        return self

    def _held(self, name, method):
        async def held(*args, **kwargs):
            if not self._released.is_set():
                self.calls.append(name)
                await self.env.external_wait(self._released.wait(), reason="the test holds the database back")
            return await method(*args, **kwargs)
        return held

    def __exit__(self, *exc_info):
        self._released.set()
        for store, name in self._wrapped:
            vars(store).pop(name, None)
        return False


def _ours(value) -> bool:
    return type(value).__module__.startswith("bot.")


def private_answer(result):
    """What a click told its user privately: a click that edits its own message is acknowledged as that edit,
    so a refusal comes as a private followup; anything else answers in its own response."""
    if result.followups:
        return result.followups[-1]
    return result.response


# --- what the bot stored, read through its own store (whichever database it runs on) ---------------------------


async def stored_match(world, match_id: int):
    """The match as the bot's store holds it now (state, version, status, clock)."""
    return await world.bot.repo.get_match(match_id)


async def moves_stored(world, match_id: int) -> int:
    """How many entries the match's move log holds."""
    return len(await world.bot.repo.moves(match_id))


async def private_channels(world, match_id: int) -> dict[int, str]:
    """Where each member's private messages of the match went last: "dm", "ephemeral" or still "pending"."""
    return {message.user_id: message.channel for message in await world.bot.repo.private_messages(match_id)}


class Clock:
    """A clock a test moves by hand: `clock.now += seconds`."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now
