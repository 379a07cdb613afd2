"""The challenges' SQL: a challenge with its seats and its expiry timer, taking a seat, closing it.

A challenge that starts becomes a match in the match store's unit (bot/storage/matches.py, `start_match`).
"""

from __future__ import annotations

import json
from typing import Any

from bot.domain import Challenge, ChallengeSeat, ClockRules, OutboxEntry

from .clocks import rules_column, rules_of
from .driver import Driver
from .outbox import outbox_step
from .sql import Step, Steps, dumps


class ChallengeStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        challenger_id: int,
        challenger_name: str,
        invited: list[int | None],
        now: float,
        expires_at: float,
        computer_level: str | None = None,
        rated: bool = True,
        challenger_position: int = 0,
        clock_seconds: int | None = None,
        clock_rules: ClockRules = ClockRules(),
        computer_names: dict[int, str] | None = None,
    ) -> Challenge:
        """`invited`: one entry per other seat, a member id or None for an open seat; with `computer_level` the
        open seats are the computer's, named by position in `computer_names`. The challenger sits at
        `challenger_position` (a rematch rotates the seats); the invited fill the other positions in order.
        `clock_seconds`: the time for each move (a Fischer clock's starting bank), None for no clock; `clock_rules`:
        how it runs."""
        def unit() -> Steps[int]:
            done = yield Step(
                "INSERT INTO challenges (guild_id, channel_id, game, options, challenger_id, created_at, expires_at,"
                " rated, clock_seconds, clock_rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, game, dumps(options), challenger_id, now, expires_at, int(rated),
                 clock_seconds, rules_column(clock_rules)),
            )
            challenge_id = done.one()[0]
            yield Step(
                "INSERT INTO challenge_seats (challenge_id, position, invited_id, user_id, user_name)"
                " VALUES (?, ?, ?, ?, ?)",
                (challenge_id, challenger_position, challenger_id, challenger_id, challenger_name),
            )
            others = [p for p in range(len(invited) + 1) if p != challenger_position]
            for position, invited_id in zip(others, invited):
                computer = invited_id is None and computer_level is not None
                yield Step(
                    "INSERT INTO challenge_seats (challenge_id, position, invited_id, kind, level, user_name)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (challenge_id, position, invited_id, "computer" if computer else "member",
                     computer_level if computer else None, (computer_names or {})[position] if computer else None),
                )
            yield Step("INSERT INTO timers (kind, ref_id, due_at) VALUES ('challenge_expiry', ?, ?)",
                       (challenge_id, expires_at))
            return challenge_id

        challenge = await self.get_challenge(await self.driver.write(unit()))
        assert challenge is not None  # just written
        return challenge

    async def get_challenge(self, challenge_id: int) -> Challenge | None:
        row = await self.driver.fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        if row is None:
            return None
        seats = [
            ChallengeSeat(r["position"], r["invited_id"], r["user_id"], r["user_name"], r["kind"], r["level"])
            for r in await self.driver.fetch(
                "SELECT * FROM challenge_seats WHERE challenge_id = ? ORDER BY position", (challenge_id,))
        ]
        return Challenge(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
            game=row["game"], options=json.loads(row["options"]), challenger_id=row["challenger_id"],
            status=row["status"], created_at=row["created_at"], expires_at=row["expires_at"],
            match_id=row["match_id"], seats=seats, rated=bool(row["rated"]), rematch_of=row["rematch_of"],
            clock_seconds=row["clock_seconds"], clock_rules=rules_of(row["clock_rules"]),
        )

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self.driver.write_statements(
            [("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id))])

    async def take_challenge_seat(self, challenge_id: int, position: int, user_id: int, user_name: str) -> bool:
        """Fill an empty seat of an open challenge; False if someone else was faster or it closed."""
        (cur,) = await self.driver.write_statements([(
            "UPDATE challenge_seats SET user_id = ?, user_name = ?"
            " WHERE challenge_id = ? AND position = ? AND user_id IS NULL AND kind = 'member'"
            " AND (SELECT status FROM challenges WHERE id = ?) = 'open'",
            (user_id, user_name, challenge_id, position, challenge_id),
        )])
        return cur.rowcount == 1

    async def close_challenge(self, challenge_id: int, status: str, *, outbox: OutboxEntry | None = None) -> bool:
        """Move an open challenge to a final status, with its expiry timer and `outbox` (what the unit announces)
        in the same unit; False if it was no longer open (nothing is written)."""
        def unit() -> Steps[bool]:
            done = yield Step("UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
                              (status, challenge_id))
            if done.rowcount != 1:
                return False
            yield Step("DELETE FROM timers WHERE kind = 'challenge_expiry' AND ref_id = ?", (challenge_id,))
            if outbox is not None:
                yield outbox_step(None, 0, outbox, challenge_id)
            return True

        return await self.driver.write(unit())

    async def set_rematch_of(self, challenge_id: int, match_id: int) -> None:
        await self.driver.write_statements(
            [("UPDATE challenges SET rematch_of = ? WHERE id = ?", (match_id, challenge_id))])

    async def open_rematch(self, match_id: int, now: float) -> Challenge | None:
        """The newest open, unexpired rematch challenge of a match, if any."""
        row = await self.driver.fetchone(
            "SELECT id FROM challenges WHERE rematch_of = ? AND status = 'open' AND expires_at > ?"
            " ORDER BY id DESC LIMIT 1", (match_id, now),
        )
        return await self.get_challenge(row["id"]) if row else None

    async def count_open_challenges(self, challenger_id: int) -> int:
        return await self.driver.fetchvalue(
            "SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND status = 'open'", (challenger_id,))
