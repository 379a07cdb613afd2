"""A league's rounds: the start (divisions, seeding), each round's tables and matches, standings, the champion
and the next season. No Discord here.

A league moves on in steps, each one store transaction or a timer row (leagues.py says which); `advance` is
idempotent, so a restart in the middle of any step simply runs it again. Standings and a league's end are
written with their announcements (the outbox, leagues.py says how they are presented); a round's pairings once
its matches started, with the league's `announced_round`, so a stop before that announces it at the next start.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

from bot.games.engines import get_game
from bot.leagues import (
    GameResult, SwissPlayer, default_swiss_rounds, divisions, round_robin, standings, swiss_round, table_round_robin,
)
from bot.leagues.pairing import NoPairing, max_swiss_rounds
from bot.leagues.seasons import next_divisions
from bot.ratings import display_rating
from bot.domain import League, LeaguePlayer, LeagueTable
from bot.storage.leagues import LeagueStore
from bot.storage.rating_store import RatingStore

from bot.i18n import N_

from . import errors
from .bus import EventBus
from .catalogue import checked_options, default_options
from .events import MatchEnded, MatchEvent
from .league_events import (
    SEASON_SECONDS, SIGNUP_TIMER, STEP_TIMER, UNRATED, DivisionTable, LeagueEvent, LeagueFinished, LeagueOpened,
    RoundStarted, StandingsChanged, player_names,
)
from .locks import KeyedLocks
from .outbox import Outbox
from .service import MatchService
from .timers import TimerDispatcher

log = logging.getLogger(__name__)


class LeagueRounds:
    def __init__(self, matches: MatchService, store: LeagueStore, ratings: RatingStore, *, timers: TimerDispatcher,
                 bus: EventBus[LeagueEvent], locks: KeyedLocks, clock: Callable[[], float],
                 language: Callable[[int | None], Awaitable[str]], outbox: Outbox):
        """`matches`: where a table's match starts; `bus`, `locks`, `outbox`: the league service's; `language`: a
        server's language, which the league's posts are written in."""
        self.matches, self.store, self.ratings, self.language, self.outbox = matches, store, ratings, language, outbox
        self.timers, self.bus, self.clock, self._locks = timers, bus, clock, locks
        timers.on(STEP_TIMER, self._step_due)

    async def get(self, league_id: int) -> League:
        league = await self.store.get(league_id)
        if league is None:
            raise errors.UserError(N_("That league no longer exists."))
        return league

    async def start(self, league: League, players: list[LeaguePlayer]) -> None:
        """Fix divisions (by rating, strongest first) and each player's rating for the tie-break; signup → running."""
        found = await self.ratings.ratings_of(league.guild_id, league.game, [p.user_id for p in players])
        rating = {p.user_id: display_rating(found[p.user_id].mu) if p.user_id in found else UNRATED for p in players}
        ordered = sorted(players, key=lambda p: (-rating[p.user_id], p.joined_at, p.user_id))
        ids = [p.user_id for p in ordered]
        if league.format == "round_robin":
            groups = await self._divisions(league, ids)
            total = 1
        else:
            groups = [ids]
            total = min(league.rounds or default_swiss_rounds(len(ids)), max_swiss_rounds(len(ids)))
        seeding = {uid: (d + 1, float(rating[uid])) for d, group in enumerate(groups) for uid in group}
        if await self.store.start(league.id, self.clock(), total, seeding, SIGNUP_TIMER):
            log.info("league=%s guild=%s started players=%s divisions=%s rounds=%s", league.id, league.guild_id,
                     len(ids), len(groups), total)

    async def _divisions(self, league: League, ids: list[int]) -> list[list[int]]:
        """A round robin's divisions of `ids` (the strongest first): by rating, or for the next season of one that
        repeats, the last season's divisions after promotion and relegation (bot/leagues/seasons.py), read from
        its final standings, so a restart decides them alike."""
        previous = await self.store.get(league.previous_id) if league.promotes and league.previous_id else None
        if previous is None or not previous.promotes:
            return divisions(ids, league.division_size)
        players = await self.store.players(previous.id)
        left = {p.user_id for p in players if not p.active}
        ranked = [[s.player for s in table.rows if s.player not in left]
                  for table in self.division_tables(await self.store.tables(previous.id), players)]
        return next_divisions(ranked, ids, promotion=league.promotion, division_size=league.division_size,
                              least=2 * league.table_size)

    # --- rounds --------------------------------------------------------------------------------------------

    async def on_match_event(self, event: MatchEvent) -> bool:
        """A league match ended: leave a timer row that makes its league look again (standings, next round)."""
        if isinstance(event, MatchEnded):
            league_id = await self.store.league_of_match(event.match.id)
            if league_id is not None:
                now = self.clock()
                await self.store.set_timer(STEP_TIMER, league_id, now)
                self.timers.wake(now)
        return True

    async def _step_due(self, timer: Any) -> None:
        await self.advance(-timer.ref_id)

    async def advance(self, league_id: int) -> None:
        """Do whatever the league's state calls for, each part once: write the first round; create and start
        the current round's matches; post new standings; pair the next Swiss round; finish. Safe to repeat."""
        async with self._locks.hold(league_id):
            while True:
                league = await self.store.get(league_id)
                if league is None or league.status != "running":
                    return
                players = await self.store.players(league_id)
                if league.round == 0:
                    await self._write_first_round(league, players)
                    continue
                tables = await self.store.tables(league_id)
                current = [t for t in tables if t.round == league.round]
                opened = await self._open_tables(league, current, players)
                if opened or league.announced_round < league.round:
                    tables = await self.store.tables(league_id)
                    current = [t for t in tables if t.round == league.round]
                if league.announced_round < league.round:  # its matches started: announce the round, once
                    await self._announce_round(league, current, players)
                if not all(t.finished for t in current):
                    await self._show_standings(league, tables, players)
                    return
                if league.round < (league.total_rounds or 1):
                    try:
                        pairing = self._next_swiss_round(league, tables, players)
                    except NoPairing:
                        log.info("league=%s no repeat-free pairing for round %s: finishing", league.id,
                                 league.round + 1)
                        pairing = None
                    if pairing:
                        await self.store.write_round(league.id, league.round + 1, pairing)
                        continue
                await self._finish(league, tables, players)  # its post carries the final standings
                return

    async def _write_first_round(self, league: League, players: list[LeaguePlayer]) -> None:
        written: list[tuple[int, int, tuple[int, ...]]] = []
        by_division: dict[int, list[LeaguePlayer]] = {}
        for p in players:
            by_division.setdefault(p.division, []).append(p)
        for division, members in sorted(by_division.items()):
            seeded = [p.user_id for p in sorted(members, key=lambda p: (-(p.rating or 0), p.joined_at, p.user_id))]
            if league.format == "swiss":
                tables = swiss_round([SwissPlayer(p.user_id, 0, p.rating or UNRATED) for p in members])
            elif league.table_size == 2:
                tables = round_robin(seeded)
            else:
                tables = table_round_robin(seeded, league.table_size)
            written += [(division, board + 1, t.players) for board, t in enumerate(tables)]
        await self.store.write_round(league.id, 1, written)

    async def _open_tables(self, league: League, tables: list[LeagueTable], players: list[LeaguePlayer]) -> bool:
        """Give every table of the round its challenge and start its match; True when this call created any
        (the round is new to the thread). Each table's challenge is written and linked in one transaction; a
        challenge starts one match however often this runs."""
        names = player_names(players)
        created = False
        options = None
        for table in tables:
            if table.is_bye or table.challenge_id is not None:
                continue
            if options is None:
                size = league.table_size
                options = checked_options(get_game(league.game), default_options(league.game, size), size)
            if await self.store.link_challenge(table, league, names, options, self.clock()) is not None:
                created = True
        if created:
            tables = await self.store.tables(league.id, league.round)
        for table in tables:
            if table.challenge_id is not None and table.challenge_status == "open":
                await self.matches.start_prepared_challenge(table.challenge_id)
                created = True
        return created

    async def _announce_round(self, league: League, tables: list[LeagueTable], players: list[LeaguePlayer]) -> None:
        now, lang = self.clock(), await self.language(league.guild_id)
        started = RoundStarted(league, league.round, tables, player_names(players), players=players, lang=lang)
        await self.outbox.written(lambda entry: self.store.set_round_announced(
            league.id, league.round, announce=lambda *_: entry([started])), now)

    def _next_swiss_round(self, league: League, tables: list[LeagueTable],
                          players: list[LeaguePlayer]) -> list[tuple[int, int, tuple[int, ...]]]:
        field_ = {p.user_id: SwissPlayer(p.user_id, 0, p.rating or UNRATED) for p in players}
        for table in tables:
            result = _result_of(table)
            if result is None:
                continue
            points = _points_by_player(result)
            for uid in table.players:
                me = field_.get(uid)
                if me is None:
                    continue
                me.score += points[uid]
                me.opponents |= set(table.players) - {uid}
                if table.is_bye:
                    me.had_bye = True
                elif table.players[0] == uid:
                    me.firsts += 1
                else:
                    me.seconds += 1
        active = [field_[p.user_id] for p in players if p.active]
        if len(active) < 2:
            raise NoPairing()
        pairing = swiss_round(active)
        return [(1, board + 1, t.players) for board, t in enumerate(pairing)]

    async def _show_standings(self, league: League, tables: list[LeagueTable], players: list[LeaguePlayer]) -> None:
        finished = sum(1 for t in tables if not t.is_bye and t.finished)
        if finished <= league.results_shown:
            return
        now, lang = self.clock(), await self.language(league.guild_id)
        changed = StandingsChanged(league, self.division_tables(tables, players), player_names(players),
                                   players=players, lang=lang)
        await self.outbox.written(lambda entry: self.store.set_results_shown(
            league.id, finished, announce=lambda *_: entry([changed])), now)

    def division_tables(self, tables: list[LeagueTable], players: list[LeaguePlayer]) -> list[DivisionTable]:
        results = [(t.division, r) for t in tables if (r := _result_of(t)) is not None]
        ratings = {p.user_id: p.rating or UNRATED for p in players}
        result = []
        for division in sorted({p.division for p in players}):
            members = [p.user_id for p in players if p.division == division]
            result.append(DivisionTable(division, standings(
                members, ratings, [r for d, r in results if d == division])))
        return result

    async def _finish(self, league: League, tables: list[LeagueTable], players: list[LeaguePlayer]) -> None:
        now = self.clock()
        next_season = None
        if league.repeat == "monthly":
            starts = max((league.started_at or now) + SEASON_SECONDS, now + 3600.0)
            next_season = dict(
                guild_id=league.guild_id, channel_id=league.channel_id, name=league.name, game=league.game,
                format=league.format, rounds=league.rounds, table_size=league.table_size,
                clock_seconds=league.clock_seconds, clock_rules=league.clock_rules, rated=league.rated,
                division_size=league.division_size,
                signup_hours=league.signup_hours, repeat=league.repeat, organiser_id=league.organiser_id,
                signup_timer=SIGNUP_TIMER, signup_ends_at=starts, season=league.season + 1, previous_id=league.id,
                players=[(p.user_id, p.user_name) for p in players if p.active], promotion=league.promotion)
        lang, following = await self.language(league.guild_id), []

        def opened(next_league: League, next_players: list[LeaguePlayer]) -> list[LeagueEvent]:
            following.append(next_league)
            return [LeagueOpened(next_league, next_players, lang=lang)]

        def finished(ended: League) -> list[LeagueEvent]:  # after `opened`: the unit writes the next season first
            return [LeagueFinished(ended, self.division_tables(tables, players), player_names(players),
                                   following[-1] if following else None, players=players, lang=lang)]

        (done, next_id), _ = await self.outbox.written(lambda entry: self.store.finish(
            league, now, "finished", next_season, announce=lambda ended, _: entry(finished(ended)),
            announce_next=lambda *season: entry(opened(*season))), now)
        if not done:
            return
        log.info("league=%s guild=%s finished next=%s", league.id, league.guild_id, next_id)
        if following:
            self.timers.wake(following[-1].signup_ends_at)

    async def standings_of(self, league_id: int) -> tuple[League, list[DivisionTable], dict[int, str]]:
        league = await self.get(league_id)
        players = await self.store.players(league_id)
        return league, self.division_tables(await self.store.tables(league_id), players), player_names(players)


def _result_of(table: LeagueTable) -> GameResult | None:
    """The table's finished result as places of member ids; None while it is being played."""
    if table.is_bye:
        return GameResult(((table.players[0],),), bye=True)
    if table.match_status != "finished":
        return None
    groups = table.standings
    if not groups:
        winners = list((table.result or {}).get("winners") or [])
        rest = [s for s in range(len(table.players)) if s not in winners]
        groups = [winners, rest] if winners and rest else [list(range(len(table.players)))]
    return GameResult(tuple(tuple(table.players[s] for s in group) for group in groups))


def _points_by_player(result: GameResult) -> dict[int, int]:
    """What each player of one finished table scored (POINT units)."""
    return {s.player: s.points for s in standings(result.players, {}, [result])}
