"""Discord's rate limits, modelled (benchmarks/discord_model.py), and the bot's pacing under them
(bot/presenters/pacing.py): discord.py's real HTTP client against the model on loopback, on a virtual clock that
jumps to the next timer whenever nothing else can happen, so a burst of minutes takes a moment and every run sees
the same times."""

from __future__ import annotations

import asyncio
import io
import itertools
import selectors
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import HTTPClient, Route, handle_message_parameters

from benchmarks import discord_model, limited_bursts
from benchmarks.discord_model import DiscordModel
from bot.presenters.pacing import Pacer, Urgency, is_exempt, urgency


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock stands still while anything is ready and jumps to the next timer when nothing is.
    Only for programs whose every input is this loop's own sockets (a client and server in one loop): nothing
    else can wake it."""

    def __init__(self) -> None:
        super().__init__(selectors.DefaultSelector())
        self._virtual = 0.0
        real = self._selector.select

        def select(timeout: float | None = None) -> Any:
            events = real(0)
            if events or timeout == 0:
                return events
            if timeout is None:
                return real(None)
            self._virtual += timeout
            return []

        self._selector.select = select  # type: ignore[method-assign]

    def time(self) -> float:
        return self._virtual


def run_virtual(main: Any) -> Any:
    loop = VirtualClockLoop()
    try:
        return loop.run_until_complete(main)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


async def client_of(model: DiscordModel, pacer: Pacer | None) -> tuple[HTTPClient, Any]:
    """discord.py's HTTP client, paced by `pacer` (or not at all), logged in against `model` on loopback."""
    runner, base = await discord_model.serve(model)
    limited_bursts.point_discord_at(base)
    http = HTTPClient(asyncio.get_running_loop(), connector=aiohttp.TCPConnector(limit=0),
                      http_trace=pacer.trace_config() if pacer else None)
    await http.static_login("modelled")
    return http, runner


@pytest.fixture(autouse=True)
def discord_base():
    """The tests point discord.py at their model; everything else keeps discord.com."""
    base = Route.BASE
    yield
    limited_bursts.point_discord_at(base)


def board(match_id: int, version: int) -> dict[str, Any]:
    """A board post's parameters: its picture and a button that names its match and version."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Move", custom_id=f"sg:b:{match_id}:{version}:move"))
    return {"content": f"match {match_id} version {version}", "view": view,
            "file": discord.File(io.BytesIO(b"\x89PNG"), filename="board.png")}


async def post(http: HTTPClient, channel_id: int, **fields: Any) -> Any:
    with handle_message_parameters(**fields) as params:
        return await http.send_message(channel_id, params=params)


async def edit(http: HTTPClient, channel_id: int, message_id: int, content: str) -> Any:
    with handle_message_parameters(content=content) as params:
        return await http.edit_message(channel_id, message_id, params=params)


def test_the_model_refuses_what_comes_too_fast_with_discords_429():
    """Unpaced, 120 posts at once in 40 channels go past the global limit: some are refused with 429 and
    retry_after (discord.py waits and retries them), every refusal counted as an invalid request."""
    async def main() -> DiscordModel:
        model = DiscordModel()
        http, runner = await client_of(model, None)
        try:
            await asyncio.gather(*(post(http, 100 + i % 40, content="hello") for i in range(120)))
        finally:
            await http.close()
            await runner.cleanup()
        return model

    model = run_virtual(main())
    assert model.stats.by_route["POST message"] == 120  # every post got through in the end
    assert model.stats.global_429 > 0 and model.stats.requests_429 == len(model.stats.invalid)


def test_a_channel_takes_five_messages_in_five_seconds():
    """Twelve posts in one channel: discord.py paces them by the bucket headers the model sends, so none is
    refused, and they take the two resets of the channel's bucket."""
    async def main() -> tuple[DiscordModel, float]:
        model = DiscordModel()
        http, runner = await client_of(model, Pacer())
        start = asyncio.get_running_loop().time()
        try:
            for _ in range(12):
                await post(http, 7, content="hello")
        finally:
            await http.close()
            await runner.cleanup()
        return model, asyncio.get_running_loop().time() - start

    model, took = run_virtual(main())
    assert model.stats.by_route["POST message"] == 12 and model.stats.requests_429 == 0
    assert 10.0 <= took < 11.0


def test_paced_requests_stay_under_the_global_limit_with_no_429():
    async def main() -> DiscordModel:
        model = DiscordModel()
        http, runner = await client_of(model, Pacer())
        try:
            await asyncio.gather(*(post(http, 100 + i, content="hello") for i in range(300)))
        finally:
            await http.close()
            await runner.cleanup()
        return model

    model = run_virtual(main())
    assert model.stats.by_route["POST message"] == 300 and model.stats.requests_429 == 0
    times = model.stats.limited_at
    assert all(later - earlier > 1.0 for earlier, later in zip(times, times[50:]))  # never 51 in a second


def test_boards_and_answers_go_before_cosmetic_edits():
    """Cosmetic edits asked first still wait behind the boards and answers asked after them."""
    async def main() -> list[str]:
        model = DiscordModel()
        pacer = Pacer()
        http, runner = await client_of(model, pacer)
        order: list[str] = []

        async def send(kind: str, level: Urgency, i: int) -> None:
            with urgency(level):
                if kind == "grey":
                    await edit(http, 1000 + i, 1, "greyed")
                else:
                    await post(http, 2000 + i if kind == "board" else 3000 + i, content=kind)
            order.append(kind)

        try:
            greys = [asyncio.create_task(send("grey", Urgency.COSMETIC, i)) for i in range(90)]
            await asyncio.sleep(0)
            rest = [asyncio.create_task(send("board", Urgency.BOARD, i)) for i in range(60)]
            rest += [asyncio.create_task(send("answer", Urgency.ANSWER, i)) for i in range(30)]
            await asyncio.gather(*greys, *rest)
        finally:
            await http.close()
            await runner.cleanup()
        assert model.stats.requests_429 == 0
        return order

    order = run_virtual(main())
    last_urgent = max(i for i, kind in enumerate(order) if kind != "grey")
    assert order.count("grey") == 90
    assert order[:last_urgent + 1].count("grey") <= 45  # only the first second's turns went to greying
    assert order.index("answer") < order.index("board") or order[:30].count("answer") == 30


def test_injected_429s_never_earn_a_ban_and_every_board_arrives_in_order():
    """Discord refuses now and then whatever the client does (sub-limits, its own hiccups): 40 refusals of each
    kind spread over a burst of 600 boards. The bot waits them out, sends nothing twice or out of order, and
    the invalid requests stay those 80 refusals: at most 100 in 10 minutes (Discord bans at 10,000)."""
    async def main() -> DiscordModel:
        model = DiscordModel()
        http, runner = await client_of(model, Pacer())

        async def match(match_id: int) -> None:  # a match's boards go one after the other, as its bus sends them
            for version in range(1, 7):
                await post(http, 10_000 + match_id, **board(match_id, version))

        async def hiccups() -> None:
            for scope in itertools.islice(itertools.cycle(["user", "global", "shared"]), 120):
                model.refuse_next(1, scope)
                await asyncio.sleep(0.1)

        try:
            await asyncio.gather(hiccups(), *(match(m) for m in range(100)))
        finally:
            await http.close()
            await runner.cleanup()
        return model

    model = run_virtual(main())
    stats = model.stats
    assert stats.injected_429 == 120 and stats.requests_429 == 120  # none of the bot's own making
    assert stats.invalid_max() == 80 <= 100
    versions: dict[int, list[int]] = {}
    for arrival in stats.boards:
        versions.setdefault(arrival.match_id, []).append(arrival.version or 0)
    assert len(versions) == 100 and all(v == [1, 2, 3, 4, 5, 6] for v in versions.values())


def test_a_pile_of_refusals_slows_the_pace_to_one_a_second():
    async def main() -> list[float]:
        pacer = Pacer(invalid_budget=10)
        for _ in range(10):
            pacer.forbidden()
        times = []
        for _ in range(3):
            await pacer.turn()
            times.append(asyncio.get_running_loop().time())
        return times

    times = run_virtual(main())
    assert times[1] - times[0] >= 1.0 and times[2] - times[1] >= 1.0


def test_a_global_429_stops_every_turn_until_its_retry_after():
    async def main() -> float:
        pacer = Pacer()
        pacer.refused(3.0, everything=True)
        await pacer.turn(Urgency.ANSWER)
        return asyncio.get_running_loop().time()

    assert run_virtual(main()) >= 3.0


def test_each_process_paces_at_its_shards_share_of_the_global_limit():
    assert Pacer.for_shards(None, None).rate == Pacer.for_shards(4, 4).rate == 40
    assert Pacer.for_shards(1, 4).rate == 10 and Pacer.for_shards(2, 4).rate == 20
    assert Pacer.for_shards(1, 64).rate == 1


@pytest.mark.parametrize("path, exempt", [
    ("/api/v10/interactions/123/tok-en/callback", True),
    ("/api/v10/webhooks/9/tok-en", True),
    ("/api/v10/webhooks/9/tok-en/messages/@original", True),
    ("/api/v10/channels/5/messages", False),
    ("/api/v10/channels/5/messages/6", False),
    ("/api/v10/users/@me/channels", False),
])
def test_interaction_callbacks_and_webhooks_are_exempt(path, exempt):
    assert is_exempt(path) is exempt


async def test_the_real_bot_posts_each_board_as_its_moves_answer_within_the_limits(tmp_path):
    """A small burst through the real bot (cogs, views, presenters, discord.py's client): every move from the
    match's thread gets its board as the interaction's public answer, in the thread and in order; only the old
    boards' greying (and a secret setup's redraw) are limited requests, and none is refused."""
    model = DiscordModel()
    runner, base = await discord_model.serve(model)
    limited_bursts.point_discord_at(base)
    bot = await limited_bursts.logged_in_bot(tmp_path / "bot.db")
    try:
        started = await limited_bursts.start_matches(bot, ["epaminondas", "archimedes", "myrmidons"], 6)
        plans = await limited_bursts.plan_moves(bot.matches, started, seed=0)
        times = await limited_bursts.run_burst(bot, limited_bursts.ModelClient(base), plans)
    finally:
        await bot.close()
        await runner.cleanup()
    assert times.requests_429 == 0 and not times.unmodelled
    assert times.expected == times.answers == sum(len(v) for v in times.boards.values()) >= 4
    assert times.in_order and times.limited_per_move <= 1.2
    assert len(times.ack) == 3 and len(times.picker_ack) == 6  # every interaction answered
    for match in started:  # the answers are messages of the thread
        if match.id not in times.boards:
            continue  # a secret setup move: its line is the answer
        answered = [model.messages[i] for i in model.channel_messages[match.thread_id]
                    if model.messages[i]["attachments"] and model.messages[i].get("webhook_id")]
        assert answered
        for message in answered:  # each one Components V2 layout, no content
            assert message["flags"] & 1 << 15 and not message["content"]
