"""The private messages' SQL: what a seat was told in secret, sent by DM or kept pending until its player asks."""

from __future__ import annotations

from typing import Any

from bot.domain import PrivateMessage

from .driver import Driver


def _message(r: Any) -> PrivateMessage:
    return PrivateMessage(r["id"], r["match_id"], r["seat"], r["user_id"], r["content"], bool(r["with_view"]),
                          r["channel"], r["created_at"], r["delivered_at"])


class PrivateMessageStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def add_private_message(
        self, *, match_id: int, seat: int, user_id: int, content: str, with_view: bool, channel: str, now: float
    ) -> int:
        (cur,) = await self.driver.write_statements([(
            "INSERT INTO private_messages (match_id, seat, user_id, content, with_view, channel, created_at,"
            " delivered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (match_id, seat, user_id, content, int(with_view), channel, now, now if channel == "dm" else None),
        )])
        return cur.one()[0]

    async def pending_private_messages(self, match_id: int, user_id: int) -> list[PrivateMessage]:
        rows = await self.driver.fetch(
            "SELECT * FROM private_messages WHERE match_id = ? AND user_id = ? AND channel = 'pending' ORDER BY id",
            (match_id, user_id),
        )
        return [_message(r) for r in rows]

    async def mark_private_delivered(self, message_ids: list[int], channel: str, now: float) -> None:
        await self.driver.write_statements([
            ("UPDATE private_messages SET channel = ?, delivered_at = ? WHERE id = ? AND channel = 'pending'",
             (channel, now, mid))
            for mid in message_ids
        ])

    async def private_messages(self, match_id: int) -> list[PrivateMessage]:
        rows = await self.driver.fetch("SELECT * FROM private_messages WHERE match_id = ? ORDER BY id", (match_id,))
        return [_message(r) for r in rows]
