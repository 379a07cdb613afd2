"""A conversation where Strategos is not a member (a group DM, a server that did not add it), as Discord shows it
to a bot installed to a member's account: interactions only, built from Discord's documented payloads
(`context: 2`, `authorizing_integration_owners` with the user install's key "1") and fed through the real bot's
connection state and command tree. The bot's answers go through discord.py's webhook adapter (interaction
callbacks and follow-ups); a recorder takes the calls made with this conversation's tokens and keeps what everyone
in the conversation sees."""

from __future__ import annotations

import itertools
import re
from types import SimpleNamespace
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import InteractionResponseType
from discord.utils import time_snowflake
from simcord.components import ComponentValidationError, component_mentions, validate_message_state, walk_components

USER_INSTALL = "1"  # the key of a user install in `authorizing_integration_owners`
BOT_DM, PRIVATE_CHANNEL = 1, 2  # the interaction contexts of the bot's DM, and of a group DM or a DM between members
DM, GROUP_DM = 1, 3  # their channels' types
GUILD, TEXT_CHANNEL = 0, 0  # a server's context, and its text channel's type
ALL_PERMISSIONS = (1 << 51) - 1
EPHEMERAL = 1 << 6
COMPONENTS_V2 = 1 << 15  # the message is a layout: its words are its text displays, it has no content
_ids = itertools.count(900_000_000_000_000_000)


@dataclass
class Answer:
    """One message the bot made by answering an interaction: its payload as Discord would store it."""

    id: int
    content: str
    components: list[dict[str, Any]]
    ephemeral: bool
    mentions: list[int]
    files: list[str] = field(default_factory=list)
    loading: bool = False  # "thinking…": a deferred answer not yet given
    flags: int = 0  # EPHEMERAL, COMPONENTS_V2

    def walk(self) -> list[dict[str, Any]]:
        """Every component, nested ones included (a layout's container and its action rows)."""
        return list(walk_components(self.components))

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk() if c.get("custom_id")]

    def button(self, label: str) -> dict[str, Any]:
        found = [c for c in self.walk() if c.get("type") == 2 and c.get("label") == label]
        assert found, f"no button {label!r} in {self.components}"
        return found[0]


def _member() -> dict[str, Any]:
    """A server member's own part of an interaction's payload (her user apart)."""
    return {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0}


def _user(actor: Any) -> dict[str, Any]:
    return {"id": str(actor.id), "username": actor.name, "global_name": actor.name, "discriminator": "0",
            "avatar": None, "bot": False}


class Conversation:
    """A group DM of `members`, where the bot answers interactions and nothing else."""

    def __init__(self, world: Any, *members: Any, guild_id: int | None = None):
        """`guild_id`: a channel of a server that did not add the bot, rather than a group DM; one member alone:
        her DM with the bot."""
        self.world, self.members, self.guild_id = world, members, guild_id
        self.permissions: dict[int, int] = {}  # a member's permissions in that channel (default: all of them)
        self.channel_id = next(_ids)
        self.messages: dict[int, Answer] = {}  # what the conversation shows, by message id (ephemeral ones too)
        self.locales: dict[int, str] = {}  # a member's Discord locale, if not en-US
        self.calls: list[tuple[str, str]] = []  # (method, path) of every webhook call of this conversation
        self._tokens: dict[str, dict[str, Any]] = {}  # token → the interaction's payload and its answers
        self.attach()

    def attach(self) -> None:
        """Record the calls of the bot's webhook adapter (a restarted bot has a new one: attach again)."""
        adapter = self.world.env._webhook_adapter
        self._passed_on = adapter.request
        adapter.request = self._request

    @property
    def bot(self) -> Any:
        return self.world.bot

    # --- what the members do -----------------------------------------------------------------------------------

    async def slash(self, member: Any, name: str, **options: Any) -> str:
        """`member` uses /name here; the interaction's token (its answers are `answers(token)`)."""
        kinds = {str: 3, int: 4, bool: 5}
        data_options, users = [], {}
        for key, value in options.items():
            if hasattr(value, "id") and hasattr(value, "name"):
                data_options.append({"name": key, "type": 6, "value": str(value.id)})
                users[str(value.id)] = _user(value)
            else:
                data_options.append({"name": key, "type": kinds[type(value)], "value": value})
        data: dict[str, Any] = {"id": str(next(_ids)), "name": name, "type": 1, "options": data_options}
        if users:
            data["resolved"] = {"users": users}
            if self.guild_id is not None:  # in a server, Discord resolves its members as members too
                data["resolved"]["members"] = {user_id: _member() for user_id in users}
        return await self._dispatch(member, 2, data)

    async def click(self, member: Any, message: Answer, label: str) -> str:
        """`member` clicks the button `label` of `message`; the click's token."""
        button = message.button(label)
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._dispatch(member, 3, data, message=message)

    async def choose(self, member: Any, message: Answer, value: str) -> str:
        """`member` picks `value` in whichever select menu of `message` offers it; the pick's token."""
        menus = [c for c in message.walk() if any(o.get("value") == value for o in c.get("options", []))]
        assert menus, f"no menu offers {value!r} in {message.components}"
        menu = menus[0]
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}
        return await self._dispatch(member, 3, data, message=message)

    async def _dispatch(self, member: Any, kind: int, data: dict[str, Any], message: Answer | None = None) -> str:
        token = f"conversation-{next(_ids)}"
        # The interaction's id tells when it was made (its token lasts 15 minutes from then): now, on the
        # simulation's clock.
        made = time_snowflake(self.world.env.now()) + next(_ids) % 4096
        payload: dict[str, Any] = {
            "id": str(made), "application_id": str(self.bot.application_id or self.bot.user.id),
            "type": kind, "token": token, "version": 1, "data": data,
            "context": BOT_DM if len(self.members) == 1 else PRIVATE_CHANNEL, "authorizing_integration_owners": {USER_INSTALL: str(self.members[0].id)},
            "channel_id": str(self.channel_id),
            "channel": {"id": str(self.channel_id), "type": DM if len(self.members) == 1 else GROUP_DM,
                        "owner_id": str(self.members[0].id), "recipients": [_user(m) for m in self.members]},
            "user": _user(member), "locale": self.locales.get(member.id, "en-US"), "app_permissions": "0", "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if self.guild_id is not None:
            payload.update(
                context=GUILD, guild_id=str(self.guild_id), guild_locale="en-US",
                guild={"id": str(self.guild_id), "locale": "en-US", "features": []},
                channel={"id": str(self.channel_id), "type": TEXT_CHANNEL, "guild_id": str(self.guild_id),
                         "name": "chat", "position": 0, "permission_overwrites": []},
                member={"user": payload.pop("user"), **_member(),
                        "permissions": str(self.permissions.get(member.id, ALL_PERMISSIONS))})
        if message is not None:
            payload["message"] = self._message_payload(message)
        self._tokens[token] = {"payload": payload, "answers": [], "original": None}
        with self.world.env._bot_scope():
            self.bot._connection.parse_interaction_create(payload)
        await self.world.env.settle()
        return token

    # --- what the bot answered ---------------------------------------------------------------------------------

    def answers(self, token: str) -> list[Answer]:
        """The messages made by answering the interaction of `token`, first to last (an edited one as it is now)."""
        return [self.messages[i] for i in self._tokens[token]["answers"]]

    def tokens(self) -> list[str]:
        """The tokens of every interaction here, oldest first."""
        return list(self._tokens)

    def public(self, token: str) -> list[Answer]:
        return [a for a in self.answers(token) if not a.ephemeral]

    # --- the recorder ------------------------------------------------------------------------------------------

    async def _request(self, route: Any, session: Any, **kwargs: Any) -> Any:
        path = route.url.split("/api/v10", 1)[-1]
        token = next((t for t in self._tokens if f"/{t}" in path), None)
        if token is None:
            return await self._passed_on(route, session, **kwargs)
        self.calls.append((route.method, path))
        json = kwargs.get("payload") or _form(kwargs.get("multipart")) or {}
        files = [getattr(f, "filename", "") for f in kwargs.get("files") or []]
        record = self._tokens[token]
        if path.endswith("/callback"):
            return self._callback(record, json, files)
        match = re.search(r"/messages/(@original|\d+)$", path)
        if route.method == "POST":  # a follow-up; the first one after "thinking…" replaces it, ephemeral or not as it was
            original = self.messages.get(record["original"]) if record["original"] in record["answers"] else None
            if original is not None and original.loading:
                original.loading = False
                self._edit(original, json, files)
                return self._message_payload(original)
            return self._store(record, self._new(json, files, ephemeral=bool(json.get("flags", 0) & EPHEMERAL)))
        if match is None:
            raise AssertionError(f"unexpected webhook call {route.method} {path}")
        message_id = record["original"] if match.group(1) == "@original" else int(match.group(1))
        if message_id not in record["answers"] and message_id != record.get("clicked"):
            # Discord lets an interaction's token reach only its own messages
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                                   {"code": 10008, "message": "Unknown Message"})
        answer = self.messages[message_id]
        if route.method == "PATCH":
            answer.loading = False
            self._edit(answer, json, files)
        return self._message_payload(answer)

    def _callback(self, record: dict[str, Any], json: dict[str, Any], files: list[str]) -> dict[str, Any]:
        kind, data = InteractionResponseType(json["type"]), json.get("data") or {}
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        interaction = {"id": record["payload"]["id"], "type": record["payload"]["type"],
                       "response_message_loading": kind == InteractionResponseType.deferred_channel_message,
                       "response_message_ephemeral": ephemeral}
        if kind in (InteractionResponseType.deferred_message_update, InteractionResponseType.message_update):
            clicked = int(record["payload"]["message"]["id"])
            record["original"] = record["clicked"] = clicked
            if kind == InteractionResponseType.message_update:
                self._edit(self.messages[clicked], data, files)
            return {"interaction": interaction}
        answer = self._new(data, files, ephemeral=ephemeral)
        answer.loading = kind == InteractionResponseType.deferred_channel_message
        record["original"] = answer.id
        self._store(record, answer)
        interaction["response_message_id"] = str(answer.id)
        return {"interaction": interaction,
                "resource": {"type": json["type"], "message": self._message_payload(answer)}}

    def _new(self, json: dict[str, Any], files: list[str], *, ephemeral: bool) -> Answer:
        flags = (json.get("flags") or 0) & COMPONENTS_V2 | (EPHEMERAL if ephemeral else 0)
        _check(json, json.get("content"), json.get("components") or [], flags, 0)
        return Answer(next(_ids), json.get("content") or "", json.get("components") or [], ephemeral,
                      _pinged(json), files, flags=flags)

    def _store(self, record: dict[str, Any], answer: Answer) -> dict[str, Any]:
        self.messages[answer.id] = answer
        record["answers"].append(answer.id)
        return self._message_payload(answer)

    @staticmethod
    def _edit(answer: Answer, json: dict[str, Any], files: list[str]) -> None:
        flags = answer.flags | (json.get("flags") or 0) & COMPONENTS_V2  # once a layout, always one
        _check(json, json.get("content", answer.content), json.get("components", answer.components) or [], flags,
               answer.flags)
        answer.flags = flags
        said = component_mentions(answer.components)
        if "content" in json:
            answer.content = json["content"] or ""
        if "components" in json:
            answer.components = json["components"] or []
        if "content" in json or component_mentions(answer.components) != said:  # new words: new mentions
            answer.mentions = _pinged({**json, "content": answer.content, "components": answer.components})
        if files or "attachments" in json:
            answer.files = files

    def _message_payload(self, answer: Answer) -> dict[str, Any]:
        return {"id": str(answer.id), "channel_id": str(self.channel_id), "type": 0, "content": answer.content,
                "author": {"id": str(self.bot.user.id), "username": self.bot.user.name, "discriminator": "0",
                           "avatar": None, "bot": True},
                "attachments": [{"id": str(next(_ids)), "filename": f, "size": 1, "url": "https://x/" + f,
                                 "proxy_url": "https://x/" + f} for f in answer.files],
                "embeds": [], "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False,
                "tts": False, "timestamp": "2026-12-07T00:00:00+00:00", "edited_timestamp": None,
                "flags": answer.flags, "components": answer.components}


def _check(json: dict[str, Any], content: str | None, components: list[dict[str, Any]], flags: int,
           previous_flags: int) -> None:
    """Refuse, as Discord does (400), a message it could not hold: a layout with content or embeds, or none."""
    try:
        validate_message_state(components, flags=flags, content=content or None, embeds=json.get("embeds") or [],
                               previous_flags=previous_flags)
    except ComponentValidationError as error:
        raise discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"),
                                    {"code": 50035, "message": str(error)}) from None


def _form(multipart: list[dict[str, Any]] | None) -> dict[str, Any] | None:
    """The JSON part of a multipart request (a message with files)."""
    import json
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _pinged(json: dict[str, Any]) -> list[int]:
    """Who the message pings: the users it mentions (in its content or its layout's text displays) that its allowed
    mentions let through."""
    words = (json.get("content") or "") + "\n" + component_mentions(json.get("components") or [])
    named = list(dict.fromkeys(int(u) for u in re.findall(r"<@!?(\d+)>", words)))
    allowed = json.get("allowed_mentions")
    if allowed is None:
        return named
    users = {int(u) for u in allowed.get("users", [])}
    return [u for u in named if u in users or "users" in allowed.get("parse", [])]
