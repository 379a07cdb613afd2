"""The ephemeral step-by-step move picker behind the board's Move button.

Each step comes from the engine (`game.choices`): select menus of at most 25 options (up to four menus a page,
more pages when needed), Back / Confirm / Cancel, and a preview image as soon as the path forms a complete move
(unless the move's result depends on hidden information: see `preview_is_safe`).
The chosen path lives in memory only: after a restart an old picker says it expired and changes nothing.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.games import Choices, get_game
from bot.matches import errors
from bot.storage import Match

from .common import MatchButton, render_file, user_action

if TYPE_CHECKING:
    from bot.app import StrategosBot

OPTIONS_PER_MENU = 25
MENUS_PER_PAGE = 4  # the fifth row holds the buttons
PAGE_SIZE = OPTIONS_PER_MENU * MENUS_PER_PAGE
MAX_SESSIONS = 2000


@dataclass
class PickerSession:
    id: str
    match_id: int
    version: int
    seat: int
    user_id: int
    simultaneous: bool = False  # a secret setup: other players' moves do not make this picker stale
    path: list[str] = field(default_factory=list)
    page: int = 0


def _sessions(bot: StrategosBot) -> OrderedDict[str, PickerSession]:
    """Open pickers live on the bot object, so they end with the process that showed them."""
    return bot.ui_state.setdefault("pickers", OrderedDict())


def _remember(bot: StrategosBot, session: PickerSession) -> None:
    sessions = _sessions(bot)
    sessions[session.id] = session
    while len(sessions) > MAX_SESSIONS:
        sessions.popitem(last=False)


class PickerExpired(errors.UserError):
    def __init__(self) -> None:
        super().__init__("This move picker has expired. Press **Move** on the current board to start again.")


async def open_picker(bot: StrategosBot, interaction: discord.Interaction, match: Match) -> None:
    seat = match.seat_of(interaction.user.id)
    game = get_game(match.game)
    state = bot.matches.state_of(match)
    if seat not in game.to_act(state):
        waiting = ", ".join(match.seats[s].user_name for s in game.to_act(state))
        raise errors.NotYourTurn(waiting)
    session = PickerSession(secrets.token_hex(6), match.id, match.version, seat, interaction.user.id,
                            simultaneous=bot.matches.in_secret_setup(match))
    _remember(bot, session)
    await interaction.response.defer(ephemeral=True, thinking=True)
    content, view, file = await _render_step(bot, match, session)
    await interaction.followup.send(content, view=view, ephemeral=True, **({"file": file} if file else {}))


async def _render_step(
    bot: StrategosBot, match: Match, session: PickerSession
) -> tuple[str, discord.ui.View, discord.File | None]:
    game = get_game(match.game)
    state = bot.matches.state_of(match)
    step: Choices = game.choices(state, session.seat, session.path)
    chosen = " › ".join(session.path) if session.path else "nothing yet"
    lines = [f"**Your move** in match #{match.id} ({game.info.title}) — chosen: {chosen}"]
    file = None
    if step.move:
        lines.append(f"Ready to play **`{step.move}`** — press **Confirm**" +
                     (", or keep choosing." if step.options else "."))
        preview = game.preview(state, session.seat, step.move)
        if preview is not None:
            file = await render_file(preview, match.names, filename="preview.png")
    if step.options:
        lines.append(step.prompt)
    pages = max(1, -(-len(step.options) // PAGE_SIZE))
    session.page = min(session.page, pages - 1)
    if pages > 1:
        lines.append(f"(page {session.page + 1} of {pages})")
    return "\n".join(lines), _picker_view(session, step, pages), file


def _picker_view(session: PickerSession, step: Choices, pages: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    start = session.page * PAGE_SIZE
    shown = step.options[start:start + PAGE_SIZE]
    for menu in range(0, len(shown), OPTIONS_PER_MENU):
        chunk = shown[menu:menu + OPTIONS_PER_MENU]
        view.add_item(PickerSelect(session.id, menu // OPTIONS_PER_MENU, [
            discord.SelectOption(label=o.label[:100], value=o.value, description=o.description[:100] or None)
            for o in chunk
        ], placeholder=step.prompt[:150]))
    view.add_item(PickerButton(session.id, "back", disabled=not session.path))
    if pages > 1:
        view.add_item(PickerButton(session.id, "prev", disabled=session.page == 0))
        view.add_item(PickerButton(session.id, "next", disabled=session.page >= pages - 1))
    view.add_item(PickerButton(session.id, "confirm", disabled=step.move is None))
    view.add_item(PickerButton(session.id, "cancel"))
    return view


PICKER_BUTTONS = {
    "back": ("Back", discord.ButtonStyle.secondary),
    "prev": ("◀ More", discord.ButtonStyle.secondary),
    "next": ("More ▶", discord.ButtonStyle.secondary),
    "confirm": ("Confirm", discord.ButtonStyle.success),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


async def _session_for(bot: StrategosBot, interaction: discord.Interaction, session_id: str) -> tuple[PickerSession, Match]:
    session = _sessions(bot).get(session_id)
    if session is None:
        raise PickerExpired()
    if session.user_id != interaction.user.id:
        raise errors.UserError("This picker belongs to someone else.")
    match = await bot.matches.get_match(session.match_id)
    if not match.active:
        _sessions(bot).pop(session_id, None)
        raise errors.MatchOver()
    if match.version != session.version and not session.simultaneous:
        _sessions(bot).pop(session_id, None)
        raise errors.StaleBoard()
    return session, match


async def _redraw(bot: StrategosBot, interaction: discord.Interaction, match: Match, session: PickerSession) -> None:
    # Acknowledge first: a preview render may queue behind others, and Discord allows only 3 seconds.
    await interaction.response.defer()
    content, view, file = await _render_step(bot, match, session)
    await interaction.edit_original_response(content=content, view=view, attachments=[file] if file else [])


class PickerSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"sg:p:(?P<sid>[0-9a-f]+):s(?P<menu>\d)"):
    def __init__(self, session_id: str, menu: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None):
        super().__init__(discord.ui.Select(
            custom_id=f"sg:p:{session_id}:s{menu}", options=options or [discord.SelectOption(label="-")],
            placeholder=placeholder, min_values=1, max_values=1,
        ))
        self.session_id = session_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(match["sid"], int(match["menu"]))

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: StrategosBot = interaction.client  # type: ignore[assignment]
        session, match = await _session_for(bot, interaction, self.session_id)
        values = (interaction.data or {}).get("values") or []
        if not values:
            raise errors.UserError("Pick one of the options.")
        game = get_game(match.game)
        step = game.choices(bot.matches.state_of(match), session.seat, session.path)
        if values[0] not in {o.value for o in step.options}:
            raise errors.StaleBoard()  # a menu of an earlier step of this picker
        session.path.append(values[0])
        session.page = 0
        await _redraw(bot, interaction, match, session)


class PickerButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:p:(?P<sid>[0-9a-f]+):(?P<action>[a-z]+)"):
    def __init__(self, session_id: str, action: str, *, disabled: bool = False):
        label, style = PICKER_BUTTONS[action]
        super().__init__(discord.ui.Button(
            label=label, style=style, disabled=disabled, custom_id=f"sg:p:{session_id}:{action}"
        ))
        self.session_id, self.action = session_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        action = match["action"] if match["action"] in PICKER_BUTTONS else "cancel"
        return cls(match["sid"], action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: StrategosBot = interaction.client  # type: ignore[assignment]
        if self.action == "cancel":
            _sessions(bot).pop(self.session_id, None)
            await interaction.response.edit_message(content="Move cancelled. Nothing was played.", view=None,
                                                    attachments=[])
            return
        session, match = await _session_for(bot, interaction, self.session_id)
        if self.action == "back":
            if session.path:
                session.path.pop()
            session.page = 0
        elif self.action in ("prev", "next"):
            session.page += 1 if self.action == "next" else -1
            session.page = max(session.page, 0)
        elif self.action == "confirm":
            await _confirm(bot, interaction, session, match)
            return
        await _redraw(bot, interaction, match, session)


async def _confirm(bot: StrategosBot, interaction: discord.Interaction, session: PickerSession, match: Match) -> None:
    game = get_game(match.game)
    step = game.choices(bot.matches.state_of(match), session.seat, session.path)
    if step.move is None:
        raise errors.UserError("That is not a complete move yet.")
    _sessions(bot).pop(session.id, None)  # one confirm per picker, whatever happens next
    expected = None if session.simultaneous else session.version  # the engine re-validates either way
    report = await bot.matches.submit_move(match.id, interaction.user.id, step.move, expected_version=expected)
    await interaction.response.edit_message(content=f"✅ You played `{step.move}`.", view=None, attachments=[])
    from .turns import announce

    await announce(bot, report, interaction)


class SetupButton(MatchButton, template=r"sg:s:(?P<match>\d+)"):
    """Opens the secret setup picker from a private prompt (a DM, or the ephemeral My view)."""

    PREFIX, LABEL, STYLE = "sg:s", "Set up in private", discord.ButtonStyle.primary

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: StrategosBot = interaction.client  # type: ignore[assignment]
        match = await bot.matches.get_match(self.match_id)
        if match.seat_of(interaction.user.id) is None:
            raise errors.NotInMatch()
        if not match.active:
            raise errors.MatchOver()
        if not bot.matches.in_secret_setup(match) or match.seat_of(interaction.user.id) not in bot.matches.to_act(match):
            raise errors.UserError("Your setup is done — nothing more to set up here.")
        await open_picker(bot, interaction, match)


def setup_prompt_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SetupButton(match_id))
    return view
