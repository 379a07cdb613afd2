"""The Explore board: a private sandbox opened from a board post's Explore button or /explore.

Every click is acknowledged first, then becomes one call on the sandbox (bot/matches/explore.py), then its picture
is drawn and the ephemeral message edited. Sandboxes live in memory: after a restart or their expiry, a click
says so and changes nothing. Share line posts the line in the match thread, and only then.
"""

from __future__ import annotations

import itertools
from typing import Any

import discord

from bot.i18n import ENGLISH, N_, localize, t
from bot.matches import errors
from bot.matches.explore import LABEL_LIMIT, Explorer, ExploreStep, assumed_notice
from bot.matches.plans import Planner, plan_lines
from bot.presenters.describe import alt_text
from bot.presenters.explore import ExplorePresenter, explore_file
from bot.presenters.layout import card
from bot.presenters.text import fit

from .common import (
    MatchButton, acknowledge, answer, language, presenter_of, selected, service_of, show, single_view, user_action,
)
from .menus import option_menus, pages_of

MENUS_PER_PAGE = 3  # two rows left for the buttons
LINE_SHOWN = 900  # characters of a long line shown (its end): the message keeps room for the prompt


def explorer_of(interaction: discord.Interaction) -> Explorer:
    return interaction.client.explorer  # type: ignore[attr-defined]  # Strategos (bot/app.py), the only client, sets it


def planner_of(interaction: discord.Interaction) -> Planner:
    return interaction.client.planner  # type: ignore[attr-defined]  # Strategos (bot/app.py), the only client, sets it


class ExploreButton(MatchButton, template=r"sg:x:(?P<match>\d+)"):
    """On every board post: anyone may explore, a player from her own view, anyone else from the public's."""

    PREFIX, LABEL, STYLE = "sg:x", N_("Explore"), discord.ButtonStyle.secondary

    def __init__(self, match_id: int, *, disabled: bool = False, lang: str = ENGLISH):
        super().__init__(match_id, lang)
        self.item.disabled = disabled  # retired with the rest of an old board post's buttons

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        await open_explore(interaction, self.match_id, None)


async def open_explore(interaction: discord.Interaction, match_id: int, move: int | None) -> None:
    await acknowledge(interaction)
    step = await explorer_of(interaction).open(match_id, interaction.user.id, interaction.guild_id, move)
    layout, file = await explore_board(step, lang=language(interaction))
    await show(interaction, layout, file=file)


async def explore_board(step: ExploreStep, plan: list[str] | None = None,
                        lang: str = ENGLISH) -> tuple[discord.ui.LayoutView, discord.File]:
    """The Explore board as one container (bot/presenters/layout.py): its words, its picture with the picture's
    alt text, and its menus and buttons."""
    sandbox = step.sandbox
    content, view = explore_message(step, plan, lang)
    description = alt_text(sandbox.title, step.view, sandbox.names, match_id=sandbox.match_id, lang=lang)
    file = await explore_file(step, lang, description=description)
    return card(content, picture=file, buttons=view), file


def explore_message(step: ExploreStep, plan: list[str] | None = None,
                    lang: str = ENGLISH) -> tuple[str, discord.ui.View]:
    """The Explore board's words, in the explorer's language (it is hers alone)."""
    sandbox = step.sandbox
    params: dict[str, Any] = dict(match=sandbox.match_id, game=sandbox.title, move=sandbox.start_move)
    if sandbox.viewer is not None:
        opening = (t(lang, "🔭 **Explore** match #{match} ({game}) from the start, as your view. Only you see this; "
                           "nothing here is played.", **params) if not sandbox.start_move else
                   t(lang, "🔭 **Explore** match #{match} ({game}) from move {move}, as your view. Only you see "
                           "this; nothing here is played.", **params))
    else:
        opening = (t(lang, "🔭 **Explore** match #{match} ({game}) from the start, as the public view. Only you see "
                           "this; nothing here is played.", **params) if not sandbox.start_move else
                   t(lang, "🔭 **Explore** match #{match} ({game}) from move {move}, as the public view. Only you "
                           "see this; nothing here is played.", **params))
    lines = [opening]
    if sandbox.planning:
        lines = [t(lang, "🗓️ **Plan replies** in match #{match} ({game}): play the move you expect from your "
                         "opponent, then your answer (up to three deep), and **Save plan**. When that move comes, "
                         "your answer is played at once. Only you see your plan.", **params),
                 t(lang, "Your plan now:"), *(localize(lang, line) for line in plan or [t(lang, "(no plan)")])]
    notice = assumed_notice(sandbox)
    if notice:
        lines.append(f"*{localize(lang, notice)}*")
    line = localize(lang, step.line_text)
    lines.append(t(lang, "Line: {line}", line=line if len(line) <= LINE_SHOWN else "…" + line[-LINE_SHOWN:]))
    pages = 1
    if step.results:
        assert sandbox.pending is not None  # results are offered for a pending move
        _, move, _ = sandbox.pending
        lines.append(t(lang, "`{move}` depends on what you can't see. Choose the result to assume:", move=move))
    elif step.choices is None:
        lines.append(t(lang, "The game is over in this line.") if not step.view.get("to_act")
                     or step.view.get("outcome") else t(lang, "The line is as long as it can be."))
    else:
        assert step.seat is not None  # a seat is to move whenever there are choices
        name = sandbox.names[step.seat] if step.seat < len(sandbox.names) else f"seat {step.seat + 1}"
        chosen = " › ".join(sandbox.path) if sandbox.path else t(lang, "nothing yet")
        lines.append(t(lang, "Move for **{player}** — chosen: {chosen}", player=name, chosen=chosen))
        if step.choices.move:
            lines.append(t(lang, "`{move}` is a complete move: **Play it**, or keep choosing.",
                           move=step.choices.move))
        if step.choices.options or not step.choices.move:  # nothing to choose: the prompt says why
            lines.append(localize(lang, step.choices.prompt))
        pages = pages_of(step.choices.options, MENUS_PER_PAGE)
        sandbox.page = min(sandbox.page, pages - 1)
        if pages > 1:
            lines.append(t(lang, "(page {page} of {pages})", page=sandbox.page + 1, pages=pages))
    return fit("\n".join(lines)), _explore_view(step, pages, lang)


def _option_label(text: str) -> str:
    return text if len(text) <= LABEL_LIMIT else text[:LABEL_LIMIT - 1] + "…"


def _explore_view(step: ExploreStep, pages: int, lang: str = ENGLISH) -> discord.ui.View:
    sandbox = step.sandbox
    items: list[discord.ui.Item] = []
    if step.results:
        items.append(ExploreSelect(sandbox.id, "r", [
            discord.SelectOption(label=_option_label(localize(lang, label)), value=str(i),
                                 description=f"≈ {max(1, round(100 * share))} %" if share < 1 else None)
            for i, (label, share) in enumerate(zip(step.results, step.shares or [1.0] * len(step.results)))
        ], placeholder=t(lang, "The result to assume")))
    elif step.choices is not None:
        prompt = localize(lang, step.choices.prompt)
        for menu in option_menus(step.choices.options, prompt, sandbox.page, MENUS_PER_PAGE, lang):
            items.append(ExploreSelect(sandbox.id, str(menu.number), menu.options, placeholder=menu.placeholder))
    nothing_to_undo = not (sandbox.pending or sandbox.path or sandbox.line)
    items.append(ExploreAction(sandbox.id, "back", disabled=nothing_to_undo, lang=lang))
    if pages > 1:
        items.append(ExploreAction(sandbox.id, "prev", disabled=sandbox.page == 0, lang=lang))
        items.append(ExploreAction(sandbox.id, "next", disabled=sandbox.page >= pages - 1, lang=lang))
    items.append(ExploreAction(sandbox.id, "play", disabled=step.choices is None or step.choices.move is None,
                               lang=lang))
    items.append(ExploreAction(sandbox.id, "reset", disabled=not (sandbox.line or sandbox.path or sandbox.pending),
                               lang=lang))
    if sandbox.planning:
        items.append(ExploreAction(sandbox.id, "save", disabled=not sandbox.line or len(sandbox.line) % 2 == 1,
                                   lang=lang))
        items.append(ExploreAction(sandbox.id, "clear", lang=lang))
    else:
        items.append(ExploreAction(sandbox.id, "share", disabled=not sandbox.line, lang=lang))
        if sandbox.viewer is not None and not sandbox.finished and len(sandbox.names) == 2:
            items.append(ExploreAction(sandbox.id, "plan", lang=lang))
    return single_view(*items)


EXPLORE_ACTIONS = {
    "back": (N_("◀ Back"), discord.ButtonStyle.secondary),
    "prev": (N_("◀ More"), discord.ButtonStyle.secondary),
    "next": (N_("More ▶"), discord.ButtonStyle.secondary),
    "play": (N_("Play it"), discord.ButtonStyle.primary),
    "reset": (N_("⟲ Reset"), discord.ButtonStyle.secondary),
    "share": (N_("Share line"), discord.ButtonStyle.success),
    "plan": (N_("Plan replies"), discord.ButtonStyle.primary),
    "save": (N_("Save plan"), discord.ButtonStyle.success),
    "clear": (N_("Clear plan"), discord.ButtonStyle.danger),
}


async def _show(interaction: discord.Interaction, step: ExploreStep) -> None:
    plan = None
    if step.sandbox.planning:
        sandbox = step.sandbox
        plan = plan_lines(await planner_of(interaction).current(sandbox.match_id, sandbox.user_id), sandbox.names)
    layout, file = await explore_board(step, plan, language(interaction))
    # content=None: Discord takes a layout only on a message without content (one from before layouts, say)
    await interaction.edit_original_response(content=None, view=layout, attachments=[file])


# Each drawing's menus get ids of their own (the number after the menu): Discord's client keeps showing a menu's
# last choice when an edit keeps its id, and sends nothing when that value is picked again (after Back, say).
_DRAWINGS = itertools.count(1)


class ExploreSelect(discord.ui.DynamicItem[discord.ui.Select],
                    template=r"sg:e:(?P<sid>[0-9a-f]+):s(?P<menu>r|\d)(?::\d+)?"):
    def __init__(self, sandbox_id: str, menu: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None):
        drawing = f":{next(_DRAWINGS)}" if options else ""  # "": rebuilt from a click, its id is not shown again
        super().__init__(discord.ui.Select(
            custom_id=f"sg:e:{sandbox_id}:s{menu}{drawing}", options=options or [discord.SelectOption(label="-")],
            placeholder=placeholder, min_values=1, max_values=1,
        ))
        self.sandbox_id, self.menu = sandbox_id, menu

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(match["sid"], match["menu"])

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        values = selected(interaction)
        if not values:
            raise errors.UserError(N_("Pick one of the options."))
        explorer = explorer_of(interaction)
        explorer.sandbox(self.sandbox_id, interaction.user.id)  # expired or someone else's: said before anything
        await acknowledge(interaction, edit=True)  # before the engine's work and the picture
        if self.menu == "r":
            if not values[0].isdigit():
                raise errors.UserError(N_("Pick one of the results."))
            step = explorer.choose_result(self.sandbox_id, interaction.user.id, int(values[0]))
        else:
            step = explorer.choose(self.sandbox_id, interaction.user.id, values[0])
        await _show(interaction, step)


# Not the result menu's "sr": a template matching a select's id too would run a stray "back" beside the choice.
class ExploreAction(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"sg:e:(?P<sid>[0-9a-f]+):(?P<action>(?!sr$)[a-z]+)"):
    def __init__(self, sandbox_id: str, action: str, *, disabled: bool = False, lang: str = ENGLISH):
        label, style = EXPLORE_ACTIONS[action]
        super().__init__(discord.ui.Button(label=t(lang, label), style=style, disabled=disabled,
                                           custom_id=f"sg:e:{sandbox_id}:{action}"))
        self.sandbox_id, self.action = sandbox_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        action = match["action"] if match["action"] in EXPLORE_ACTIONS else "back"
        return cls(match["sid"], action)

    @user_action
    async def callback(self, interaction: discord.Interaction) -> None:
        explorer, user_id = explorer_of(interaction), interaction.user.id
        explorer.sandbox(self.sandbox_id, user_id)  # expired or someone else's: said before anything
        if self.action == "share":
            await share_line(interaction, explorer, self.sandbox_id)
            return
        await acknowledge(interaction, edit=True)  # before the engine's work and the picture
        if self.action in ("plan", "save", "clear"):
            await plan_action(interaction, self.sandbox_id, self.action)
            return
        if self.action == "back":
            step = explorer.back(self.sandbox_id, user_id)
        elif self.action == "reset":
            step = explorer.reset(self.sandbox_id, user_id)
        elif self.action == "play":
            step = explorer.play(self.sandbox_id, user_id)
        else:
            step = explorer.turn_page(self.sandbox_id, user_id, 1 if self.action == "next" else -1)
        await _show(interaction, step)


async def plan_action(interaction: discord.Interaction, sandbox_id: str, action: str) -> None:
    planner, user_id = planner_of(interaction), interaction.user.id
    if action == "plan":
        step = await planner.start(sandbox_id, user_id)
    elif action == "save":
        step = await planner.save(sandbox_id, user_id)
        await answer(interaction, t(language(interaction), "🗓️ Plan saved."))
    else:
        had_plan, step = await planner.clear_from(sandbox_id, user_id)
        await answer(interaction, t(language(interaction), "🗓️ Plan cleared.") if had_plan
                     else t(language(interaction), "There was no plan to clear."))
    await _show(interaction, step)


async def share_line(interaction: discord.Interaction, explorer: Explorer, sandbox_id: str) -> None:
    await acknowledge(interaction)
    shared = await explorer.share(sandbox_id, interaction.user.id)
    await ExplorePresenter(service_of(interaction), presenter_of(interaction).boards).post_line(shared)
    await answer(interaction, t(language(interaction), "📤 The line is posted in the match thread."))


EXPLORE_ITEMS = (ExploreButton, ExploreSelect, ExploreAction)
