"""Messages as Discord's Components V2 layouts: one container holding a post's words, its picture (with the
picture's alt text as the gallery item's description, read by screen readers) and its buttons.

A V2 message has no content and no embeds: its words are text displays, its picture an attachment the gallery
names (`attachment://board.png`), at most 40 components in all. The buttons are the same DynamicItems as before
(bot/views), routed by their custom ids, so a board's buttons keep working across restarts; like single_view's,
the layout is sent already stopped, so that discord.py keeps no copy of it.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any, Iterator, Sequence

import discord

MAX_ALT_TEXT = 1024  # characters of a gallery item's description (and of an attachment's)


def card(*texts: str, picture: discord.File | None = None, buttons: discord.ui.View | None = None,
         below: Sequence[str] = ()) -> discord.ui.LayoutView:
    """One container: `texts` (each its own text display, empty ones left out), the picture, `below` (texts after
    the picture) and the rows of `buttons`, in that order."""
    container: discord.ui.Container = discord.ui.Container()
    for text in texts:
        if text.strip():
            container.add_item(discord.ui.TextDisplay(text))
    if picture is not None:
        container.add_item(discord.ui.MediaGallery(gallery_item(picture)))
    for text in below:
        if text.strip():
            container.add_item(discord.ui.TextDisplay(text))
    for row in action_rows(buttons):
        container.add_item(row)
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(container)
    layout.stop()
    return layout


def gallery_item(picture: discord.File) -> discord.MediaGalleryItem:
    """The gallery's item showing an attachment of the same message, described by its alt text."""
    description = picture.description
    if description and len(description) > MAX_ALT_TEXT:
        description = description[: MAX_ALT_TEXT - 1].rstrip() + "…"
    return discord.MediaGalleryItem(f"attachment://{picture.filename}", description=description or None)


def action_rows(buttons: discord.ui.View | None) -> list[discord.ui.ActionRow]:
    """The rows a (legacy) view lays its items out in, as action rows of a layout."""
    if buttons is None:
        return []
    items = sorted(buttons.children, key=lambda item: item._rendered_row or 0)
    rows = []
    for _, in_row in groupby(items, key=lambda item: item._rendered_row or 0):
        row: discord.ui.ActionRow = discord.ui.ActionRow()
        for item in in_row:
            item._view = None  # it moves from the legacy view into the layout
            row.add_item(item)
        rows.append(row)
    return rows


def greyed(message: discord.Message) -> discord.ui.View | discord.ui.LayoutView:
    """`message`'s own layout (or legacy rows) with every button and menu disabled, its words and picture kept:
    what an old board post becomes when a newer one acts."""
    view: discord.ui.View | discord.ui.LayoutView
    if message.flags.components_v2:
        view = discord.ui.LayoutView.from_message(message, timeout=None)
    else:
        view = discord.ui.View.from_message(message, timeout=None)
    by_id = {attachment.id: attachment.filename for attachment in message.attachments}
    for item in view.walk_children():
        if isinstance(item, (discord.ui.Button, discord.ui.Select)):
            item.disabled = True
        elif isinstance(item, discord.ui.MediaGallery):
            for media in item.items:  # the gallery keeps showing the message's own attachment
                filename = by_id.get(media.media.attachment_id or 0)
                if filename is not None:
                    media.media = f"attachment://{filename}"
    view.stop()
    return view


def walk(components: Sequence[Any]) -> Iterator[Any]:
    """Every component of a message, nested ones included (containers, rows, sections' accessories)."""
    for component in components:
        yield component
        yield from walk(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def custom_ids(message: discord.Message) -> list[str]:
    return [custom_id for component in walk(message.components)
            if (custom_id := getattr(component, "custom_id", None))]


def text_of(message: discord.Message) -> str:
    """What a message says: its content, or its text displays' words, one per line."""
    if message.content:
        return message.content
    return "\n".join(component.content for component in walk(message.components)
                     if isinstance(component, discord.components.TextDisplay))
