"""Myriath: seeded random complete games, a brute-force check of the move generator, and the picker."""

from __future__ import annotations

import json

import pytest

from bot.games.myriath import GAME, canonical, position
from bot.games.myriath import geometry as geo
from bot.games.myriath import picker
from bot.games.myriath.data import TILE_SET
from bot.engine.playout import random_plies

SIDES = "NESW"
HALF = ("NE", "SE", "SW", "NW")


def recomputed_halves(view) -> list[int]:
    """Every score from scratch, from what the view shows: the turn-position bonus, then ½ for each side of each
    half-diagonal shared by two tiles that is part of that tile's end edge."""
    n = view["num_players"]
    halves = [0] * n
    for position_, seat in enumerate(view["turn_order"]):
        halves[seat] += (0, 0, 1, 2)[position_]
    tile_at = {(at, side): t["index"] for t in view["tiles"] for at, side in t["triangles"]}
    ends = [{(c["at"], hd) for c in t["caps"] for hd in c["edge"]} for t in view["tiles"]]
    for (at, side), index in tile_at.items():
        i = SIDES.index(side)
        other = tile_at.get((at, SIDES[(i + 1) % 4]))
        if other is None or other == index:
            continue
        hd = (at, HALF[i])
        for tile in (index, other):
            if hd in ends[tile]:
                halves[view["tiles"][tile]["owner"]] += 1
    return halves


def brute_force_moves(state, seat) -> list[str]:
    """Every placement of the catalogue that the rules page allows, checked one by one."""
    view = GAME.view(state, None)
    if seat not in view["to_act"]:
        return []
    owner = {}
    for t in view["tiles"]:
        for at, side in t["triangles"]:
            owner[(at, side)] = t["owner"]
    area = geo.area(state.num_players)
    supply = view["supplies"][seat]
    found = []
    for pl in geo.catalogue().placements:
        if pl.ring != (view["phase"] == "setup") or not supply[pl.kind] or not area.fits(pl):
            continue
        if any(geo.triangle_name(t) in owner for t in pl.triangles):
            continue
        if not pl.ring and not any(
            e.end and owner.get(geo.triangle_name(e.other), seat) != seat for e in pl.edges
        ):
            continue
        found.append(pl.notation)
    return found or ["pass"]


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 6), (3, 2), (3, 7), (4, 3), (4, 8)])
def test_random_game_invariants(players, seed):
    history = []
    for i, ply in enumerate(random_plies(GAME, players, seed, max_plies=3000)):
        state, moves = ply.state, ply.moves
        view = GAME.view(state, None)
        assert moves == sorted(set(moves)), "listed once each, in code-point order"
        assert all(canonical(m) == m for m in moves)
        assert view["scores"] == [h / 2 for h in recomputed_halves(view)]
        assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state
        for move in moves:  # every listed move applies
            GAME.apply(state, ply.seat, move)
        if i % 3 == 0:
            assert moves == brute_force_moves(state, ply.seat)
        history.append(ply.move)
        last = GAME.apply(state, ply.seat, ply.move)[0]
    assert GAME.outcome(last) is not None
    final = GAME.view(last, None)
    assert final["scores"] == [h / 2 for h in recomputed_halves(final)]
    # the game ends exactly after a full round of passes, and not before
    assert history[-players:] == ["pass"] * players
    run = 0
    for move in history[:-players]:
        run = run + 1 if move == "pass" else 0
        assert run < players
    best = max(final["scores"])
    assert final["outcome"]["winners"] == [s for s, v in enumerate(final["scores"]) if v == best]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_move_generator_matches_brute_force_midgame(players):
    for ply in random_plies(GAME, players, 40 + players):
        if ply.state.ply in (players, players + 5, players + 20, players + 40):
            assert ply.moves == brute_force_moves(ply.state, ply.seat)
        for other in range(players):
            if other != ply.seat:
                assert GAME.legal_moves(ply.state, other) == []


def walk_picker(state, seat, path=()):
    """Every complete move the picker reaches, checking each step's size and labels."""
    step = GAME.choices(state, seat, list(path))
    assert len(step.options) <= 25
    reached = [step.move] if step.move else []
    for option in step.options:
        assert len(option.label) <= 100 and len(option.value) <= 100 and len(option.description) <= 100
        reached += walk_picker(state, seat, path + (option.value,))
    return reached


@pytest.mark.parametrize("players,at", [(2, 0), (4, 0), (2, 2), (3, 3), (4, 4), (4, 12), (2, 30)])
def test_picker_reaches_exactly_the_legal_moves(players, at):
    for ply in random_plies(GAME, players, 9):
        if ply.state.ply == at:
            reached = walk_picker(ply.state, ply.seat)
            assert sorted(set(reached)) == ply.moves
            for move in ply.moves:  # a tile from either of its ends, the octagon from its corner
                assert reached.count(move) == (1 if move.startswith("O@") or move == "pass" else 2)
            return
    pytest.fail("the game ended too early for this test")


def test_picker_splits_crowded_steps():
    state = GAME.new_state(4, 1)  # 100 octagon corners: file first, then the corner in that file
    seat = GAME.to_act(state)[0]
    first = GAME.choices(state, seat, [])
    assert [o.value for o in first.options] == ["O"]
    files = GAME.choices(state, seat, ["O"])
    assert [o.value for o in files.options] == list("abcdefghij")
    corners = GAME.choices(state, seat, ["O", "c"])
    assert [o.value for o in corners.options] == [f"c{r}" for r in range(1, 11)]
    assert GAME.choices(state, seat, ["O", "c", "c3"]).move == "O@c3"


def test_picker_splits_path_and_caps_when_there_are_too_many(monkeypatch):
    # in play one start rarely offers more than 16 ways; a small limit forces every split
    monkeypatch.setattr(picker, "PICKER_LIMIT", 4)
    state = position(2, [(0, "O@e5"), (1, "O@c3"), (0, "g3WN:A.Wl")], to_move=1)
    moves = GAME.legal_moves(state, 1)
    paths = []

    def walk(path):
        step = GAME.choices(state, 1, list(path))
        if step.move:
            paths.append(path)
        for option in step.options:
            walk(path + (option.value,))

    walk(())
    assert sorted({GAME.choices(state, 1, list(p)).move for p in paths}) == moves
    assert any(len(p) == 5 and ":" not in p[3] for p in paths)  # kind, file, start, path, caps


def test_picker_written_from_either_end_gives_the_canonical_move():
    state = position(2, [(0, "O@e5")], to_move=1)
    step = GAME.choices(state, 1, ["1AA", "e5"])
    assert "S:A.A" in [o.value for o in step.options]
    assert GAME.choices(state, 1, ["1AA", "e5", "S:A.A"]).move == "e4N:A.A"


def test_picker_and_forced_pass():
    state = position(2, [(0, "O@e5")], to_move=0)
    step = GAME.choices(state, 0, [])
    assert step.move == "pass" and not step.options


def test_supplies_run_down_as_tiles_are_placed():
    for ply in random_plies(GAME, 2, 4):
        pass
    final = GAME.apply(ply.state, ply.seat, ply.move)[0]
    view = GAME.view(final, None)
    placed = [0, 0]
    for t in view["tiles"]:
        placed[t["owner"]] += 1
    for seat in range(2):
        assert sum(view["supplies"][seat].values()) == sum(k.count for k in TILE_SET) - placed[seat]
