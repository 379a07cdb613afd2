"""Server leagues: sign-up, the start (divisions, seeding), rounds of ordinary matches, standings, the champion
and the next season. No Discord here.

A league moves on in steps, each one store transaction or a timer row: the signup ends by a timer; a round's
tables are written once together with the league's round number; each table's match starts from a challenge
written and linked to the table in one transaction (and a challenge starts one match); a finished match only
leaves a timer row that makes the league look again. `advance` is idempotent, so a restart in the middle of any
step simply runs it again (start-up looks at every running league).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Collection

from bot.games.engines import get_game
from bot.engine.text import Text
from bot.i18n import N_
from bot.leagues import (
    GameResult, Standing, SwissPlayer, default_swiss_rounds, divisions, round_robin, standings, swiss_round,
    table_round_robin,
)
from bot.leagues.pairing import NoPairing, max_swiss_rounds
from bot.ratings import display_rating
from bot.domain import League, LeaguePlayer, LeagueTable

from . import errors
from .bus import Delivery, EventBus
from .catalogue import checked_options, default_options, info, is_offered
from .events import MatchEnded, MatchEvent
from .locks import KeyedLocks
from .server_settings import ORGANISER_ROLE
from .service import MatchService

log = logging.getLogger(__name__)

SIGNUP_TIMER = "league_signup"
STEP_TIMER = "league_step"
FORMATS = {"round_robin": N_("round robin"), "swiss": N_("Swiss")}
REPEATS = ("none", "monthly")
NOT_IN_SERVER = N_("Leagues live in servers: use league commands in a server, not in DMs.")
DEFAULT_SIGNUP_HOURS = 48.0
MAX_SIGNUP_HOURS = 30 * 24.0
DEFAULT_DIVISION_SIZE = 10
MAX_DIVISION_SIZE = 40
MAX_NAME_LENGTH = 50
MAX_ROUNDS = 20
SEASON_SECONDS = 30 * 24 * 3600.0  # "monthly": the next season starts a month after this one started
UNRATED = 1500  # the displayed rating of a member without one: the model's starting point


def league_title(league: League) -> str:
    """A league's name, with its season from the second on ("Monthly (season 2)"), translatable where shown."""
    if league.season == 1:
        return league.name
    return Text("{name} (season {season})", name=league.name, season=league.season)


# --- events: what the league presenter shows -------------------------------------------------------------------

@dataclass(frozen=True)
class DivisionTable:
    division: int
    rows: list[Standing]


@dataclass(frozen=True)
class LeagueOpened:
    """A league (or its next season) opened for sign-up: post the announcement and open its thread."""

    league: League
    players: list[LeaguePlayer] = field(default_factory=list)


@dataclass(frozen=True)
class RosterChanged:
    league: League
    players: list[LeaguePlayer]


@dataclass(frozen=True)
class RoundStarted:
    league: League
    round: int
    tables: list[LeagueTable]
    names: dict[int, str]


@dataclass(frozen=True)
class StandingsChanged:
    league: League
    divisions: list[DivisionTable]
    names: dict[int, str]


@dataclass(frozen=True)
class LeagueFinished:
    league: League
    divisions: list[DivisionTable]
    names: dict[int, str]
    next_season: League | None


@dataclass(frozen=True)
class LeagueCancelled:
    league: League
    reason: str  # English, with {placeholders} filled from reason_params when shown
    reason_params: dict[str, Any] = field(default_factory=dict)


LeagueEvent = LeagueOpened | RosterChanged | RoundStarted | StandingsChanged | LeagueFinished | LeagueCancelled


def league_bus() -> EventBus[LeagueEvent]:
    """League events are delivered like match events, in order per league."""
    return EventBus(key=lambda event: event.league.id)


# --- the service -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LeagueEntry:
    """One line of /league list."""

    league: League
    players: int


@dataclass(frozen=True)
class LeagueMatches:
    league: League
    tables: list[LeagueTable]
    names: dict[int, str]


class LeagueService:
    def __init__(self, matches: MatchService):
        self.matches = matches
        self.store = matches.repo.leagues
        self.clock = matches.clock
        self.bus = league_bus()
        self._locks = KeyedLocks()
        matches.timers.on(SIGNUP_TIMER, self._signup_ended)
        matches.timers.on(STEP_TIMER, self._step_due)
        matches.bus.subscribe(self._on_match_event)

    async def start(self) -> None:
        """After a restart: every running league looks again (a step the stop cut off is finished), and a
        signup whose timer fired without being settled is settled."""
        now = self.clock()
        for league in await self.store.by_status(["running"]):
            await self.store.set_timer(STEP_TIMER, league.id, now)
        for league in await self.store.by_status(["signup"]):
            if league.signup_ends_at <= now:
                await self.store.set_timer(SIGNUP_TIMER, league.id, league.signup_ends_at)
        self.matches.timers.wake(now)

    async def idle(self) -> None:
        await self.bus.idle()

    # --- looking leagues up --------------------------------------------------------------------------------

    async def named(self, guild_id: int | None, name: str) -> League:
        if guild_id is None:
            raise errors.UserError(NOT_IN_SERVER)
        league = await self.store.by_name(guild_id, name)
        if league is None:
            raise errors.UserError(N_("There is no league called **{name}** on this server. `/league list` shows "
                                      "them."),
                                   name=name.strip()[:MAX_NAME_LENGTH])
        return league

    async def get(self, league_id: int) -> League:
        league = await self.store.get(league_id)
        if league is None:
            raise errors.UserError(N_("That league no longer exists."))
        return league

    async def language(self, guild_id: int) -> str:
        """The language of a league's public posts: its server's."""
        return await self.matches.server_settings.language(guild_id)

    async def players(self, league_id: int) -> list[LeaguePlayer]:
        return await self.store.players(league_id)

    async def listing(self, guild_id: int | None) -> list[LeagueEntry]:
        if guild_id is None:
            raise errors.UserError(NOT_IN_SERVER)
        counts = await self.store.player_counts(guild_id)  # one read for all, not one per league
        return [LeagueEntry(league, counts.get(league.id, 0)) for league in await self.store.of_guild(guild_id)]

    async def names_matching(self, guild_id: int | None, typed: str) -> list[str]:
        """Autocomplete: the server's league names (newest season once), open leagues first."""
        if guild_id is None:
            return []
        typed = typed.strip().casefold()[:MAX_NAME_LENGTH]
        seen: dict[str, bool] = {}
        for league in await self.store.of_guild(guild_id):
            if typed in league.name.casefold() and league.name not in seen:
                seen[league.name] = league.is_open
        return sorted(seen, key=lambda n: (not seen[n], n.casefold()))[:25]

    # --- sign-up -------------------------------------------------------------------------------------------

    async def create(self, *, guild_id: int | None, channel_id: int, user_id: int, may_manage: bool,
                     role_ids: Collection[int] = (), name: str, game: str, format: str, rounds: int | None = None,
                     players: int = 2, clock: str | None = None, rated: bool = True,
                     signup_hours: float | None = None, division_size: int | None = None,
                     repeat: str = "none") -> tuple[League, Delivery]:
        """Open a league for sign-up. `may_manage`: the member has Manage Server; `role_ids`: her roles (the
        server's league organisers' role, if it chose one, also lets her). Checks everything before anything is
        written; returns the league and the delivery of its announcement."""
        if guild_id is None:
            raise errors.UserError(NOT_IN_SERVER)
        if not await self._is_organiser(guild_id, may_manage, role_ids):
            role = await self._organiser_role(guild_id)
            if role is None:
                raise errors.UserError(N_("Only members with the **Manage Server** permission can create leagues."))
            raise errors.UserError(N_("Only members with the **Manage Server** permission or the {role} role can "
                                      "create leagues."), role=f"<@&{role}>")
        name = " ".join(name.split())
        if not name:
            raise errors.UserError(N_("Give the league a name."))
        if len(name) > MAX_NAME_LENGTH:
            raise errors.UserError(N_("A league name has at most {count} characters."), count=MAX_NAME_LENGTH)
        if not is_offered(game):
            raise errors.UserError(N_("That game can't be played here. Pick one from the list."))
        title = info(game).title
        game_info = get_game(game).info
        if players not in (2, 3, 4) or not game_info.min_players <= players <= game_info.max_players:
            raise errors.UserError(N_("{game} is for {low}–{high} players, so its league tables can't have "
                                      "{players}."),
                                   game=title, low=game_info.min_players, high=game_info.max_players,
                                   players=players)
        if format not in FORMATS:
            raise errors.UserError(N_("The format is `round robin` or `swiss`."))
        if format == "swiss" and players != 2:
            raise errors.UserError(N_("A Swiss league pairs two players a game; tables of 3–4 play a round robin."))
        if rounds is not None and (format != "swiss" or not 1 <= rounds <= MAX_ROUNDS):
            raise errors.UserError(N_("`rounds:` is for Swiss leagues, from 1 to {most}; a round robin plays every "
                                      "pairing once."), most=MAX_ROUNDS)
        hours = DEFAULT_SIGNUP_HOURS if signup_hours is None else signup_hours
        if not 1 <= hours <= MAX_SIGNUP_HOURS:
            raise errors.UserError(N_("Sign-up lasts from 1 to {most} hours."), most=int(MAX_SIGNUP_HOURS))
        size = DEFAULT_DIVISION_SIZE if division_size is None else division_size
        if not 2 * players <= size <= MAX_DIVISION_SIZE:
            raise errors.UserError(N_("A division holds from {least} to {most} players here."), least=2 * players,
                                   most=MAX_DIVISION_SIZE)
        if repeat not in REPEATS:
            raise errors.UserError(N_("`repeat:` is none or monthly."))
        clock_seconds = await self.matches.server_settings.clock_for(guild_id, clock)
        now = self.clock()
        league = await self.store.create(
            guild_id=guild_id, channel_id=channel_id, name=name, game=game, format=format, rounds=rounds,
            table_size=players, clock_seconds=clock_seconds, rated=rated, division_size=size, signup_hours=hours,
            repeat=repeat, organiser_id=user_id, now=now, signup_timer=SIGNUP_TIMER)
        if league is None:
            raise errors.UserError(N_("There is already a league called **{name}** on this server. Pick another name."),
                                   name=name)
        self.matches.timers.wake(league.signup_ends_at)
        log.info("league=%s guild=%s user=%s created game=%s format=%s tables=%s", league.id, guild_id, user_id,
                 game, format, players)
        return league, self.bus.publish(LeagueOpened(league))

    async def set_posts(self, league_id: int, message_id: int | None, thread_id: int | None) -> None:
        await self.store.set_posts(league_id, message_id, thread_id)

    async def join(self, league_id: int, user_id: int, user_name: str) -> League:
        async with self._locks.hold(league_id):
            league = await self.get(league_id)
            if not league.is_open:
                raise errors.UserError(N_("**{league}** has ended: nobody can join it any more."), league=league_title(league))
            if league.status == "running" and league.format == "round_robin":
                raise errors.UserError(N_("**{league}** has started, and a round robin takes no new players. Join its "
                                          "next one."), league=league_title(league))
            if league.status == "running" and league.round >= (league.total_rounds or 0):
                raise errors.UserError(N_("**{league}** is in its last round: nobody can join any more."),
                                       league=league_title(league))
            if not await self.store.add_player(league.id, user_id, user_name, self.clock(),
                                               statuses=("signup", "running")):
                raise errors.UserError(N_("You are already in **{league}**."), league=league_title(league))
            log.info("league=%s guild=%s user=%s joined", league.id, league.guild_id, user_id)
            self.bus.publish(RosterChanged(league, await self.store.players(league.id)))
            return league

    async def leave(self, league_id: int, user_id: int) -> tuple[League, list[int]]:
        """Before the start she is simply off the list; after it her unfinished league matches are resigned
        (the others score them) and she is paired no more. Returns the league and the matches resigned."""
        async with self._locks.hold(league_id):
            league = await self.get(league_id)
            if not league.is_open:
                raise errors.UserError(N_("**{league}** has ended: there is nothing to leave."), league=league_title(league))
            me = next((p for p in await self.store.players(league.id) if p.user_id == user_id), None)
            if me is None or not me.active:
                raise errors.UserError(N_("You are not in **{league}**."), league=league_title(league))
            resigned: list[int] = []
            if league.status == "signup":
                await self.store.remove_player(league.id, user_id)
            else:
                await self.store.mark_left(league.id, user_id, self.clock())
                for table in await self.store.tables(league.id):
                    if user_id in table.players and table.match_id and table.match_status == "active":
                        try:
                            await self.matches.resign(table.match_id, user_id)
                            resigned.append(table.match_id)
                        except errors.UserError:
                            pass  # already out of that match (resigned or timed out at a table of 3–4)
            log.info("league=%s guild=%s user=%s left resigned=%s", league.id, league.guild_id, user_id, resigned)
            self.bus.publish(RosterChanged(league, await self.store.players(league.id)))
            return league, resigned

    async def _organiser_role(self, guild_id: int) -> int | None:
        return await self.matches.server_settings.get(guild_id, ORGANISER_ROLE)

    async def _is_organiser(self, guild_id: int, may_manage: bool, role_ids: Collection[int]) -> bool:
        """Manage Server, or the role the server chose in /settings for its league organisers."""
        return may_manage or await self.matches.server_settings.holds_role(guild_id, ORGANISER_ROLE, role_ids)

    async def _may_organise(self, league: League, user_id: int, may_manage: bool, role_ids: Collection[int]) -> None:
        if user_id == league.organiser_id or await self._is_organiser(league.guild_id, may_manage, role_ids):
            return
        role = await self._organiser_role(league.guild_id)
        if role is None:
            raise errors.UserError(N_("Only the organiser of **{league}** (or someone with Manage Server) can do "
                                      "that."), league=league_title(league))
        raise errors.UserError(N_("Only the organiser of **{league}** (or someone with Manage Server or the {role} "
                                  "role) can do that."), league=league_title(league), role=f"<@&{role}>")

    async def start_now(self, league_id: int, user_id: int, may_manage: bool,
                        role_ids: Collection[int] = ()) -> League:
        async with self._locks.hold(league_id):
            league = await self.get(league_id)
            await self._may_organise(league, user_id, may_manage, role_ids)
            if league.status != "signup":
                raise errors.UserError(N_("**{league}** has already started.") if league.is_open
                                       else N_("**{league}** has already ended."), league=league_title(league))
            players = [p for p in await self.store.players(league.id)]
            needed = max(2, league.table_size)
            if len(players) < needed:
                raise errors.UserError(N_("**{league}** needs at least {needed} players to start; it has {count}."),
                                       league=league_title(league), needed=needed, count=len(players))
            await self._start(league, players)
        await self.advance(league_id)
        return await self.get(league_id)

    async def cancel(self, league_id: int, user_id: int, may_manage: bool, role_ids: Collection[int] = ()) -> League:
        async with self._locks.hold(league_id):
            league = await self.get(league_id)
            await self._may_organise(league, user_id, may_manage, role_ids)
            if not league.is_open:
                raise errors.UserError(N_("**{league}** has already ended."), league=league_title(league))
            done, _ = await self.store.finish(league, self.clock(), "cancelled")
            if not done:
                raise errors.UserError(N_("**{league}** has already ended."), league=league_title(league))
            league = await self.get(league_id)
            log.info("league=%s guild=%s user=%s cancelled", league.id, league.guild_id, user_id)
            self.bus.publish(LeagueCancelled(league, N_("cancelled by the organiser")))
            return league

    async def _signup_ended(self, timer: Any) -> None:
        league_id = -timer.ref_id
        async with self._locks.hold(league_id):
            league = await self.store.get(league_id)
            if league is None or league.status != "signup":
                return
            players = await self.store.players(league_id)
            if len(players) < max(2, league.table_size):
                done, _ = await self.store.finish(league, self.clock(), "cancelled")
                if done:
                    league = await self.get(league_id)
                    self.bus.publish(LeagueCancelled(league, N_("only {count} signed up when sign-up ended"),
                                                     {"count": len(players)}))
                return
            await self._start(league, players)
        await self.advance(league_id)

    async def _start(self, league: League, players: list[LeaguePlayer]) -> None:
        """Fix divisions (by rating, strongest first) and each player's rating for the tie-break; signup → running."""
        found = await self.matches.ratings.store.ratings_of(league.guild_id, league.game, [p.user_id for p in players])
        rating = {p.user_id: display_rating(found[p.user_id].mu) if p.user_id in found else UNRATED for p in players}
        ordered = sorted(players, key=lambda p: (-rating[p.user_id], p.joined_at, p.user_id))
        ids = [p.user_id for p in ordered]
        if league.format == "round_robin":
            groups = divisions(ids, league.division_size)
            total = 1
        else:
            groups = [ids]
            total = min(league.rounds or default_swiss_rounds(len(ids)), max_swiss_rounds(len(ids)))
        seeding = {uid: (d + 1, float(rating[uid])) for d, group in enumerate(groups) for uid in group}
        if await self.store.start(league.id, self.clock(), total, seeding, SIGNUP_TIMER):
            log.info("league=%s guild=%s started players=%s divisions=%s rounds=%s", league.id, league.guild_id,
                     len(ids), len(groups), total)

    # --- rounds --------------------------------------------------------------------------------------------

    async def _on_match_event(self, event: MatchEvent) -> bool:
        """A league match ended: leave a timer row that makes its league look again (standings, next round)."""
        if isinstance(event, MatchEnded):
            league_id = await self.store.league_of_match(event.match.id)
            if league_id is not None:
                now = self.clock()
                await self.store.set_timer(STEP_TIMER, league_id, now)
                self.matches.timers.wake(now)
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
                if opened:
                    tables = await self.store.tables(league_id)
                    current = [t for t in tables if t.round == league.round]
                    self.bus.publish(RoundStarted(league, league.round, current, _names(players)))
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
        names = _names(players)
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
        await self.store.set_results_shown(league.id, finished)
        self.bus.publish(StandingsChanged(league, self.division_tables(tables, players), _names(players)))

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
                clock_seconds=league.clock_seconds, rated=league.rated, division_size=league.division_size,
                signup_hours=league.signup_hours, repeat=league.repeat, organiser_id=league.organiser_id,
                signup_timer=SIGNUP_TIMER, signup_ends_at=starts, season=league.season + 1, previous_id=league.id,
                players=[(p.user_id, p.user_name) for p in players if p.active])
        done, next_id = await self.store.finish(league, now, "finished", next_season)
        if not done:
            return
        league = await self.get(league.id)
        following = await self.store.get(next_id) if next_id is not None else None
        log.info("league=%s guild=%s finished next=%s", league.id, league.guild_id, next_id)
        self.bus.publish(LeagueFinished(league, self.division_tables(tables, players), _names(players), following))
        if following is not None:
            self.matches.timers.wake(following.signup_ends_at)
            self.bus.publish(LeagueOpened(following, await self.store.players(following.id)))

    # --- what players look up ------------------------------------------------------------------------------

    async def matches_of(self, league_id: int, user_id: int) -> LeagueMatches:
        """The league's tables, hers first (then by round and board)."""
        league = await self.get(league_id)
        tables = await self.store.tables(league_id)
        tables.sort(key=lambda t: (user_id not in t.players, -t.round, t.division, t.board))
        return LeagueMatches(league, tables, _names(await self.store.players(league_id)))

    async def round_tables(self, league_id: int, round_: int) -> list[LeagueTable]:
        """A round's tables as they are now (their match threads appear as the matches are announced)."""
        return await self.store.tables(league_id, round_)

    async def standings_of(self, league_id: int) -> tuple[League, list[DivisionTable], dict[int, str]]:
        league = await self.get(league_id)
        players = await self.store.players(league_id)
        return league, self.division_tables(await self.store.tables(league_id), players), _names(players)


def _names(players: list[LeaguePlayer]) -> dict[int, str]:
    return {p.user_id: p.user_name for p in players}


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
