"""How likely a sampled Myrmidons state is, given what the viewer watched the opponent do with its hidden pieces.

The sampler (sampling.py) draws what a view hides from the rules and players' usual set-ups alone. Players also
treat their pieces by what they are, and everyone watches them do it (Stankiewicz and Schadd 2009 predict
Stratego ranks this way): the Commander, whose loss ends the game and whose shield is 1, is kept back, moved little
and hardly ever sent into a fight, while the strong swords attack and advance. So a state whose Commander is a
piece that has marched up the board and attacked twice fits what was seen worse than one whose Commander has
stayed home. `likelihood` is that fit, as the product over the hidden pieces of how likely each one's public
record (`actions`, `attacks`, how far it stands from its home rank) is for the type the state gives it: the
computer's search levels and the Explore board weigh their draws by it (importance weights), never reading more
than the view. The deployment counts too (`setup_likelihood`): pieces are numbered by the file they started on, so
a draw says how its army was deployed, and players deploy the Commander off the corners and between their hardest
swords, as the computer's own set-up heuristic does.
"""

from __future__ import annotations

from typing import Any

from .board import HOME_RANK, PER_SEAT, SEAT_LETTERS, piece_index
from .sampling import deployment_worth

# Per move or order a hidden piece took part in, per fight it started and per rank it stands ahead of its home
# rank: how much likelier that is for a non-Commander than for the Commander (as the inverse factors below). A
# Commander moves about half as often as another piece, starts a fight a fifth as often and stays near home.
COMMANDER_ACTION = 0.5
COMMANDER_ATTACK = 0.2
COMMANDER_ADVANCE = 0.7
SETUP_SHARPNESS = 3.0


def piece_likelihood(code: str, sword: int, move: int, actions: int, attacks: int, advance: int) -> float:
    """How likely one piece's public record is for a type (relative: only ratios between types matter). Besides
    the Commander, fast pieces are moved a little more and hard swords start more fights."""
    if code == "C":
        return COMMANDER_ACTION ** actions * COMMANDER_ATTACK ** attacks * COMMANDER_ADVANCE ** advance
    return (0.85 + 0.05 * move) ** actions * ((1.0 + sword) / 4.0) ** attacks


def setup_likelihood(codes: list[str]) -> float:
    """How likely a deployment (codes by file a→f) is: players deploy as the set-up heuristics judge a deployment
    (`deployment_worth`: the Commander off the corners and flanked by strong swords), tempered so that another
    deployment is never ruled out. A deployment worth one point more is `SETUP_SHARPNESS` times as likely."""
    return SETUP_SHARPNESS ** deployment_worth(codes)


def likelihood(view: dict[str, Any], state: Any) -> float:
    """How well `state` (drawn from `view`) fits the public record of the pieces the viewer cannot see. Pieces
    she knows have the same type in every draw, so they are left out: they would only scale every weight alike."""
    viewer = view.get("viewer")
    weight = 1.0
    for p in (*view["cells"].values(), *view["eliminated_pieces"]):
        if p["known"] or p["owner"] == viewer:
            continue
        piece = state.pieces[piece_index(SEAT_LETTERS.index(p["id"][0]), int(p["id"][1:]))]
        if piece is None:
            continue
        kind = piece.kind
        advance = abs(int(p["square"][1:]) - 1 - HOME_RANK[p["owner"]]) if "square" in p else 0
        weight *= piece_likelihood(kind.code, kind.sword, kind.move, p.get("actions", 0), p.get("attacks", 0),
                                   advance)
    for seat in (0, 1):  # how each hidden army was deployed (pieces are numbered by the file they started on)
        if seat == viewer:
            continue
        pieces = [state.pieces[piece_index(seat, n)] for n in range(1, PER_SEAT + 1)]
        if all(pieces):
            weight *= setup_likelihood([piece.kind.code for piece in pieces])
    return weight


__all__ = ["likelihood", "piece_likelihood"]
