"""The contract's newer questions, for every engine: canonical(), in_secret_setup(), in_play(), eliminate(),
standings() and sample_state(). Per-game decisions on leaving (Mycenae, Myriath) are tested in their own section."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot.games import Game, IllegalMoveError, MoveSyntaxError, Outcome, is_visible
from bot.games.registry import GAMES, get_game
from bot.games.mycenae import parse_move as mycenae_parse
from bot.games.mycenae import position as mycenae_position
from bot.games.myriath import geometry as geo
from bot.games.myriath import parse_move as myriath_parse
from bot.games.myriath import position as myriath_position
from bot.games.myrmidons import parse_move as myrmidons_parse
from bot.games.myrmidons import position as myrmidons_position
from bot.engine.playout import random_plies

SIZES = [(key, n) for key, game in GAMES.items() for n in range(game.info.min_players, game.info.max_players + 1)]
MYCENAE_ARMIES = {2: ["mycenae", "mycenae"], 3: ["mycenae", "plain", "mycenae"], 4: ["mycenae"] * 4}


def options(key: str, n: int, seed: int) -> dict | None:
    if key == "mycenae":
        return {"armies": MYCENAE_ARMIES[n]}
    if key == "myrmidons":
        return [{}, {"army": "draft"}, {"army": "draft", "memory": "on"}, {"army": "random"}][seed % 4]
    return None


def logged(game: Game, state, seat: int, move: str) -> str:
    """The text `apply` records for a move: the public last move, or a secret setup move's private event."""
    new_state, events = game.apply(state, seat, move)
    private = [e["move"] for e in events if e.get("visible_to") == [seat] and "move" in e]
    return private[0] if private else game.view(new_state, None)["last_move"]


def outcome_of_call(fn, *args):
    try:
        return "ok", fn(*args)
    except (MoveSyntaxError, IllegalMoveError) as e:
        return type(e).__name__, str(e)


# --- canonical ------------------------------------------------------------------------------------------------


def sloppy_variants(key: str, move: str, rng: random.Random) -> list[str]:
    """Other ways a user might type `move`: case, spacing, and the rewritings each notation allows."""
    variants = [move.upper(), f"  {move}  ", move.swapcase()]
    if key in ("epaminondas", "archimedes") and "-" in move:
        variants.append(move.replace("-", " - "))
    if key == "mycenae":
        m = mycenae_parse(move)
        words = move.split()
        if words[0] in ("load", "unload") and len(words) > 3:
            rest = words[2:]
            rng.shuffle(rest)
            variants.append(" ".join([words[0], words[1], *rest]))
        if words[0] == "cargo":
            items = words[1:]
            rng.shuffle(items)
            variants.append("cargo " + " ".join(i.split(":")[0] + ":" + ",".join(sorted(i.split(":")[1].split(",")))
                                                for i in items).lower())
        if type(m).__name__ == "PieceMove" and m.capture:
            variants.append(move.replace("x", "-"))  # apply works out the capture itself
        if type(m).__name__ == "PieceMove" and m.promotion:
            variants.append(move.replace("=", ""))
    if key == "myrmidons":
        m = myrmidons_parse(move)
        if type(m).__name__ == "Order" and len(m.items) > 1:
            words = move.split()
            items = words[2:]
            rng.shuffle(items)
            variants.append(" ".join([words[0], words[1].lower(), *items]))
        if type(m).__name__ == "Army":
            codes = move.split()[1].split(",")
            rng.shuffle(codes)
            variants.append("army " + ",".join(codes))
        if type(m).__name__ == "Deploy":
            variants.append(move.replace("C", "c"))
    if key == "myriath":
        m = myriath_parse(move)
        if type(m).__name__ == "TileMove":
            points = [p for p in geo.path_points(m.start, m.dirs) if p is not None]
            variants.append(geo.tile_text(points[-1], geo.reverse_dirs(m.dirs), m.caps[1], m.caps[0]))
    return variants


@pytest.mark.parametrize("key,n", SIZES)
def test_canonical_keeps_every_legal_move_and_normalises_sloppy_ones_as_apply_logs_them(key, n):
    game = get_game(key)
    rng = random.Random(11)
    for seed in range(2):
        for i, ply in enumerate(random_plies(game, n, seed, options(key, n, seed), max_plies=400)):
            sample = ply.moves if len(ply.moves) <= 40 else rng.sample(ply.moves, 40)
            for move in sample:
                assert game.canonical(ply.state, ply.seat, move) == move
            if i % 3 == 0:
                for move in rng.sample(ply.moves, min(4, len(ply.moves))):
                    expected = logged(game, ply.state, ply.seat, move)
                    for text in sloppy_variants(key, move, rng):
                        assert game.canonical(ply.state, ply.seat, text) == expected, text


@pytest.mark.parametrize("key,n", SIZES)
def test_canonical_refuses_exactly_as_apply_does(key, n):
    game = get_game(key)
    junk = ["", "hello", "z99-a1", "a1-a1", "pass", "consent", "burn a1", "order N a1-a2", "O@a1", "cargo b2:K"]
    for ply in random_plies(game, n, 3, options(key, n, 3), max_plies=150):
        others = [s for s in range(n) if s != ply.seat]
        texts = junk + [ply.move] + ([f"{ply.move}x"] if ply.move else [])
        for text in texts:
            for seat in [ply.seat, *others]:
                expected = outcome_of_call(game.apply, ply.state, seat, text)
                got = outcome_of_call(game.canonical, ply.state, seat, text)
                if expected[0] == "ok":
                    assert got[0] == "ok"
                else:
                    assert got == expected, (text, seat)


# --- in_secret_setup, in_play -----------------------------------------------------------------------------------


@pytest.mark.parametrize("key,n", SIZES)
def test_in_secret_setup_and_in_play_agree_with_the_general_answers(key, n):
    game = get_game(key)
    for seed in range(2):
        state = None
        for ply in random_plies(game, n, seed, options(key, n, seed)):
            state = ply.state
            assert game.in_secret_setup(state) == Game.in_secret_setup(game, state)
            out = game.view(state, None)["out"] if key == "mycenae" else []  # nobody leaves in these games
            assert game.in_play(state) == [s for s in range(n) if s not in out]
        final = game.apply(state, ply.seat, ply.move)[0]
        assert game.in_play(final) == [] and not game.in_secret_setup(final)


def test_secret_setups_are_the_myrmidons_deployment_and_draft_and_the_mycenae_cargo():
    m = get_game("myrmidons")
    s = m.new_state(2, 1, {"army": "draft"})
    assert m.in_secret_setup(s)
    for seat in (0, 1):
        s = m.apply(s, seat, m.legal_moves(s, seat)[0])[0]
    assert m.in_secret_setup(s)  # the deployments
    for seat in (0, 1):
        s = m.apply(s, seat, m.legal_moves(s, seat)[0])[0]
    assert not m.in_secret_setup(s)
    c = get_game("mycenae")
    s = c.new_state(3, 1, {"armies": ["plain", "mycenae", "plain"]})
    assert c.in_secret_setup(s)
    s = c.apply(s, 1, c.legal_moves(s, 1)[0])[0]
    assert not c.in_secret_setup(s)
    for key in ("epaminondas", "archimedes", "myriath"):
        assert not get_game(key).in_secret_setup(get_game(key).new_state(2, 0))


# --- eliminate: two seats in play -------------------------------------------------------------------------------


def states_along(game: Game, n: int, seed: int, opts=None, every: int = 7):
    for i, ply in enumerate(random_plies(game, n, seed, opts)):
        if i % every == 0:
            yield ply.state


@pytest.mark.parametrize("key", ["epaminondas", "archimedes", "myrmidons", "mycenae", "myriath"])
def test_with_two_seats_in_play_the_other_wins_with_the_reason_given(key):
    game = get_game(key)
    for seed in range(2):
        for state in states_along(game, 2, seed, options(key, 2, seed)):
            for seat in (0, 1):
                new, events = game.eliminate(state, seat, "bob resigned")
                result = game.outcome(new)
                assert result.winners == (1 - seat,) and result.reason == "bob resigned"
                assert game.to_act(new) == [] and game.in_play(new) == []
                assert game.standings(new) == [[1 - seat], [seat]]
                assert all(e["visible_to"] is None for e in events)
                json.dumps(events)
                loaded = game.load(json.loads(json.dumps(game.dump(new))))
                assert game.outcome(loaded) == result and game.dump(loaded) == game.dump(new)
                assert state == game.load(game.dump(state))  # the input state is untouched
                with pytest.raises(IllegalMoveError):
                    game.eliminate(new, 1 - seat, "too late")


@pytest.mark.parametrize("key", ["epaminondas", "archimedes", "myrmidons", "mycenae", "myriath"])
def test_dumps_without_the_new_fields_load_as_nobody_having_left(key):
    game = get_game(key)
    n = 3 if key in ("mycenae", "myriath") else 2
    for state in states_along(game, n, 4, options(key, n, 4), every=11):
        data = game.dump(state)
        new_fields = {"myriath": ("left", "to_move", "end_reason"), "mycenae": ("sealed", "out_order")}
        for field in new_fields.get(key, ("left",)):
            del data[field]
        old = game.load(data)
        unknown_then = ("sealed", "out_order")  # Mycenae: any knight may hold unseen pieces; order of going out
        assert {k: v for k, v in game.view(old, None).items() if k not in unknown_then} == {
            k: v for k, v in game.view(state, None).items() if k not in unknown_then}
        assert game.legal_moves(old, game.to_act(old)[0]) == game.legal_moves(state, game.to_act(state)[0])


def test_a_myrmidons_player_may_leave_during_the_secret_setup_and_nothing_secret_shows():
    game = get_game("myrmidons")
    base = game.new_state(2, 3, {"army": "draft"})
    a = game.apply(base, 1, "army 5/3/1,5/2/2,5/1/3,4/4/1,4/3/2")[0]
    b = game.apply(base, 1, "army 3/5/1,3/4/2,2/5/2,1/5/3,1/4/4")[0]
    for seat in (0, 1):  # the two games differ only in seat 1's secret army
        (new_a, ev_a), (new_b, ev_b) = game.eliminate(a, seat, "left"), game.eliminate(b, seat, "left")
        assert ev_a == ev_b
        for viewer in (None, 0):
            assert game.view(new_a, viewer) == game.view(new_b, viewer)


# --- eliminate: three or four seats (Mycenae) ---------------------------------------------------------------------


def mycenae_after_setup(n: int, seed: int, armies=None):
    game = get_game("mycenae")
    state = game.new_state(n, seed, {"armies": armies or MYCENAE_ARMIES[n]})
    rng = random.Random(seed)
    for seat in game.to_act(state):
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))[0]
    return game, state


def test_a_mycenae_player_who_leaves_loses_her_pieces_and_her_cargo_is_shown():
    game, state = mycenae_after_setup(3, 1)
    new, events = game.eliminate(state, 2, "bob resigned")  # not her turn: seat 0 moves on
    assert game.outcome(new) is None and game.in_play(new) == [0, 1] and game.to_act(new) == [0]
    assert not any(p["owner"] == 2 for p in game.view(new, None)["board"])
    shown = [e for e in events if e["type"] == "cargo_destroyed"]
    assert len(shown) == 3 and sum(len(e["pieces"]) for e in shown) == 7  # her three knights, all seven inside
    assert events[0] == {"type": "out", "visible_to": None, "seat": 2, "corner": "h8", "reason": "bob resigned"}
    assert game.describe(events[0]) == "h8 bob resigned and is out"
    assert game.view(new, None)["out"] == [2] and game.view(new, None)["out_order"] == [2]
    assert game.view(new, None)["unseen"] == [list("KRBBPPP"), []] + [[]]


def test_when_the_player_to_move_leaves_the_next_one_moves():
    game, state = mycenae_after_setup(4, 2)
    new, _ = game.eliminate(state, 0, "timed out")
    assert game.to_act(new) == [1] and game.view(new, None)["turn"] == 1
    new, _ = game.eliminate(new, 1, "timed out")
    assert game.to_act(new) == [2]
    new, events = game.eliminate(new, 3, "carol resigned")
    assert game.outcome(new).winners == (2,) and game.outcome(new).reason == "carol resigned"
    assert game.standings(new) == [[2], [3], [1], [0]]


def test_a_mycenae_player_may_leave_during_the_cargo_setup():
    game = get_game("mycenae")
    state = game.new_state(3, 0, {"armies": ["mycenae", "mycenae", "mycenae"]})
    state = game.apply(state, 1, "cargo b7:K,R,B,B,P,P,P")[0]
    new, events = game.eliminate(state, 1, "left")  # chose already: that cargo is destroyed and shown
    assert game.to_act(new) == [0, 2] and game.in_secret_setup(new)
    assert [p["type"] for e in events if e["type"] == "cargo_destroyed" for p in e["pieces"]] == list("KRBBPPP")
    new, events = game.eliminate(new, 0, "left")  # was to move first: seat 2 will
    assert game.outcome(new).winners == (2,) and game.outcome(new).reason == "left"
    state = game.new_state(3, 0, {"armies": ["mycenae", "mycenae", "mycenae"]})
    new = game.eliminate(state, 0, "left")[0]
    new = game.apply(new, 1, game.legal_moves(new, 1)[0])[0]
    new = game.apply(new, 2, game.legal_moves(new, 2)[0])[0]
    assert game.to_act(new) == [1] and not game.in_secret_setup(new)


def pending_request():
    """Three players; a1 (Mycenae) asks h8 (plain) to load h8's pawn next to a1's knight."""
    board = """
    . . . . . . . 2K
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . 0M 2P . . .
    . . . . . . . .
    1K . . . . . . .
    0K . . . . . 1R .
    """
    game = get_game("mycenae")
    state = mycenae_position(board, 3, 0, cargo={"d4": "0R 0B"}, armies=["mycenae", "plain", "plain"])
    state, events = game.apply(state, 0, "load d4 e4")
    assert game.to_act(state) == [2]
    return game, state


def test_a_pending_request_is_cancelled_when_the_asked_player_leaves_and_the_requester_acts_again():
    game, state = pending_request()
    new, events = game.eliminate(state, 2, "timed out")
    assert game.view(new, None)["pending"] is None and game.to_act(new) == [0]
    cancelled = [e for e in events if e["type"] == "cancelled"]
    assert [game.describe(e) for e in cancelled] == ["a1's request is cancelled: load d4 e4"]


def test_a_pending_request_is_cancelled_when_the_requester_leaves_and_the_turn_passes_on():
    game, state = pending_request()
    new, _ = game.eliminate(state, 0, "resigned")
    assert game.view(new, None)["pending"] is None and game.to_act(new) == [1]


def test_a_request_between_two_others_stands_when_a_third_player_leaves():
    board = """
    . . . . . . . 2K
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . 0M 2P . . .
    . . . . . . . .
    3K 3P . . . . . .
    0K . . . . . 1K 1R
    """
    game = get_game("mycenae")
    state = mycenae_position(board, 4, 0, cargo={"d4": "0R"}, armies=["mycenae", "plain", "plain", "plain"])
    state = game.apply(state, 0, "load d4 e4")[0]
    new, events = game.eliminate(state, 3, "left")
    assert game.to_act(new) == [2] and game.view(new, None)["pending"]["move"] == "load d4 e4"
    assert "cancelled" not in [e["type"] for e in events]
    assert game.to_act(game.apply(new, 2, "consent")[0]) == [1]


def twin_mycenae(n: int, seed: int, secret: int):
    """Two games that differ only in the cargo the `secret` seat chose."""
    game = get_game("mycenae")
    rng = random.Random(seed)
    a = b = game.new_state(n, seed, {"armies": ["mycenae"] * n})
    spreads = rng.sample(game.legal_moves(a, secret), 2)
    for seat in game.to_act(a):
        if seat == secret:
            a, b = game.apply(a, seat, spreads[0])[0], game.apply(b, seat, spreads[1])[0]
        else:
            move = rng.choice(game.legal_moves(a, seat))
            a, b = game.apply(a, seat, move)[0], game.apply(b, seat, move)[0]
    return game, a, b


@pytest.mark.parametrize("n,seed,secret", [(3, 1, 0), (4, 2, 1), (4, 3, 3)])
def test_leaving_reveals_nothing_of_another_players_cargo(n, seed, secret):
    game, a, b = twin_mycenae(n, seed, secret)
    others = [s for s in range(n) if s != secret]
    rng = random.Random(seed)
    for _ in range(n - 2):
        leaver = rng.choice([s for s in game.in_play(a) if s != secret])
        (a, ev_a), (b, ev_b) = game.eliminate(a, leaver, "left"), game.eliminate(b, leaver, "left")
        for viewer in [None, *others]:
            assert [e for e in ev_a if is_visible(e, viewer)] == [e for e in ev_b if is_visible(e, viewer)]
            assert game.view(a, viewer) == game.view(b, viewer)
        assert game.to_act(a) == game.to_act(b)


# --- eliminate: three or four seats (Myriath) ---------------------------------------------------------------------


def test_a_myriath_player_who_leaves_keeps_her_tiles_is_skipped_and_cannot_win():
    game = get_game("myriath")
    state = game.new_state(3, 0)
    for _ in range(9):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.legal_moves(state, seat)[0])[0]
    tiles = game.view(state, None)["tiles"]
    mover = game.to_act(state)[0]
    new, events = game.eliminate(state, mover, "dave resigned")
    assert [e["type"] for e in events] == ["out"]
    assert game.view(new, None)["tiles"] == tiles and game.in_play(new) == [s for s in range(3) if s != mover]
    assert game.to_act(new) == [(mover + 1) % 3]
    seen = set()
    while game.outcome(new) is None:
        seat = game.to_act(new)[0]
        seen.add(seat)
        new = game.apply(new, seat, game.legal_moves(new, seat)[-1])[0]
    assert mover not in seen and mover not in game.outcome(new).winners
    assert game.standings(new)[-1] == [mover]


def test_myriath_the_last_player_in_wins_with_the_reason_given():
    game = get_game("myriath")
    state = game.new_state(4, 1)
    first = game.to_act(state)[0]
    state, _ = game.eliminate(state, first, "a left")  # during the setup, before her octagon
    assert game.view(state, None)["phase"] == "setup"
    for _ in range(3):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.legal_moves(state, seat)[0])[0]
    assert game.view(state, None)["phase"] == "play"  # three octagons were all the setup left
    rest = game.in_play(state)
    state, _ = game.eliminate(state, rest[0], "b left")
    state, events = game.eliminate(state, rest[1], "c left")
    assert game.outcome(state).winners == (rest[2],) and game.outcome(state).reason == "c left"
    assert game.standings(state) == [[rest[2]], [rest[1]], [rest[0]], [first]]
    assert events[-1]["type"] == "end"


def test_myriath_a_pass_by_a_player_who_then_leaves_no_longer_counts():
    game = get_game("myriath")
    # nobody can place anything: all supplies empty, so every turn is a pass
    state = myriath_position(3, [(0, "O@e5"), (1, "O@g5"), (2, "O@e7")], to_move=0, supplies=[{}, {}, {}])
    state = game.apply(state, 0, "pass")[0]
    state = game.apply(state, 1, "pass")[0]
    left, _ = game.eliminate(state, 0, "left")  # her pass is gone: only seat 1 has passed
    assert game.outcome(left) is None and game.to_act(left) == [2]
    assert game.outcome(game.apply(left, 2, "pass")[0]) is not None
    ended, _ = game.eliminate(state, 2, "left")  # seats 0 and 1, all that remain, have both passed
    assert game.outcome(ended).winners and game.outcome(ended).reason != "left"


# --- standings ----------------------------------------------------------------------------------------------------


def test_myriath_standings_rank_by_score_among_those_who_stayed():
    game = get_game("myriath")
    state = myriath_position(4, [(0, "O@e5"), (1, "O@g5"), (2, "O@e7"), (3, "O@g7")], to_move=0,
                     scores=[3, 5, 3, 9], supplies=[{}, {}, {}, {}])
    state = game.eliminate(state, 3, "left")[0]
    for seat in (0, 1, 2):
        state = game.apply(state, seat, "pass")[0]
    assert game.outcome(state).winners == (1,)
    assert game.standings(state) == [[1], [0, 2], [3]]


def test_a_mycenae_draw_puts_everyone_still_in_first():
    game, state = mycenae_after_setup(3, 5)
    state = game.eliminate(state, 2, "left")[0]
    drawn = replace(state, outcome=Outcome((), "threefold repetition"))
    assert game.standings(drawn) == [[0, 1], [2]]


# --- sample_state -------------------------------------------------------------------------------------------------


def hidden_part(key: str, state) -> object:
    if key == "mycenae":
        return sorted(state.cargo.items())
    if key == "myrmidons":
        return state.pieces, state.armies
    return None


@pytest.mark.parametrize("key,n", SIZES)
def test_a_sampled_state_shows_every_seat_exactly_its_view(key, n):
    game = get_game(key)
    differed = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(n, seed, options(key, n, seed))
        for ply in range(160):
            if game.outcome(state) is not None:
                break
            if ply % 4 == 0:
                for viewer in [None, *range(n)]:
                    view = game.view(state, viewer)
                    one = game.sample_state(view, random.Random(1))
                    two = game.sample_state(view, random.Random(2))
                    assert game.view(one, viewer) == view, (seed, ply, viewer)
                    assert game.view(two, viewer) == view
                    for seat in game.to_act(one):  # a sampled state plays on
                        assert game.legal_moves(one, seat)
                    if viewer in game.to_act(state):  # and offers the viewer exactly her real choices
                        assert game.legal_moves(one, viewer) == game.legal_moves(state, viewer)
                    differed += hidden_part(key, one) != hidden_part(key, two)
                    if not game.info.hidden_information:
                        exact, rebuilt = game.dump(state), game.dump(one)
                        exact.pop("seed", None), rebuilt.pop("seed", None)
                        assert rebuilt == exact
            if rng.random() < 0.02 and len(game.in_play(state)) > 2:
                state = game.eliminate(state, rng.choice(game.in_play(state)), "left")[0]
                continue
            seat = rng.choice(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))[0]
        view = game.view(state, 0)
        assert game.view(game.sample_state(view, random.Random(3)), 0) == view
    if game.info.hidden_information:
        assert differed > 10  # different generators draw different hidden parts where there is freedom


def test_a_myrmidons_sample_keeps_what_the_last_fight_showed_and_the_commander_standing():
    game = get_game("myrmidons")
    for seed in range(6):
        for ply in random_plies(game, 2, seed, {"memory": "on"}):
            report = game.view(ply.state, 0)["last_action"]
            if not report or not report["fights"] or game.outcome(ply.state):
                continue
            sampled = game.sample_state(game.view(ply.state, 0), random.Random(seed))
            codes = {p.id: p.kind.code for p in sampled.pieces}
            for fight in report["fights"]:
                for side in ("attacker", "defender"):
                    assert codes[fight[side]["id"]] == fight[side]["code"]
            commander = sampled.commander(1)
            assert sampled.squares[commander] != -1


def test_a_mycenae_sample_spreads_the_unseen_pieces_over_the_sealed_knights_only():
    game, state = mycenae_after_setup(2, 4)
    view = game.view(state, 0)
    assert view["unseen"] == [list("KRBBPPP")] * 2 and len(view["sealed"]) == 6
    spreads = set()
    for i in range(30):
        sampled = game.sample_state(view, random.Random(i))
        for sq, codes in state.cargo.items():
            if state.board[sq] >> 3 == 0:
                assert sampled.cargo[sq] == codes  # the viewer's own cargo is never guessed
        spreads.add(tuple(sorted((sq, c) for sq, c in sampled.cargo.items() if state.board[sq] >> 3 == 1)))
    assert len(spreads) > 20


def test_mycenae_canonical_examples():
    board = """
    . . . . . . . 1K
    0P . . . . . . .
    . . . . . . . .
    . 1P . . . . . .
    . . . 0M . . . .
    . . . . . . . .
    . . . . . . . .
    . 0R . . . . . .
    """
    game = get_game("mycenae")
    state = mycenae_position(board, 2, 0, cargo={"d4": "0K 0R 0P"})
    assert game.canonical(state, 0, "B1-B5") == "b1xb5"  # a capture typed with '-'
    assert game.canonical(state, 0, "a7 - a8 r") == "a7-a8=R"
    assert game.canonical(state, 0, "unload D4 p@e5 K@c3") == "unload d4 K@c3 P@e5"
    with pytest.raises(IllegalMoveError, match="does not carry that many"):
        game.canonical(state, 0, "unload d4 B@c3")
    fresh = game.new_state(2, 0, {"armies": ["mycenae", "plain"]})
    assert game.canonical(fresh, 0, "CARGO c1:p,b d2:R,B,p b2:P,k") == "cargo b2:K,P d2:R,B,P c1:B,P"


def test_myrmidons_and_myriath_canonical_examples():
    game = get_game("myrmidons")
    rows = [". . . . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". n252 . . . .", ". nC . . . .",
            "s252 sC s513 . . ."]  # rank 7 first
    state = myrmidons_position("\n".join(rows))
    assert game.canonical(state, 0, "ORDER n b1-b2 a1-a2") == "order N a1-a2 b1-b2"  # items front to back
    myriath = get_game("myriath")
    board = myriath_position(2, [(0, "O@e5")], to_move=1)
    assert myriath.canonical(board, 1, "e5S:A.A") == myriath.canonical(board, 1, "e4N:A.A") == "e4N:A.A"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_engine_answers_the_newer_questions_itself(key):
    engine = type(get_game(key))
    for name in ("canonical", "in_secret_setup", "in_play", "eliminate", "standings", "sample_state"):
        assert getattr(engine, name) is not getattr(Game, name), name
