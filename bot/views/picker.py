"""The ephemeral step-by-step move picker behind the board's Move button, and the ways into it from private
answers: /next and the Next match button (the match that has waited longest for you, with its own Move button).

Each step comes from the service (`picker_step`, which asks the engine): select menus of at most 25 options (up
to four menus a page, more pages when needed), Back / Confirm / Cancel, and a preview picture as soon as the path
forms a complete move (when the engine says a preview is safe to show).
The chosen path lives in memory only: after a restart an old picker says it expired and changes nothing.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import ENGLISH, N_, localize, t
from bot.matches import PickerStep, PrivateView, catalogue, errors
from bot.presenters.describe import alt_text, side_of
from bot.presenters.layout import card
from bot.presenters.pictures import render_file
from bot.presenters.text import fit, message_link
from bot.domain import Match

from .common import (
    MatchButton, VersionButton, acknowledge, acknowledged, after_presentation, answer, answering_in_thread,
    language, presenter_of, selected, service_of, show, single_view, ui_state, user_action,
)
from .history import NextMatch, played_buttons
from .menus import option_menus, pages_of
from .requests import consent_buttons

MENUS_PER_PAGE = 4  # the fifth row holds the buttons
MAX_SESSIONS = 2000


@dataclass
class PickerSession:
    id: str
    match_id: int
    version: int
    user_id: int
    simultaneous: bool = False  # a secret setup: other players' moves do not make this picker stale
    path: list[str] = field(default_factory=list)
    page: int = 0
    # How many times the picker was drawn: its menus' custom ids carry it, so each drawing has menus of its own.
    # Discord's client keeps showing the last choice of a menu whose id survives an edit and sends nothing when
    # that value is picked again (the same knight for two pieces in a row could never be chosen).
    drawing: int = 0


def _sessions(interaction: discord.Interaction) -> OrderedDict[str, PickerSession]:
    return ui_state(interaction).setdefault("pickers", OrderedDict())


class PickerExpired(errors.UserError):
    def __init__(self) -> None:
        super().__init__(N_("This move picker has expired. Press **Move** on the current board to start again."))


async def open_picker(interaction: discord.Interaction, match: Match) -> None:
    await acknowledge(interaction)
    session = PickerSession(secrets.token_hex(6), match.id, match.version, interaction.user.id)
    step = await _step(interaction, session, loaded=match)  # the match the click just read: no second read
    session.simultaneous = step.simultaneous
    sessions = _sessions(interaction)
    sessions[session.id] = session
    while len(sessions) > MAX_SESSIONS:
        sessions.popitem(last=False)
    layout, file = await _render(session, step, language(interaction))
    await show(interaction, layout, file=file)


async def _step(interaction: discord.Interaction, session: PickerSession, loaded: Match | None = None
                ) -> PickerStep:
    try:
        return await service_of(interaction).picker_step(
            session.match_id, interaction.user.id, session.path, version=session.version,
            simultaneous=session.simultaneous, loaded=loaded,
        )
    except (errors.StaleBoard, errors.MatchOver, errors.NotYourTurn):
        _sessions(interaction).pop(session.id, None)
        raise


async def _render(session: PickerSession, step: PickerStep,
                  lang: str = ENGLISH) -> tuple[discord.ui.LayoutView, discord.File | None]:
    """The picker as one container (bot/presenters/layout.py): what is chosen so far, the preview picture with its
    alt text once the path forms a move, and the menus and buttons."""
    choices, match = step.choices, step.match
    chosen = " › ".join(session.path) if session.path else t(lang, "nothing yet")
    title = step.title
    lines = [t(lang, "**Your move** in match #{match} ({game}) — chosen: {chosen}", match=match.id, game=title,
               chosen=chosen)]
    file = None
    if choices.move:
        lines.append(t(lang, "Ready to play **`{move}`** — press **Confirm**, or keep choosing.", move=choices.move)
                     if choices.options else
                     t(lang, "Ready to play **`{move}`** — press **Confirm**.", move=choices.move))
        if step.preview is not None:
            description = alt_text(title, step.preview, match.names, match_id=match.id, kind="preview", lang=lang)
            file = await render_file(step.preview, match.names, filename="preview.png", description=description,
                                     lang=lang)
    if choices.options:
        lines.append(localize(lang, choices.prompt))
    session.drawing += 1
    pages = pages_of(choices.options, MENUS_PER_PAGE)
    session.page = min(session.page, pages - 1)
    if pages > 1:
        lines.append(t(lang, "(page {page} of {pages})", page=session.page + 1, pages=pages))
    return card(fit("\n".join(lines)), picture=file, buttons=_picker_view(session, step, pages, lang)), file


def _picker_view(session: PickerSession, step: PickerStep, pages: int, lang: str) -> discord.ui.View:
    items: list[discord.ui.Item] = []
    prompt = localize(lang, step.choices.prompt)
    for menu in option_menus(step.choices.options, prompt, session.page, MENUS_PER_PAGE, lang):
        items.append(PickerSelect(session.id, menu.number, session.drawing, menu.options,
                                  placeholder=menu.placeholder))
    items.append(PickerButton(session.id, "back", disabled=not session.path, lang=lang))
    if pages > 1:
        items.append(PickerButton(session.id, "prev", disabled=session.page == 0, lang=lang))
        items.append(PickerButton(session.id, "next", disabled=session.page >= pages - 1, lang=lang))
    items.append(PickerButton(session.id, "confirm", disabled=step.choices.move is None, lang=lang))
    items.append(PickerButton(session.id, "cancel", lang=lang))
    return single_view(*items)


PICKER_BUTTONS = {
    "back": (N_("Back"), discord.ButtonStyle.secondary),
    "prev": (N_("◀ More"), discord.ButtonStyle.secondary),
    "next": (N_("More ▶"), discord.ButtonStyle.secondary),
    "confirm": (N_("Confirm"), discord.ButtonStyle.success),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}


def _session_for(interaction: discord.Interaction, session_id: str) -> PickerSession:
    session = _sessions(interaction).get(session_id)
    if session is None:
        raise PickerExpired()
    if session.user_id != interaction.user.id:
        raise errors.UserError(N_("This picker belongs to someone else."))
    return session


async def _redraw(interaction: discord.Interaction, session: PickerSession) -> None:
    await acknowledge(interaction, edit=True)
    step = await _step(interaction, session)
    layout, file = await _render(session, step, language(interaction))
    # content=None: Discord takes a layout only on a message without content (one from before layouts, say)
    await interaction.edit_original_response(content=None, view=layout, attachments=[file] if file else [])


class PickerSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=r"sg:p:(?P<sid>[0-9a-f]+):s(?P<menu>\d)(?::(?P<drawing>\d+))?"):
    def __init__(self, session_id: str, menu: int, drawing: int | None,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None):
        suffix = "" if drawing is None else f":{drawing}"
        super().__init__(discord.ui.Select(
            custom_id=f"sg:p:{session_id}:s{menu}{suffix}", options=options or [discord.SelectOption(label="-")],
            placeholder=placeholder, min_values=1, max_values=1,
        ))
        self.session_id, self.drawing = session_id, drawing

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        drawing = match["drawing"]
        return cls(match["sid"], int(match["menu"]), None if drawing is None else int(drawing))

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        session = _session_for(interaction, self.session_id)
        values = selected(interaction)
        if not values:
            raise errors.UserError(N_("Pick one of the options."))
        if self.drawing != session.drawing:
            raise errors.StaleBoard()  # a menu of an earlier step of this picker (a double click, a slow client)
        await acknowledge(interaction, edit=True)  # the step is read from the match: it may queue
        step = await _step(interaction, session)
        if values[0] not in {o.value for o in step.choices.options}:
            raise errors.StaleBoard()  # a menu of an earlier step of this picker
        session.path.append(values[0])
        session.page = 0
        await _redraw(interaction, session)


class PickerButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:p:(?P<sid>[0-9a-f]+):(?P<action>[a-z]+)"):
    def __init__(self, session_id: str, action: str, *, disabled: bool = False, lang: str = ENGLISH):
        label, style = PICKER_BUTTONS[action]
        super().__init__(discord.ui.Button(
            label=t(lang, label), style=style, disabled=disabled, custom_id=f"sg:p:{session_id}:{action}"
        ))
        self.session_id, self.action = session_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        action = match["action"] if match["action"] in PICKER_BUTTONS else "cancel"
        return cls(match["sid"], action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.action == "cancel":
            _sessions(interaction).pop(self.session_id, None)
            await interaction.response.edit_message(
                content=None, view=card(t(language(interaction), "Move cancelled. Nothing was played.")),
                attachments=[])
            acknowledged(interaction)
            return
        session = _session_for(interaction, self.session_id)
        if self.action == "back":
            if session.path:
                session.path.pop()
            session.page = 0
        elif self.action in ("prev", "next"):
            session.page = max(0, session.page + (1 if self.action == "next" else -1))
        elif self.action == "confirm":
            await _confirm(interaction, session)
            return
        await _redraw(interaction, session)


async def _confirm(interaction: discord.Interaction, session: PickerSession) -> None:
    await acknowledge(interaction, edit=True)  # before the read and the write, which may queue behind other matches
    step = await _step(interaction, session)
    if step.choices.move is None:
        raise errors.UserError(N_("That is not a complete move yet."))
    _sessions(interaction).pop(session.id, None)  # one confirm per picker, whatever happens next
    expected = None if session.simultaneous else session.version  # the engine re-validates either way
    async with answering_in_thread(interaction, session.match_id, ready=True):
        report = await service_of(interaction).submit_move(session.match_id, interaction.user.id,
                                                           step.choices.move, expected_version=expected)
        await interaction.edit_original_response(
            content=None, view=card(t(language(interaction), "✅ You played `{move}`.", move=step.choices.move),
                                    buttons=played_buttons(interaction, report)), attachments=[])
        await after_presentation(interaction, report)


class SetupButton(MatchButton, template=r"sg:s:(?P<match>\d+)"):
    """Opens the secret setup picker from a private prompt (a DM, or the ephemeral My view)."""

    PREFIX, LABEL, STYLE = "sg:s", N_("Set up in private"), discord.ButtonStyle.primary

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        match = await service_of(interaction).secret_setup_for(self.match_id, interaction.user.id)
        await open_picker(interaction, match)


def setup_prompt_view(match_id: int, lang: str = ENGLISH) -> discord.ui.View:
    return single_view(SetupButton(match_id, lang))


# --- the match that has waited longest for you ---------------------------------------------------------------


class PrivateMoveButton(VersionButton, template=r"sg:pm:(?P<match>\d+):(?P<version>\d+)"):
    """Move, on a private answer that shows a board (/next): opens the picker while the match is at the version
    shown. (The board post's own Move button acts only from the newest board post.)"""

    PREFIX, LABEL, STYLE = "sg:pm", N_("Move"), discord.ButtonStyle.primary

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        match = await service_of(interaction).playable_match(self.match_id, interaction.user.id,
                                                             version=self.version, need_turn=True)
        await open_picker(interaction, match)


class NextMatchButton(NextMatch, template=r"sg:nx"):
    """Next match (history.NextMatch as drawn), answered: whoever clicks is shown the match that has waited
    longest for her."""

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await show_next(interaction)


async def show_next(interaction: discord.Interaction) -> None:
    """/next and Next match: privately, the match that has waited longest for her, ready to play."""
    await acknowledge(interaction)
    mine = await service_of(interaction).longest_waiting(interaction.user.id)
    lang = language(interaction)
    if mine is None:
        await answer(interaction, t(lang, "Nothing is waiting for you."))
        return
    match = mine.match
    line = t(lang, "⏭️ Match #{match} ({game}) has waited longest for you, since {when} — you play **{side}**.",
             match=match.id, game=catalogue.info(match.game).title, when=f"<t:{int(match.updated_at)}:R>",
             side=side_of(mine.view, mine.seat, lang))
    link = message_link(match.guild_id, match.thread_id)
    await show_private(interaction, mine, [f"{line} {link}" if link else line], moving=True)


async def show_private(interaction: discord.Interaction, mine: PrivateView, lines: list[str], *,
                       moving: bool = False) -> None:
    """Her view of a match, privately, under `lines`, with anything private that could not reach her by DM, and
    what she may do from here: her secret setup, her answer to a load request or (`moving`) her move."""
    match, lang = mine.match, language(interaction)
    pending = await presenter_of(interaction).take_pending(match, interaction.user.id)
    lines = lines + [f"📬 {m.content}" for m in pending]
    title = catalogue.info(match.game).title
    description = alt_text(title, mine.view, match.names, match_id=match.id, lang=lang)
    file = await render_file(mine.view, match.names, filename="your-view.png", description=description, lang=lang)
    buttons = None
    if mine.setup_open:
        buttons = single_view(SetupButton(match.id, lang))
    elif mine.consent_open:
        buttons = consent_buttons(match, lang=lang)
    elif moving:
        buttons = single_view(PrivateMoveButton(match.id, match.version, lang))
    await show(interaction, card(fit("\n".join(lines)), picture=file, buttons=buttons), file=file)
