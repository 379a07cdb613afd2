"""Mycenae remembers recent unload lists within a memory budget (eight full knights' lists once took ~29 MB)."""

from __future__ import annotations

import gc
import tracemalloc

from bot.games.mycenae import GAME as G
from bot.games.mycenae import position
from bot.games.mycenae.moves import UNLOAD_CACHE


def full_knight_at(square: str):
    """A knight carrying all seven pieces with eight empty squares around it: about 40,000 unloads."""
    f, r = "abcdefgh".index(square[0]), int(square[1]) - 1
    rows = [["."] * 8 for _ in range(8)]
    rows[7 - r][f] = "0M"  # squares c3..f5 only: a1 and h8 are never next to it
    rows[0][7], rows[7][0] = "1K", "0B"
    text = "\n".join(" ".join(row) for row in rows)
    return position(text, 2, 0, cargo={square: "0K 0R 0B 0B 0P 0P 0P"})


def test_the_unload_cache_stays_within_a_few_megabytes():
    G.clear_caches()
    gc.collect()
    tracemalloc.start()
    try:
        for square in ("c3", "d4", "e5", "c5", "d3", "e4", "f4", "f5"):  # eight different full knights
            assert len(G.legal_moves(full_knight_at(square), 0)) > 30_000
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert UNLOAD_CACHE.size <= UNLOAD_CACHE.budget
    assert held < 5_000_000  # was 8 lists of ~4 MB each


def test_a_remembered_list_is_served_again_and_clearing_forgets_it():
    G.clear_caches()
    state = full_knight_at("d4")
    first = G.legal_moves(state, 0)
    assert len(UNLOAD_CACHE.entries) == 1
    assert G.legal_moves(state, 0) == first and len(UNLOAD_CACHE.entries) == 1
    G.clear_caches()
    assert not UNLOAD_CACHE.entries and UNLOAD_CACHE.size == 0
