"""App emojis: each game's sides drawn as its pieces (its declaration's `side_emojis`), shown beside a side's name in
the texts that name it (/games, a board post's players), and its piece kinds (`piece_emojis`), marking the player
of the last move's line with the piece she moved. Never in the text board or the alt texts, which stay words.

Uploaded to the application (not to any server) at start-up, one call for each that is missing: a start that finds
them all uploads nothing. An upload that fails is logged once and its side stays words; the start goes on.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass, field
from typing import Any, Mapping

import discord

from bot.games.declaration import EmojiSprite
from bot.games.registry import REGISTERED, declaration_of

log = logging.getLogger(__name__)

EMOJI_SIZE = 128  # Discord shows emojis at most 48 px (96 on a dense screen): 128 stays sharp at both
MAX_EMOJI_BYTES = 256 * 1024  # Discord's limit for an emoji's image
MAX_APP_EMOJIS = 2000  # Discord's limit of emojis per application


def wanted_emojis() -> dict[str, EmojiSprite]:
    """Every game's emojis by name, its sides' and its piece kinds': "sg_epaminondas_light" -> its sprite."""
    return {name: sprite for declaration in REGISTERED for name, sprite in declaration.emojis().items()}


def emoji_png(sprite: EmojiSprite) -> bytes:
    image = sprite(EMOJI_SIZE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@dataclass(frozen=True)
class AppEmojis:
    mentions: Mapping[str, str] = field(default_factory=dict)  # emoji name -> its mention, "<:name:id>"

    def side(self, view: Mapping[str, Any], seat: int | None) -> str | None:
        """The mention of the emoji of a seat's side in this view's game, or None (no side, no emoji)."""
        seat_names = view.get("seat_names") or []
        if not self.mentions or seat is None or seat >= len(seat_names):
            return None
        return self.mentions.get(declaration_of(view["game"]).emoji_name(seat_names[seat]))

    def piece(self, view: Mapping[str, Any], kind: str | None) -> str | None:
        """The mention of the emoji of a piece kind ("a1_n") in this view's game, or None."""
        if not self.mentions or kind is None:
            return None
        return self.mentions.get(declaration_of(view["game"]).emoji_name(kind))

    def marked(self, view: Mapping[str, Any], seat: int, text: str, piece: str | None = None) -> str:
        """`text` (the side's name as shown) after its emoji, or after the emoji of the piece kind `piece` where
        the game has one; `text` alone where it has neither."""
        mention = self.piece(view, piece) or self.side(view, seat)
        return f"{mention} {text}" if mention else text


NO_EMOJIS = AppEmojis()


def emojis_of(client: discord.Client) -> AppEmojis:
    """The app emojis the client uploaded or found at start-up (none before that, or where they are off)."""
    found = getattr(client, "app_emojis", NO_EMOJIS)
    return found if isinstance(found, AppEmojis) else NO_EMOJIS


# Whatever an upload meets (Discord refusing it, the network, a timeout), the start goes on.
UPLOAD_ERRORS = (discord.DiscordException, OSError, asyncio.TimeoutError)


async def upload_missing(client: discord.Client) -> AppEmojis:
    """The app emojis of every game's sides: those the application has, and those missing uploaded now."""
    try:
        have = await application_emojis(client)
    except UPLOAD_ERRORS as exc:
        log.warning("could not read the application's emojis (%s): the sides are named in words alone", exc)
        return NO_EMOJIS
    wanted = wanted_emojis()
    missing = [name for name in wanted if name not in have]
    refused: dict[str, Exception] = {}
    for name in missing:
        try:
            have[name] = str(await client.create_application_emoji(name=name, image=emoji_png(wanted[name])))
        except UPLOAD_ERRORS as exc:
            refused[name] = exc
    if refused:
        # A name is the application's once: a process starting beside this one may have uploaded it first.
        try:
            have.update(await application_emojis(client))
        except UPLOAD_ERRORS:
            pass  # said below, with the emojis it leaves in words
        failed = [f"{name} ({exc})" for name, exc in refused.items() if name not in have]
        if failed:
            log.warning("could not upload %d app emojis, those sides are named in words alone: %s", len(failed),
                        ", ".join(failed))
    if len(missing) > len(refused):
        log.info("uploaded %d app emojis", len(missing) - len(refused))
    return AppEmojis({name: have[name] for name in wanted if name in have})


async def application_emojis(client: discord.Client) -> dict[str, str]:
    """The application's emojis: name -> mention."""
    return {emoji.name: str(emoji) for emoji in await client.fetch_application_emojis()}
