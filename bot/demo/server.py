"""The demo's page on 127.0.0.1: a channel list beside SimCord's preview, and the preview passed through.

SimCord's preview serves one channel on a port of its own, and is opened anew for each channel the visitor picks.
This server keeps one address for the whole demo: it serves the channel list (`/`), SimCord's page (`/preview`)
and relays everything else to the preview of the moment. Every request for data must carry the demo's secret (the
address's `#` part, which browsers never send by themselves): the relay swaps it for the preview's own capability,
and refuses any request without it.
"""

from __future__ import annotations

import hmac
import json
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import ClientError, ClientSession, web
from simcord import SetupError

from .world import DemoWorld

STATIC = Path(__file__).with_name("static")
SECRET_HEADER = "X-Strategos-Demo"
CAPABILITY_HEADER = "X-Simcord-Capability"
# The page is framed by the demo's own page, from the same address; nothing else may frame it.
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "SAMEORIGIN",
}
SHELL_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                "frame-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
RELAYED_REQUEST_HEADERS = ("Content-Type", "Accept", "X-Simcord-Context")
DROPPED_RESPONSE_HEADERS = {"content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive"}


class PortInUse(Exception):
    """The port is taken by another program."""


class DemoServer:
    def __init__(self, world: DemoWorld):
        self.world = world
        self.secret = secrets.token_urlsafe(32)
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._client: ClientSession | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/#{self.secret}"

    async def bind(self, port: int) -> None:
        """Listen on 127.0.0.1:port (0: any free port); PortInUse when another program has it."""
        app = web.Application()
        app.router.add_get("/", self._shell)
        app.router.add_get("/demo.js", self._static_file("demo.js", "application/javascript"))
        app.router.add_get("/demo.css", self._static_file("demo.css", "text/css"))
        app.router.add_get("/demo/state", self._state)
        app.router.add_post("/demo/open", self._open)
        app.router.add_route("*", "/{tail:.*}", self._relay)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise PortInUse(port) from exc
        self._runner = runner
        self.port = runner.addresses[0][1]
        self._client = ClientSession()

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ---- checks

    def _check_host(self, request: web.Request) -> None:
        # Only this machine's own names: a page elsewhere cannot reach the demo through a DNS name of its own.
        if request.host not in (f"127.0.0.1:{self.port}", f"localhost:{self.port}"):
            raise web.HTTPForbidden(text="unknown host")

    def _check_secret(self, request: web.Request, header: str = SECRET_HEADER) -> None:
        self._check_host(request)
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}"):
            raise web.HTTPForbidden(text="requests from other pages are refused")
        given = request.headers.get(header, "")
        if not hmac.compare_digest(given.encode(), self.secret.encode()):
            raise web.HTTPUnauthorized(text="this address needs the secret printed by `python -m bot demo`")

    # ---- the demo's own page

    async def _shell(self, request: web.Request) -> web.Response:
        self._check_host(request)
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        return web.Response(text=html, content_type="text/html",
                            headers={**HEADERS, "Content-Security-Policy": SHELL_POLICY})

    def _static_file(self, name: str, content_type: str):
        async def serve(request: web.Request) -> web.Response:
            self._check_host(request)
            return web.Response(text=(STATIC / name).read_text(encoding="utf-8"), content_type=content_type,
                                headers=HEADERS)
        return serve

    async def _state(self, request: web.Request) -> web.Response:
        self._check_secret(request)
        return self._state_response()

    def _state_response(self) -> web.Response:
        world = self.world
        member_id = world.current_member_id
        assert member_id is not None  # the world opened a channel for a member when it started
        state = {
            "member": str(member_id),
            "members": [{"id": str(member.id), "name": member.user.name} for member in world.members.values()],
            "channel": str(world.current_channel_id),
            "channels": [{"id": str(entry.id), "name": entry.name, "kind": entry.kind,
                          "last": str(entry.last_message_id or "")} for entry in world.channels(member_id)],
        }
        return web.json_response(state, headers=HEADERS, dumps=json.dumps)

    async def _open(self, request: web.Request) -> web.Response:
        self._check_secret(request)
        try:
            body = await request.json()
            member_id = int(body["member"])
            channel_id = None if body["channel"] == "dm" else int(body["channel"])
        except (ValueError, KeyError, TypeError):
            raise web.HTTPBadRequest(text="channel and member ids required") from None
        if member_id not in self.world.members:
            raise web.HTTPBadRequest(text="unknown member")
        if channel_id is None:  # the member's own DMs with Strategos
            channel_id = self.world.members[member_id].user.dm_channel.id
        try:
            await self.world.open(channel_id, member_id)
        except LookupError:
            raise web.HTTPNotFound(text="no such channel for this member") from None
        except TimeoutError:
            raise web.HTTPServiceUnavailable(text="the bot stayed busy; pick the channel again") from None
        return self._state_response()

    # ---- SimCord's page and its requests, relayed to the preview of the moment

    async def _relay(self, request: web.Request) -> web.StreamResponse:
        self._check_host(request)
        path = request.path
        if path.startswith("/api/"):
            self._check_secret(request, CAPABILITY_HEADER)
        if path == "/preview":
            path = "/"  # SimCord's page; the demo's own page has "/"
        preview = self.world.preview
        try:
            if preview is None:
                raise SetupError("no preview")
            target = urlsplit(preview.url)
        except SetupError:  # none, or one closing: the visitor just picked another channel
            raise web.HTTPServiceUnavailable(text="the page is changing channel; reload") from None
        headers = {name: request.headers[name] for name in RELAYED_REQUEST_HEADERS if name in request.headers}
        if path.startswith("/api/"):
            headers[CAPABILITY_HEADER] = target.fragment
            headers["Origin"] = f"http://{target.netloc}"
        url = f"http://{target.netloc}{path}"
        click = request.method == "POST" and path == "/api/action"
        if click:
            self.world.click_started()
        try:
            async with self._client.request(request.method, url, params=request.query, headers=headers,
                                            data=await request.read(), allow_redirects=False) as upstream:
                body = await upstream.read()
                relayed = {name: value for name, value in upstream.headers.items()
                           if name.lower() not in DROPPED_RESPONSE_HEADERS}
        except ClientError:  # the preview is being opened on another channel
            raise web.HTTPServiceUnavailable(text="the page is changing channel; reload") from None
        finally:
            if click:
                self.world.click_finished()
        relayed["X-Frame-Options"] = "SAMEORIGIN"
        policy = relayed.get("Content-Security-Policy")
        if policy:
            relayed["Content-Security-Policy"] = policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'")
        return web.Response(status=upstream.status, body=body, headers=relayed)
