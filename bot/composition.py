"""The composition root of the services: each part built once and handed to the parts that use it. No service
builds another, and nothing here needs Discord, so tools and tests compose the same graph as the bot
(bot/app.py adds the presenters and cogs).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Callable

from bot.matches import EventBus, MatchService, RateLimiter
from bot.matches.actions import MatchActions
from bot.matches.archive import MatchArchive
from bot.matches.boards import Boards
from bot.matches.challenges import DEFAULT_CHALLENGE_TTL, Challenges
from bot.matches.clocks import ClockKeeper
from bot.matches.events import MatchEvent
from bot.matches.endings import Endings
from bot.matches.league_rounds import LeagueRounds
from bot.matches.league_events import league_bus
from bot.matches.leagues import LeagueService
from bot.matches.locks import KeyedLocks
from bot.matches.outbox import Outbox
from bot.matches.rating_service import Ratings
from bot.matches.rematches import Rematches
from bot.matches.scope import ProcessScope
from bot.matches.server_settings import ServerSettings
from bot.matches.states import MatchStates
from bot.matches.takebacks import Takebacks
from bot.matches.timers import TimerDispatcher
from bot.matches.turns import Turns
from bot.storage import Repository


@dataclass(frozen=True)
class MatchGraph:
    """The match service as composed here, and the parts of it the other services are handed."""

    service: MatchService
    repo: Repository
    bus: EventBus[MatchEvent]
    timers: TimerDispatcher
    settings: ServerSettings
    clock: Callable[[], float]


def build_match_graph(repo: Repository, *, clock: Callable[[], float] = time.time,
                      seed_source: Callable[[], int] | None = None, challenge_ttl: float = DEFAULT_CHALLENGE_TTL,
                      bus: EventBus[MatchEvent] | None = None, limiter: RateLimiter | None = None,
                      scope: ProcessScope = ProcessScope(), others: bool | None = None,
                      vacation_days: float = 0) -> MatchGraph:
    """The match service over `repo`. `scope`: the shards this process runs; `others`: whether other processes
    run shards on the same database (None: not known); `vacation_days`: each member's allowance a year (the bot
    passes its setting, STRATEGOS_VACATION_DAYS; tools and tests have none unless they say)."""

    bus = bus or EventBus()
    timers = TimerDispatcher(repo, clock, others=others)
    settings = ServerSettings(repo.clocks)
    states = MatchStates()
    clocks = ClockKeeper(repo, timers, bus, clock, states.to_act, settings.language, vacation_days,
                         settings.time_zone)

    actions = MatchActions(repo, states, clock=clock, bus=bus, limiter=limiter or RateLimiter(clock), timers=timers,
                           ratings=Ratings(repo), clocks=clocks, server_settings=settings,
                           outbox=Outbox(repo.outbox, bus, timers.claimant))
    challenges = Challenges(actions, seed_source=seed_source or (lambda: secrets.randbits(62)), ttl=challenge_ttl)
    service = MatchService(actions, challenges=challenges, turns=Turns(actions), endings=Endings(actions),
                           takebacks=Takebacks(actions), rematches=Rematches(actions, challenges),
                           boards=Boards(actions, scope), archive=MatchArchive(actions))
    return MatchGraph(service, repo, bus, timers, settings, clock)


def build_match_service(repo: Repository, **options) -> MatchService:
    """The match service alone (tests, tools, benchmarks); `options` as build_match_graph takes them."""
    return build_match_graph(repo, **options).service


def build_leagues(graph: MatchGraph, scope: ProcessScope = ProcessScope()) -> LeagueService:
    """The leagues over a match service; they look again at a league whenever one of its matches ended. `scope`:
    the shards this process runs (it presents what a stopped process left for their leagues)."""
    bus, locks, store = league_bus(), KeyedLocks(), graph.repo.leagues
    outbox = Outbox(graph.repo.outbox, bus, f"{graph.timers.claimant}/leagues")  # its own names of units
    rounds = LeagueRounds(graph.service, store, graph.repo.ratings, timers=graph.timers, bus=bus, locks=locks,
                          clock=graph.clock, language=graph.settings.language, outbox=outbox)
    graph.bus.subscribe(rounds.on_match_event)
    return LeagueService(graph.service, store, rounds, settings=graph.settings, timers=graph.timers, bus=bus,
                         locks=locks, clock=graph.clock, outbox=outbox, scope=scope)
