"""The positions the /rules pictures show: a few moves of a short example game, chosen to illustrate what each
game's guide (bot/guides/<game>.md) explains. The moves are played through the game's own engine, so every
picture is a legal position of the real rules.

A game without an example here shows its start position, which already explains it (Epaminondas, Archimedes).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RulesExample:
    players: int
    seed: int
    options: dict | None
    moves: tuple[str, ...]  # each played by the first seat to act, in order
    viewer: int | None  # a seat's own view shows its secret values: an example game has no secret to keep


EXAMPLES: dict[str, RulesExample] = {
    # Octagons, then tiles laid end to end against the other player's; the last one (Blue's L) scores
    # on both its ends at once, and its score dots show where.
    "myriath": RulesExample(2, 1, None, ("O@d4", "O@f6", "g7N:A.A", "g8E:A.A", "h8N:A.A", "h9E:A.A",
                                         "g7EN:A.Wr"), None),
    # Both armies deployed; South's 3/2/4 attacks North's 4/4/1, which turns both face up, and is repelled:
    # South's own values on its pieces, the revealed defender's values, the fight's mark and the fall-back.
    "myrmidons": RulesExample(2, 1, None, ("deploy 5/1/3,3/2/4,C,4/4/1,1/3/5,2/5/2",
                                           "deploy 5/1/3,3/2/4,C,4/4/1,1/3/5,2/5/2",
                                           "b1-b4", "d7-d6", "b4-d6"), 0),
    # A Mycenae army's secret cargo, then a loaded knight jumps and unloads a bishop beside it; its owner's view
    # shows what each knight still carries.
    "mycenae": RulesExample(2, 1, {"armies": ["mycenae", "plain"]},
                            ("cargo b2:K,P d2:R,B c1:B,P,P", "d2-e4", "g7-g6", "unload e4 B@f5"), 0),
}
