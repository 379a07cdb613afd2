"""What an operator can scrape and probe: the bot's metrics in Prometheus' text format (`/metrics`) and its health
(`/health`), served on the bot's own event loop by aiohttp (discord.py's own HTTP library) when
STRATEGOS_METRICS_PORT is set. Otherwise nothing is measured and nothing listens (docs/operating.md, "Metrics and
health").

Each bot has a registry of its own, so that several bots in one process (the tests) never clash. The measured parts
know nothing of Prometheus: each is handed one plain function at start-up (`Metrics.watch`) and calls it."""

from __future__ import annotations

import asyncio
import os
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.presenters import pictures
from bot.storage.driver import ERROR_KINDS

if TYPE_CHECKING:
    from bot.app import StrategosBot

HEALTH_TIMEOUT = 2.0  # seconds the database has to answer the health check's trivial query


class EndpointError(Exception):
    """The endpoint cannot listen where the settings say; the message is one line that says what to do."""


class Metrics:
    """One bot's metrics, and the functions its parts call to move them."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.acknowledge_seconds = Histogram(
            "strategos_interaction_acknowledge_seconds",
            "Time from Discord creating an interaction (a command, a click) to the bot acknowledging it; Discord "
            "fails the interaction after 3 s", buckets=(0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5), registry=registry)
        self.moves = Counter("strategos_moves_committed", "Move log entries committed (moves, forced moves, "
                             "resignations, draws, time-outs, take-backs)", registry=registry)
        self.unit_seconds = Histogram(
            "strategos_unit_seconds", "Time to write one action's unit of work (state, log entry, clocks, ratings, "
            "announcement) to the database", buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                      2.5, 5), registry=registry)
        self.render_queue = Gauge("strategos_render_queue_depth", "Pictures waiting for a picture worker",
                                  registry=registry)
        self.render_queue.set_function(lambda: pictures.QUEUE.waiting)  # the queue this process draws with now
        self.picture_seconds = Histogram(
            "strategos_picture_seconds", "Time a picture worker took to draw one picture (a board, a rules diagram, "
            "a rating chart)", buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10), registry=registry)
        self.timer_late_seconds = Histogram(
            "strategos_timer_late_seconds", "Timers that fell due and fired (deadlines, reminders, challenge "
            "expiries, computer turns, league steps), by how late after their due time",
            buckets=(1, 2, 5, 10, 30, 60, 300, 3600), registry=registry)
        self.database_errors = Counter("strategos_database_errors", "Database calls that failed, by kind",
                                       ["kind"], registry=registry)
        for kind in ERROR_KINDS:
            self.database_errors.labels(kind)  # every kind scraped from the start, at 0

    def watch(self, bot: StrategosBot) -> None:
        """Hand each measured part of `bot` the function it calls."""
        bot.matches.actions.on_commit = self.committed
        bot.matches.timers.on_fire = self.fired
        bot.repo.driver.on_error = self.failed
        pictures.QUEUE.on_drawn.append(self.drawn)

    def unwatch(self) -> None:
        """The picture queue is the process's: a bot that stops measuring leaves it."""
        if self.drawn in pictures.QUEUE.on_drawn:
            pictures.QUEUE.on_drawn.remove(self.drawn)

    # --- what the parts call ---------------------------------------------------------------------------------

    def acknowledged(self, created_at: datetime) -> None:
        """An interaction Discord created at `created_at` (its id says when) was acknowledged just now."""
        self.acknowledge_seconds.observe(max(0.0, (discord.utils.utcnow() - created_at).total_seconds()))

    def committed(self, seconds: float) -> None:
        self.moves.inc()
        self.unit_seconds.observe(seconds)

    def drawn(self, seconds: float) -> None:
        self.picture_seconds.observe(seconds)

    def fired(self, late: float) -> None:
        self.timer_late_seconds.observe(max(0.0, late))

    def failed(self, kind: str) -> None:
        self.database_errors.labels(kind).inc()


class Endpoint:
    """`/metrics` and `/health` on `host`:`port` (0: any free one; `port` tells which after `start`)."""

    def __init__(self, bot: StrategosBot, metrics: Metrics, host: str, port: int, *,
                 health_timeout: float = HEALTH_TIMEOUT):
        self.bot, self.metrics, self.host, self.port = bot, metrics, host, port
        self.health_timeout = health_timeout
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/health", self._health)
        self._runner = web.AppRunner(app, access_log=None)  # a scrape every few seconds is no news for the log

    async def start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            said = os.strerror(exc.errno) if exc.errno else str(exc)  # asyncio's own words repeat the address
            raise EndpointError(f"cannot serve metrics and health on {self.host}:{self.port} ({said}); choose "
                                "another STRATEGOS_METRICS_PORT or STRATEGOS_METRICS_HOST") from None
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        self.metrics.unwatch()
        await self._runner.cleanup()

    async def problem(self) -> str | None:
        """None when the bot is connected to Discord and its database answers; else one line saying what is not."""
        bot = self.bot
        if bot.is_closed() or bot.matches.closing:
            return "the bot is stopping"
        if not bot.is_ready():
            return "not connected to Discord yet"
        closed = sorted(shard_id for shard_id, shard in bot.shards.items() if shard.is_closed())
        if closed:
            shards = ("shards " if len(closed) > 1 else "shard ") + ", ".join(map(str, closed))
            return f"disconnected from Discord ({shards})"
        try:
            await asyncio.wait_for(bot.repo.ping(), self.health_timeout)
        except asyncio.TimeoutError:
            return f"the database did not answer within {self.health_timeout:g} s"
        except Exception as exc:
            said = " ".join(str(exc).split())
            return f"the database did not answer ({type(exc).__name__}{': ' + said if said else ''})"
        return None

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.metrics.registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, request: web.Request) -> web.Response:
        problem = await self.problem()
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=problem + "\n")


async def serve(bot: StrategosBot) -> Endpoint | None:
    """Measure `bot` and serve its endpoint, when its settings ask for one (None otherwise)."""
    address = bot.settings.metrics_address
    if address is None:
        return None
    metrics = Metrics()
    endpoint = Endpoint(bot, metrics, *address)
    await endpoint.start()
    metrics.watch(bot)
    return endpoint
