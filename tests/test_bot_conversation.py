"""Strategos installed to a member's account, played in a group DM where the bot is not a member: every post is an
answer to the interaction that caused it (tests/conversation_helpers.py builds the interactions from Discord's
payloads and records the answers)."""

from __future__ import annotations

from bot_helpers import EPAMINONDAS_LIGHT_WINS, buttons, is_disabled, text_of
from conftest import ON_BOTH, make_bot
from conversation_helpers import ALL_PERMISSIONS, Answer, Conversation

from bot.i18n import t
from bot.matches.places import CONVERSATION, conversation_in


async def test_the_players_commands_are_installable_to_an_account_and_usable_in_private_channels(world):
    tree = world.bot.tree
    for name in ("play", "move", "games", "board", "history", "rules"):
        payload = tree.get_command(name).to_dict(tree)  # what is synced to Discord
        assert payload["integration_types"] == [0, 1], name  # server install, user install
        assert payload["contexts"] == [0, 1, 2], name  # servers, the bot's DM, private channels
    assert tree.get_command("leaderboard").to_dict(tree)["contexts"] == [0]  # a server's own stays there


@ON_BOTH
async def test_a_whole_match_in_a_group_dm_is_answers_to_its_interactions(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)

    play = await chat.slash(alice, "play", game="epaminondas", opponent=bob)
    private, challenge = chat.answers(play)
    assert private.ephemeral and not challenge.ephemeral
    assert "**alice** challenges" in text_of(challenge) and f"<@{bob.id}>" in text_of(challenge)
    assert challenge.mentions == [bob.id]  # the challenge pings the one it invites
    assert "Unrated" in text_of(challenge)  # no server holds it: it counts for no ratings

    accept = await chat.click(bob, challenge, "Accept")
    assert "Accepted" in text_of(challenge) and buttons(challenge) == {}  # the challenge, edited by the click
    [board] = chat.public(accept)  # the first board answers the Accept
    assert "board.png" in board.files
    assert "**alice** (Light) to move" in text_of(board) and board.mentions == [alice.id]
    match = (await world.bot.matches.matches_of(alice.id))[0]
    assert match.guild_id == CONVERSATION and match.thread_id == chat.channel_id and not match.rated

    players = [alice, bob]
    for i, text in enumerate(EPAMINONDAS_LIGHT_WINS):
        token = await chat.slash(players[i % 2], "move", match=match.id, move=text)
        public, private = chat.public(token), [a for a in chat.answers(token) if a.ephemeral]
        assert len(public) == 1 and "board.png" in public[0].files, (text, chat.answers(token))
        assert text_of(private[0]).startswith("✅"), text_of(private[0])
        if i + 1 < len(EPAMINONDAS_LIGHT_WINS):  # each board pings whoever must act next
            assert public[0].mentions == [players[(i + 1) % 2].id], text_of(public[0])
    assert "🏆 **alice** (Light) wins" in text_of(public[0])
    assert set(public[0].mentions) == {alice.id, bob.id}
    assert not (await world.bot.matches.get_match(match.id)).active
    # a rematch is offered where the match was, as the click's answer; its Accept answers with the first board
    final = public[0]
    private, rematch = chat.answers(await chat.click(bob, final, "Rematch"))
    assert private.ephemeral and not rematch.ephemeral and rematch.mentions == [alice.id]
    [board] = chat.public(await chat.click(alice, rematch, "Accept"))
    assert "**bob** (Light) to move" in text_of(board) and board.mentions == [bob.id]
    # no server's rating counts it: the profile in a server lists it apart
    profile = (await bob.slash(world.channel, "profile")).response.embeds[0].description
    assert profile == "Unrated, in DMs and group DMs: 1 game: 0 won, 0 drawn, 1 lost"


FRENCH_TURN = t("fr", "{players} to move.", players=f"**alice** ({t('fr', 'Light')})")


async def test_a_conversation_match_speaks_its_challengers_language(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    chat.locales[alice.id] = "fr"  # bob's Discord is in English
    [_, challenge] = chat.answers(await chat.slash(alice, "play", game="epaminondas", opponent=bob))
    assert t("fr", "Seats: {seats}", seats="") in text_of(challenge)
    [board] = chat.public(await chat.click(bob, challenge, t("fr", "Accept")))
    match = (await world.bot.matches.matches_of(alice.id))[0]
    assert match.guild_id == conversation_in("fr")
    assert FRENCH_TURN in text_of(board)
    [board] = chat.public(await chat.slash(bob, "board", match=match.id))  # asked by an English speaker
    assert FRENCH_TURN in text_of(board)


async def start_in_conversation(world, chat, challenger, opponent) -> tuple[int, Answer]:
    """/play and Accept in the conversation: the match's id and its first board."""
    [_, challenge] = chat.answers(await chat.slash(challenger, "play", game="epaminondas", opponent=opponent))
    [board] = chat.public(await chat.click(opponent, challenge, "Accept"))
    return (await world.bot.matches.matches_of(challenger.id))[0].id, board


async def test_a_stale_board_is_refused_and_greyed_when_clicked(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    match_id, first = await start_in_conversation(world, chat, alice, bob)
    [second] = chat.public(await chat.slash(alice, "move", match=match_id, move=EPAMINONDAS_LIGHT_WINS[0]))
    assert buttons(first) and not any(is_disabled(b) for b in buttons(first).values())  # it could not be

    click = await chat.click(bob, first, "Resign")
    assert buttons(first) and all(is_disabled(b) for b in buttons(first).values())  # greyed by the click
    [refusal] = chat.answers(click)
    assert refusal.ephemeral and "out of date" in text_of(refusal)
    assert (await world.bot.matches.get_match(match_id)).active  # nothing was done
    ask = await chat.click(bob, second, "Resign")  # the current board acts
    [question] = chat.answers(ask)
    assert question.ephemeral and "Resign match" in text_of(question)


def test_conversations_timers_belong_to_shard_0():
    from bot.matches.scope import ProcessScope

    for lang in ("en", "fr", "pt_BR"):
        assert ProcessScope(shard_ids=(0,), shard_count=4).owns(conversation_in(lang))
        assert not ProcessScope(shard_ids=(1, 2, 3), shard_count=4).owns(conversation_in(lang))


async def test_a_time_out_with_nothing_to_answer_is_told_by_dm_and_shown_by_the_next_answer(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    match_id, _ = await start_in_conversation(world, chat, alice, bob)
    [games] = chat.answers(await chat.slash(alice, "games"))  # her deadline, and where the match is
    assert games.ephemeral and "your move due <t:" in text_of(games)
    assert f"https://discord.com/channels/@me/{chat.channel_id}" in text_of(games)
    await world.env.advance_time(3 * 24 * 3600 - 3600)  # an hour before alice's deadline: her reminder, by DM
    assert "is due" in text_of(alice.user.dm_channel.last_message)
    await world.env.advance_time(2 * 3600)  # her time is out: no one acted there, so DMs say it
    for member in (alice, bob):
        assert "alice ran out of time" in text_of(member.user.dm_channel.last_message)
    [board] = chat.public(await chat.slash(bob, "board", match=match_id))  # the next answer shows the end
    assert "alice ran out of time" in text_of(board)


async def test_a_server_without_the_bot_plays_as_a_group_dm_unless_external_apps_are_not_allowed(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob, guild_id=777_000_000_000_000_001)  # a server that did not add it
    chat.permissions[bob.id] = ALL_PERMISSIONS & ~(1 << 50)  # no Use External Apps for bob
    [refusal] = chat.answers(await chat.slash(bob, "play", game="epaminondas", opponent=alice))
    assert refusal.ephemeral and "Use External Apps" in text_of(refusal)
    assert await world.bot.matches.matches_of(bob.id) == []

    match_id, board = await start_in_conversation(world, chat, alice, bob)
    assert "**alice** (Light) to move" in text_of(board) and board.mentions == [alice.id]
    [board] = chat.public(await chat.slash(alice, "move", match=match_id, move=EPAMINONDAS_LIGHT_WINS[0]))
    assert board.mentions == [bob.id]
    assert (await world.bot.matches.get_match(match_id)).guild_id == CONVERSATION


async def test_the_move_pickers_confirm_answers_with_the_new_board_in_public(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    match_id, board = await start_in_conversation(world, chat, alice, bob)
    [picker] = chat.answers(await chat.click(alice, board, "Move"))
    assert picker.ephemeral and "Which piece" in text_of(picker)
    await chat.choose(alice, picker, "a1")
    await chat.choose(alice, picker, "-d4")
    assert "Ready to play **`a1-d4`**" in text_of(picker)
    [played] = chat.public(await chat.click(alice, picker, "Confirm"))
    assert "**alice** (Light) played `a1-d4`" in text_of(played) and played.mentions == [bob.id]
    assert "You played `a1-d4`" in text_of(picker)  # her picker, privately


async def test_a_match_against_the_computer_in_a_group_dm(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    play = await chat.slash(alice, "play", game="epaminondas", computer="easy")
    private, challenge, board = chat.answers(play)  # it starts at once: the first board follows the challenge
    assert private.ephemeral and "Strategos (easy)" in text_of(challenge) and not challenge.ephemeral
    assert not board.ephemeral and "**alice** (Light) to move" in text_of(board)
    chat.answers(await chat.slash(bob, "games"))  # a private answer in between answers nothing of the match
    match = (await world.bot.matches.matches_of(alice.id))[0]
    move = await chat.slash(alice, "move", match=match.id, move=EPAMINONDAS_LIGHT_WINS[0])
    await world.env.advance_time(5)  # the computer thinks
    mine, said, reply = chat.answers(move)  # her board, her private word, then the computer's move's board
    assert "**alice** (Light) played `a1-d4`" in text_of(mine) and said.ephemeral
    assert "**Strategos (easy)** (Dark) played" in text_of(reply) and not reply.ephemeral
    assert reply.mentions == [alice.id]
    # her board answered the same /move: read and greyed through it, its words and picture kept
    assert buttons(mine) and all(is_disabled(b) for b in buttons(mine).values())
    assert "**alice** (Light) played `a1-d4`" in text_of(mine) and "board.png" in mine.files
    assert not any(is_disabled(b) for b in buttons(reply).values())


async def test_in_the_bots_dm_she_plays_the_computer_there(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice)  # her DM with the bot: nobody else sees it
    [refusal] = chat.answers(await chat.slash(alice, "play", game="epaminondas", opponent=bob))
    assert refusal.ephemeral and "Only you can see my DMs" in text_of(refusal)
    [_, challenge, board] = chat.answers(await chat.slash(alice, "play", game="epaminondas", computer="easy"))
    assert "Strategos (easy)" in text_of(challenge) and "**alice** (Light) to move" in text_of(board)
    match = (await world.bot.matches.matches_of(alice.id))[0]
    assert match.thread_id == chat.channel_id and not match.rated


async def test_my_view_is_a_private_answer_there(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    _, board = await start_in_conversation(world, chat, alice, bob)
    answers = chat.answers(await chat.click(bob, board, "My view"))
    assert answers and all(a.ephemeral for a in answers)
    assert "you play **Dark**" in text_of(answers[0])


async def test_a_draw_offered_there_is_asked_in_public_and_agreed(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    _, board = await start_in_conversation(world, chat, alice, bob)
    offer = await chat.click(alice, board, "Offer draw")
    said, question = chat.answers(offer)  # her own word in private, then the question in public
    assert said.ephemeral and "Draw offered" in text_of(said) and not question.ephemeral
    assert "**alice** offers a draw" in text_of(question) and question.mentions == [bob.id]
    [final] = chat.public(await chat.click(bob, question, "Accept draw"))
    assert "draw" in text_of(final).lower() and set(final.mentions) == {alice.id, bob.id}


class FollowUps:
    """An interaction's follow-up webhook that keeps what it was asked to send."""

    def __init__(self):
        self.sent = []

    async def send(self, content, **fields):
        self.sent.append(content)
        return len(self.sent)


def held_interaction(channel: int, created_at):
    """What the conversation's Answers read of an interaction (a DM's, its own answer given)."""
    from types import SimpleNamespace

    return SimpleNamespace(channel_id=channel, guild_id=None, extras={}, created_at=created_at, message=None,
                           followup=FollowUps(), token=f"token-{channel}", application_id=1,
                           response=SimpleNamespace(is_done=lambda: True))


async def test_the_conversations_whose_tokens_are_spent_are_forgotten():
    from datetime import timedelta

    import discord

    from bot.presenters.conversation import PRUNE_ABOVE, Answers

    answers, now = Answers(), discord.utils.utcnow()
    for channel in range(PRUNE_ABOVE):
        answers.hold(held_interaction(channel, now - timedelta(hours=1)))  # an hour old
    answers.hold(held_interaction(PRUNE_ABOVE, now))
    assert await answers.place(0) is None and await answers.place(PRUNE_ABOVE) is not None
    assert len(answers._by_channel) == 1


async def test_an_interaction_sends_no_sixth_follow_up():
    import discord
    import pytest

    from bot.presenters.conversation import FOLLOWUPS, OWN_FOLLOWUPS, Answers, FollowUpsSpent

    answers = Answers()
    interaction = held_interaction(7, discord.utils.utcnow())
    answers.hold(interaction)
    place = await answers.place(7)
    for post in range(FOLLOWUPS - OWN_FOLLOWUPS):  # the action's own answer took one
        assert await answers.place(7) is not None
        await place.send(f"post {post}")
    assert interaction.followup.sent == [f"post {post}" for post in range(FOLLOWUPS - OWN_FOLLOWUPS)]
    assert await answers.place(7) is None  # the presenters go another way: by DM, or the post waits
    with pytest.raises(FollowUpsSpent):  # a place taken before is refused too, before Discord would
        await place.send("a sixth")
    assert len(interaction.followup.sent) == FOLLOWUPS - OWN_FOLLOWUPS


async def computer_match_in(world, chat, pause: float = 3600.0) -> int:
    """alice against the computer in the conversation, where the computer takes `pause` seconds to reply: its id."""
    world.bot.computers.pause = pause  # the computer's reply waits until the test lets it
    play = await chat.slash(world.alice, "play", game="epaminondas", computer="easy")
    assert "**alice** (Light) to move" in text_of(chat.answers(play)[-1])
    match = (await world.bot.matches.matches_of(world.alice.id))[0]
    return match.id


async def restart_thinking(world, chat) -> None:
    """Restart the bot, whose computer then takes a minute to reply (its reply comes once the recorder follows the
    new bot's answers)."""
    bot = make_bot(world.settings)
    bot._computer_pause = 60.0
    world.retired.append(world.bot)
    await world.env.restart_bot(bot)
    chat.attach()


async def test_a_post_beyond_the_interactions_follow_ups_goes_by_dm(world):
    from bot.presenters.conversation import FOLLOWUPS

    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    match_id = await computer_match_in(world, chat, pause=60.0)
    move = await chat.slash(alice, "move", match=match_id, move=EPAMINONDAS_LIGHT_WINS[0])
    mine, said = chat.answers(move)
    # as if the /move had carried four posts more: the computer's reply would be its sixth follow-up
    world.bot.presenter.conversations._by_channel[chat.channel_id].followups = FOLLOWUPS
    await world.env.advance_time(65)  # the computer moves, the /move's token still live
    assert chat.answers(move) == [mine, said]  # no sixth follow-up
    assert "**Strategos (easy)** (Dark) played" in text_of(alice.user.dm_channel.last_message)
    [board] = chat.public(await chat.slash(alice, "board", match=match_id))  # the next action shows the board
    assert "move 2\n**alice** (Light) to move" in text_of(board)


@ON_BOTH
async def test_a_restart_within_the_tokens_life_still_answers_through_it(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    match_id = await computer_match_in(world, chat)
    move = await chat.slash(alice, "move", match=match_id, move=EPAMINONDAS_LIGHT_WINS[0])
    mine, said = chat.answers(move)
    await restart_thinking(world, chat)  # the computer's reply was not made: the new process makes it
    await world.env.advance_time(65)
    _, _, reply = chat.answers(move)  # through the /move's token, which the database kept
    assert "**Strategos (easy)** (Dark) played" in text_of(reply) and not reply.ephemeral
    assert reply.mentions == [alice.id]
    assert "played" not in text_of(alice.user.dm_channel.last_message)  # not by DM


async def test_a_restart_after_the_tokens_life_tells_by_dm(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    match_id = await computer_match_in(world, chat)
    move = await chat.slash(alice, "move", match=match_id, move=EPAMINONDAS_LIGHT_WINS[0])
    await world.env.advance_time(15 * 60)  # the /move's token is spent
    await restart_thinking(world, chat)
    await world.env.advance_time(65)
    assert len(chat.answers(move)) == 2  # her board, her private word: nothing more through the spent token
    assert "**Strategos (easy)** (Dark) played" in text_of(alice.user.dm_channel.last_message)


async def test_a_question_asked_while_nothing_answers_there_waits_for_the_next_action(world):
    alice, bob = world.alice, world.bob
    chat = Conversation(world, alice, bob)
    match_id, _ = await start_in_conversation(world, chat, alice, bob)
    await chat.slash(alice, "move", match=match_id, move=EPAMINONDAS_LIGHT_WINS[0])
    await world.env.advance_time(20 * 60)  # the /move's token is spent
    bob_dm = bob.user.dm_channel
    world.env.inject_error("POST", f"/channels/{bob_dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    asked = await alice.slash(world.channel, "takeback", match=match_id)  # from a server with the bot
    assert asked.ephemeral
    await world.restart()  # the question waits in the database
    chat.attach()
    board, question = chat.public(await chat.slash(bob, "board", match=match_id))
    assert "**alice** asks to take back `a1-d4`" in text_of(question) and question.mentions == [bob.id]
    await chat.click(bob, question, "Accept take-back")  # its buttons act
    match = await world.bot.matches.get_match(match_id)
    assert world.bot.matches.to_act(match) == [0]  # alice's move taken back: hers again
    [board] = chat.public(await chat.slash(alice, "board", match=match_id))  # the question was shown once
    assert "**alice** (Light) to move" in text_of(board)
