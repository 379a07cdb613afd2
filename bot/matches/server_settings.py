"""Per-server settings, declared once here with their defaults and allowed values; `/settings` lists and changes
them, /play, challenges and leagues read them. A server that never changed a setting has its default."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Collection

from bot.domain import ClockRules
from bot.i18n import N_
from bot.storage import ClockStore

from . import errors
from .clock_kinds import (FISCHER_DEFAULT, FISCHER_LABEL, fischer_setting, fischer_text, from_setting,
                          is_fischer_text, parse_fischer)
from .weekends import UTC, known_zone
from .places import in_conversation, language_of_conversation

HOUR = 3600
DAY = 24 * HOUR

# The clocks offered by /play, leagues and /settings, in the order shown: a per-move time limit, Little Golem's
# Fischer clock as [bank, increment, cap] (bot/matches/clock_kinds.py; a member may write her own), or None: no clock.
CLOCK_CHOICES: dict[str, int | list[int] | None] = {
    N_("1 day"): DAY, N_("2 days"): 2 * DAY, N_("3 days"): 3 * DAY, N_("5 days"): 5 * DAY, N_("7 days"): 7 * DAY,
    N_("14 days"): 14 * DAY, FISCHER_LABEL: list(FISCHER_DEFAULT), N_("No clock"): None,
}
DEFAULT_CLOCK = 3 * DAY

# None: the bot's own default (STRATEGOS_CHALLENGE_HOURS), so a server that never chose follows the operator.
EXPIRY_CHOICES: dict[str, int | None] = {
    N_("bot default"): None, N_("1 hour"): HOUR, N_("6 hours"): 6 * HOUR, N_("12 hours"): 12 * HOUR, N_("1 day"): DAY,
    N_("2 days"): 2 * DAY, N_("3 days"): 3 * DAY, N_("7 days"): 7 * DAY,
}


# A role-valued setting stores the role's id; its one label clears it.
NO_ROLE = N_("none")
ORGANISER_ROLE = "league_organiser_role"
WEEKENDS, TIME_ZONE = "quiet_weekends", "time_zone"


@dataclass(frozen=True)
class SettingSpec:
    key: str
    title: str
    description: str
    choices: dict[str, Any]  # label shown → value stored
    default: Any
    takes_role: bool = False  # set from /settings' `role:` option (a role of the server), cleared by a label
    saved: str = N_("Saved. Running matches keep the clock they started with.")

    def label_of(self, value: Any) -> str:
        if self.takes_role and value is not None:
            return f"<@&{value}>"
        found = next((label for label, v in self.choices.items() if v == value), None)
        if found is None and isinstance(value, list):  # a Fischer clock of the server's own: as it was written
            return fischer_text(value[0], from_setting(value)[1])
        return found if found is not None else str(value)


SETTINGS: dict[str, SettingSpec] = {spec.key: spec for spec in (
    SettingSpec("default_clock", N_("Default clock"),
                N_("time for each move when /play leaves `clock` empty (running matches keep theirs)"),
                CLOCK_CHOICES, DEFAULT_CLOCK),
    SettingSpec("challenge_expiry", N_("Challenge expiry"), N_("how long an unanswered challenge stays open"),
                EXPIRY_CHOICES, None),
    SettingSpec(WEEKENDS, N_("Quiet weekends"),
                N_("new matches' clocks stand still from Saturday to Monday, in each player's time zone"),
                {N_("on"): True, N_("off"): False}, False),
    SettingSpec(TIME_ZONE, N_("Time zone"),
                N_("the time zone of quiet weekends for members who did not choose theirs with `/timezone`"),
                {UTC: UTC}, UTC, saved=N_("Saved.")),
    SettingSpec(ORGANISER_ROLE, N_("League organisers"),
                N_("members with this role may create, start and cancel leagues, like Manage Server"),
                {NO_ROLE: None}, None, takes_role=True, saved=N_("Saved.")),
)}
ROLE_SETTINGS = [spec for spec in SETTINGS.values() if spec.takes_role]


def clock_label(seconds: int | list[int] | None) -> str:
    """A clock's label in the list, or a Fischer clock's as a member would write it."""
    return SETTINGS["default_clock"].label_of(seconds)


# The server's preferred language (Discord's guild_locale as we last saw it, mapped to one of our languages) is
# kept under this key: public posts and pictures' descriptions are written in it. Not a /settings choice: Discord
# already lets a server choose it.
LANGUAGE_KEY = "language"
DEFAULT_LANGUAGE = "en"


class ServerSettings:
    def __init__(self, store: ClockStore):
        self.store = store
        self._languages: dict[int, str] = {}  # guild → language, remembered so posts read it without a query

    async def language(self, guild_id: int | None) -> str:
        """The language of a server's public posts: English until we saw the server's preferred locale."""
        if guild_id is None:
            return DEFAULT_LANGUAGE
        if in_conversation(guild_id):  # no server's: the challenger's language, which its id names
            return language_of_conversation(guild_id)
        if guild_id not in self._languages:
            stored = await self.store.server_settings(guild_id)
            self._languages[guild_id] = str(stored.get(LANGUAGE_KEY, DEFAULT_LANGUAGE))
        return self._languages[guild_id]

    async def saw_language(self, guild_id: int | None, language: str) -> None:
        """An interaction told us the server's preferred language: keep it (written only when it changed). Known
        at once, before any await: the interaction's command may write a post in it right away (a league's
        announcement is written with the league)."""
        if guild_id is None:
            return
        known = self._languages.get(guild_id)
        self._languages[guild_id] = language
        if known is None:
            known = str((await self.store.server_settings(guild_id)).get(LANGUAGE_KEY, DEFAULT_LANGUAGE))
        if known != language:
            await self.store.set_server_setting(guild_id, LANGUAGE_KEY, language)

    async def values(self, guild_id: int | None) -> dict[str, Any]:
        """Every setting of the server, stored or default."""
        stored = await self.store.server_settings(guild_id) if guild_id is not None else {}
        return {key: stored.get(key, spec.default) for key, spec in SETTINGS.items()}

    async def get(self, guild_id: int | None, key: str) -> Any:
        return (await self.values(guild_id))[key]

    async def for_manager(self, guild_id: int | None, *, may_manage: bool) -> dict[str, Any]:
        """The values, for a member who may manage the server (`/settings` is theirs alone)."""
        _check_manager(guild_id, may_manage)
        return await self.values(guild_id)

    async def change(self, guild_id: int | None, key: str, label: str, *, may_manage: bool,
                     role_id: int | None = None) -> SettingSpec:
        """Set a setting from the label a member picked, or a role-valued one from the role she picked (a role
        alone names the role-valued setting). Only members who may manage the server change them."""
        guild_id = _check_manager(guild_id, may_manage)
        if not key and role_id is not None and len(ROLE_SETTINGS) == 1:
            key = ROLE_SETTINGS[0].key
        spec = SETTINGS.get(key)
        if spec is None:
            raise errors.UserError(N_("I don't know that setting. Pick one from the list."))
        value: Any
        if role_id is not None:
            value = self._checked_role(spec, guild_id, label, role_id)
        elif label in spec.choices:
            value = spec.choices[label]
        elif key == "default_clock" and is_fischer_text(label):
            value = fischer_setting(*parse_fischer(label))
        elif key == TIME_ZONE:
            value = checked_zone(label)
        elif spec.takes_role:
            raise errors.UserError(N_("**{setting}** takes a role: pick it with `role:`, or pick the value **none** "
                                      "to clear it."), setting=spec.title)
        else:
            raise errors.UserError(N_("**{setting}** must be one of: {labels}."), setting=spec.title,
                                   labels=", ".join(spec.choices))
        await self.store.set_server_setting(guild_id, key, value)
        return spec

    @staticmethod
    def _checked_role(spec: SettingSpec, guild_id: int, label: str, role_id: int) -> int:
        if not spec.takes_role:
            raise errors.UserError(N_("**{setting}** takes no role: choose its value from the list."),
                                   setting=spec.title)
        if label:
            raise errors.UserError(N_("Give **{setting}** either a role or the value **none**, not both."),
                                   setting=spec.title)
        if role_id == guild_id:  # Discord's @everyone role has the server's id
            raise errors.UserError(N_("**{setting}** can't be @everyone: pick a role that only some members have."),
                                   setting=spec.title)
        return role_id

    async def holds_role(self, guild_id: int, key: str, role_ids: Collection[int]) -> bool:
        """Whether a member with these roles holds the role a role-valued setting chose (never, when unset)."""
        role = await self.get(guild_id, key)
        return role is not None and role in role_ids

    async def clock_for(self, guild_id: int | None, label: str | None,
                        weekends: bool | None = None) -> tuple[int | None, ClockRules]:
        """The clock of a new challenge or league, as (seconds, rules): the label chosen at /play or a Fischer
        clock written there, or the server's default when left empty; with quiet weekends as chosen there, else as
        the server's default."""
        values = await self.values(guild_id)
        seconds, rules = self._clock_of(label, values["default_clock"])
        return seconds, replace(rules, weekends=values[WEEKENDS] if weekends is None else weekends)

    @staticmethod
    def _clock_of(label: str | None, default: Any) -> tuple[int | None, ClockRules]:
        if label is None:
            return from_setting(default)
        if label in CLOCK_CHOICES:
            return from_setting(CLOCK_CHOICES[label])
        if label.strip().casefold().startswith("fischer") or is_fischer_text(label):
            return parse_fischer(label)  # refused in one line when out of range
        raise errors.UserError(N_("`clock` must be one of: {labels}."), labels=", ".join(CLOCK_CHOICES))

    async def time_zone(self, guild_id: int | None) -> str:
        """The server's time zone, of the quiet weekends of members who did not choose theirs."""
        return str(await self.get(guild_id, TIME_ZONE))


def checked_zone(name: str) -> str:
    """An IANA time zone name as zoneinfo spells it; an unknown one is refused in one line."""
    found = known_zone(name)
    if found is None:
        raise errors.UserError(N_("I don't know the time zone **{zone}**: pick one from the list, such as "
                                  "Europe/Berlin or America/New_York."), zone=name[:60])
    return found


def _check_manager(guild_id: int | None, may_manage: bool) -> int:
    if guild_id is None:
        raise errors.UserError(N_("Settings belong to a server: use `/settings` there."))
    if not may_manage:
        raise errors.UserError(N_("Only members with the **Manage Server** permission can use `/settings`."))
    return guild_id
