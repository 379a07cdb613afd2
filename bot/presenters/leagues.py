"""League events become posts: the announcement with Join / Leave (kept current), the league's thread with each
round's pairings, a standings picture after every finished match, the champion, and the archived thread.

An event a process presents that recovers it (`recovered`: its writer stopped before presenting it, or before
deleting its outbox row) is shown once: the announcement is adopted when the league records it (`set_posts`) or
when the channel holds the bot's post of the same text that was not recorded; a post in the thread is adopted when
the thread's recent history holds the bot's post of the same text (and picture description). Edits are shown
again: they show the same thing.
"""

from __future__ import annotations

import io
import logging
from typing import AbstractSet, Any, Callable

import discord

from bot.i18n import ENGLISH, N_, localize, t, tn
from bot.leagues import POINT, points_text
from bot.leagues.seasons import movers
from bot.matches import catalogue
from bot.matches.league_events import (
    DivisionTable, LeagueCancelled, LeagueEvent, LeagueFinished, LeagueOpened, RosterChanged, RoundStarted,
    StandingsChanged,
)
from bot.matches.leagues import FORMATS, LeagueService, league_title
from bot.domain import League, LeaguePlayer, LeagueTable
from renderers.league import Division, Row, standings_picture

from .clock_text import clock_kind

from .describe import MAX_ALT_TEXT
from .layout import card, text_of
from .pictures import render_in
from .text import fit, mentions, message_link

log = logging.getLogger(__name__)

STANDINGS_FILENAME = "standings.png"
RECOVERY_HISTORY = 50  # the posts a recovered announcement looks through for the one its stopped writer made
LEGEND = N_("Ties: Sonneborn-Berger (SB), games between the tied, wins (W), rating")
Buttons = Callable[[League, str], "discord.ui.View | None"]  # the league, the language


def league_summary(league: League, lang: str = ENGLISH) -> str:
    game = catalogue.info(league.game).title
    tables = ", " + t(lang, "tables of {size}", size=league.table_size) if league.table_size > 2 else ""
    count = league.total_rounds or league.rounds
    rounds = ", " + tn(lang, "{count} round", "{count} rounds", count) if league.format == "swiss" and count else ""
    clock = clock_kind(league.clock_seconds, league.clock_rules, lang) if league.clock_seconds else t(lang, "no clock")
    rated = t(lang, "rated") if league.rated else t(lang, "unrated")
    if not league.clock_rules.vacation:
        rated += " · " + t(lang, "no vacation days")

    repeat = " · " + t(lang, "repeats monthly") if league.repeat == "monthly" else ""
    return f"{game} · {t(lang, FORMATS[league.format])}{rounds}{tables} · {clock} · {rated}{repeat}"


def announcement_text(league: League, players: list[LeaguePlayer], lang: str = ENGLISH) -> str:
    lines = [f"🏆 **{localize(lang, league_title(league))}** — {league_summary(league, lang)}",
             t(lang, "Organiser: {member}", member=f"<@{league.organiser_id}>")]
    if league.status == "signup":
        lines.append(t(lang, "Sign-up ends {when}; press **Join** to take part.",
                       when=f"<t:{int(league.signup_ends_at)}:R>"))
    elif league.status == "running":
        lines.append(t(lang, "Under way: new players join the next round.") if league.format == "swiss"
                     else t(lang, "Under way."))
    elif league.status == "finished":
        lines.append(t(lang, "✅ Finished."))
    else:
        lines.append(t(lang, "🚫 Cancelled."))
    active = [p for p in players if p.active]
    names = ", ".join(p.user_name for p in active) or t(lang, "nobody yet")
    lines.append(t(lang, "Players ({count}): {names}", count=len(active), names=names))
    if league.thread_id:
        lines.append(t(lang, "League thread: {thread}", thread=f"<#{league.thread_id}>"))
    return fit("\n".join(lines))


def _number(sb: int) -> str:
    value = round(sb / (POINT * POINT), 2)
    return f"{value:g}"


def division_rows(table: DivisionTable, names: dict[int, str], left: set[int],
                  zones: dict[int, str] | None = None) -> list[Row]:
    zones = zones or {}
    return [Row(s.rank, names.get(s.player, str(s.player)), points_text(s.points), _number(s.sonneborn_berger),
                s.games, s.wins, int(s.rating), s.player in left, zones.get(s.player)) for s in table.rows]


def zones(league: League, tables: list[DivisionTable], left: AbstractSet[int]) -> dict[int, str]:
    """Player → "up" or "down": who the next season promotes or relegates if the standings stay as they are
    (bot/leagues/seasons.py, counted among the players still in). Empty for a league that moves nobody."""
    if not league.promotes or len(tables) < 2:
        return {}
    found = {}
    for d, table in enumerate(tables):
        staying = [s.player for s in table.rows if s.player not in left]
        up, down = movers(len(staying), league.promotion, first=d == 0, last=d == len(tables) - 1)
        found.update({p: "up" for p in staying[:up]} | {p: "down" for p in staying[len(staying) - down:]})
    return found


ZONE_MARKS = {"up": " ⬆", "down": " ⬇"}


def alt_text(league: League, tables: list[DivisionTable], names: dict[int, str], lang: str = ENGLISH,
             left: AbstractSet[int] = frozenset()) -> str:
    parts = [t(lang, "Standings of {league}.", league=league_title(league))]
    marks = {p: ZONE_MARKS[zone] for p, zone in zones(league, tables, left).items()}
    for table in tables:
        head = " " + t(lang, "Division {number}:", number=table.division) if len(tables) > 1 else ""
        rows = "; ".join(f"{s.rank}. {names.get(s.player, s.player)} {points_text(s.points)}{marks.get(s.player, '')}"
                         for s in table.rows)
        parts.append(f"{head} {rows}.")
    if marks:
        parts.append(" " + zone_legend(league, lang))
    return fit("".join(parts), MAX_ALT_TEXT)


def zone_legend(league: League, lang: str = ENGLISH) -> str:
    return tn(lang, "⬆ The top {count} of each division go up and ⬇ the bottom {count} go down when the next season "
                    "opens.", "⬆ The top {count} of each division go up and ⬇ the bottom {count} go down when the next "
                    "season opens.", league.promotion)


async def standings_file(league: League, tables: list[DivisionTable], names: dict[int, str],
                         left: set[int], lang: str = ENGLISH) -> discord.File:
    """The standings picture and its alt text (what the picture says, in words, for screen readers), both in
    `lang`."""
    moving = zones(league, tables, left)
    divisions = [Division(t(lang, "Division {number}", number=table.division) if len(tables) > 1 else None,
                          division_rows(table, names, left, moving)) for table in tables]
    png = await render_in(lang, standings_picture, localize(lang, league_title(league)), league_summary(league, lang),
                          t(lang, LEGEND), divisions)
    return discord.File(io.BytesIO(png), filename=STANDINGS_FILENAME,
                        description=alt_text(league, tables, names, lang, left))


def table_line(table: LeagueTable, names: dict[int, str], guild_id: int, lang: str = ENGLISH) -> str:
    who = t(lang, " vs ").join(f"**{names.get(p, p)}**" for p in table.players)
    if table.is_bye:
        return t(lang, "{player} has a bye (it counts as a win)", player=who)
    where = ""
    if table.match_id:
        link = message_link(guild_id, table.thread_id) if table.thread_id else None
        match = t(lang, "match #{match}", match=table.match_id)
        where = f" — [{match}]({link})" if link else f" — {match}"
    state = " ✓" if table.match_status == "finished" else ""
    return f"{who}{where}{state}"


class LeaguePresenter:
    def __init__(self, client: discord.Client, leagues: LeagueService, buttons: Buttons):
        self.client = client
        self.leagues = leagues
        self.buttons = buttons

    async def __call__(self, event: LeagueEvent) -> bool:
        try:
            return await self._present(event)
        except discord.HTTPException as exc:
            log.warning("presenting %s of league=%s failed: %s", type(event).__name__, event.league.id, exc)
            return False

    async def _present(self, event: LeagueEvent) -> bool:
        if isinstance(event, LeagueOpened):
            return await self._opened(event)
        if isinstance(event, RosterChanged):
            league = event.league
            if league.message_id is None:  # it changed while its announcement was being posted
                league = await self.leagues.get(league.id)
            return await self._refresh(league, event.players, event.lang)
        if isinstance(event, RoundStarted):
            return await self._round_started(event)
        if isinstance(event, StandingsChanged):
            return await self._standings(event.league, event.divisions, event.names, event.players, event.lang,
                                         recovered=event.recovered)
        if isinstance(event, LeagueFinished):
            return await self._finished(event)
        if isinstance(event, LeagueCancelled):
            return await self._cancelled(event)
        return True

    async def _channel(self, channel_id: int | None) -> Any:
        if channel_id is None:
            return None
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel

    async def _opened(self, event: LeagueOpened) -> bool:
        """Post the announcement and open the league's thread on it."""
        league, players, lang = event.league, event.players, event.lang
        channel = await self._channel(league.channel_id)
        if channel is None:
            return False
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        text = announcement_text(league, players, lang)
        if event.recovered:
            if (await self.leagues.get(league.id)).message_id is not None:
                return True  # posted and recorded: only its row was left
            made = await self._made(channel, text)
            if made is not None:
                log.info("league=%s adopting its announcement %s", league.id, made.id)
                await self.leagues.set_posts(league.id, made.id, made.thread.id if made.thread else None)
                return True
        message = await channel.send(view=card(text, buttons=self.buttons(league, lang)),
                                     allowed_mentions=discord.AllowedMentions.none())
        thread = None
        try:
            thread = await message.create_thread(name=t(lang, "League: {league}", league=league_title(league))[:100],
                                                 auto_archive_duration=10080)
        except discord.HTTPException as exc:
            log.warning("league=%s could not open its thread (%s)", league.id, exc)
        await self.leagues.set_posts(league.id, message.id, thread.id if thread else None)
        if thread is not None:
            ping, allowed = mentions([p.user_id for p in players])
            intro = t(lang, "This is **{league}**'s thread: each round's pairings, the standings after every "
                            "finished match and the champion appear here. Matches are played in their own "
                            "threads. `/league matches` lists yours.", league=league_title(league))
            if players:
                intro += "\n" + t(lang, "Signed up from last season: {players} — press **Leave** on the "
                                        "announcement to drop out.", players=ping)
            await thread.send(view=card(fit(intro)), allowed_mentions=allowed)
        return True

    async def _made(self, channel: Any, text: str, description: str | None = None) -> discord.Message | None:
        """The bot's recent post in `channel` of `text` (with a picture described so), if any."""
        me = self.client.user
        try:
            async for message in channel.history(limit=RECOVERY_HISTORY):
                if (me is not None and message.author.id == me.id and text_of(message) == text
                        and (description is None or any(a.description == description for a in message.attachments))):
                    return message
        except discord.HTTPException:
            log.warning("could not read channel %s to adopt a post", getattr(channel, "id", None))
        return None

    async def _send(self, thread: Any, text: str, recovered: bool, *, file: discord.File | None = None,
                    allowed: discord.AllowedMentions | None = None) -> None:
        """Post `text` in the league's thread; recovered, adopt the same post its stopped writer made."""
        if recovered and await self._made(thread, text, file.description if file else None) is not None:
            log.info("thread %s already shows a recovered post: adopted", thread.id)
            return
        await thread.send(view=card(text, picture=file), file=file or discord.utils.MISSING,
                          allowed_mentions=allowed or discord.AllowedMentions.none())

    async def _refresh(self, league: League, players: list[LeaguePlayer], lang: str) -> bool:
        """Show the league's state and roster on its announcement."""
        channel = await self._channel(league.channel_id)
        if channel is None or league.message_id is None:
            return False
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        try:
            await channel.get_partial_message(league.message_id).edit(
                content=None, view=card(announcement_text(league, players, lang), buttons=self.buttons(league, lang)),
                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("league=%s could not update its announcement", league.id)
            return False
        return True

    async def _round_started(self, event: RoundStarted) -> bool:
        league, lang = event.league, event.lang
        await self._refresh(league, event.players, lang)
        thread = await self._channel(league.thread_id)
        if thread is None:
            return False
        if league.format == "swiss":
            head = t(lang, "⚔️ **Round {round} of {rounds}**", round=event.round, rounds=league.total_rounds)
        else:
            head = t(lang, "⚔️ **Every match starts now**")
        lines = [head + " — " + t(lang, "each match has its own thread; play at your own pace within the clock.")]
        tables = await self.leagues.round_tables(league.id, event.round) or event.tables  # with their threads
        divisions = sorted({t.division for t in tables})
        for division in divisions:
            if len(divisions) > 1:
                lines.append("__" + t(lang, "Division {number}", number=division) + "__")
            lines += [f"• {table_line(table, event.names, league.guild_id, lang)}" for table in tables
                      if table.division == division]
        ping, allowed = mentions(sorted({p for t in tables for p in t.players}))
        await self._send(thread, fit("\n".join(lines) + f"\n{ping}"), event.recovered, allowed=allowed)
        return True

    async def _standings(self, league: League, tables: list[DivisionTable], names: dict[int, str],
                         players: list[LeaguePlayer], lang: str, head: str | None = None, *,
                         recovered: bool = False) -> bool:
        thread = await self._channel(league.thread_id)
        if thread is None:
            return False
        head = head or t(lang, "📊 Standings")
        left = {p.user_id for p in players if not p.active}
        if zones(league, tables, left):
            head += "\n" + zone_legend(league, lang)
        file = await standings_file(league, tables, names, left, lang)
        await self._send(thread, fit(head), recovered, file=file)
        return True

    async def _finished(self, event: LeagueFinished) -> bool:
        league, names, lang = event.league, event.names, event.lang
        champions = []
        for table in event.divisions:
            leaders = [names.get(s.player, str(s.player)) for s in table.rows if s.rank == 1]
            label = t(lang, "Division {number}:", number=table.division) + " " if len(event.divisions) > 1 else ""
            champions.append(label + t(lang, " and ").join(f"**{n}**" for n in leaders))
        if len(champions) > 1:
            head = t(lang, "🏆 **{league}** is over. Champions: {champions}!", league=league_title(league),
                     champions="; ".join(champions))
        else:
            head = t(lang, "🏆 **{league}** is over. Champion: {champions}!", league=league_title(league),
                     champions="; ".join(champions))
        if event.next_season is not None:
            head += "\n" + t(lang, "The next season opens now with the same players; it starts {when}.",
                             when=f"<t:{int(event.next_season.signup_ends_at)}:R>")
        done = await self._standings(league, event.divisions, names, event.players, lang, head,
                                     recovered=event.recovered)
        thread = await self._channel(league.thread_id)
        if isinstance(thread, discord.Thread):
            try:
                await thread.edit(archived=True)
            except discord.HTTPException:
                log.info("league=%s could not archive its thread", league.id)
        return await self._refresh(league, event.players, lang) and done

    async def _cancelled(self, event: LeagueCancelled) -> bool:
        league, lang = event.league, event.lang
        thread = await self._channel(league.thread_id)
        if thread is not None:
            reason = t(lang, event.reason, **event.reason_params)
            text = t(lang, "🚫 **{league}** was cancelled: {reason}. Matches already under way go on as ordinary "
                           "matches.", league=league_title(league), reason=reason)
            await self._send(thread, fit(text), event.recovered)
            if isinstance(thread, discord.Thread):
                try:
                    await thread.edit(archived=True)
                except discord.HTTPException:
                    log.info("league=%s could not archive its thread", league.id)
        return await self._refresh(league, event.players, lang)
