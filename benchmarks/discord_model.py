"""A modelled Discord for the burst benchmark and the pacing tests: an aiohttp server that answers the REST calls
the bot makes, and refuses them as Discord does when they come too fast.

What it models (https://discord.com/developers/docs/topics/rate-limits):

- the bot's global limit: at most `global_rate` limited requests in any `global_per` seconds (50 a second);
- per channel, at most `channel_rate` new messages in `channel_per` seconds (5 in 5), and as many edits of its
  messages (a bucket of their own, as Discord's headers show them);
- interaction callbacks and interaction webhooks (`/interactions/…`, `/webhooks/<application id>/…`) are
  exempt: they count against no limit;
- a refused request gets 429 with `retry_after` in its body and Discord's headers (`Retry-After`, `X-RateLimit-*`,
  `X-RateLimit-Global`, `X-RateLimit-Scope`, and `Via`, which discord.py reads as "not Cloudflare");
- invalid requests (401, 403, and 429 except those of a shared bucket) are counted with their times: Discord bans
  an address for an hour at 10,000 of them in 10 minutes.

Every successful answer to a bucketed route carries the bucket's `X-RateLimit-*` headers, so discord.py's own
handling paces itself by them. Time is `clock()`, by default the event loop's, so a test on a virtual clock sees
the same limits on every run. Messages are kept per channel; a board (a `board.png` with a board's buttons) is
logged with its match, version, arrival time and whether it came as an interaction's answer.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from aiohttp import web

APPLICATION_ID = 900_000_000_000_000_001
BOT_USER_ID = 900_000_000_000_000_002
GUILD_ID = 10**16  # a snowflake: ids below 2**22 are conversations' (bot/matches/places.py)
INVALID_WINDOW = 600.0  # Discord counts invalid requests over 10 minutes

_BOARD_ID = re.compile(r"^sg:b:(\d+):(\d+):")
_REMATCH_ID = re.compile(r"^sg:rm:(\d+)$")


def interaction_token(interaction_id: int, channel_id: int, message_id: int = 0) -> str:
    """An interaction's token as the benchmark hands it out: it names the channel the interaction came from and,
    for a click, the message clicked, so the model needs no other record of it."""
    return f"i{interaction_id}-c{channel_id}-m{message_id}"


def _of_token(token: str) -> tuple[int, int, int]:
    parts = dict((p[0], int(p[1:])) for p in token.split("-"))
    return parts["i"], parts["c"], parts["m"]


@dataclass
class Bucket:
    limit: int
    per: float
    started: float = -math.inf
    used: int = 0

    def remaining(self, now: float) -> int:
        return self.limit if now >= self.started + self.per else self.limit - self.used

    def take(self, now: float) -> None:
        if now >= self.started + self.per:
            self.started, self.used = now, 0
        self.used += 1

    def reset_after(self, now: float) -> float:
        return max(0.0, self.started + self.per - now) if now < self.started + self.per else self.per


@dataclass
class BoardArrival:
    at: float
    channel_id: int
    match_id: int
    version: int | None  # None: a finished match's last board (it shows no version)
    answer: bool  # posted as an interaction's answer (exempt), not as a new channel message


@dataclass
class Stats:
    limited: int = 0  # limited requests Discord accepted
    exempt: int = 0
    requests_429: int = 0
    global_429: int = 0
    injected_429: int = 0
    unmodelled: list[str] = field(default_factory=list)  # routes the model does not know (each a 404)
    invalid: list[float] = field(default_factory=list)  # times of invalid requests
    limited_at: list[float] = field(default_factory=list)
    by_route: dict[str, int] = field(default_factory=dict)
    boards: list[BoardArrival] = field(default_factory=list)
    callbacks: dict[int, float] = field(default_factory=dict)  # interaction id → when its first answer came

    def invalid_max(self, window: float = INVALID_WINDOW) -> int:
        """The most invalid requests in any `window` seconds."""
        times, most, start = sorted(self.invalid), 0, 0
        for end, at in enumerate(times):
            while at - times[start] > window:
                start += 1
            most = max(most, end - start + 1)
        return most

    def as_json(self) -> dict[str, Any]:
        return {"limited": self.limited, "exempt": self.exempt, "requests_429": self.requests_429,
                "global_429": self.global_429, "injected_429": self.injected_429, "unmodelled": self.unmodelled,
                "invalid": self.invalid, "limited_at": self.limited_at, "by_route": self.by_route,
                "boards": [vars(b) for b in self.boards], "callbacks": {str(k): v for k, v in self.callbacks.items()}}


class DiscordModel:
    def __init__(self, *, limits: bool = True, clock: Callable[[], float] | None = None, global_rate: int = 50,
                 global_per: float = 1.0, channel_rate: int = 5, channel_per: float = 5.0):
        self.limits = limits
        self._clock = clock
        self.global_rate, self.global_per = global_rate, global_per
        self.channel_rate, self.channel_per = channel_rate, channel_per
        self.stats = Stats()
        self._global: deque[float] = deque()
        self._buckets: dict[tuple[str, int], Bucket] = {}
        self._ids = itertools.count(10**15)
        self.threads: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, dict[str, Any]] = {}  # message id → payload
        self.channel_messages: dict[int, list[int]] = {}
        self._originals: dict[int, dict[str, Any]] = {}  # interaction id → its response's state
        self._refuse: deque[str] = deque()  # scopes of injected 429s, for the next limited requests
        self.app = web.Application(client_max_size=64 * 2**20)
        self.app.router.add_route("*", "/api/v10/{path:.*}", self._handle)
        self.app.router.add_get("/_model/stats", self._stats)
        self.app.router.add_post("/_model/limits", self._set_limits)

    def now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def refuse_next(self, count: int, scope: str = "user") -> None:
        """Answer the next `count` limited requests with 429 of `scope` ("user", "global" or "shared"), as
        Discord does now and then whatever a client does (a sub-limit, a shared bucket, its own hiccups)."""
        self._refuse.extend([scope] * count)

    # --- the HTTP side ----------------------------------------------------------------------------------------

    async def _stats(self, request: web.Request) -> web.Response:
        return _json(self.stats.as_json())

    async def _set_limits(self, request: web.Request) -> web.Response:
        """Limits on (counting anew from now: a burst) or off (a benchmark sets its matches up without them)."""
        self.limits = bool((await request.json())["limits"])
        if self.limits:
            self.stats = Stats()  # a burst counts from here
        return _json({"limits": self.limits})

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        body, files = await _read_body(request)
        now = self.now()
        exempt = path.startswith("/interactions/") or path.startswith(f"/webhooks/{APPLICATION_ID}/")
        kind, bucket_key = _route(request.method, path)
        if exempt:
            self.stats.exempt += 1
        else:
            refused = self._admit(now, kind, bucket_key)
            if refused is not None:
                return refused
            self.stats.limited += 1
            self.stats.limited_at.append(now)
            self.stats.by_route[kind] = self.stats.by_route.get(kind, 0) + 1
        try:
            result = self._answer(request.method, path, body, files, now)
        except KeyError:
            self.stats.unmodelled.append(f"{request.method} {path}")
            return _json({"message": "Unknown route (modelled Discord)", "code": 0}, status=404)
        headers = self._bucket_headers(now, kind, bucket_key) if not exempt else {}
        if result is None:
            return web.Response(status=204, headers=headers)
        return _json(result, headers=headers)

    def _admit(self, now: float, kind: str, key: tuple[str, int] | None) -> web.Response | None:
        """None if a limited request may pass now, else the 429 Discord would answer."""
        if self._refuse:
            scope = self._refuse.popleft()
            self.stats.injected_429 += 1
            return self._refused(now, 1.0, scope, kind, key)
        if not self.limits:
            return None
        window = self._global
        while window and window[0] <= now - self.global_per:
            window.popleft()
        if len(window) >= self.global_rate:
            self.stats.global_429 += 1
            return self._refused(now, window[0] + self.global_per - now, "global", kind, key)
        if key is not None:
            bucket = self._bucket(key)
            if bucket.remaining(now) <= 0:
                return self._refused(now, bucket.reset_after(now), "user", kind, key)
            bucket.take(now)
        window.append(now)
        return None

    def _bucket(self, key: tuple[str, int]) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.channel_rate, self.channel_per)
        return bucket

    def _bucket_headers(self, now: float, kind: str, key: tuple[str, int] | None) -> dict[str, str]:
        if key is None or not self.limits:
            return {}
        bucket = self._bucket(key)
        reset_after = bucket.reset_after(now)
        return {"X-RateLimit-Limit": str(bucket.limit), "X-RateLimit-Remaining": str(bucket.remaining(now)),
                "X-RateLimit-Reset": f"{now + reset_after:.3f}", "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": f"model-{kind.replace(' ', '-').lower()}"}

    def _refused(self, now: float, retry_after: float, scope: str, kind: str,
                 key: tuple[str, int] | None) -> web.Response:
        self.stats.requests_429 += 1
        if scope != "shared":
            self.stats.invalid.append(now)
        retry_after = round(max(retry_after, 0.001), 3)
        headers = {"Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": scope, "Via": "1.1 google"}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        elif key is not None and self.limits:
            headers.update(self._bucket_headers(now, kind, key))
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Reset-After"] = f"{retry_after:.3f}"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": scope == "global",
                "code": 0}
        return _json(body, status=429, headers=headers)

    # --- what Discord answers ---------------------------------------------------------------------------------

    def _answer(self, method: str, path: str, body: dict[str, Any], files: list[str],
                now: float) -> dict[str, Any] | list[Any] | None:
        parts = path.strip("/").split("/")
        match parts, method:
            case ["users", "@me"], "GET":
                return _user(BOT_USER_ID, bot=True)
            case ["oauth2", "applications", "@me"], "GET":
                return {"id": str(APPLICATION_ID), "name": "Strategos", "icon": None, "description": "",
                        "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False, "verify_key": "",
                        "owner": _user(BOT_USER_ID + 1), "team": None, "flags": 0, "summary": ""}
            case ["users", "@me", "channels"], "POST":
                return {"id": str(int(body["recipient_id"]) + 7), "type": 1, "last_message_id": None,
                        "recipients": [_user(int(body["recipient_id"]))]}
            case ["users", user_id], "GET":
                return _user(int(user_id))
            case ["channels", channel_id], "GET":
                return self._channel(int(channel_id))
            case ["channels", channel_id], "PATCH":
                channel = self._channel(int(channel_id))
                if "archived" in body and int(channel_id) in self.threads:
                    channel["thread_metadata"]["archived"] = body["archived"]
                return channel
            case ["channels", channel_id, "threads"], "POST":
                thread_id = self.open_thread(int(channel_id), body.get("name", "thread"))
                return self.threads[thread_id]
            case ["channels", channel_id, "messages"], "GET":
                ids = self.channel_messages.get(int(channel_id), [])
                return [self.messages[i] for i in reversed(ids)][:50]
            case ["channels", channel_id, "messages"], "POST":
                return self._create(int(channel_id), body, files, now)
            case ["channels", channel_id, "messages", message_id], "GET":
                return self.messages[int(message_id)]
            case ["channels", channel_id, "messages", message_id], "PATCH":
                return self._edit(int(message_id), body, files, int(channel_id))
            case ["interactions", interaction_id, token, "callback"], "POST":
                return self._callback(int(interaction_id), token, body, files, now)
            case ["webhooks", _, token], "POST":
                return self._followup(token, body, files, now)
            case ["webhooks", _, token, "messages", "@original"], "PATCH":
                return self._edit_original(token, body, files, now)
            case ["webhooks", _, token, "messages", "@original"], "GET":
                return self.messages[self._original(token)["message_id"]]
            case ["webhooks", _, token, "messages", message_id], "GET":
                return self.messages[int(message_id)]
            case ["webhooks", _, token, "messages", message_id], "PATCH":
                return self._edit(int(message_id), body, files)
            case ["webhooks", _, token, "messages", _], "DELETE":
                return None
        raise KeyError(path)

    def open_thread(self, parent_id: int, name: str) -> int:
        thread_id = next(self._ids)
        self.threads[thread_id] = {
            "id": str(thread_id), "type": 11, "guild_id": str(GUILD_ID), "parent_id": str(parent_id), "name": name,
            "owner_id": str(BOT_USER_ID), "message_count": 0, "member_count": 0, "rate_limit_per_user": 0,
            "flags": 0, "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "locked": False,
                                            "archive_timestamp": "2026-12-01T00:00:00+00:00"}}
        return thread_id

    def _channel(self, channel_id: int) -> dict[str, Any]:
        if channel_id in self.threads:
            return self.threads[channel_id]
        return {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": "games", "position": 0,
                "permission_overwrites": [], "nsfw": False, "parent_id": None, "rate_limit_per_user": 0,
                "topic": None, "last_message_id": None}

    def _create(self, channel_id: int, body: dict[str, Any], files: list[str], now: float, *,
                flags: int = 0, answer: bool = False) -> dict[str, Any]:
        message_id = next(self._ids)
        flags |= int(body.get("flags") or 0)
        message = {
            "id": str(message_id), "channel_id": str(channel_id), "author": _user(BOT_USER_ID, bot=True),
            "content": body.get("content") or "", "timestamp": "2026-12-01T00:00:00+00:00",
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": _attachments(files), "embeds": [], "pinned": False, "type": 0, "flags": flags,
            "components": body.get("components") or [],
        }
        if answer:
            message["webhook_id"] = str(APPLICATION_ID)
        self.messages[message_id] = message
        if not flags & 64:  # an ephemeral message is its one member's alone
            self.channel_messages.setdefault(channel_id, []).append(message_id)
            self._log_board(message, now, answer)
        return message

    def _edit(self, message_id: int, body: dict[str, Any], files: list[str],
              channel_id: int | None = None) -> dict[str, Any]:
        message = self.messages.get(message_id)
        if message is None:  # a message the model never saw (posted before it started): take the edit as is
            message = self.messages[message_id] = {
                "id": str(message_id), "channel_id": str(channel_id or 0), "author": _user(BOT_USER_ID, bot=True),
                "content": "", "timestamp": "2026-12-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
                "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
                "pinned": False, "type": 0, "flags": 0, "components": []}
        for key in ("content", "components", "flags"):
            if key in body:
                message[key] = body[key] if body[key] is not None else message.get(key)
        if files or "attachments" in body:
            message["attachments"] = _attachments(files)
        message["edited_timestamp"] = "2026-12-01T00:00:01+00:00"
        return message

    def _callback(self, interaction_id: int, token: str, body: dict[str, Any], files: list[str],
                  now: float) -> dict[str, Any]:
        self.stats.callbacks.setdefault(interaction_id, now)
        _, channel_id, clicked = _of_token(token)
        kind, data = body["type"], body.get("data") or {}
        state = self._originals[interaction_id] = {"message_id": None, "loading": False, "clicked": clicked}
        ephemeral = bool(int(data.get("flags") or 0) & 64)
        resource: dict[str, Any] = {"type": kind}
        if kind == 4:  # a message in answer
            message = self._create(channel_id, data, files, now, answer=True)
            state["message_id"] = int(message["id"])
            resource["message"] = message
        elif kind == 5:  # "thinking…": the first followup or an edit of the original fills it
            message = self._create(channel_id, {"content": "", "flags": 64 if ephemeral else 0}, [], now, answer=True)
            state.update(message_id=int(message["id"]), loading=True)
        elif kind in (6, 7) and clicked:  # a click's own message, edited now (7) or later (6)
            state["message_id"] = clicked
            if kind == 7:
                resource["message"] = self._edit(clicked, data, files, channel_id)
        return {"interaction": {"id": str(interaction_id), "type": 2, "response_message_id": state["message_id"]
                                and str(state["message_id"]), "response_message_loading": state["loading"],
                                "response_message_ephemeral": ephemeral}, "resource": resource}

    def _original(self, token: str) -> dict[str, Any]:
        interaction_id, _, clicked = _of_token(token)
        return self._originals.setdefault(interaction_id, {"message_id": clicked or None, "loading": False,
                                                           "clicked": clicked})

    def _edit_original(self, token: str, body: dict[str, Any], files: list[str], now: float) -> dict[str, Any]:
        state = self._original(token)
        if state["message_id"] is None:
            raise KeyError(token)
        message = self._edit(state["message_id"], body, files)
        if state["loading"]:
            state["loading"] = False
            if not message["flags"] & 64:
                self._log_board(message, now, True)
        return message

    def _followup(self, token: str, body: dict[str, Any], files: list[str], now: float) -> dict[str, Any]:
        state = self._original(token)
        if state["loading"]:  # Discord: the first followup after "thinking…" edits it, keeping its ephemerality
            return self._edit_original(token, {k: v for k, v in body.items() if k != "flags"}, files, now)
        _, channel_id, _ = _of_token(token)
        return self._create(channel_id, body, files, now, answer=True)

    def _log_board(self, message: dict[str, Any], now: float, answer: bool) -> None:
        if not any(a["filename"] == "board.png" for a in message["attachments"]):
            return
        for component in _walk(message["components"]):
            custom_id = component.get("custom_id") or ""
            if found := _BOARD_ID.match(custom_id):
                self.stats.boards.append(BoardArrival(now, int(message["channel_id"]), int(found.group(1)),
                                                      int(found.group(2)), answer))
                return
            if found := _REMATCH_ID.match(custom_id):
                self.stats.boards.append(BoardArrival(now, int(message["channel_id"]), int(found.group(1)),
                                                      None, answer))
                return


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a message, nested ones included (a Components V2 container's rows and their buttons)."""
    for component in components:
        yield component
        yield from _walk(component.get("components", []))
        if "accessory" in component:
            yield component["accessory"]


def _route(method: str, path: str) -> tuple[str, tuple[str, int] | None]:
    """The route's name, and its per-channel bucket if it has one (new messages, edits of messages)."""
    parts = path.strip("/").split("/")
    if parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages" and method == "POST":
        return "POST message", ("POST message", int(parts[1]))
    if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages" and method == "PATCH":
        return "PATCH message", ("PATCH message", int(parts[1]))
    name = "/".join(p if not p.isdigit() else "{id}" for p in parts[:3])
    return f"{method} {name}", None


def _json(value: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it: discord.py reads a body as JSON only under exactly `application/json`."""
    return web.Response(body=json.dumps(value).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


def _user(user_id: int, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": "Strategos" if bot else f"member{user_id}", "discriminator": "0",
            "avatar": None, "global_name": None, "bot": bot}


def _attachments(files: list[str]) -> list[dict[str, Any]]:
    return [{"id": str(900 + i), "filename": name, "size": 1, "url": f"https://cdn.example/{name}",
             "proxy_url": f"https://media.example/{name}"} for i, name in enumerate(files)]


async def _read_body(request: web.Request) -> tuple[dict[str, Any], list[str]]:
    """The JSON body (or a multipart form's payload_json) and the names of the files sent with it."""
    if not request.can_read_body:
        return {}, []
    if request.content_type.startswith("multipart/"):
        body: dict[str, Any] = {}
        files = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())
            elif part.filename:  # type: ignore[union-attr]
                files.append(part.filename)  # type: ignore[union-attr]
                await part.release()
        return body, files
    text = await request.text()
    return (json.loads(text) if text else {}), []


async def serve(model: DiscordModel, host: str = "127.0.0.1", port: int = 0) -> tuple[web.AppRunner, str]:
    """Start the model on loopback; returns its runner and its base URL (`http://127.0.0.1:<port>/api/v10`)."""
    runner = web.AppRunner(model.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://{host}:{bound}/api/v10"
