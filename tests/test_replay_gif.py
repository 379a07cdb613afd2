"""Animated replay GIF: one faithful frame per move, under Discord's attachment limit, nothing secret in it."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageSequence

from bot.games.registry import get_game
from bot.engine.playout import random_plies
from bot.games.record import replay_moves
from bot.games import registry
from renderers import replay
from renderers.replay import DISCORD_ATTACHMENT_LIMIT, LAST_FRAME_MS, frame_duration

NAMES = ["Alice", "Bob"]


def replay_gif(views, *args, **kwargs) -> bytes:
    """The replay drawn by the views' game's renderer, as the presenters ask for it."""
    return replay.replay_gif(views, *args, renderer=registry.renderer_of(views[0]["game"]) if views else None,
                             **kwargs)


def build_replay_gif(views, *args, **kwargs) -> replay.GifReport:
    return replay.build_replay_gif(views, *args, renderer=registry.renderer_of(views[0]["game"]), **kwargs)


def public_views(key, seed, options=None):
    game = get_game(key)
    moves = [(ply.seat, ply.move) for ply in random_plies(game, 2, seed, options)]
    return replay_moves(game, 2, seed, options, moves).views(None)


def frames_of(data: bytes) -> list[tuple[Image.Image, int]]:
    gif = Image.open(io.BytesIO(data))
    return [(frame.convert("RGB"), frame.info.get("duration")) for frame in ImageSequence.Iterator(gif)]


def close_to(picture: Image.Image, expected: Image.Image) -> bool:
    """The same picture up to the shared palette: small average error, hardly any pixel far off (a stale
    square left by a wrong transparent patch would be far off over a whole square)."""
    diff = ImageChops.difference(picture, expected).convert("L")
    histogram = diff.histogram()
    pixels = picture.width * picture.height
    mean = sum(level * count for level, count in enumerate(histogram)) / pixels
    far = sum(histogram[48:]) / pixels
    return mean < 1.5 and far < 0.003


def test_one_frame_per_move_each_showing_its_position_and_the_last_one_held():
    views = public_views("archimedes", 2)
    data = replay_gif(views, NAMES)
    frames = frames_of(data)
    assert len(frames) == len(views)
    for (picture, _), view in zip(frames, views):
        assert close_to(picture, registry.renderer_of("archimedes").draw(view, NAMES).convert("RGB")), view["ply"]
    durations = [d for _, d in frames]
    assert durations[:-1] == [frame_duration(len(views))] * (len(views) - 1)
    assert durations[-1] == LAST_FRAME_MS


def test_a_position_repeated_by_an_agreed_draw_lengthens_the_frame_instead_of_adding_one():
    views = public_views("myrmidons", 1, {"army": "standard"})[:12]
    frames = frames_of(replay_gif(views + [views[-1]], NAMES, frame_ms=500))
    assert len(frames) == len(views)
    assert frames[-1][1] == 500 + LAST_FRAME_MS


def test_over_the_limit_frames_shrink_before_any_move_is_skipped():
    views = public_views("archimedes", 2)
    full = build_replay_gif(views, NAMES)
    budget = len(full.data) * 3 // 4
    smaller = build_replay_gif(views, NAMES, max_bytes=budget)
    assert len(smaller.data) <= budget
    assert smaller.scale < 1 and smaller.moves_shown == len(views) == smaller.frames
    frames = frames_of(smaller.data)
    assert frames[0][0].size == smaller.size
    expected = registry.renderer_of("archimedes").draw(views[-1], NAMES).convert("RGB").resize(smaller.size,
                                                                                   Image.Resampling.HAMMING)
    assert close_to(frames[-1][0], expected)


def test_when_even_small_frames_do_not_fit_moves_are_skipped_but_the_start_and_the_end_are_shown():
    views = public_views("archimedes", 2)
    report = build_replay_gif(views, NAMES, max_bytes=120_000)
    assert len(report.data) <= 120_000
    assert report.scale == 0.5 and 2 <= report.moves_shown < len(views)
    frames = frames_of(report.data)
    assert len(frames) == report.frames
    board = registry.renderer_of("archimedes").draw
    for picture, view in ((frames[0][0], views[0]), (frames[-1][0], views[-1])):
        assert close_to(picture, board(view, NAMES).convert("RGB").resize(report.size, Image.Resampling.HAMMING))


def test_a_300_move_match_fits_discords_limit_with_every_move_at_full_size():
    views = public_views("epaminondas", 16)
    assert len(views) == 301
    report = build_replay_gif(views, NAMES)
    assert len(report.data) < DISCORD_ATTACHMENT_LIMIT
    # Counted without decoding them: what each frame shows is checked on shorter matches above.
    assert report.frames == 301 == Image.open(io.BytesIO(report.data)).n_frames and report.scale == 1.0


def myrmidons_log(north_deployment: int):
    """Both deploy (North in one of two ways), then moves both matches allow, none of them a fight."""
    game = get_game("myrmidons")
    options = {"army": "standard"}
    state = game.new_state(2, 12, options)
    log = [(0, game.legal_moves(state, 0)[0]), (1, game.legal_moves(state, 1)[north_deployment])]
    return game, options, log


def test_matches_differing_only_in_a_secret_deployment_give_the_same_public_gif():
    game, options, log_a = myrmidons_log(0)
    _, _, log_b = myrmidons_log(-1)
    assert log_a[1] != log_b[1]
    states_a = replay_moves(game, 2, 12, options, log_a).states
    states_b = replay_moves(game, 2, 12, options, log_b).states
    for _ in range(6):  # the same public moves in both, as long as both allow them and none fights
        seat = game.to_act(states_a[-1])[0]
        common = [m for m in game.legal_moves(states_a[-1], seat) if m in game.legal_moves(states_b[-1], seat)]
        for move in common:
            after_a, events_a = game.apply(states_a[-1], seat, move)
            after_b, events_b = game.apply(states_b[-1], seat, move)
            if not any(e["type"] == "fight" for e in events_a + events_b):
                break
        states_a.append(after_a)
        states_b.append(after_b)
    views_a = [game.view(s, None) for s in states_a]
    views_b = [game.view(s, None) for s in states_b]
    assert views_a == views_b
    assert replay_gif(views_a, NAMES) == replay_gif(views_b, NAMES)
    private_a = [game.view(s, 1) for s in states_a]
    assert replay_gif(private_a, NAMES) != replay_gif([game.view(s, 1) for s in states_b], NAMES)


def test_views_of_two_readers_or_of_no_known_game_are_refused():
    views = public_views("archimedes", 2)[:3]
    with pytest.raises(ValueError, match="one game and one viewer"):
        replay_gif(views[:2] + [{**views[2], "viewer": 0}])
    with pytest.raises(ValueError):
        replay_gif([])
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        replay_gif([{**views[0], "game": "chess"}])


def test_a_budget_too_small_for_one_frame_is_an_error_not_an_endless_search():
    views = public_views("archimedes", 2)
    with pytest.raises(ValueError, match="cannot hold even one frame"):
        replay_gif(views, NAMES, max_bytes=2_000)
