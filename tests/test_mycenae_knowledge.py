"""What a Mycenae player can tell of the others' cargo, in words beside the board: the pieces nobody has seen and
the knights that can hold them; true of the hidden cargo in random complete games."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine.playout import random_plies
from bot.games.mycenae import GAME as G
from bot.games.mycenae import NAMES
from bot.presenters.describe import text_board

NAMES_OF = ["alice", "bob", "carol", "dave"]


def words(state, viewer) -> str:
    return "\n".join(text_board("Mycenae", G.view(state, viewer), NAMES_OF[:state.num_players]))


def test_at_the_start_the_whole_cargo_is_unseen_and_any_setup_knight_can_hold_the_king():
    state = G.new_state(2, 1, {"armies": ["plain", "mycenae"]})
    state = G.apply(state, 1, "cargo g7:K,P f8:R,B e7:B,P,P")[0]
    text = words(state, 0)
    assert ("bob (h8) has 1 king, 1 rook, 2 bishops, 3 pawns you have not seen, somewhere in the knights on e7, "
            "f8, g7. Any of these can hold the king; no other knight can.") in text
    assert "you have not seen" not in words(state, 1), "she is not told of her own cargo"
    assert "you have not seen" not in words(state, None)


@pytest.mark.parametrize("n,seed", [(2, 1), (2, 5), (3, 2), (4, 3)])
def test_what_she_is_told_holds_of_the_hidden_cargo(n, seed):
    """Every unseen piece of another player is in one of the knights she is told of; none is anywhere else."""
    told = 0
    for ply in random_plies(G, n, seed, {"armies": ["mycenae"] * n}):
        state = ply.state
        for viewer in range(n):
            view = G.view(state, viewer)
            for seat, letters in enumerate(view["unseen"]):
                if seat == viewer or seat in view["out"] or not letters:
                    continue
                text = words(state, viewer)
                line = next(line for line in text.split("\n") if line.startswith(f"{NAMES_OF[seat]} (") and
                            "you have not seen" in line)
                told += 1
                for sq, codes in state.cargo.items():
                    unseen_here = Counter(c for c in codes if c >> 3 == seat) - \
                        Counter(c for c in state.known.get(sq, ()) if c >> 3 == seat)
                    if unseen_here:
                        assert NAMES[sq] in line.split("knights on ")[1], (NAMES[sq], line)
    assert told > 0
