"""The bot's languages: English in the code, the others in one gettext catalogue each.

Texts are written in English where they are used, `t(lang, "Hello {name}", name=...)`, and looked up in
`bot/i18n/locales/<lang>/LC_MESSAGES/strategos.po` (read with Babel at start-up; no compiled catalogue). A text a
catalogue lacks, a placeholder a translation gets wrong, or a language we do not have falls back to English, so a
translation can never break a command. Discord's locales map to our languages in `LANGUAGE_OF_LOCALE`.
"""

from __future__ import annotations

import logging
import string
from pathlib import Path
from typing import Any, Iterable

from babel.messages.pofile import read_po

from bot.engine.text import Text

log = logging.getLogger(__name__)

ENGLISH = "en"
LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "strategos"

# Our languages besides English: catalogue folder → the language's own name.
LANGUAGES: dict[str, str] = {
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "pt_BR": "Português do Brasil",
}
# Discord's locale codes (discord.Locale values) → our catalogue folder; any other locale gets English.
LANGUAGE_OF_LOCALE: dict[str, str] = {
    "es-ES": "es",
    "es-419": "es",
    "fr": "fr",
    "de": "de",
    "pt-BR": "pt_BR",
}

_catalogues: dict[str, dict[tuple[str | None, str], str]] = {}


def language_of(locale: Any) -> str:
    """Our language for a Discord locale (a discord.Locale, its str value, or None): English when we lack it."""
    if locale is None:
        return ENGLISH
    code = getattr(locale, "value", locale)
    if code in LANGUAGES or code == ENGLISH:
        return code
    return LANGUAGE_OF_LOCALE.get(str(code), ENGLISH)


def catalogue_path(lang: str) -> Path:
    return LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(lang: str) -> dict[tuple[str | None, str], str]:
    """(context, English text) → translation, for the texts the catalogue translates (fuzzy ones left out)."""
    with catalogue_path(lang).open("rb") as file:
        catalog = read_po(file)
    found: dict[tuple[str | None, str], str] = {}
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        if not isinstance(message.id, str) or not isinstance(message.string, str):  # plural forms: none looked up
            continue
        found[(message.context, message.id)] = message.string
    return found


def load(languages: Iterable[str] = LANGUAGES, *, again: bool = False) -> None:
    """Read every catalogue (at start-up; a missing one leaves that language in English). Catalogues already
    read are kept unless `again`: they do not change while the bot runs, and a process may start many bots
    (the tests do)."""
    for lang in languages:
        if lang in _catalogues and not again:
            continue
        try:
            _catalogues[lang] = read_catalogue(lang)
        except OSError:
            log.warning("no catalogue for %s: its texts stay English", lang)
            _catalogues[lang] = {}


def placeholders(text: str) -> set[str]:
    """The named `{placeholders}` of a text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def translate(lang: str, text: str, context: str | None = None) -> str | None:
    """The catalogue's translation of `text`, or None (English, an unknown language, a missing text)."""
    if lang == ENGLISH:
        return None
    if lang not in _catalogues and lang in LANGUAGES:  # used before start-up read them (a tool, a test)
        load([lang])
    return _catalogues.get(lang, {}).get((context, text))


def t(lang: str, text: str, /, context: str | None = None, **params: Any) -> str:
    """`text` in `lang`, its `{placeholders}` filled from `params`; English when the translation is missing or
    does not fit its placeholders. An engine's `Text` brings its own template and params; a param that is a
    `Text` is translated too."""
    if isinstance(text, Text):
        params = {**text.params, **params}
        text = text.template
    params = {name: t(lang, value) if isinstance(value, Text) else value for name, value in params.items()}
    translated = translate(lang, text, context)
    if translated is not None:
        try:
            return translated.format(**params) if params else translated
        except (KeyError, IndexError, ValueError):
            log.warning("bad translation of %r in %s; using English", text, lang)
    return text.format(**params) if params else text


def localize(lang: str, value: Any) -> Any:
    """An engine's `Text` in `lang`; any other value (notation, a name) as it is."""
    return t(lang, value) if isinstance(value, Text) else value


def N_(text: str) -> str:
    """Marks a text for translation where it is defined (a table); `t` translates it where it is shown."""
    return text
