"""Ratings from finished matches: openskill's Plackett-Luce model, one rating per (server, game, member).

Pure: no Discord, no storage, no clock. Ratings are *derived* data. Feeding the same results in the same order always
gives the same numbers, which is what lets the store rebuild every table from the match results it keeps.

Every player is a one-member team for the model, and the finishing order becomes the model's ranks: seats grouped
together (a draw, a shared place) get the same rank. Resignations and time-outs are ordinary losses; the match
service already puts such a player last in the standings.

Display scale (what members see)
--------------------------------
The model works in its own units: a new member starts at mu = 25 with uncertainty sigma = 25/3. Members see

    display = 1500 + (mu - 25) * 400 / (beta * sqrt(2) * ln 10)      (~ 1500 + 29.48 * (mu - 25))

rounded half up. The factor makes the scale read like chess Elo. In the Plackett-Luce likelihood that the updates
use, the chance that a settled player (small sigma) beats another is 1 / (1 + exp(-(mu_a - mu_b) / (beta * sqrt(2)))),
so 400 display points are odds of 10 to 1, exactly as in Elo, and an average member stays near 1500 however many
games she plays. (openskill's predict_win uses a normal approximation instead, which is more confident.)

Why mu and not the conservative "ordinal" mu - 3 sigma: the ordinal would start everyone near 760 and then creep
upwards merely with games played, which is not what people expect of a rating. Uncertainty is shown instead by the
provisional mark: `1500?` until a member has played PROVISIONAL_GAMES rated games of that game on that server.
Leaderboards list settled members before provisional ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from openskill.models import PlackettLuce

from bot.games.engines import GAMES

# The library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), spelled out: changing any of them changes every
# stored number, so it must be a deliberate edit followed by a rebuild.
MODEL = PlackettLuce(mu=25.0, sigma=25.0 / 3.0, beta=25.0 / 6.0, tau=25.0 / 300.0)

DISPLAY_BASE = 1500
POINTS_PER_MU = 400 / (MODEL.beta * math.sqrt(2) * math.log(10))
PROVISIONAL_GAMES = 5  # rated games before a rating is shown without the '?'
RECENT_RESULTS = 10  # how many last results a rating remembers (the profile's form line)

WIN, DRAW, LOSS = "W", "D", "L"


class RatingError(ValueError):
    """A result that cannot be rated (unknown game, malformed standings...). The message says what is wrong."""


class UnknownGame(RatingError):
    pass


def check_game(game: str) -> None:
    if game not in GAMES:
        raise UnknownGame(f"unknown game {game!r}; known: {', '.join(GAMES)}")


def display_rating(mu: float) -> int:
    """The member-facing number for a model mu (see the module docstring for why this mapping)."""
    return math.floor(DISPLAY_BASE + (mu - MODEL.mu) * POINTS_PER_MU + 0.5)


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def rating_label(mu: float, games: int) -> str:
    """'1523', or '1523?' while the rating is provisional."""
    return f"{display_rating(mu)}{'?' if is_provisional(games) else ''}"


# --- input ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchResult:
    """A finished, rated match as the ratings need it.

    `members` is the member id by seat; `standings` the finishing order as groups of seats, best first, tied seats
    in one group (a draw is a single group holding every seat)."""

    match_id: int
    guild_id: int
    game: str
    members: tuple[int, ...]
    standings: tuple[tuple[int, ...], ...]
    finished_at: float
    names: tuple[str, ...] | None = None  # display names by seat, kept for leaderboards of members who left

    @classmethod
    def of(
        cls,
        match_id: int,
        guild_id: int,
        game: str,
        members: Sequence[int],
        standings: Sequence[Sequence[int]],
        finished_at: float,
        names: Sequence[str] | None = None,
    ) -> MatchResult:
        """Build and validate a result from lists (JSON, database rows)."""
        result = cls(
            match_id=int(match_id),
            guild_id=int(guild_id),
            game=game,
            members=tuple(int(m) for m in members),
            standings=tuple(tuple(int(s) for s in group) for group in standings),
            finished_at=float(finished_at),
            names=tuple(names) if names is not None else None,
        )
        result.validate()
        return result

    def validate(self) -> None:
        check_game(self.game)
        info = GAMES[self.game].info
        n = len(self.members)
        if not info.min_players <= n <= info.max_players:
            raise RatingError(
                f"match {self.match_id}: {info.title} is for {info.min_players}-{info.max_players} players, not {n}"
            )
        if len(set(self.members)) != n:
            raise RatingError(f"match {self.match_id}: a member holds more than one seat, so it cannot be rated")
        seats = [s for group in self.standings for s in group]
        if sorted(seats) != list(range(n)) or any(not group for group in self.standings):
            raise RatingError(
                f"match {self.match_id}: standings {[list(g) for g in self.standings]} must place each of seats "
                f"0-{n - 1} exactly once, in non-empty groups"
            )
        if self.names is not None and len(self.names) != n:
            raise RatingError(f"match {self.match_id}: {len(self.names)} names for {n} seats")

    def place_of(self, seat: int) -> int:
        """1-based place of the seat's group (two seats sharing first place are both 1st)."""
        for index, group in enumerate(self.standings):
            if seat in group:
                return index + 1
        raise KeyError(seat)

    def outcome_of(self, seat: int) -> str:
        """W for the top group (alone or shared while someone finished below), D when every seat tied, L otherwise."""
        if len(self.standings) == 1:
            return DRAW
        return WIN if seat in self.standings[0] else LOSS


# --- output -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    """A member's current rating in one game on one server."""

    guild_id: int
    game: str
    member_id: int
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0  # how many of the latest results in a row equal the last one (see recent[-1])
    recent: str = ""  # up to RECENT_RESULTS outcomes, oldest first: 'WWLDW'
    name: str | None = None
    last_match_id: int | None = None
    updated_at: float | None = None

    @classmethod
    def new(cls, guild_id: int, game: str, member_id: int) -> Rating:
        return cls(guild_id=guild_id, game=game, member_id=member_id, mu=MODEL.mu, sigma=MODEL.sigma)

    @property
    def display(self) -> int:
        return display_rating(self.mu)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)

    @property
    def label(self) -> str:
        return rating_label(self.mu, self.games)

    @property
    def streak_text(self) -> str:
        """'W3' (three wins in a row), 'L1', 'D2'; '' before any game."""
        return f"{self.recent[-1]}{self.streak}" if self.recent else ""


@dataclass(frozen=True)
class RatingChange:
    """How one match moved one member's rating."""

    match_id: int
    guild_id: int
    game: str
    member_id: int
    seat: int
    place: int  # 1-based place of the member's group in the standings
    outcome: str  # W, D or L
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    games: int  # the member's rated games of this game on this server, this one included
    finished_at: float

    def key(self) -> tuple[int, str, int]:
        """(guild_id, game, member_id): whose rating this change moved."""
        return self.guild_id, self.game, self.member_id

    @property
    def before(self) -> int:
        return display_rating(self.mu_before)

    @property
    def after(self) -> int:
        return display_rating(self.mu_after)

    @property
    def delta(self) -> int:
        """Difference of the displayed numbers, so 'before → after (delta)' always adds up on screen."""
        return self.after - self.before

    @property
    def label_before(self) -> str:
        return rating_label(self.mu_before, self.games - 1)

    @property
    def label_after(self) -> str:
        return rating_label(self.mu_after, self.games)

    def summary(self) -> str:
        """'1500? → 1529? (+29)' for the final post."""
        return f"{self.label_before} → {self.label_after} ({self.delta:+d})"


# --- rating ---------------------------------------------------------------------------------------------------

Key = tuple[int, str, int]  # (guild_id, game, member_id)


def key_of(rating: Rating) -> Key:
    return rating.guild_id, rating.game, rating.member_id


def rate_match(
    result: MatchResult, current: Mapping[int, Rating]
) -> tuple[list[RatingChange], list[Rating]]:
    """Rate one match. `current` maps member id to that member's rating in this game on this server (absent: a
    first game). Returns the changes and the new ratings, both in seat order."""
    result.validate()
    before = [
        current.get(member) or Rating.new(result.guild_id, result.game, member) for member in result.members
    ]
    for member, rating in zip(result.members, before):
        if (rating.guild_id, rating.game, rating.member_id) != (result.guild_id, result.game, member):
            raise RatingError(f"match {result.match_id}: rating of member {member} belongs to another server/game")
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    ranks = [float(result.place_of(seat)) for seat in range(len(result.members))]
    rated = MODEL.rate(teams, ranks=ranks)

    changes, after = [], []
    for seat, (member, old, (new,)) in enumerate(zip(result.members, before, rated)):
        outcome = result.outcome_of(seat)
        games = old.games + 1
        changes.append(RatingChange(
            match_id=result.match_id, guild_id=result.guild_id, game=result.game, member_id=member, seat=seat,
            place=result.place_of(seat), outcome=outcome, mu_before=old.mu, sigma_before=old.sigma,
            mu_after=new.mu, sigma_after=new.sigma, games=games, finished_at=result.finished_at,
        ))
        continues = old.recent.endswith(outcome)
        after.append(replace(
            old,
            mu=new.mu,
            sigma=new.sigma,
            games=games,
            wins=old.wins + (outcome == WIN),
            draws=old.draws + (outcome == DRAW),
            losses=old.losses + (outcome == LOSS),
            streak=old.streak + 1 if continues else 1,
            recent=(old.recent + outcome)[-RECENT_RESULTS:],
            name=result.names[seat] if result.names else old.name,
            last_match_id=result.match_id,
            updated_at=result.finished_at,
        ))
    return changes, after


@dataclass
class Replay:
    """Every rating and every change after rating a sequence of results."""

    ratings: dict[Key, Rating]
    changes: list[RatingChange]


def replay(results: Iterable[MatchResult]) -> Replay:
    """Rate results in the order given (the caller sorts them chronologically: finish time, then match id).
    Servers and games never mix: each (server, game) pair is its own rating pool."""
    ratings: dict[Key, Rating] = {}
    changes: list[RatingChange] = []
    seen: set[int] = set()
    for result in results:
        if result.match_id in seen:
            raise RatingError(f"match {result.match_id} appears twice; a match is rated once")
        seen.add(result.match_id)
        current = {
            m: ratings[(result.guild_id, result.game, m)]
            for m in result.members
            if (result.guild_id, result.game, m) in ratings
        }
        match_changes, new_ratings = rate_match(result, current)
        changes.extend(match_changes)
        for rating in new_ratings:
            ratings[key_of(rating)] = rating
    return Replay(ratings, changes)


def sort_key(rating: Rating) -> tuple[bool, float, int]:
    """Leaderboard order: settled members first, then by mu (higher first), then member id for a stable order.
    The store's SQL uses the same order."""
    return rating.provisional, -rating.mu, rating.member_id


# --- what the leaderboard and the profile show ------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardEntry:
    rank: int  # 1-based, in leaderboard order (settled members first)
    rating: Rating


@dataclass(frozen=True)
class LeaderboardPage:
    guild_id: int
    game: str
    offset: int
    limit: int
    total: int  # rated members of this game on this server
    entries: list[LeaderboardEntry]
    me: LeaderboardEntry | None = None  # the asking member's own line, whether or not it is on this page

    @property
    def has_more(self) -> bool:
        return self.offset + len(self.entries) < self.total


@dataclass(frozen=True)
class Profile:
    """A member's rating in one game on one server, her rank and the history behind it (oldest first)."""

    rating: Rating
    rank: int
    total: int
    history: list[RatingChange]

    def chart_points(self) -> list[tuple[float, int]]:
        """(time, displayed rating) for the chart: the starting rating at the first game, then one point per game."""
        if not self.history:
            return []
        first = self.history[0]
        return [(first.finished_at, first.before)] + [(c.finished_at, c.after) for c in self.history]
