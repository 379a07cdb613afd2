"""The conversations' store (bot/storage/conversations.py), on SQLite and on PostgreSQL: the interaction that
answers each conversation, kept across restarts, and the questions that wait there for the next action."""

from __future__ import annotations

from bot.domain.conversations import HeldToken

CHANNEL = 555


async def a_match(service) -> int:
    challenge = await service.create_challenge(guild_id=9, channel_id=CHANNEL, challenger_id=1, challenger_name="u1",
                                               game_key="epaminondas", invited=[2])
    return (await service.accept_challenge(challenge.id, 2, "u2")).match_id


async def test_the_latest_interaction_of_a_conversation_is_kept_with_its_follow_ups(store):
    conversations = store.conversations
    assert await conversations.held(CHANNEL) is None
    first = HeldToken(CHANNEL, 42, "first-token", 1_000.5, 1)
    await conversations.hold(first)
    assert await conversations.held(CHANNEL) == first
    later = HeldToken(CHANNEL, 42, "later-token", 1_100.0, 1)
    await conversations.hold(later)  # a newer action answers the conversation now
    await conversations.hold(HeldToken(CHANNEL, 42, "later-token", 1_100.0, 4))  # its follow-ups counted
    assert await conversations.held(CHANNEL) == HeldToken(CHANNEL, 42, "later-token", 1_100.0, 4)
    await conversations.hold(HeldToken(CHANNEL + 1, 42, "elsewhere", 2_000.0, 1))
    await conversations.forget_before(1_500.0)  # spent tokens
    assert await conversations.held(CHANNEL) is None and await conversations.held(CHANNEL + 1) is not None


async def test_a_waiting_question_is_taken_once_oldest_first(store, service):
    conversations, match_id = store.conversations, await a_match(service)
    assert not await conversations.has_posts(CHANNEL) and await conversations.take_posts(CHANNEL) == []
    for text in ("first", "second"):
        await conversations.keep_post(channel_id=CHANNEL, match_id=match_id, version=3, kind="draw", lang="fr",
                                      content=text)
    await conversations.keep_post(channel_id=CHANNEL + 1, match_id=match_id, version=3, kind="takeback", lang="en",
                                  content="elsewhere")
    assert await conversations.has_posts(CHANNEL)
    taken = await conversations.take_posts(CHANNEL)
    assert [(p.content, p.kind, p.lang, p.version, p.match_id) for p in taken] == [
        ("first", "draw", "fr", 3, match_id), ("second", "draw", "fr", 3, match_id)]
    assert not await conversations.has_posts(CHANNEL) and await conversations.take_posts(CHANNEL) == []
    assert [p.content for p in await conversations.take_posts(CHANNEL + 1)] == ["elsewhere"]
