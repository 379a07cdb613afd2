"""The SQL of planned replies: one plan per player of a match, and the moves plans made.

Portable SQL only (ON CONFLICT upserts, no SQLite-only statements): the same units run on SQLite and PostgreSQL.
Writes are units of the driver (all or nothing), reads its reads, as the other stores' are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .driver import Driver
from .sql import Step


@dataclass(frozen=True)
class StoredPlan:
    match_id: int
    seat: int
    user_id: int
    version: int  # the match version the plan answers from
    tree: dict[str, Any]


class PlanStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def get(self, match_id: int, seat: int) -> StoredPlan | None:
        sql = "SELECT * FROM plans WHERE match_id = ? AND seat = ?"
        row = await self.driver.fetchone(sql, (match_id, seat))
        return _plan(row) if row else None

    async def of_match(self, match_id: int) -> list[StoredPlan]:
        return [_plan(row) for row in await self.driver.fetch("SELECT * FROM plans WHERE match_id = ? ORDER BY seat",
                                                            (match_id,))]

    async def every_plan(self) -> list[StoredPlan]:
        return [_plan(row) for row in await self.driver.fetch("SELECT * FROM plans ORDER BY match_id, seat")]

    async def save(self, plan: StoredPlan, now: float) -> None:
        await self.driver.write_statements([(
            "INSERT INTO plans (match_id, seat, user_id, version, tree, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (match_id, seat) DO UPDATE SET user_id = excluded.user_id,"
            " version = excluded.version, tree = excluded.tree, updated_at = excluded.updated_at",
            (plan.match_id, plan.seat, plan.user_id, plan.version, json.dumps(plan.tree), now),
        )])

    async def drop(self, match_id: int, seat: int) -> bool:
        (done,) = await self.driver.write_statements(
            [("DELETE FROM plans WHERE match_id = ? AND seat = ?", (match_id, seat))])
        return done.rowcount > 0

    async def fired(self, match_id: int, seat: int, played_version: int, rest: StoredPlan | None, now: float) -> None:
        """A planned reply was played (creating `played_version`): mark it, and keep the plan's next level (`rest`)
        or drop the plan when nothing is left, in one transaction."""
        steps = [Step(
            "INSERT INTO planned_moves (match_id, version) VALUES (?, ?) ON CONFLICT (match_id, version) DO NOTHING",
            (match_id, played_version),
        )]
        if rest is None:
            steps.append(Step("DELETE FROM plans WHERE match_id = ? AND seat = ?", (match_id, seat)))
        else:
            steps.append(Step(
                "UPDATE plans SET version = ?, tree = ?, updated_at = ? WHERE match_id = ? AND seat = ?",
                (rest.version, json.dumps(rest.tree), now, match_id, seat),
            ))
        await self.driver.write_statements(steps)

    async def planned_versions(self, match_id: int) -> set[int]:
        return {row["version"] for row in await self.driver.fetch(
            "SELECT version FROM planned_moves WHERE match_id = ?", (match_id,))}


def _plan(row: Any) -> StoredPlan:
    return StoredPlan(row["match_id"], row["seat"], row["user_id"], row["version"], json.loads(row["tree"]))
