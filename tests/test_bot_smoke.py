async def test_play_accept_and_first_board(world):
    result = await world.alice.slash(world.channel, "play", game="epaminondas", opponent=world.bob)
    assert not result.ephemeral
    post = world.channel.last_message
    assert "challenges" in post.content
    accept = await world.bob.click(post, label="Accept")
    thread = world.channel.threads[0]
    board = thread.last_message
    print(board.content, board.attachments, board.components)
