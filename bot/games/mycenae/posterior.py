"""How likely a sampled Mycenae state is, given what the viewer watched the others do with their sealed knights.

The sampler (sampling.py) shares each player's unseen pieces out over her sealed knights uniformly: nothing public
says where they are. But a player whose king rides in a knight knows that losing the knight loses the game, so she
keeps it back and moves it little, and sends the others out to fight and unload (Stankiewicz and Schadd 2009 read
Stratego ranks from such behaviour). `likelihood` weighs a draw by how well the knight it puts each unseen king in
fits that: by how often that knight has moved (`knight_moves`, public) and how far forward it stands. The
computer's search levels and the Explore board weigh their draws by it, never reading more than the view.
"""

from __future__ import annotations

from typing import Any

from .board import KING, NAMES, ROW, corners_for, piece

# Per move the king's knight made and per row it stands forward of its home edge: how much likelier that is for a
# knight without the king (as the inverse factor). The hard level, watched over 40 games, kept its king in the back
# knight beside its corner about two times in three, which 0.25 per row gives (docs/performance.md).
KING_HOP = 0.6
KING_ADVANCE = 0.25

SQUARE = {name: sq for sq, name in enumerate(NAMES)}


def likelihood(view: dict[str, Any], state: Any) -> float:
    """How well the knights `state` puts the unseen kings in fit how their owners have moved them. A seat whose
    king has been seen contributes nothing: its place is the same in every draw."""
    viewer, n = view.get("viewer"), view["num_players"]
    hops = {SQUARE[sq]: count for sq, count in view.get("knight_moves", {}).items()}
    weight = 1.0
    for seat, unseen in enumerate(view["unseen"]):
        if seat == viewer or "K" not in unseen:
            continue
        king = piece(seat, KING)
        row = ROW[corners_for(n)[seat]]
        for sq, cargo in state.cargo.items():
            if king in cargo:
                weight *= KING_HOP ** hops.get(sq, 0) * KING_ADVANCE ** row[sq]
                break
    return weight


__all__ = ["likelihood"]
