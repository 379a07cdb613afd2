"""A step's options as select menus: at most 25 options a menu, a few menus a page, each menu saying which of
the step's options it holds when a page shows more than one (two menus with the same words look like one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import discord

from bot.engine.base import PickerOption
from bot.i18n import localize

OPTIONS_PER_MENU = 25  # Discord's limit
SHORT_LABEL = 6  # "a1", "x d4": a square or a short move part reads as a range ("a1–f4"); longer ones are numbered


@dataclass(frozen=True)
class Menu:
    number: int  # its place on the page: 0, 1, ...
    options: list[discord.SelectOption]
    placeholder: str


def pages_of(options: Sequence[PickerOption], menus_per_page: int) -> int:
    return max(1, -(-len(options) // (OPTIONS_PER_MENU * menus_per_page)))


def option_menus(options: Sequence[PickerOption], prompt: str, page: int, menus_per_page: int,
                 lang: str) -> list[Menu]:
    """The menus of one page of a step's options (`prompt` already in `lang`)."""
    page_size = OPTIONS_PER_MENU * menus_per_page
    start = page * page_size
    shown = list(options[start:start + page_size])
    chunks = [shown[i:i + OPTIONS_PER_MENU] for i in range(0, len(shown), OPTIONS_PER_MENU)]
    menus = []
    for number, chunk in enumerate(chunks):
        labels = [localize(lang, o.label)[:100] for o in chunk]
        placeholder = prompt
        if len(chunks) > 1:
            first = start + number * OPTIONS_PER_MENU
            if all(len(label) <= SHORT_LABEL for label in labels):
                span = labels[0] if len(labels) == 1 else f"{labels[0]}–{labels[-1]}"
            else:
                span = f"{first + 1}–{first + len(chunk)}" if len(chunk) > 1 else f"{first + 1}"
            placeholder = f"{prompt} ({span})"
        menus.append(Menu(number, [
            discord.SelectOption(label=label, value=o.value[:100],
                                 description=localize(lang, o.description)[:100] or None)
            for label, o in zip(labels, chunk)
        ], placeholder[:150]))
    return menus
