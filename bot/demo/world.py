"""The demo's world: the real bot in a simulated Discord (SimCord), one server, one channel, two local members.

SimCord's preview shows one channel at a time, so the world opens a preview on whichever channel the visitor picks
(#games, a match thread, a member's DMs with Strategos) and re-opens it when the visitor picks another. Bot work
that no click started (the computer's reply, a reminder) is published as soon as it has made a request to Discord.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path

import simcord
from simcord import SetupError
from simcord.backend.cdn import CDN_BASE

from bot.app import StrategosBot, create_bot
from bot.presenters import pictures
from bot.presenters.emojis import emoji_png, wanted_emojis
from bot.settings import Settings

log = logging.getLogger(__name__)

GUILD_ID = 700000000000000001
MEMBER_NAMES = ("visitor", "friend")  # the visitor, and a second local member to play both sides
REFRESH_SECONDS = 0.05
OPEN_ATTEMPTS = 600  # 30 s of REFRESH_SECONDS: as long as a click may take


@dataclass(frozen=True)
class ChannelEntry:
    id: int
    name: str
    kind: str  # "channel", "thread" or "dm"
    last_message_id: int | None


class DemoWorld:
    def __init__(self, database: Path):
        # No development server: the world syncs the commands globally (start), so that they are there in DMs too.
        settings = Settings(token=None, database=database, dev_guild=None, log_level="WARNING")
        pictures.draw_in_threads()  # inside the simulated Discord (pictures.draw_in_threads says why)
        self.bot: StrategosBot = create_bot(settings)
        # A generous patience: an action waits for the bot, and the computer's hardest think takes ~2 s.
        self.env = simcord.Env(self.bot, settle_timeout=30.0, check_errors=False, shard_count=1)
        self.guild: simcord.GuildHandle  # both made by start()
        self.channel: simcord.ChannelHandle
        self.members: dict[int, simcord.MemberActor] = {}
        self.preview = None
        self.emoji_pictures: dict[str, tuple[str, bytes]] = {}  # filled by start()
        self.current_channel_id: int | None = None
        self.current_member_id: int | None = None
        self._lock = asyncio.Lock()  # one preview change or refresh at a time
        self._refresher: asyncio.Task | None = None
        self._requests_seen = 0
        self._unpublished = False
        self._clicks_in_flight = 0

    async def start(self) -> None:
        self.guild = self.env.create_guild("Strategos demo", id=GUILD_ID)
        await self.env.start()
        self.emoji_pictures = emoji_pictures(self.env)
        # As an owner's "@Strategos sync" would: the commands everywhere, the server and the DMs alike (else the
        # page warns from its first second that the commands are not synced).
        await self.bot.tree.sync()
        # SimCord names every bot "TestBot"; the bot renames itself as an owner could on Discord.
        assert self.bot.user is not None  # logged in by env.start()
        await self.bot.user.edit(username="Strategos")
        self.channel = self.guild.create_text_channel("games")
        for name in MEMBER_NAMES:
            member = self.guild.add_member(self.env.create_user(name))
            self.members[member.id] = member
        await self.open(self.channel.id, next(iter(self.members)))
        self._refresher = asyncio.create_task(self._refresh_loop())

    def channels(self, member_id: int) -> list[ChannelEntry]:
        """What the member can open, like Discord's channel list: #games, its match threads (newest first), DMs."""
        member = self.members[member_id]
        entries = [self._entry(self.channel, "channel", member)]
        threads = sorted(self.channel.threads, key=lambda thread: thread.id, reverse=True)
        entries += [self._entry(thread, "thread", member) for thread in threads]
        entries.append(self._entry(member.user.dm_channel, "dm", member, name="Strategos (DMs)"))
        return entries

    @staticmethod
    def _entry(handle, kind: str, member, name: str | None = None) -> ChannelEntry:
        # As the member sees it: someone else's private answers are not there.
        visible = handle.history(viewer=member if handle.guild is not None else None)
        return ChannelEntry(handle.id, name or handle.name or str(handle.id), kind,
                            visible[-1].id if visible else None)

    def _handle(self, channel_id: int, member):
        if channel_id == self.channel.id:
            return self.channel
        for thread in self.channel.threads:
            if thread.id == channel_id:
                return thread
        if member.user.dm_channel.id == channel_id:
            return member.user.dm_channel
        raise LookupError(channel_id)

    async def open(self, channel_id: int, member_id: int) -> None:
        """Show the channel as the member sees it (raises LookupError for a channel the member cannot open)."""
        member = self.members[member_id]
        async with self._lock:
            handle = self._handle(channel_id, member)
            # Only the member played as: the page's own "Viewing as" then always says who the channel list says.
            viewers = [member.user] if handle.guild is None else [member]
            # No longer the page's preview from here on: the relay must not reach one being closed.
            closing, self.preview = self.preview, None
            if closing is not None:
                await closing.close()
            self.preview = await self._open_preview(handle, viewers)
            self.current_channel_id, self.current_member_id = channel_id, member_id
            self._requests_seen, self._unpublished = len(self.env.http_requests), False

    async def _open_preview(self, handle, viewers):
        # SimCord handles one operation at a time: a click still being handled delays the new page a moment.
        for _ in range(OPEN_ATTEMPTS):
            if not self._clicks_in_flight:
                return await self.env.preview(handle, viewers=viewers, layout="channel",
                                              assets=self.emoji_pictures).__aenter__()
            await asyncio.sleep(REFRESH_SECONDS)
        raise TimeoutError("the bot stayed busy; pick the channel again")

    def click_started(self) -> None:
        """The page sent a click (or a command) to SimCord: it publishes the page itself once the bot settles."""
        self._clicks_in_flight += 1

    def click_finished(self) -> None:
        # What the bot did until now is on the page the click published; publishing it again would only make
        # the page's next click stale (SimCord refuses a click on a page older than its last publication).
        self._clicks_in_flight -= 1
        self._requests_seen, self._unpublished = len(self.env.http_requests), False

    async def _refresh_loop(self) -> None:
        """Publish what the bot did on its own (the computer's move, a DM) to the open page: any request it made
        to Discord after the page's last click."""
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            if self._clicks_in_flight or self.preview is None:
                continue
            requests = len(self.env.http_requests)
            if requests != self._requests_seen:
                self._requests_seen, self._unpublished = requests, True
            if not self._unpublished:
                continue
            async with self._lock:
                try:
                    await self.preview.refresh()
                except SetupError:  # a click began meanwhile: it publishes the page itself
                    pass
                except TimeoutError:
                    log.warning("the bot is slow to settle; the page will catch up")
                    continue
                self._unpublished = False

    async def close(self) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
            await asyncio.gather(self._refresher, return_exceptions=True)
        async with self._lock:
            if self.preview is not None:
                await self.preview.close()
        await self.env.shutdown()
        # SimCord detaches the bot without closing it: stop its worker process and close its database.
        computers = getattr(self.bot, "computers", None)
        if computers is not None:
            computers.close()
        repo = getattr(self.bot, "repo", None)
        if repo is not None:
            await repo.close()


def emoji_pictures(env: simcord.Env) -> dict[str, tuple[str, bytes]]:
    """The pictures of the app emojis the bot uploaded, at the addresses the preview asks them from: SimCord keeps
    no uploaded emoji's image, where Discord's CDN would serve it."""
    wanted = wanted_emojis()
    return {f"{CDN_BASE}/emojis/{emoji.id}.png": (f"{emoji.name}.png", emoji_png(wanted[emoji.name]))
            for emoji in env.backend.application_emojis.values() if emoji.name in wanted}
