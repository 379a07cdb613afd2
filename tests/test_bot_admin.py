"""The owner-only sync command: global sync is never automatic, so this is how commands get published."""


async def test_owner_syncs_this_server_and_others_are_refused(world):
    world.bot.owner_id = world.alice.id
    bot_mention = f"<@{world.bot.user.id}>"
    await world.alice.send(world.channel, f"{bot_mention} sync here")
    reply = world.channel.last_message
    assert reply.content.startswith("Synced ") and "to this server" in reply.content
    await world.carol.send(world.channel, f"{bot_mention} sync")
    assert world.channel.last_message.content == "Only the bot's owner can sync commands."
    # discord.py reports the refusal as a command error even though the cog answered it
    assert [type(e).__name__ for e in world.expect_errors()] == ["NotOwner"]


async def test_finished_match_thread_is_archived(world):
    from bot_helpers import text_of, board_posts, start_match

    thread, match_id = await start_match(world, "archimedes", world.alice, world.bob)
    asked = await world.bob.click(board_posts(thread)[-1], label="Resign")
    await world.bob.click(asked.response, label="Yes, resign")
    assert world.env.backend.get_channel(thread.id).thread_metadata.archived
