"""Ratings on Discord: a rated match's final post shows the rating changes; leaderboards and profiles per server."""

from __future__ import annotations

import discord

from bot_helpers import (text_of,
    EPAMINONDAS_LIGHT_WINS, board_posts, buttons, match_id_of, play_moves, posted_challenge, start_match, thread_of,
)


async def win_as_alice(world, **options):
    result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob, **options)
    assert posted_challenge(result), result.response.content
    await world.bob.click(world.channel.last_message, label="Accept")
    thread = thread_of(world)
    await play_moves(world, thread, match_id_of(thread), EPAMINONDAS_LIGHT_WINS, [world.alice, world.bob])
    return board_posts(thread)[-1]


async def test_final_post_of_a_rated_match_shows_how_ratings_moved(world):
    final = await win_as_alice(world)
    assert "🏆 **alice**" in text_of(final)
    line = next(line for line in text_of(final).splitlines() if line.startswith("Ratings:"))
    assert "alice 1500? →" in line and "bob 1500? →" in line
    assert "(+" in line.split("bob")[0] and "(-" in line.split("bob")[1]  # the winner gains, the loser drops


async def test_unrated_match_changes_nothing(world):
    final = await win_as_alice(world, rated=False)
    assert "Ratings:" not in text_of(final)
    ratings = world.bot.repo.ratings
    assert [await ratings.member_ratings(world.guild.id, m.id) for m in (world.alice, world.bob)] == [[], []]
    board = await world.alice.slash(world.channel, "leaderboard", game="epaminondas")
    assert board.ephemeral and "Nobody has played a rated match" in board.response.embeds[0].description


async def test_leaderboard_and_profile(world):
    await win_as_alice(world)
    board = await world.carol.slash(world.channel, "leaderboard", game="epaminondas")
    text = board.response.embeds[0].description
    assert board.ephemeral and text.index("alice") < text.index("bob") and "carol" not in text
    assert set(buttons(board.response)) == {"◀ Previous", "Next ▶"}
    profile = await world.carol.slash(world.channel, "profile", member=world.alice)
    assert profile.ephemeral
    embed = profile.response.embeds[0]
    assert "Epaminondas" in embed.description and "1 game: 1 won, 0 drawn, 0 lost" in embed.description
    assert [a.filename for a in profile.response.attachments] == ["rating.png"]
    empty = await world.carol.slash(world.channel, "profile")
    assert "no rated matches" in empty.response.content


async def test_profile_of_a_bot_is_refused(world):
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    result = await world.alice.slash(world.channel, "profile", member=robot)
    assert result.ephemeral and "Bots have no ratings" in result.response.content


async def test_two_servers_never_see_each_others_tables(world):
    await win_as_alice(world)
    other = world.env.create_guild("Elsewhere")
    channel = other.create_text_channel("games")
    alice_there = other.add_member(world.alice.user)
    world.bot.tree.copy_global_to(guild=discord.Object(other.id))
    await world.bot.tree.sync(guild=discord.Object(other.id))
    board = await alice_there.slash(channel, "leaderboard", game="epaminondas")
    assert "Nobody has played a rated match" in board.response.embeds[0].description
    profile = await alice_there.slash(channel, "profile")
    assert "no rated matches" in profile.response.content
