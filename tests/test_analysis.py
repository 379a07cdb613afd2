"""The analysis of a finished match: the computer's judgement of each move from its mover's own view (bot.ai.judge),
each player's worst moves (bot/matches/analysis.py), and /analysis on a simulated Discord."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.playout import random_plies
from bot.games.registry import get_game, judge_move
from bot.matches.analysis import Analyses, Mistake, worst
from bot.presenters.analysis import analysis_text
from bot_helpers import text_of, EPAMINONDAS_LIGHT_WINS, board_posts, play_moves, start_match


def test_the_judgement_prefers_a_move_at_least_as_good_as_the_played_one_and_is_repeatable():
    game = get_game("epaminondas")
    ply = list(random_plies(game, 2, 1))[10]
    view = game.view(ply.state, ply.seat)
    preferred, best, played = judge_move(view, ply.move, level="normal", seed=3)
    assert preferred in game.legal_moves(ply.state, ply.seat)
    assert 0 <= played <= best <= 1
    assert judge_move(view, ply.move, level="normal", seed=3) == (preferred, best, played)


def test_nothing_is_judged_where_the_computer_would_not_search():
    game = get_game("epaminondas")
    ply = list(random_plies(game, 2, 1))[10]
    view = game.view(ply.state, ply.seat)
    assert judge_move(view, "a1-a1", level="normal") is None, "a move that is not legal there"
    assert judge_move(game.view(ply.state, 1 - ply.seat), ply.move, level="normal") is None, "not that seat's turn"
    assert judge_move(view, ply.move, level="easy") is None, "the easy level does not search"
    myrmidons = get_game("myrmidons")
    setup = myrmidons.new_state(2, 1, None)
    deploy = myrmidons.legal_moves(setup, 0)[0]
    assert judge_move(myrmidons.view(setup, 0), deploy, level="normal") is None, "a deployment is settled, not searched"


def test_each_player_gets_her_three_worst_falls_in_move_order():
    judged = [Mistake(n, n % 2, f"m{n}", "better" if n != 9 else "m9", drop) for n, drop in
              [(1, 0.05), (2, 0.30), (3, 0.20), (5, 0.10), (7, 0.40), (9, 0.9), (4, 0.0), (6, 0.01), (8, 0.02)]]
    picked = worst(judged)
    assert [(m.seat, m.number) for m in picked] == [(0, 2), (0, 6), (0, 8), (1, 3), (1, 5), (1, 7)]


@pytest.mark.replays
async def test_a_player_asks_for_the_analysis_and_it_is_posted_in_the_thread(world):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    early = await world.alice.slash(world.channel, "analysis", match=match_id)
    assert "still being played" in early.response.content
    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS[:4], [world.alice, world.bob])
    asked = await world.bob.click(board_posts(thread)[-1], label="Resign")  # a short match: four moves to judge
    await world.bob.click(asked.response, label="Yes, resign")

    outsider = await world.carol.slash(world.channel, "analysis", match=match_id)
    assert outsider.ephemeral
    assert outsider.response.content == f"Only the players of match #{match_id} can ask for its analysis."

    world.bot.analyses.level = "normal"  # the hard level's two seconds a move would make this test slow
    asked = await world.alice.slash(world.channel, "analysis", match=match_id)
    assert asked.ephemeral and asked.response.content.startswith(f"🔍 Analysing match #{match_id}:")
    await world.bot.analyses.idle()
    await world.env.settle()
    post = thread.last_message
    assert text_of(post).startswith(f"🔍 **Analysis of match #{match_id}**")
    lines = text_of(post).splitlines()
    assert lines[1].startswith("**alice** (Light): ") and lines[2].startswith("**bob** (Dark): ")
    assert "(preferred `" in text_of(post)
    assert board_posts(thread)[-1].id < post.id
    again = await world.bob.slash(world.channel, "analysis", match=match_id)
    assert again.response.content == f"The analysis of match #{match_id} is already posted in its thread."


@pytest.mark.replays
async def test_an_analysis_asked_for_before_a_restart_is_posted_after_it_and_only_once(world, monkeypatch):
    thread, match_id = await start_match(world, "epaminondas", world.alice, world.bob)
    await play_moves(world, thread, match_id, EPAMINONDAS_LIGHT_WINS[:2], [world.alice, world.bob])
    asked = await world.bob.click(board_posts(thread)[-1], label="Resign")
    await world.bob.click(asked.response, label="Yes, resign")
    monkeypatch.setattr(Analyses, "level", "normal")  # quicker than the hard level's two seconds a move
    held = asyncio.Event()  # a computer thinking about a live match without end: this analysis never starts

    async def thinking_without_end():
        await world.env.external_wait(held.wait(), reason="a computer thinks about a live match")

    world.bot.analyses._live_idle = thinking_without_end
    asked = await world.alice.slash(world.channel, "analysis", match=match_id)
    assert asked.response.content.startswith(f"🔍 Analysing match #{match_id}:")
    again = await world.bob.slash(world.channel, "analysis", match=match_id)
    assert again.response.content.startswith(f"Match #{match_id} is being analysed already")
    old = world.bot.analyses
    await world.restart()  # the stop comes before the analysis is made
    old.close()
    await world.bot.analyses.idle()
    await world.env.settle()
    posts = [m for m in thread.history() if text_of(m).startswith(f"🔍 **Analysis of match #{match_id}**")]
    assert len(posts) == 1
    after = await world.alice.slash(world.channel, "analysis", match=match_id)
    assert after.response.content == f"The analysis of match #{match_id} is already posted in its thread."


def test_the_text_names_each_member_and_says_when_nothing_lost_ground():
    from types import SimpleNamespace
    seats = [SimpleNamespace(is_member=True), SimpleNamespace(is_member=True)]
    match = SimpleNamespace(id=4, seats=seats, names=["alice", "Strategos (normal)"])
    view = get_game("epaminondas").view(get_game("epaminondas").new_state(2, 1, None), None)
    text = analysis_text(match, view, [Mistake(3, 0, "a1-d4", "c1-c6", 0.123)])
    assert text.splitlines()[1:] == ["**alice** (Light): move 3 `a1-d4` (preferred `c1-c6`, −12 %)",
                                     "**Strategos (normal)** (Dark): no move lost ground."]
