"""The match service and storage without Discord: seats, versions, draws, multi-player challenges."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.matches import errors


# `service`: tests/conftest.py (on SQLite and on PostgreSQL), its clock one second later at each reading, seed 7.


async def challenge(service, game, invited, challenger=1):
    return await service.create_challenge(guild_id=9, channel_id=8, challenger_id=challenger,
                                          challenger_name=f"u{challenger}", game_key=game, invited=invited)


async def test_three_seat_challenge_fills_invited_and_open_seats_then_starts(service):
    c = await challenge(service, "myriath", [2, None])
    assert [s.invited_id for s in c.seats] == [1, 2, None]
    c = await service.accept_challenge(c.id, 3, "u3")  # an outsider takes the open seat, not bob's
    assert [s.user_id for s in c.seats] == [1, None, 3] and c.status == "open" and c.match_id is None
    with pytest.raises(errors.NotYourChallenge):
        await service.accept_challenge(c.id, 4, "u4")
    c = await service.accept_challenge(c.id, 2, "u2")  # the last seat: the match starts
    assert c.status == "started"
    match = await service.get_match(c.match_id)
    assert [s.user_id for s in match.seats] == [1, 2, 3] and match.version == 0
    assert service.view(match, None)["num_players"] == 3
    with pytest.raises(errors.ChallengeClosed, match="already been accepted"):
        await service.accept_challenge(c.id, 4, "u4")  # a challenge starts once


async def test_player_counts_are_checked(service):
    with pytest.raises(errors.UserError, match="2–2 players"):
        await challenge(service, "epaminondas", [2, 3])
    with pytest.raises(errors.UserError, match="no option"):
        await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="a",
                                       game_key="myrmidons", invited=[2], options={"colour": "red"})
    with pytest.raises(errors.UserError, match="must be one of"):
        await service.create_challenge(guild_id=9, channel_id=8, challenger_id=1, challenger_name="a",
                                       game_key="myrmidons", invited=[2], options={"army": "huge"})


async def started(service, game="epaminondas"):
    c = await challenge(service, game, [2])
    c = await service.accept_challenge(c.id, 2, "u2")
    return await service.get_match(c.match_id)


async def test_moves_are_versioned_logged_and_canonical(service):
    match = await started(service)
    report = await service.submit_move(match.id, 1, "  A1-A3 ")
    assert report.move == "a1-a3" and report.match.version == 1
    with pytest.raises(errors.StaleBoard):
        await service.submit_move(match.id, 2, "a12-a10", expected_version=0)
    assert await service.move_log(match.id, None) == ["a1-a3"]


async def test_three_player_draw_needs_everyone(service):
    c = await challenge(service, "myriath", [2, 3])
    for user in (2, 3):
        c = await service.accept_challenge(c.id, user, f"u{user}")
    match = await service.get_match(c.match_id)
    assert (await service.offer_draw(match.id, 1)).kind == "draw_offer"
    assert (await service.offer_draw(match.id, 2)).kind == "draw_offer"
    final = await service.offer_draw(match.id, 3)
    assert final.kind == "draw" and final.outcome.winners == () and not final.match.active


async def test_secret_moves_stay_secret_in_the_log(service):
    match = await started(service, "myrmidons")
    seat = 0
    deploy = service.game_of(match).legal_moves(service.state_of(match), seat)[0]
    report = await service.submit_move(match.id, 1, deploy)
    assert report.move is None  # never handed to the thread
    assert await service.move_log(match.id, None) == ["(secret setup)"]
    assert await service.move_log(match.id, 0) == [deploy]
    assert service.in_secret_setup(report.match)


def test_rules_layer_imports_without_discord_or_pillow():
    blocker = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('discord', 'PIL', 'aiosqlite', 'asyncio'):\n"
        "            raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import bot.engine, bot.games\n"
        "from bot.games.archimedes import GAME as archimedes\n"
        "from bot.games.epaminondas import GAME as epaminondas\n"
        "from bot.games.mycenae import GAME as mycenae\n"
        "from bot.games.myriath import GAME as myriath\n"
        "from bot.games.myrmidons import GAME as myrmidons\n"
        "keys = {g.info.key for g in (archimedes, epaminondas, mycenae, myriath, myrmidons)}\n"
        "assert keys == {'myrmidons', 'myriath', 'mycenae', 'epaminondas', 'archimedes'}, keys\n"
    )
    result = subprocess.run([sys.executable, "-c", blocker], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


async def test_logs_carry_ids_but_never_a_secret_move(service, caplog):
    caplog.set_level("INFO")
    match = await started(service, "myrmidons")
    game, state = service.game_of(match), service.state_of(match)
    deploy = game.legal_moves(state, 0)[5]
    await service.submit_move(match.id, 1, deploy)
    line = next(r.getMessage() for r in caplog.records if "move=" in r.getMessage())
    assert f"match={match.id}" in line and "guild=9" in line and "user=1" in line
    assert "move=<secret>" in line
    assert deploy not in caplog.text and deploy.split(" ", 1)[1] not in caplog.text


async def test_forced_passes_are_played_for_the_player_and_reported(service):
    """Myriath: a player who cannot place passes automatically; nobody is ever asked to choose 'pass'."""
    import random

    c = await challenge(service, "myriath", [2, 3])
    for user in (2, 3):
        c = await service.accept_challenge(c.id, user, f"u{user}")
    match = await service.get_match(c.match_id)
    rng = random.Random(5)
    forced_seen = False
    for _ in range(400):
        if not match.active:
            break
        game, state = service.game_of(match), service.state_of(match)
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        assert moves != ["pass"], "a forced pass was left for the player"
        report = await service.submit_move(match.id, match.user_of(seat), rng.choice(moves))
        if any(ev["type"] == "pass" for ev in report.events):
            forced_seen = True
        match = report.match
    assert not match.active and forced_seen
    log = await service.move_log(match.id, None)
    assert log.count("pass") >= 3  # the game ends after a full round of passes
