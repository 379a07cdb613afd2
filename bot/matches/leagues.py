"""Server leagues: sign-up, the start (divisions, seeding), rounds of ordinary matches, standings, the champion
and the next season. No Discord here. The rounds run in league_rounds.py.

A league moves on in steps, each one store transaction or a timer row: the signup ends by a timer; a round's
tables are written once together with the league's round number; each table's match starts from a challenge
written and linked to the table in one transaction (and a challenge starts one match); a finished match only
leaves a timer row that makes the league look again. `advance` is idempotent, so a restart in the middle of any
step simply runs it again (start-up looks at every running league). What a step announces is written with it
(the outbox, bot/matches/outbox.py): presented at once, after a cancelled command too, and after a crash by the
process serving the league's server (`recover`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, Callable, Collection

from bot.games.engines import get_game
from bot.engine.text import Text
from bot.i18n import N_
from bot.domain import League, LeaguePlayer, LeagueTable
from bot.storage.leagues import LeagueStore

from . import errors
from .bus import Delivery, EventBus
from .league_events import (
    SIGNUP_TIMER, STEP_TIMER, LeagueCancelled, LeagueEvent, LeagueOpened, RosterChanged, player_names,
)
from .league_rounds import LeagueRounds
from .catalogue import info, is_offered
from .locks import KeyedLocks
from .outbox import Outbox, events_of, league_rows
from .scope import REPAIR_AFTER, ProcessScope
from .server_settings import ORGANISER_ROLE, ServerSettings
from .service import MatchService
from .timers import TimerDispatcher


log = logging.getLogger(__name__)

FORMATS = {"round_robin": N_("round robin"), "swiss": N_("Swiss")}
REPEATS = ("none", "monthly")
NOT_IN_SERVER = N_("Leagues live in servers: use league commands in a server, not in DMs.")
DEFAULT_SIGNUP_HOURS = 48.0
MAX_SIGNUP_HOURS = 30 * 24.0
DEFAULT_DIVISION_SIZE = 10
DEFAULT_PROMOTION = 2  # players going up and down from each division between seasons
MAX_DIVISION_SIZE = 40
MAX_NAME_LENGTH = 50
MAX_ROUNDS = 20
# What a stopped process left in the outbox for a league, looked at again once no live process can be presenting it
# (not "league…": a league's end clears those timers, and its own announcement may be what is left).
LEFT_TIMER = "outbox_league"


def league_title(league: League) -> str:
    """A league's name, with its season from the second on ("Monthly (season 2)"), translatable where shown."""
    if league.season == 1:
        return league.name
    return Text("{name} (season {season})", name=league.name, season=league.season)


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
    """Leagues as members see them: looking them up, sign-up, and what an organiser decides. The rounds run in
    LeagueRounds (league_rounds.py), which shares this service's store, bus and locks."""

    def __init__(self, matches: MatchService, store: LeagueStore, rounds: LeagueRounds, *,
                 settings: ServerSettings, timers: TimerDispatcher, bus: EventBus[LeagueEvent], locks: KeyedLocks,
                 clock: Callable[[], float], outbox: Outbox, scope: ProcessScope = ProcessScope()):
        """`outbox`: the league bus's, shared with `rounds`; `scope`: the servers whose leftovers this process
        presents."""
        self.matches, self.store, self.rounds, self.settings = matches, store, rounds, settings
        self.timers, self.bus, self.clock, self._locks = timers, bus, clock, locks
        self.outbox, self.scope = outbox, scope
        self.get, self.standings_of = rounds.get, rounds.standings_of
        self.subscribe = bus.subscribe  # the league presenter
        timers.on(SIGNUP_TIMER, self._signup_ended)
        timers.sweeps.append(self.recover)
        timers.on(LEFT_TIMER, lambda timer: self.recover())

    async def start(self) -> None:
        """After a restart: every running league looks again (a step the stop cut off is finished), and a
        signup whose timer fired without being settled is settled."""
        now = self.clock()
        for league in await self.store.by_status(["running"]):
            await self.store.set_timer(STEP_TIMER, league.id, now)
        for league in await self.store.by_status(["signup"]):
            if league.signup_ends_at <= now:
                await self.store.set_timer(SIGNUP_TIMER, league.id, league.signup_ends_at)
        await self.recover(look_again=True)
        self.timers.wake(now)

    async def recover(self, *, look_again: bool = False) -> None:
        """Present what a stopped process left in the outbox for this process's servers' leagues (at start-up,
        and with a shared database also periodically), once no live process can still be presenting it; with
        `look_again` (at start-up) rows another process may be presenting now are looked at again once it would be
        done. The presenter adopts a post the stopped process made but did not record (bot/presenters/leagues.py)."""
        shared = self.timers.claims.shared
        for rows in league_rows(await self.outbox.of_leagues()).values():
            if not self.scope.owns(rows[0].guild_id) or self.outbox.presenting(rows):
                continue
            if shared and rows[-1].created_at > self.clock() - REPAIR_AFTER:  # its writer may be at it now
                if look_again:
                    await self.store.set_timer(LEFT_TIMER, rows[-1].league_id or 0, rows[-1].created_at + REPAIR_AFTER)
                    self.timers.wake(rows[-1].created_at + REPAIR_AFTER)
                continue
            log.info("league=%s presenting what a stopped process left", rows[0].league_id)
            self.outbox.present(rows, events_of(rows))

    async def idle(self) -> None:
        await self.outbox.idle()
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

    async def language(self, guild_id: int) -> str:
        """The language of a league's public posts: its server's."""
        return await self.settings.language(guild_id)

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
                     repeat: str = "none", promotion: int | None = None, vacation: bool = True,
                     weekends: bool | None = None) -> tuple[League, Delivery]:
        """Open a league for sign-up. `may_manage`: the member has Manage Server; `role_ids`: her roles (the
        server's league organisers' role, if it chose one, also lets her); `vacation`: whether a player out of time
        in its matches may spend a vacation day; `weekends`: quiet weekends (None: the server's default). Checks
        everything before anything is written; returns the league and the delivery of its announcement."""
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
        moving = DEFAULT_PROMOTION if promotion is None else promotion
        if promotion is not None and (format != "round_robin" or repeat == "none"):
            raise errors.UserError(N_("`promotion:` is for round robins that repeat: their divisions change between "
                                      "seasons."))
        if not 1 <= moving <= size // 2:
            raise errors.UserError(N_("`promotion:` moves from 1 to {most} players of each division up and down."),
                                   most=size // 2)
        clock_seconds, clock_rules = await self.settings.clock_for(guild_id, clock, weekends)
        clock_rules = replace(clock_rules, vacation=vacation)
        now, lang = self.clock(), await self.language(guild_id)
        league, opened = await self.outbox.written(lambda entry: self.store.create(
            guild_id=guild_id, channel_id=channel_id, name=name, game=game, format=format, rounds=rounds,
            table_size=players, clock_seconds=clock_seconds, clock_rules=clock_rules, rated=rated,
            division_size=size, signup_hours=hours, repeat=repeat, organiser_id=user_id, now=now,
            signup_timer=SIGNUP_TIMER, promotion=moving,
            announce=lambda league, _: entry([LeagueOpened(league, lang=lang)])), now)
        if league is None or opened is None:
            raise errors.UserError(N_("There is already a league called **{name}** on this server. Pick another name."),
                                   name=name)
        self.timers.wake(league.signup_ends_at)
        log.info("league=%s guild=%s user=%s created game=%s format=%s tables=%s", league.id, guild_id, user_id,
                 game, format, players)
        return league, opened

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
            now, roster = self.clock(), await self._roster(league)
            joined, _ = await self.outbox.written(lambda entry: self.store.add_player(
                league.id, user_id, user_name, now, statuses=("signup", "running"),
                announce=lambda _, players: entry([roster(players)])), now)
            if not joined:
                raise errors.UserError(N_("You are already in **{league}**."), league=league_title(league))
            log.info("league=%s guild=%s user=%s joined", league.id, league.guild_id, user_id)
            return league

    async def _roster(self, league: League) -> Callable[[list[LeaguePlayer]], RosterChanged]:
        """What a change of `league`'s players announces, given them as the change leaves them."""
        lang = await self.language(league.guild_id)
        return lambda players: RosterChanged(league, players, lang=lang)

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
            now, roster = self.clock(), await self._roster(league)
            if league.status == "signup":
                await self.outbox.written(lambda entry: self.store.remove_player(
                    league.id, user_id, announce=lambda _, players: entry([roster(players)])), now)
            else:
                await self.outbox.written(lambda entry: self.store.mark_left(
                    league.id, user_id, now, announce=lambda _, players: entry([roster(players)])), now)
                for table in await self.store.tables(league.id):
                    if user_id in table.players and table.match_id and table.match_status == "active":
                        try:
                            await self.matches.resign(table.match_id, user_id)
                            resigned.append(table.match_id)
                        except errors.UserError:
                            pass  # already out of that match (resigned or timed out at a table of 3–4)
            log.info("league=%s guild=%s user=%s left resigned=%s", league.id, league.guild_id, user_id, resigned)
            return league, resigned

    async def _organiser_role(self, guild_id: int) -> int | None:
        return await self.settings.get(guild_id, ORGANISER_ROLE)

    async def _is_organiser(self, guild_id: int, may_manage: bool, role_ids: Collection[int]) -> bool:
        """Manage Server, or the role the server chose in /settings for its league organisers."""
        return may_manage or await self.settings.holds_role(guild_id, ORGANISER_ROLE, role_ids)

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
            await self.rounds.start(league, players)
        await self.rounds.advance(league_id)
        return await self.get(league_id)

    async def cancel(self, league_id: int, user_id: int, may_manage: bool, role_ids: Collection[int] = ()) -> League:
        async with self._locks.hold(league_id):
            league = await self.get(league_id)
            await self._may_organise(league, user_id, may_manage, role_ids)
            if not league.is_open:
                raise errors.UserError(N_("**{league}** has already ended."), league=league_title(league))
            if not await self._cancel(league, N_("cancelled by the organiser")):
                raise errors.UserError(N_("**{league}** has already ended."), league=league_title(league))
            league = await self.get(league_id)
            log.info("league=%s guild=%s user=%s cancelled", league.id, league.guild_id, user_id)
            return league

    async def _cancel(self, league: League, reason: str, params: dict[str, Any] | None = None) -> bool:
        """Cancel `league`, its announcement written with it; False if it was already over."""
        now, lang = self.clock(), await self.language(league.guild_id)
        (done, _), _ = await self.outbox.written(lambda entry: self.store.finish(
            league, now, "cancelled", announce=lambda cancelled, players: entry([LeagueCancelled(
                cancelled, reason, params or {}, players=players, lang=lang)])), now)
        return done

    async def _signup_ended(self, timer: Any) -> None:
        league_id = -timer.ref_id
        async with self._locks.hold(league_id):
            league = await self.store.get(league_id)
            if league is None or league.status != "signup":
                return
            players = await self.store.players(league_id)
            if len(players) < max(2, league.table_size):
                too_few = N_("only {count} signed up when sign-up ended",
                             plural="only {count} signed up when sign-up ended")
                await self._cancel(league, too_few, {"count": len(players)})
                return
            await self.rounds.start(league, players)
        await self.rounds.advance(league_id)

    # --- what players look up ------------------------------------------------------------------------------

    async def matches_of(self, league_id: int, user_id: int) -> LeagueMatches:
        """The league's tables, hers first (then by round and board)."""
        league = await self.get(league_id)
        tables = await self.store.tables(league_id)
        tables.sort(key=lambda t: (user_id not in t.players, -t.round, t.division, t.board))
        return LeagueMatches(league, tables, player_names(await self.store.players(league_id)))

    async def round_tables(self, league_id: int, round_: int) -> list[LeagueTable]:
        """A round's tables as they are now (their match threads appear as the matches are announced)."""
        return await self.store.tables(league_id, round_)


