"""The bot's languages: English in the code, the others in one gettext catalogue each.

Texts are written in English where they are used, `t(lang, "Hello {name}", name=...)`, and looked up in
`bot/i18n/locales/<lang>/LC_MESSAGES/strategos.po` (read with Babel at start-up; no compiled catalogue). A text a
catalogue lacks, a placeholder a translation gets wrong, or a language we do not have falls back to English, so a
translation can never break a command. Discord's locales map to our languages in `LANGUAGE_OF_LOCALE`.

A text that shows a count is a gettext plural entry, `tn(lang, "{count} tile", "{count} tiles", n)` (or a `Text`
with a `plural=`): each catalogue holds as many forms as its language has and picks one with its `Plural-Forms`
header. A stored text from before its plural existed (its template is the entry's English plural) still finds it.
"""

from __future__ import annotations

import gettext
import logging
import string
from pathlib import Path
from typing import Any, Callable, Iterable

from babel.messages.pofile import read_po

from bot.engine.text import Text, english_form

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

Translation = str | tuple[str, ...]  # a text's translation, or a plural entry's forms


def english_plural(n: int) -> int:
    return 0 if n == 1 else 1


class Catalogue(dict[tuple[str | None, str], Translation]):
    """(context, English text) → translation; a plural entry is found by its English singular and plural, and
    `form(n)` says which of its forms a count takes."""

    def __init__(self, form: Callable[[int], int] = english_plural) -> None:
        super().__init__()
        self.form = form


_catalogues: dict[str, Catalogue] = {}


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


def read_catalogue(lang: str) -> Catalogue:
    """The texts the catalogue translates (fuzzy ones left out), and its plural rule."""
    with catalogue_path(lang).open("rb") as file:
        catalog = read_po(file)
    # the header's C expression, which gettext checks token by token before it makes it a function
    found = Catalogue(form=gettext.c2py(catalog.plural_expr))
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        if message.pluralizable:
            if not all(message.string):
                continue
            for english in message.id:
                found[(message.context, english)] = tuple(message.string)
        elif isinstance(message.id, str) and isinstance(message.string, str):  # not plural: one text each
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
            _catalogues[lang] = Catalogue()


def placeholders(text: str) -> set[str]:
    """The named `{placeholders}` of a text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def translate(lang: str, text: str, context: str | None = None, count: Any = None) -> str | None:
    """The catalogue's translation of `text`, or None (English, an unknown language, a missing text); of a plural
    entry, the form `count` takes."""
    if lang == ENGLISH:
        return None
    if lang not in _catalogues and lang in LANGUAGES:  # used before start-up read them (a tool, a test)
        load([lang])
    catalogue: dict[tuple[str | None, str], Translation] = _catalogues.get(lang, {})
    translated = catalogue.get((context, text))
    if not isinstance(translated, tuple):
        return translated
    form = getattr(catalogue, "form", english_plural)
    index = form(count) if isinstance(count, int) else len(translated) - 1
    return translated[min(index, len(translated) - 1)]


def t(lang: str, text: str, /, context: str | None = None, **params: Any) -> str:
    """`text` in `lang`, its `{placeholders}` filled from `params`; English when the translation is missing or
    does not fit its placeholders. An engine's `Text` brings its own template, plural and params; a param that
    is a `Text` is translated too."""
    if isinstance(text, Text):
        return tn(lang, text.template, text.plural, text.params.get("count"), context=context,
                  **{**text.params, **params})
    return tn(lang, text, None, params.get("count"), context=context, **params)


def tn(lang: str, singular: str, plural: str | None, n: Any, /, context: str | None = None, **params: Any) -> str:
    """`ngettext`: the form of a text that shows the count `n` (also its `{count}` unless `params` says) in
    `lang`, as `t` does it."""
    params = {"count": n, **params} if plural is not None else params
    params = {name: t(lang, value) if isinstance(value, Text) else value for name, value in params.items()}
    translated = translate(lang, singular, context, n)
    if translated is not None:
        try:
            return translated.format(**params) if params else translated
        except (KeyError, IndexError, ValueError):
            log.warning("bad translation of %r in %s; using English", singular, lang)
    english = english_form(singular, plural, n)
    return english.format(**params) if params else english


def story_text(lines: Iterable[str]) -> str:
    """What happened, told in one run and without the final full stop (the line adds its own): clauses joined by
    semicolons ("b4: Dark's knight is captured; burnt: the pawn on c3"), but a game's whole sentence (it ends with a
    full stop) stays a sentence, so that what follows it starts a sentence too ("South has deployed. Both armies
    stand ready.")."""
    told = ""
    for line in lines:
        if told:
            whole = told.endswith((".", "!", "?")) or line.endswith((".", "!", "?"))
            told = told.rstrip(".") + (". " if whole else "; ")
        told += line
    return told.rstrip(".")


def localize(lang: str, value: Any) -> Any:
    """An engine's `Text` in `lang`; any other value (notation, a name) as it is."""
    return t(lang, value) if isinstance(value, Text) else value


def N_(text: str, plural: str | None = None) -> str:
    """Marks a text for translation where it is defined (a table); `t` translates it where it is shown. With a
    `plural` (English's words the same for every count, as "only {count} signed up"), it is a plural entry, and
    `t(lang, text, count=n)` picks the form its language gives `n`."""
    return text
