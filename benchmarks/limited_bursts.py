"""Bursts under Discord's limits: the real bot (its cogs, views, presenters and discord.py's HTTP client with its
own rate-limit handling) against the modelled Discord of `discord_model.py`, which refuses what comes too fast.

Interactions reach the bot as gateway events do (`parse_interaction_create`), from the match's thread: half of the
matches get a `/move`, half a Move click on their board, then (the player's choices made, never timed) Confirm on
the picker. "Acknowledged" is the interaction's arrival → the bot sending its callback (the bot's own part; "at
Discord": until the modelled Discord has it, in its own process on the same cores); "board" is the arrival of
the interaction that made the move → the board reaching Discord (as a thread message or as the interaction's
answer). A limited request is any request but interaction callbacks and interaction webhooks.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import aiohttp
import discord

from bot.app import StrategosBot, create_bot
from bot.domain import Match
from bot.matches.service import MatchService
from bot.settings import Settings

from . import discord_model
from .discord_model import APPLICATION_ID, GUILD_ID, interaction_token

CHANNEL_ID = 2  # the channel the challenges are posted in; each match plays in a thread of its own beside it
GLOBAL_RATE = 50  # Discord's global limit, a second: the floor of a burst is its limited requests at this rate


@dataclass
class LimitedTimes:
    ack: list[float] = field(default_factory=list)  # arrival → the bot sends its callback
    picker_ack: list[float] = field(default_factory=list)
    ack_at_discord: list[float] = field(default_factory=list)  # arrival → the callback reaches Discord, any kind
    board: list[float] = field(default_factory=list)
    boards: dict[int, list[int]] = field(default_factory=dict)  # match → versions of its boards, in arrival order
    moves: int = 0
    expected: int = 0  # moves that call for a board
    limited: int = 0
    requests_429: int = 0
    global_429: int = 0
    invalid_max: int = 0  # the most invalid requests in any 10 minutes
    answers: int = 0  # boards posted as an interaction's answer
    unmodelled: list[str] = field(default_factory=list)
    wall: float = 0.0
    replayed_ok: bool = False

    @property
    def limited_per_move(self) -> float:
        return self.limited / self.moves if self.moves else 0.0

    @property
    def floor_ms(self) -> float:
        return self.limited / GLOBAL_RATE * 1000

    @property
    def in_order(self) -> bool:
        return all(v == sorted(set(v)) for v in self.boards.values())


class ModelClient:
    """The modelled Discord as the benchmark sees it: its stats and its limits switch, over HTTP."""

    def __init__(self, base: str):
        self.base = base
        self.root = base.rsplit("/api/", 1)[0]

    async def stats(self) -> dict[str, Any]:
        async with aiohttp.ClientSession() as session, session.get(f"{self.root}/_model/stats") as response:
            return await response.json()

    async def limits(self, on: bool) -> None:
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{self.root}/_model/limits", json={"limits": on}) as response:
                await response.read()


def _run_model(pipe: Any) -> None:
    try:  # Discord answers from machines of its own: here it goes before the other work on these cores
        os.nice(-5)
    except OSError:
        pass

    async def main() -> None:
        model = discord_model.DiscordModel(limits=False)
        runner, base = await discord_model.serve(model)
        pipe.send(base)
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # until told to stop
        await runner.cleanup()

    asyncio.run(main())


class ModelProcess:
    """The modelled Discord in a process of its own (as Discord is not in the bot's process), on loopback."""

    def __enter__(self) -> ModelClient:
        context = multiprocessing.get_context("spawn")
        self._pipe, child = context.Pipe()
        self._process = context.Process(target=_run_model, args=(child,), daemon=True)
        self._process.start()
        return ModelClient(self._pipe.recv())

    def __exit__(self, *exc: Any) -> None:
        self._pipe.send("stop")
        self._process.join(10)


def point_discord_at(base: str) -> None:
    """Every REST call and interaction webhook of discord.py goes to `base` instead of discord.com."""
    discord.http.Route.BASE = base


SENT: dict[int, float] = {}  # interaction id → when the bot sent its first answer (its callback)
_CALLBACK = re.compile(r"/interactions/(\d+)/")


async def _callback_sent(session: Any, context: Any, params: aiohttp.TraceRequestStartParams) -> None:
    if found := _CALLBACK.search(params.url.path):
        SENT.setdefault(int(found.group(1)), asyncio.get_running_loop().time())


async def logged_in_bot(database: Path | str, *, seed: int = 1) -> StrategosBot:
    """The real bot, logged in against the modelled Discord (no gateway: interactions are handed to it)."""
    seeds = itertools.count(seed)
    bot = create_bot(Settings(token="modelled", database=database), seed_source=lambda: next(seeds),
                      replay_at_end=False)
    bot.http.http_trace.on_request_start.append(_callback_sent)  # type: ignore[union-attr]  # the pacer's hooks
    await bot.login("modelled")
    # the server is in the cache as the gateway would put it: the bot is a member there, so its matches play in
    # threads (a server missing from the cache is a conversation, bot/presenters/conversation.py)
    state = bot._connection
    state._add_guild(discord.Guild(data={"id": str(GUILD_ID), "name": "Strategos benchmark"},  # type: ignore[typeddict-item]
                                   state=state))
    return bot


# --- interactions as the gateway delivers them ---------------------------------------------------------------

_ids = itertools.count(10**17)


def _member(user_id: int) -> dict[str, Any]:
    return {"user": {"id": str(user_id), "username": f"member{user_id}", "discriminator": "0", "avatar": None,
                     "global_name": None}, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
            "mute": False, "flags": 0, "permissions": "2248473465835073"}


def _interaction(kind: int, user_id: int, channel_id: int, data: dict[str, Any],
                 message: dict[str, Any] | None = None) -> dict[str, Any]:
    interaction_id = next(_ids)
    payload = {
        "id": str(interaction_id), "application_id": str(APPLICATION_ID), "type": kind, "version": 1,
        "token": interaction_token(interaction_id, channel_id, int(message["id"]) if message else 0),
        "channel_id": str(channel_id), "guild_id": str(GUILD_ID), "guild_locale": "en-US", "locale": "en-US",
        "channel": {"id": str(channel_id), "type": 11, "guild_id": str(GUILD_ID), "parent_id": str(CHANNEL_ID),
                    "name": "match", "owner_id": str(discord_model.BOT_USER_ID), "rate_limit_per_user": 0,
                    "message_count": 0, "member_count": 0, "flags": 0,
                    "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "locked": False,
                                        "archive_timestamp": "2026-12-01T00:00:00+00:00"}},
        "member": _member(user_id), "data": data, "app_permissions": "2248473465835073", "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0, "attachment_size_limit": 10485760,
    }
    if message is not None:
        payload["message"] = message
    return payload


def _message(message_id: int, channel_id: int, *, flags: int = 0, custom_id: str | None = None) -> dict[str, Any]:
    return {"id": str(message_id), "channel_id": str(channel_id), "author": discord_model._user(
        discord_model.BOT_USER_ID, bot=True), "content": "", "timestamp": "2026-12-01T00:00:00+00:00",
        "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
        "attachments": [], "embeds": [], "pinned": False, "type": 0, "flags": flags,
        "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "button", "custom_id": custom_id}]}]
        if custom_id else []}


def slash_move(user_id: int, match: Match, move: str) -> dict[str, Any]:
    assert match.thread_id is not None
    return _interaction(2, user_id, match.thread_id, {
        "id": "1", "name": "move", "type": 1,
        "options": [{"name": "match", "type": 4, "value": match.id}, {"name": "move", "type": 3, "value": move}]})


def click(user_id: int, channel_id: int, message_id: int, custom_id: str, *, flags: int = 0) -> dict[str, Any]:
    return _interaction(3, user_id, channel_id, {"custom_id": custom_id, "component_type": 2},
                        _message(message_id, channel_id, flags=flags, custom_id=custom_id))


# --- a burst ------------------------------------------------------------------------------------------------------


@dataclass
class Plan:
    """What one match's player does in the burst, decided before it (her thinking is never timed)."""

    match: Match
    user_id: int
    move: str
    picker_path: list[str] | None  # through the picker: the options she picks, in order


async def plan_moves(service: MatchService, matches: Sequence[Match], seed: int) -> list[Plan]:
    plans = []
    for i, match in enumerate(matches):
        rng = random.Random(seed * 100_003 + i)
        game, state = service.game_of(match), service.state_of(match)
        seat = rng.choice(game.to_act(state))
        user = match.user_of(seat)
        assert user is not None
        if i % 2 == 0:
            plans.append(Plan(match, user, rng.choice(game.legal_moves(state, seat)), None))
            continue
        path: list[str] = []
        while True:
            step = await service.picker_step(match.id, user, path, version=match.version,
                                             simultaneous=service.in_secret_setup(match), loaded=match)
            if step.choices.move is not None and (not step.choices.options or rng.random() < 0.5):
                plans.append(Plan(match, user, step.choices.move, path))
                break
            path.append(rng.choice(step.choices.options).value)
    return plans


async def start_matches(bot: StrategosBot, keys: Sequence[str], count: int, first_user: int = 1000) -> list[Match]:
    """`count` matches started as the challenge buttons start them; their threads and first boards posted."""
    service = bot.matches
    before = set(asyncio.all_tasks())
    started = []
    for i in range(count):
        challenger, opponent = first_user + 2 * i, first_user + 2 * i + 1
        challenge = await service.create_challenge(
            guild_id=GUILD_ID, channel_id=CHANNEL_ID, challenger_id=challenger, challenger_name="Alexandra",
            game_key=keys[i % len(keys)], invited=[opponent])
        challenge = await service.accept_challenge(challenge.id, opponent, "Bartholomew")
        started.append(challenge.match_id)
    await quiet(bot, before)
    return [await service.get_match(match_id) for match_id in started]


async def quiet(bot: StrategosBot, before: set[asyncio.Task], poll: float = 0.05) -> None:
    """Wait until every task started since `before` has ended and the bus has nothing left to show."""
    me = asyncio.current_task()
    while True:
        await bot.matches.outbox.idle()
        await bot.matches.bus.idle()
        busy = [t for t in asyncio.all_tasks() - before if t is not me and not t.done() and not _standing(t)]
        if not busy:
            return
        await asyncio.wait(busy, timeout=poll)


async def run_burst(bot: StrategosBot, model: ModelClient, plans: Sequence[Plan], *,
                    limits: bool = True) -> LimitedTimes:
    """Every planned move at the same instant; returns what Discord saw, when."""
    state = bot._connection
    sessions: dict[str, Any] = bot.ui_state.setdefault("pickers", {})  # type: ignore[assignment]
    arrived: dict[int, float] = {}  # interaction id → when it reached the bot
    made_by: dict[int, int] = {}  # match id → the interaction that made its move
    kinds: dict[int, str] = {}
    loop = asyncio.get_running_loop()

    def deliver(payload: dict[str, Any], kind: str, match_id: int | None = None) -> None:
        interaction_id = int(payload["id"])
        arrived[interaction_id] = loop.time()
        kinds[interaction_id] = kind
        if match_id is not None:
            made_by[match_id] = interaction_id
        state.parsers["INTERACTION_CREATE"](payload)  # as the gateway's websocket hands it on

    async def through_picker(plan: Plan) -> None:
        match = plan.match
        assert match.thread_id is not None and match.board_message_id is not None
        deliver(click(plan.user_id, match.thread_id, match.board_message_id,
                      f"sg:b:{match.id}:{match.version}:move"), "picker")
        while (session := _session(sessions, match.id, plan.user_id)) is None:
            await asyncio.sleep(0.01)
        session.path = list(plan.picker_path or [])  # her choices in the menus
        deliver(click(plan.user_id, match.thread_id, next(_ids), f"sg:p:{session.id}:confirm", flags=64),
                "picker", match.id)

    await model.limits(limits)  # and forget what the set-up asked of it
    before = set(asyncio.all_tasks())
    t0 = loop.time()
    waiting = []
    for plan in plans:
        if plan.picker_path is None:
            deliver(slash_move(plan.user_id, plan.match, plan.move), "move", plan.match.id)
        else:
            waiting.append(asyncio.create_task(through_picker(plan), name="burst-picker"))
    await asyncio.gather(*waiting)
    await quiet(bot, before)
    times = LimitedTimes(moves=len(plans), wall=loop.time() - t0)
    stats = await model.stats()
    await model.limits(False)
    for interaction_id, kind in kinds.items():
        answered, sent = stats["callbacks"].get(str(interaction_id)), SENT.get(interaction_id)
        if sent is not None:
            (times.ack if kind == "move" else times.picker_ack).append(sent - arrived[interaction_id])
        if answered is not None:
            times.ack_at_discord.append(answered - arrived[interaction_id])
    for board in stats["boards"]:
        match_id = board["match_id"]
        if match_id not in made_by or board["version"] is None and match_id in times.boards:
            continue
        times.boards.setdefault(match_id, []).append(10**9 if board["version"] is None else board["version"])
        times.board.append(board["at"] - arrived[made_by[match_id]])
        times.answers += board["answer"]
    for plan in plans:
        after = await bot.matches.get_match(plan.match.id)
        times.expected += after.board_message_id != plan.match.board_message_id
    times.limited, times.requests_429 = stats["limited"], stats["requests_429"]
    times.global_429, times.unmodelled = stats["global_429"], stats["unmodelled"]
    times.invalid_max = discord_model.Stats(invalid=stats["invalid"]).invalid_max()
    return times


def _standing(task: asyncio.Task) -> bool:
    """A task that waits for work rather than does it: the bot's timers, a model's connection (in the tests)."""
    return task.get_name() == "timer-dispatcher" or getattr(task.get_coro(), "__qualname__", "") == \
        "RequestHandler.start"


def _session(sessions: dict[str, Any], match_id: int, user_id: int) -> Any:
    return next((s for s in sessions.values() if s.match_id == match_id and s.user_id == user_id), None)


def limited_json(database: str, results: list[tuple[int, LimitedTimes]], percentile: Any) -> list[str]:
    def p99(ms: Sequence[float]) -> float | None:
        return round(percentile([s * 1000 for s in ms], 99), 1) if ms else None

    return [json.dumps({
        "bench": "burst", "database": database, "matches": matches, "discord_limits": True,
        "ack_p99_ms": p99(t.ack), "picker_ack_p99_ms": p99(t.picker_ack),
        "ack_at_discord_p99_ms": p99(t.ack_at_discord), "board_p99_ms": p99(t.board),
        "floor_ms": round(t.floor_ms, 1), "limited_requests_per_move": round(t.limited_per_move, 3),
        "requests_429": t.requests_429, "invalid_max_10min": t.invalid_max,
        "boards": sum(len(v) for v in t.boards.values()), "expected_boards": t.expected,
        "boards_as_answers": t.answers, "in_order": t.in_order, "replayed_ok": t.replayed_ok,
        "unmodelled": len(t.unmodelled), "wall_s": round(t.wall, 1),
    }) for matches, t in results]


async def bench_limited(directory: Path, bursts: Sequence[int], keys: Sequence[str],
                        all_replay: Any) -> list[tuple[int, LimitedTimes]]:
    """Each burst on a fresh bot and database, against one modelled Discord in its own process."""
    results = []
    with ModelProcess() as model:
        point_discord_at(model.base)
        for n, matches in enumerate(bursts):
            bot = await logged_in_bot(directory / f"limits-{n}.db")
            try:
                started = await start_matches(bot, keys, matches)
                plans = await plan_moves(bot.matches, started, seed=n)
                times = await run_burst(bot, model, plans)
                times.replayed_ok = await all_replay(bot.matches, [m.id for m in started])
                results.append((matches, times))
            finally:
                await bot.close()
    return results


def limited_table(results: list[tuple[int, LimitedTimes]], percentile: Any) -> list[str]:
    lines = ["| matches moving at once | limited requests per move | floor | board p99 | acknowledged p99 | picker "
             "acknowledged p99 | at Discord p99 | 429s | invalid (10 min) | boards | as answers |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for matches, t in results:
        def p99(seconds: list[float]) -> str:
            return f"{percentile([s * 1000 for s in seconds], 99):,.0f} ms" if seconds else "–"
        made = sum(len(v) for v in t.boards.values())
        lines.append(f"| {matches} | {t.limited_per_move:.2f} | {t.floor_ms:,.0f} ms | {p99(t.board)} | "
                     f"{p99(t.ack)} | {p99(t.picker_ack)} | {p99(t.ack_at_discord)} | {t.requests_429} | "
                     f"{t.invalid_max} | {made} of "
                     f"{t.expected}{', in order' if t.in_order else ', OUT OF ORDER'} | {t.answers} |")
    return lines
