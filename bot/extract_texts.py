"""Collect every translatable text into the template `bot/i18n/locales/strategos.pot`.

    python -m bot.extract_texts          # rewrite the template, and report what is untranslated
    python -m bot.extract_texts --check  # exit 1 if the template is out of date; report what is untranslated

A tool at the top of the program: it builds the bot to read its command tree.

Two sources: the texts the code passes to `t(lang, "…")` or marks with `N_("…")` (read from the source, so no
text is missed for want of running it; a text with a count, `tn(lang, "…", "…", n)`, `Text("…", plural="…")` or
`say("…", plural="…")`, is a plural entry, msgid and msgid_plural), and the slash commands' names, descriptions
and choices (read from the command tree the bot builds, under the context discord.py's translator gives them).

A game whose guide is in English only (bot/games/<game>/guide/en.md and no other) is an English-only game: its
package's texts stay out of the template, so adding it leaves the catalogues complete, and members of every
language read it in English. Both commands end with a report of what is untranslated: each language's missing
texts and each English-only game. Translating a game is its guide/<lang>.md, then this command and the catalogue.
"""

from __future__ import annotations

import ast
import asyncio
import io
import sys
from pathlib import Path
from typing import Iterator, Sequence

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.app import EXTENSIONS, create_bot
from bot.games.registry import GAMES, declaration_of
from bot.i18n import DOMAIN, LANGUAGES, LOCALES_DIR, catalogue_path
from bot.settings import Settings

BOT_DIR = Path(__file__).resolve().parent
SOURCE_DIRS = (BOT_DIR, BOT_DIR.parent / "renderers")  # the bot, and the pictures' drawn words
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"

Key = tuple[str | None, str | tuple[str, str]]  # (context, English text), or (context, (singular, plural))


def english_only() -> dict[str, Path]:
    """The registered games whose guide is in English only, each with its package folder."""
    return {key: declaration_of(key).package for key in GAMES if not declaration_of(key).translations()}


def code_texts(roots: Sequence[Path] = SOURCE_DIRS, leave_out: Sequence[Path] = ()) -> dict[Key, str]:
    """(context, text) → where it is first used, for every literal passed to t(), tn(), N_(), Text() or say() (an
    engine's or a picture's words) under `roots`, except in the folders `leave_out`; a text with a plural is
    (context, (singular, plural))."""
    found: dict[Key, str] = {}
    for path in sorted(p for root in roots for p in root.rglob("*.py")):
        if any(folder in path.parents for folder in leave_out):
            continue
        root = next(r for r in roots if r in path.parents)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            if node.func.id == "t" and len(node.args) >= 2:
                text, plural = node.args[1], None
            elif node.func.id == "tn" and len(node.args) >= 3:
                text, plural = node.args[1], node.args[2]
            elif node.func.id in ("N_", "Text", "say") and node.args:
                text, plural = node.args[0], keywords.get("plural")  # a node, read as the others below
            else:
                continue
            if not (isinstance(text, ast.Constant) and isinstance(text.value, str)):
                continue
            plural_text = plural.value if isinstance(plural, ast.Constant) else None
            message = (text.value, plural_text) if isinstance(plural_text, str) else text.value
            context = keywords.get("context")
            context_text = context.value if isinstance(context, ast.Constant) else None
            found.setdefault((context_text if isinstance(context_text, str) else None, message),
                             f"{path.relative_to(root.parent)}:{node.lineno}")
    return found


def walk_commands(commands, names: frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
    """(context, text) of every name, description and choice of a command tree, as the translator is asked;
    choices in `names` (the games' names: names are not translated) are left out."""
    for command in commands:
        group = isinstance(command, app_commands.Group)
        yield ("group_name" if group else "command_name"), command.name
        yield ("group_description" if group else "command_description"), command.description
        if group:
            yield from walk_commands(command.commands, names)
            continue
        for parameter in command.parameters:
            yield "parameter_name", parameter.name
            yield "parameter_description", parameter.description
            for choice in parameter.choices:
                if choice.name not in names:
                    yield "choice_name", choice.name


async def command_tree():
    """The bot's slash commands, built as at start-up (no token, no database, no network)."""
    bot = create_bot(Settings(token=None, database=Path(":memory:"), dev_guild=None, log_level="WARNING"))
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    return bot.tree.get_commands()


def command_texts() -> dict[Key, str]:
    commands = asyncio.run(command_tree())
    titles = frozenset(GAMES[key].info.title for key in GAMES)
    return {(context, text): "slash commands" for context, text in walk_commands(commands, titles) if text}


def template() -> Catalog:
    catalog = Catalog(project="Strategos", domain=DOMAIN, fuzzy=False)
    texts = {**code_texts(leave_out=tuple(english_only().values())), **command_texts()}
    for (context, text), where in sorted(texts.items(), key=lambda kv: (kv[0][0] or "", english(kv[0][1]))):
        flags = ["python-brace-format"] if "{" in english(text) else []
        # ignore: Babel takes a location without a line number (None), though it types the number as int
        locations: list[tuple[str, int]] = [(where, None)] if ":" in where else []  # type: ignore[list-item]
        catalog.add(text, context=context, locations=locations, flags=flags,
                    auto_comments=[] if ":" in where else [where])
    return catalog


def english(message: str | tuple[str, ...]) -> str:
    """A message's English singular."""
    return message[0] if isinstance(message, tuple) else message


def key_of(message) -> Key:
    return message.context, message.id if isinstance(message.id, str) else tuple(message.id)


def keys_of(catalog: Catalog) -> set[Key]:
    return {key_of(m) for m in catalog if m.id}


def render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=120, omit_header=True, sort_output=False)
    return out.getvalue()


def untranslated(template_keys: set[Key]) -> list[str]:
    """What members of another language read in English: per language, the template's texts its catalogue lacks
    and the games whose guide it lacks; and the English-only games, whose texts no catalogue holds."""
    lines = []
    for lang in LANGUAGES:
        try:
            with catalogue_path(lang).open("rb") as file:
                done = {key_of(m) for m in read_po(file) if m.id and m.string and all(m.string) and not m.fuzzy}
        except OSError:
            done = set()
        missing = template_keys - done
        if missing:
            lines.append(f"{lang}: {len(missing)} texts untranslated, e.g. {english(min(missing, key=str)[1])!r}")
        guides = [key for key in GAMES if lang not in declaration_of(key).translations()]
        if guides:
            lines.append(f"{lang}: no guide for {', '.join(guides)} (the English one is shown)")
    for key, package in english_only().items():
        texts = code_texts((package,))
        lines.append(f"{key}: English only, its {len(texts)} texts in no catalogue ({package.name}/guide has en.md "
                     f"alone)")
    return lines


def report(template_keys: set[Key]) -> None:
    lines = untranslated(template_keys)
    print("Untranslated (shown in English):" if lines else "Everything is translated.")
    for line in lines:
        print(f"  {line}")


def main(argv: list[str]) -> int:
    fresh = template()
    if "--check" in argv:
        with TEMPLATE.open("rb") as file:
            stored = read_po(file)
        if keys_of(stored) != keys_of(fresh):
            print(f"{TEMPLATE} is out of date: run python -m bot.extract_texts", file=sys.stderr)
            return 1
        report(keys_of(fresh))
        return 0
    TEMPLATE.write_bytes(render(fresh))
    print(f"wrote {len(keys_of(fresh))} texts to {TEMPLATE}")
    report(keys_of(fresh))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
