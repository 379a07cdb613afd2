"""The analyses asked for (bot/storage/analyses.py), on SQLite and on PostgreSQL: kept from the request until
posted, made once, and forgotten when they fail, so that the player may ask again."""

from __future__ import annotations

from bot.storage.analyses import AnalysisRequest


async def a_finished_match(service, guild_id: int) -> int:
    challenge = await service.create_challenge(guild_id=guild_id, channel_id=7, challenger_id=1,
                                               challenger_name="u1", game_key="epaminondas", invited=[2])
    return (await service.accept_challenge(challenge.id, 2, "u2")).match_id


async def test_a_request_waits_until_posted_and_is_made_once(store, service):
    analyses = store.analyses
    first, second = await a_finished_match(service, 9), await a_finished_match(service, 10)
    assert await analyses.ask(second, 10, "de", 1, 1_000.0) == "asked"
    assert await analyses.ask(first, 9, "fr", 2, 1_001.0) == "asked"
    assert await analyses.ask(first, 9, "en", 1, 1_002.0) == "waiting"  # asked once: the first language stays
    assert await analyses.waiting() == [AnalysisRequest(second, 10, "de"), AnalysisRequest(first, 9, "fr")]
    await analyses.posted(second, 1_100.0)
    assert await analyses.ask(second, 10, "de", 2, 1_200.0) == "posted"
    assert await analyses.waiting() == [AnalysisRequest(first, 9, "fr")]


async def test_a_failed_request_is_forgotten_and_may_be_asked_again(store, service):
    analyses = store.analyses
    match_id = await a_finished_match(service, 9)
    await analyses.ask(match_id, 9, "en", 1, 1_000.0)
    await analyses.forget(match_id)
    assert await analyses.waiting() == []
    assert await analyses.ask(match_id, 9, "en", 1, 1_001.0) == "asked"
    await analyses.posted(match_id, 1_002.0)
    await analyses.forget(match_id)  # a posted analysis is never forgotten
    assert await analyses.ask(match_id, 9, "en", 2, 1_003.0) == "posted"
