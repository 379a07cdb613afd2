"""Slash commands in the member's language: discord.py asks this translator for every command and option name,
description and choice when it syncs the command tree, and Discord shows each member her client's language.

A name's translation is looked up under the context of where it appears ("command_name", "parameter_name", …),
so `clock` the command and `clock` the option may differ. Missing texts stay English.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import language_of, translate


class CatalogueTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return translate(language_of(locale), string.message, context.location.name)
