"""The ephemeral options panel shown by /play for games that have options: one menu per option, then Post."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.games import OptionSpec
from bot.i18n import ENGLISH, N_, localize, t
from bot.matches import catalogue, errors
from bot.matches.server_settings import CLOCK_CHOICES

from .challenge import POSTED, post_challenge
from .common import acknowledge, acknowledged, language, selected, single_view, ui_state, user_action

MAX_PANELS = 1000


@dataclass
class OptionPanel:
    id: str
    user_id: int
    user_name: str
    guild_id: int
    channel_id: int
    game: str
    invited: list[int | None]
    computer_level: str | None = None
    rated: bool = True
    clock: str | None = None  # a label of the clock choices; None: the server's default
    weekends: bool | None = None  # quiet weekends; None: the server's default
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.invited) + 1


def _panels(interaction: discord.Interaction) -> OrderedDict[str, OptionPanel]:
    return ui_state(interaction).setdefault("option_panels", OrderedDict())


def new_panel(interaction: discord.Interaction, **kwargs: Any) -> OptionPanel:
    panel = OptionPanel(id=secrets.token_hex(6), **kwargs)
    panel.options = catalogue.default_options(panel.game, panel.players)
    panels = _panels(interaction)
    panels[panel.id] = panel
    while len(panels) > MAX_PANELS:
        panels.popitem(last=False)
    return panel


MAX_MENUS = 4  # a message has five rows: the last holds Post and Cancel


def _menus(panel: OptionPanel) -> list[tuple[str, OptionSpec, int | None]]:
    """(menu key, option, seat or None) for every menu of the panel, at most four."""
    menus: list[tuple[str, OptionSpec, int | None]] = []
    for index, spec in enumerate(catalogue.info(panel.game).options):
        if spec.per_seat:
            menus += [(f"{index}-{seat}", spec, seat) for seat in range(panel.players)]
        else:
            menus.append((str(index), spec, None))
    return menus[:MAX_MENUS]


def panel_text(panel: OptionPanel, lang: str = ENGLISH) -> str:
    """The panel's words in the member's language, the options' own descriptions included."""
    info = catalogue.info(panel.game)
    lines = [t(lang, "**{game}** options — choose, then **Post challenge**:", game=info.title)]
    for spec in info.options:
        lines.append(f"• `{spec.key}`: {localize(lang, spec.description)}")
    return "\n".join(lines)


def panel_view(panel: OptionPanel, lang: str = ENGLISH) -> discord.ui.View:
    items: list[discord.ui.Item] = []
    for key, spec, seat in _menus(panel):
        current = panel.options[spec.key][seat] if seat is not None else panel.options[spec.key]
        who = "" if seat is None else \
            " " + (t(lang, "(you)") if seat == 0 else t(lang, "(seat {seat})", seat=seat + 1))
        items.append(OptionSelect(panel.id, key, [
            discord.SelectOption(label=f"{spec.key}{who}: {choice}", value=choice, default=choice == current)
            for choice in spec.choices
        ]))
    if len(items) < MAX_MENUS:  # room for one more: the clock, as /play's `clock` left it until changed here
        items.append(ClockSelect(panel.id, clock_options(panel, lang), t(lang, "Default clock")))
    return single_view(*items, OptionButton(panel.id, "post", lang), OptionButton(panel.id, "cancel", lang))


def clock_options(panel: OptionPanel, lang: str) -> list[discord.SelectOption]:
    """The clocks of /play's list, and a Fischer clock of her own written there; none chosen: the server's."""
    labels = list(CLOCK_CHOICES) + ([panel.clock] if panel.clock and panel.clock not in CLOCK_CHOICES else [])
    return [discord.SelectOption(label=t(lang, label, context="choice_name")[:100], value=label[:100],
                                 default=label == panel.clock) for label in labels]


def _panel_for(interaction: discord.Interaction, panel_id: str) -> OptionPanel:
    panel = _panels(interaction).get(panel_id)
    if panel is None:
        raise errors.UserError(N_("These options have expired. Run `/play` again."))
    if panel.user_id != interaction.user.id:
        raise errors.UserError(N_("These options belong to someone else."))
    return panel


class OptionSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"sg:o:(?P<pid>[0-9a-f]+):(?P<key>\d+(?:-\d+)?)"):
    def __init__(self, panel_id: str, key: str, options: list[discord.SelectOption] | None = None):
        super().__init__(discord.ui.Select(
            custom_id=f"sg:o:{panel_id}:{key}", options=options or [discord.SelectOption(label="-")]
        ))
        self.panel_id, self.key = panel_id, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(match["pid"], match["key"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        panel = _panel_for(interaction, self.panel_id)
        menus = {key: (spec, seat) for key, spec, seat in _menus(panel)}
        spec, seat = menus[self.key]
        value = next(iter(selected(interaction)), None)
        if value not in spec.choices:
            raise errors.UserError(N_("Pick one of the listed values."))
        if seat is None:
            panel.options[spec.key] = value
        else:
            panel.options[spec.key][seat] = value
        lang = language(interaction)
        await interaction.response.edit_message(content=panel_text(panel, lang), view=panel_view(panel, lang))
        acknowledged(interaction)


class ClockSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"sg:o:(?P<pid>[0-9a-f]+):clock"):
    def __init__(self, panel_id: str, options: list[discord.SelectOption] | None = None, placeholder: str = ""):
        super().__init__(discord.ui.Select(custom_id=f"sg:o:{panel_id}:clock", placeholder=placeholder or None,
                                           options=options or [discord.SelectOption(label="-")]))
        self.panel_id = panel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(match["pid"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        panel = _panel_for(interaction, self.panel_id)
        value = next(iter(selected(interaction)), None)
        if value not in CLOCK_CHOICES and value != panel.clock:
            raise errors.UserError(N_("Pick one of the listed values."))
        panel.clock = value
        lang = language(interaction)
        await interaction.response.edit_message(content=panel_text(panel, lang), view=panel_view(panel, lang))
        acknowledged(interaction)


class OptionButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:o:(?P<pid>[0-9a-f]+):(?P<action>post|cancel)"):
    def __init__(self, panel_id: str, action: str, lang: str = ENGLISH):
        label, style = ((t(lang, "Post challenge"), discord.ButtonStyle.success) if action == "post"
                        else (t(lang, "Cancel"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"sg:o:{panel_id}:{action}"))
        self.panel_id, self.action = panel_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(match["pid"], match["action"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        panel = _panel_for(interaction, self.panel_id)
        panels = _panels(interaction)
        panels.pop(panel.id, None)  # one challenge per panel, however often Post is pressed
        if self.action == "cancel":
            await interaction.response.edit_message(content=t(language(interaction), "No challenge posted."),
                                                    view=None)
            acknowledged(interaction)
            return
        await acknowledge(interaction, edit=True)
        try:
            await post_challenge(interaction, panel.game, panel.invited, panel.options,
                                 computer_level=panel.computer_level, rated=panel.rated, via_channel=True,
                                 clock=panel.clock, weekends=panel.weekends)
        except errors.UserError:
            panels[panel.id] = panel  # refused, nothing posted: the panel stays as it is, choices and all
            raise
        await interaction.edit_original_response(content=t(language(interaction), POSTED), view=None)
