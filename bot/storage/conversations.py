"""The conversations' SQL (bot/presenters/conversation.py): the interaction that answers each conversation, kept
across restarts, and the questions that could go nowhere there, until the conversation's next action."""

from __future__ import annotations

from typing import Any

from bot.domain.conversations import HeldToken, WaitingPost

from .driver import Driver


def _held(r: Any) -> HeldToken:
    return HeldToken(r["channel_id"], r["application_id"], r["token"], r["created_at"], r["followups"])


class ConversationStore:
    def __init__(self, driver: Driver):
        self.driver = driver

    async def hold(self, held: HeldToken) -> None:
        """`held` answers its conversation from now on, in place of the one before."""
        await self.driver.write_statements([(
            "INSERT INTO conversation_answers (channel_id, application_id, token, created_at, followups)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET application_id = excluded.application_id,"
            " token = excluded.token, created_at = excluded.created_at, followups = excluded.followups",
            (held.channel_id, held.application_id, held.token, held.created_at, held.followups),
        )])

    async def held(self, channel_id: int) -> HeldToken | None:
        row = await self.driver.fetchone("SELECT * FROM conversation_answers WHERE channel_id = ?", (channel_id,))
        return _held(row) if row is not None else None

    async def forget_before(self, created_before: float) -> None:
        """Forget the interactions made before `created_before`: their tokens are spent."""
        await self.driver.write_statements([
            ("DELETE FROM conversation_answers WHERE created_at < ?", (created_before,)),
        ])

    async def keep_post(self, *, channel_id: int, match_id: int, version: int, kind: str, lang: str,
                        content: str) -> None:
        await self.driver.write_statements([(
            "INSERT INTO conversation_posts (channel_id, match_id, version, kind, lang, content)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (channel_id, match_id, version, kind, lang, content),
        )])

    async def has_posts(self, channel_id: int) -> bool:
        """A question waits in the conversation (a read: most actions find none)."""
        return await self.driver.fetchvalue("SELECT 1 FROM conversation_posts WHERE channel_id = ? LIMIT 1",
                                            (channel_id,)) is not None

    async def take_posts(self, channel_id: int) -> list[WaitingPost]:
        """The questions waiting in the conversation, oldest first, no longer kept: one action takes them."""
        (done,) = await self.driver.write_statements([(
            "DELETE FROM conversation_posts WHERE channel_id = ?"
            " RETURNING id, channel_id, match_id, version, kind, lang, content", (channel_id,),
        )])
        return sorted((WaitingPost(r["id"], r["channel_id"], r["match_id"], r["version"], r["kind"], r["lang"],
                                   r["content"]) for r in done.rows), key=lambda post: post.id)
