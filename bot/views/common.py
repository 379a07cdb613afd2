"""Small pieces every view and cog uses: reaching the service, answering within Discord's limits, errors."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any, AsyncIterator, Awaitable, Callable, TypeVar, cast

import discord

from bot import answers_first
from bot.matches import MatchService, TurnReport, errors
from bot.matches.analysis import Analyses
from bot.presenters import Presenter
from bot.presenters.answers import Held
from bot.presenters.conversation import OWN_ANSWER_FIRST, PUBLIC_ANSWER, bot_absent
from bot.i18n import ENGLISH, N_, language_of, t
from bot.presenters.text import fit

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Awaitable[Any]])

GENERIC_FAILURE = N_("Something went wrong on my side. Nothing was changed; please try again.")
# The database (PostgreSQL) went away under the action, restarting say: the action is whole or absent, and the
# connection comes back by itself, so the answer is to try again.
DATABASE_UNAVAILABLE = N_("I lost my connection to the database for a moment (it may be restarting). Please try "
                          "again in a few seconds; if the thread already shows your action, it counts.")
# The database's disk is full (or SQLite's page limit reached): the action was rolled back whole; the bot goes on
# by itself once the operator has freed space.
STORAGE_FULL = N_("My storage is full, so nothing was changed. Please try again later: the bot's operator has to "
                  "free some space first.")
# A match whose stored record is damaged: set aside (bot/matches/damage.py), the operator told in the log.
DAMAGED = N_("The record of match #{match} is damaged; the server's operator has been told.")
NOT_POSTED = N_("Your action counts, but I could not post the new board in the match thread. "
                "`/board` posts it again once I can write there.")


def service_of(interaction: discord.Interaction) -> MatchService:
    return interaction.client.matches  # type: ignore[attr-defined]  # Strategos (bot/app.py), the only client, sets it


def language(interaction: discord.Interaction) -> str:
    """The asker's language (her Discord client's), for private answers; English when we don't have it."""
    return language_of(interaction.locale)


def server_language(interaction: discord.Interaction) -> str:
    """The language of a public post made in answer to this interaction: the server's preferred one."""
    return language_of(interaction.guild_locale if interaction.guild_id is not None else interaction.locale)


def guild_of(interaction: discord.Interaction) -> int:
    """The server of a server-only command (`app_commands.guild_only`): Discord sends those from servers only."""
    if interaction.guild_id is None:
        raise RuntimeError("a server-only command came from outside a server")
    return interaction.guild_id


def channel_of(interaction: discord.Interaction) -> int:
    """The channel an interaction came from (every command and component is used in one)."""
    if interaction.channel_id is None:
        raise RuntimeError("an interaction came from no channel")
    return interaction.channel_id


def analyses_of(interaction: discord.Interaction) -> Analyses:
    return interaction.client.analyses  # type: ignore[attr-defined]  # Strategos (bot/app.py), the only client, sets it


def presenter_of(interaction: discord.Interaction) -> Presenter:
    return interaction.client.presenter  # type: ignore[attr-defined]  # Strategos (bot/app.py), the only client, sets it


def ui_state(interaction: discord.Interaction) -> dict[str, Any]:
    """Open pickers and option panels: in memory on the bot, so they end with the process that showed them."""
    return interaction.client.ui_state  # type: ignore[attr-defined]  # Strategos (bot/app.py), the only client, sets it


def selected(interaction: discord.Interaction) -> list[str]:
    """The values picked in a select menu ([] for any other component)."""
    data: dict[str, Any] = dict(interaction.data or {})
    return data.get("values") or []


def acknowledged(interaction: discord.Interaction) -> None:
    """Call right after an interaction's first response: the work held back for its answer goes on
    (bot/answers_first.py), and its time to it goes into the bot's metrics, when they are on (bot/metrics.py)."""
    answers_first.gate().answered(interaction.id)
    endpoint = getattr(interaction.client, "endpoint", None)
    if endpoint is not None:
        endpoint.metrics.acknowledged(interaction.created_at)


async def answer(interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any) -> None:
    """Reply whether or not the interaction was already acknowledged, always within Discord's length limit."""
    content = fit(content)
    if interaction.response.is_done():
        interaction.extras[PUBLIC_ANSWER] = False  # a public "thinking…" this replaces is no longer a board's to take
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
        own_answer_given(interaction)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        acknowledged(interaction)


async def show(interaction: discord.Interaction, layout: discord.ui.LayoutView, *,
               file: discord.File | None = None) -> None:
    """A private answer that is a Components V2 layout (bot/presenters/layout.py), with the picture it shows.
    A deferred answer cannot be made V2 by its acknowledgement: the followup that completes it carries the flag."""
    file_kwargs: dict[str, Any] = {"file": file} if file is not None else {}
    if interaction.response.is_done():
        await interaction.followup.send(view=layout, ephemeral=True, **file_kwargs)
    else:
        await interaction.response.send_message(view=layout, ephemeral=True, **file_kwargs)
        acknowledged(interaction)


async def acknowledge(interaction: discord.Interaction, *, edit: bool = False, public: bool = False) -> None:
    """Answer Discord at once, before anything that can wait (a database read, the engine, a render): Discord
    fails an interaction it hears nothing of within 3 seconds, and under a burst of moves a read can queue that
    long. `edit`: the click will edit its own message; otherwise a private answer follows ("thinking…" until
    then). An interaction already answered is left as it is. `public`: the answer is for everyone in the channel
    (a board in a conversation: bot/presenters/conversation.py).

    From a conversation, the interaction is held to answer the posts the action makes there: at once if it is
    answered in public or by updating its message; a click answered privately, once its own answer replaced its
    "thinking…" (a post before would replace it, and only she would see it)."""
    presenter = getattr(interaction.client, "presenter", None)
    if presenter is not None and (edit or public):
        presenter.hold_conversation(interaction)
    elif presenter is not None and interaction.type == discord.InteractionType.component and bot_absent(interaction):
        presenter.hold_conversation(interaction, after=interaction.extras.setdefault(OWN_ANSWER_FIRST,
                                                                                     asyncio.Event()))
    if interaction.response.is_done():
        answers_first.gate().answered(interaction.id)  # answered some other way: nothing waits for it any more
        return
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        interaction.extras[PUBLIC_ANSWER] = public
    acknowledged(interaction)


@contextlib.asynccontextmanager
async def answering_in_thread(interaction: discord.Interaction, match_id: int, *,
                              ready: bool = False) -> AsyncIterator[Held | None]:
    """While the move is made, offer this interaction to carry the match's next post as its public answer (if it
    came from the match's server thread: outside Discord's limits, where a new thread message counts against them).
    `ready`: its answer so far is no "thinking…" that a first followup would replace (an acknowledged click);
    else call the offer's `ready()` once the player's own answer is out."""
    if bot_absent(interaction):  # a conversation answers through its own interactions (conversation.py)
        yield None
        return
    answers = presenter_of(interaction).answers
    offer = answers.offer(interaction, match_id, ready=ready)
    try:
        yield offer
    finally:
        answers.withdraw(match_id, offer)


async def report_failure(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """A user's mistake gets its message; anything else is logged and the user gets a short apology. If even
    that reply fails (the interaction expired, say), it is logged rather than lost."""
    try:
        if isinstance(error, errors.DamagedMatch):  # that match fails alone, in one line
            await answer(interaction, t(language(interaction), DAMAGED, match=error.match_id))
            await service_of(interaction).set_aside(error)
            return
        if isinstance(error, errors.UserError):
            text, params = getattr(error, "text", ""), getattr(error, "params", {})
            await answer(interaction, t(language(interaction), text, **params) if text else str(error))
            return
        if isinstance(error, errors.DatabaseUnavailable):
            log.warning("%s met a lost database connection for user=%s guild=%s: %s", where, interaction.user.id,
                        interaction.guild_id, error)
            await answer(interaction, t(language(interaction), DATABASE_UNAVAILABLE))
            return
        if errors.is_storage_full(error):
            # One line, no traceback: the cause is the disk, not the code.
            log.error("%s could not be written for user=%s guild=%s: the database's storage is full (%s); free "
                      "space on its disk", where, interaction.user.id, interaction.guild_id, error)
            await answer(interaction, t(language(interaction), STORAGE_FULL))
            return
        log.error("%s failed for user=%s guild=%s", where, interaction.user.id, interaction.guild_id,
                  exc_info=error)
        await answer(interaction, t(language(interaction), GENERIC_FAILURE))
    except discord.HTTPException as exc:
        log.warning("could not answer user=%s in %s: %s", interaction.user.id, where, exc)


async def after_presentation(interaction: discord.Interaction, report: TurnReport) -> None:
    """Wait until the thread shows what the action changed; if Discord refused the post, tell the player that
    her action counts anyway (never "nothing was changed")."""
    own_answer_given(interaction)  # whatever it was: the posts may follow it now
    if report.presented is not None and not await report.presented:
        await answer(interaction, t(language(interaction), NOT_POSTED))


def own_answer_given(interaction: discord.Interaction) -> None:
    """The click has given its own private answer: the posts it caused in a conversation may follow it."""
    own = interaction.extras.get(OWN_ANSWER_FIRST)
    if own is not None:
        own.set()


def user_action(func: F) -> F:
    """Wrap a component callback: errors become answers instead of Discord's "interaction failed"."""

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> Any:
        try:
            return await func(self, interaction, *args, **kwargs)
        except Exception as exc:
            await report_failure(interaction, exc, f"component {func.__qualname__}")
        finally:
            own_answer_given(interaction)

    return cast(F, wrapper)  # the same signature: it passes every argument on


class MatchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:abstract:(?P<match>\d+)"):
    """A persistent button that acts on one match: subclasses give the template, PREFIX, LABEL and STYLE.

        class ResignConfirm(MatchButton, template=r"sg:r:(?P<match>\\d+)"):
            PREFIX, LABEL, STYLE = "sg:r", "Yes, resign", discord.ButtonStyle.danger
    """

    PREFIX: str
    LABEL: str
    STYLE: discord.ButtonStyle = discord.ButtonStyle.secondary

    def __init__(self, match_id: int, lang: str = ENGLISH):
        super().__init__(discord.ui.Button(label=t(lang, self.LABEL), style=self.STYLE,
                                           custom_id=f"{self.PREFIX}:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(int(match["match"]))


class VersionButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:abstract:(?P<match>\d+):(?P<version>\d+)"):
    """A persistent button that acts on one match while it is at one version: subclasses give the template,
    PREFIX, LABEL, STYLE and, if any, EMOJI."""

    PREFIX: str
    LABEL: str
    STYLE: discord.ButtonStyle = discord.ButtonStyle.secondary
    EMOJI: str | None = None

    def __init__(self, match_id: int, version: int, lang: str = ENGLISH):
        super().__init__(discord.ui.Button(label=t(lang, self.LABEL), style=self.STYLE, emoji=self.EMOJI,
                                           custom_id=f"{self.PREFIX}:{match_id}:{version}"))
        self.match_id, self.version = match_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(int(match["match"]), int(match["version"]))


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sg:abstract:(?P<match>\d+):(?P<version>\d+):(?P<answer>\w+)"):
    """One answer to a question about one match at one version (a draw offer, a load request): a stale answer
    is refused because the version moved on. Subclasses give the template, PREFIX and ANSWERS."""

    PREFIX: str
    ANSWERS: dict[str, tuple[str, discord.ButtonStyle]]

    def __init__(self, match_id: int, version: int, answer: str, *, disabled: bool = False, lang: str = ENGLISH):
        label, style = self.ANSWERS[answer]
        super().__init__(discord.ui.Button(label=t(lang, label), style=style, disabled=disabled,
                                           custom_id=f"{self.PREFIX}:{match_id}:{version}:{answer}"))
        self.match_id, self.version, self.answer = match_id, version, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any):
        return cls(int(match["match"]), int(match["version"]), match["answer"])

    @classmethod
    def answers_view(cls, match_id: int, version: int, *, disabled: bool = False,
                     lang: str = ENGLISH) -> discord.ui.View:
        return single_view(*(cls(match_id, version, a, disabled=disabled, lang=lang) for a in cls.ANSWERS))


def single_view(*items: discord.ui.Item) -> discord.ui.View:
    """A message's components, every one a DynamicItem: a click is routed by its custom_id's template (registered
    once at start-up, so buttons work across restarts), never by this object.

    So the view is sent already stopped: discord.py then keeps no copy of it in its view store, and no task
    waits out the 15-minute timeout it gives every ephemeral message's view (pickers, confirmations, pages),
    which for a busy bot is hundreds of idle tasks."""
    view = discord.ui.View(timeout=None)
    for item in items:
        if not isinstance(item, discord.ui.DynamicItem):
            raise TypeError(f"{type(item).__name__} is not a DynamicItem: a stopped view would never route it")
        view.add_item(item)
    view.stop()
    return view
