"""Mycenae: corner chess for two to four players in which the Mycenae army rides hidden inside wooden horses.

The rules are those of `docs/rules/mycenae.md`. Decisions this module takes where the page is silent (each one
is tested in tests/test_mycenae*.py, leaving in tests/test_contract_extras.py):

- Seat names are the players' corners ("a1", "a8", "h8", "h1"; with two players "a1" and "h8").
- The `armies` option may be shorter than the number of players (its default is the two-player list): the
  missing seats play plain.
- A pawn always moves towards its *current* owner's far edge and promotes to its current owner's types, so a pawn
  taken over turns round. (Keeps one pawn letter per owner, which the unload notation needs.) A taken-over pawn
  that already stands on its new owner's promotion edge simply cannot move.
- A pawn on its owner's first row steps one square forward or captures as usual; only the double step is missing.
- The power lives in the horse: whoever owns a Mycenaean knight (also after a take-over) may load, unload and burn
  with it, and it never captures.
- A load may name the mover's own pieces together with the pieces of one other player (with two players, the
  opponent); it is then a request.
- "Carries at least one piece" (for a burn) counts guests too.
- A player with no legal action on her turn is out like a player whose king was lost: her king is removed and, with
  three or more players, the player who moved last takes over the rest. A player out by his own move (possible
  only through a take-over chain) has all his pieces removed.
- The 50-move rule counts completed turns (a refused request is no turn) and fires after 50 × (players still in)
  turns without a capture, a burn or a pawn move. Repetition compares board, all cargo, players out and the side
  to move at the start of each turn.
- A player who leaves (resigns, runs out of time: `eliminate`) was knocked out by nobody, so nobody takes her
  pieces over: they are removed, as the last unit of a player out by the single-unit rule is, and her knights'
  cargo is destroyed and shown like any destroyed cargo (guests inside are destroyed with it, which can knock
  their owners out as after any move). She may leave during the cargo setup too (the setup goes on without her)
  or while a request is pending: a request to or from her is cancelled (if she asked, the turn passes on; if she
  was asked, the requester acts again); a request between two others stands. With two players in, the other
  wins at once with the reason given, and the board is left as it was.
- `standings`: the winner (for a draw, every player still in, together), then the others, the last to go out
  first, whether knocked out or gone.

Tests and debugging build positions from a text board with `position()`.
The package reads top-down: `board` (piece codes, square tables, corners), `notation` (moves and their text),
`state` (the state and `position()`), `moves` (move generation), `turn` (carrying out a move), `picker` (the
step-by-step menu and autocomplete) and `game` (the contract). The registry reads `GAME` from here.
"""

from .board import BISHOP, HORSE, KING, KNIGHT, NAMES, ORTHO, PAWN, ROOK
from .game import GAME, INFO, Mycenae
from .notation import Answer, Burn, CargoSetup, Load, Move, PieceMove, Unload, parse_move
from .state import State, position

__all__ = [
    "GAME", "INFO", "Mycenae", "State", "position", "parse_move", "Move", "PieceMove", "Load", "Unload", "Burn",
    "CargoSetup", "Answer", "KING", "ROOK", "BISHOP", "KNIGHT", "PAWN", "HORSE", "ORTHO", "NAMES",
]
