"""Carrying out one Mycenae move: a mutable copy of the state with the board operations, knock-outs and
take-overs the rules page describes."""

from __future__ import annotations

from typing import Sequence

from bot.engine.base import JSON, Event, IllegalMoveError, Outcome, event
from bot.engine.text import Text, join
from .board import (
    BISHOP,
    CARRIED_BY_LETTER,
    CORNERS,
    HORSE,
    KING,
    KNIGHT,
    LETTER,
    NAMES,
    NEIGHBOURS,
    PAWN,
    PIECE_WORD,
    ROOK,
    ROW,
    piece,
)
from .moves import _burn_kills_own_king, _burn_victims, _has_action, _promotes, _targets
from .notation import Burn, Load, PieceMove, Unload
from .state import State

def _pieces_json(codes: Sequence[int]) -> list[JSON]:
    return [{"owner": c >> 3, "type": LETTER[c & 7]} for c in codes]



def knockout_text(why: str, corner: str) -> Text:
    """Why a player is out, as a sentence about her corner ("a8 lost the king")."""
    texts = {
        "lost the king": Text("{corner} lost the king", corner=corner),
        "was reduced to a single unit": Text("{corner} was reduced to a single unit", corner=corner),
        "had no legal action": Text("{corner} had no legal action", corner=corner),
    }
    return texts.get(why) or Text("{corner} {reason}", corner=corner, reason=why)


class _Work:
    """A mutable copy of a state for the length of one `apply`; `Mycenae._freeze` turns it back into a State."""

    def __init__(self, state: State, mover: int):
        self.num_players = state.num_players
        self.armies = state.armies
        self.corners = state.corners
        self.board = bytearray(state.board)
        self.cargo = dict(state.cargo)
        self.known = dict(state.known)
        self.out = list(state.out)
        self.refused = state.refused
        self.revealed = list(state.revealed)
        self.sealed = set(state.sealed)
        self.hops = dict(state.hops)
        self.out_order = list(state.out_order)
        self.mover = mover
        self.ply = state.ply + 1
        self.events: list[Event] = []
        self.highlight: list[int] = []
        self.progress = False  # a capture, a burn or a pawn move: resets the 50-move count
        self.irreversible = False  # material lost or a player out: earlier positions cannot come back
        self.knockouts: list[str] = []
        self.outcome: Outcome | None = None

    def seat_name(self, seat: int) -> str:
        return CORNERS[self.corners[seat]].name

    def active(self) -> list[int]:
        return [s for s in range(self.num_players) if not self.out[s]]

    def next_seat(self, after: int) -> int:
        for step in range(1, self.num_players + 1):
            seat = (after + step) % self.num_players
            if not self.out[seat]:
                return seat
        return after

    # --- the board ---

    def put_horse_cargo(self, sq: int, codes: tuple[int, ...], seen: tuple[int, ...]) -> None:
        self.cargo[sq] = codes
        self.known[sq] = seen

    def move_piece(self, origin: int, target: int) -> None:
        code = self.board[origin]
        self.board[target], self.board[origin] = code, 0
        if code & 7 == HORSE:  # the cargo travels with its knight, and so does what nobody has seen inside
            self.put_horse_cargo(target, self.cargo.pop(origin), self.known.pop(origin))
            self.hops[target] = self.hops.pop(origin, 0) + 1
            if origin in self.sealed:
                self.sealed.remove(origin)
                self.sealed.add(target)

    def destroy_cargo(self, sq: int, cause: str) -> None:
        """The cargo of the knight on sq is destroyed and shown to everyone."""
        codes = self.cargo.pop(sq, ())
        self.known.pop(sq, None)
        self.sealed.discard(sq)
        record = {"ply": self.ply, "square": NAMES[sq], "owner": self.board[sq] >> 3, "cause": cause,
                  "pieces": _pieces_json(codes)}
        self.revealed.append(record)
        self.events.append(event("cargo_destroyed", None, **record))
        if codes:
            self.irreversible = True

    def remove(self, sq: int, cause: str) -> JSON:
        """Take the piece on sq off the board for good (its cargo too)."""
        code = self.board[sq]
        if code & 7 == HORSE:
            self.destroy_cargo(sq, cause)
            self.hops.pop(sq, None)
        self.board[sq] = 0
        self.irreversible = True
        return {"square": NAMES[sq], "owner": code >> 3, "type": LETTER[code & 7], "mycenaean": code & 7 == HORSE}

    def remove_carried(self, sq: int, code: int) -> None:
        self.cargo[sq] = _without(self.cargo[sq], code)
        if code in self.known[sq]:
            self.known[sq] = _without(self.known[sq], code)

    # --- knock-outs ---

    def has_king(self, seat: int) -> bool:
        king = piece(seat, KING)
        return king in self.board or any(king in codes for codes in self.cargo.values())

    def units(self, seat: int) -> int:
        on_board = sum(1 for c in self.board if c and c >> 3 == seat)
        return on_board + sum(1 for codes in self.cargo.values() for c in codes if c >> 3 == seat)

    def lost(self, seat: int) -> str | None:
        if not self.has_king(seat):
            return "lost the king"
        if self.units(seat) == 1:
            return "was reduced to a single unit"
        return None

    def settle(self) -> None:
        """Judge who is out after a move: the others first (a mover left as the last king wins), then the mover;
        repeat while take-overs destroy more cargo."""
        mover_judged = False
        while self.outcome is None:
            newly = [(s, why) for s in self.active() if s != self.mover and (why := self.lost(s))]
            if not newly and not mover_judged:
                mover_judged = True
                if not self.out[self.mover] and (why := self.lost(self.mover)):
                    newly = [(self.mover, why)]
            if not newly:
                return
            for seat, why in newly:
                self.knock_out(seat, why)
            if len(self.active()) <= 1:
                self.finish_by_knockout()
                return
            for seat, why in newly:
                self.dispose(seat, why)

    def knock_out(self, seat: int, why: str) -> None:
        self.out[seat] = True
        self.out_order.append(seat)
        self.irreversible = True
        self.knockouts.append(knockout_text(why, self.seat_name(seat)))
        self.events.append(event("out", seat=seat, corner=self.seat_name(seat), reason=why))

    def leave(self, seat: int, reason: str, in_setup: bool) -> None:
        """`seat` leaves the game (resigned, timed out). Nobody knocked her out, so nobody takes her pieces over:
        they are removed like the last unit of a player out by the single-unit rule, and her knights' cargo is
        destroyed and shown as on any destruction. Guests inside her knights are destroyed with them, which may
        knock their owners out in turn (judged as after any move; never during the setup, when nothing is
        loaded yet and a player still choosing has no king anywhere)."""
        self.out[seat] = True
        self.out_order.append(seat)
        self.irreversible = True
        self.knockouts.append(reason)
        self.events.append(event("out", seat=seat, corner=self.seat_name(seat), reason=reason))
        if len(self.active()) <= 1:
            self.finish_by_knockout()
            return
        self.remove_all(seat, "removed")
        if not in_setup:
            self.settle()

    def finish_by_knockout(self) -> None:
        active = self.active()
        winners = tuple(active[:1])
        self.outcome = Outcome(winners, join(self.knockouts) if self.knockouts else Text("last king standing"))
        self.events.append(event("game_over", winners=list(winners), reason=self.outcome.reason))

    def dispose(self, seat: int, why: str) -> None:
        """What happens to the pieces of a player who is out."""
        if why == "was reduced to a single unit":
            self.remove_all(seat, "removed")  # his last unit
            return
        heir = self.mover
        if self.num_players >= 3 and heir != seat and not self.out[heir]:
            self.take_over(seat, heir)
        else:
            self.remove_all(seat, "removed")

    def remove_king(self, seat: int) -> None:
        king = piece(seat, KING)
        for sq in range(64):
            if self.board[sq] == king:
                self.events.append(event("removed", seat=seat, pieces=[self.remove(sq, "removed")]))
        for sq, codes in list(self.cargo.items()):
            if king in codes:
                self.remove_carried(sq, king)
                self.events.append(event("removed", seat=seat, pieces=[{"square": NAMES[sq], "owner": seat,
                                                                        "type": "K", "carried": True}]))
                self.irreversible = True

    def remove_all(self, seat: int, cause: str) -> None:
        gone = [self.remove(sq, cause) for sq in range(64) if self.board[sq] and self.board[sq] >> 3 == seat]
        for sq, codes in list(self.cargo.items()):
            for code in [c for c in codes if c >> 3 == seat]:
                self.remove_carried(sq, code)
                gone.append({"square": NAMES[sq], "owner": seat, "type": LETTER[code & 7], "carried": True})
        if gone:
            self.irreversible = True
            self.events.append(event("removed", seat=seat, pieces=gone))

    def take_over(self, seat: int, heir: int) -> None:
        """The heir takes every remaining piece of `seat`; knights taken over lose their cargo."""
        for sq in range(64):
            code = self.board[sq]
            if code and code >> 3 == seat:
                if code & 7 == HORSE:
                    self.destroy_cargo(sq, "taken over")
                    self.put_horse_cargo(sq, (), ())
                self.board[sq] = piece(heir, code & 7)
        for sq in list(self.cargo):
            self.cargo[sq] = _reowned(self.cargo[sq], seat, heir)
            self.known[sq] = _reowned(self.known[sq], seat, heir)
        self.events.append(event("takeover", seat=heir, corner=self.seat_name(heir), taken=seat,
                                 taken_corner=self.seat_name(seat)))

    def drop_stuck(self, seat: int, heir: int) -> None:
        """A player with no legal action on her turn is out; the player who moved last takes over the rest."""
        self.knock_out(seat, "had no legal action")
        if len(self.active()) <= 1:
            self.finish_by_knockout()
            return
        self.remove_king(seat)
        if self.num_players >= 3 and heir != seat and not self.out[heir]:
            self.take_over(seat, heir)
        else:
            self.remove_all(seat, "removed")
        self.mover = heir
        self.settle()

    def start_turn(self, seat: int) -> int:
        """Hand the turn to `seat` (or the next player with a legal action); returns who is to move."""
        while self.outcome is None and not _has_action(self, seat):
            self.drop_stuck(seat, self.mover)
            seat = self.next_seat(seat)
        return seat

    # --- the moves ---

    def check_piece_move(self, move: PieceMove) -> PieceMove:
        """The move as it will be played (a capture written with '-' becomes 'x'), or why it is illegal."""
        seat, board = self.mover, self.board
        code = board[move.origin]
        if not code:
            raise IllegalMoveError(Text("There is no piece on {square}", square=NAMES[move.origin]))
        if code >> 3 != seat:
            raise IllegalMoveError(Text("{square} is not your piece", square=NAMES[move.origin]))
        kind = code & 7
        targets = dict(_targets(board, move.origin, code, self.corners))
        if move.target not in targets:
            if kind == HORSE and board[move.target] and board[move.target] >> 3 != seat:
                raise IllegalMoveError(Text("A Mycenaean knight cannot capture"))
            raise IllegalMoveError(Text("The {piece} on {square} cannot move to {target}", piece=PIECE_WORD[kind],
                                        square=NAMES[move.origin], target=NAMES[move.target]))
        promotes = _promotes(code, move.target, self.corners)
        if promotes and not move.promotion:
            raise IllegalMoveError(Text("A pawn reaching the far edge promotes: add =R, =B or =N"))
        if move.promotion and not promotes:
            raise IllegalMoveError(Text("Only a pawn reaching its far edge promotes"))
        return PieceMove(move.origin, move.target, targets[move.target], move.promotion)

    def piece_move(self, move: PieceMove) -> str:
        move = self.check_piece_move(move)
        seat, board = self.mover, self.board
        kind = board[move.origin] & 7
        text = str(move)
        if move.capture:
            victim = board[move.target]
            self.events.append(event("capture", seat=seat, square=NAMES[move.target], victim=victim >> 3,
                                     victim_corner=self.seat_name(victim >> 3), piece=LETTER[victim & 7],
                                     mycenaean=victim & 7 == HORSE))
            self.remove(move.target, "captured")
            self.progress = True
        self.move_piece(move.origin, move.target)
        self.events.append(event("move", seat=seat, corner=self.seat_name(seat), move=text,
                                 origin=NAMES[move.origin], target=NAMES[move.target], piece=LETTER[kind],
                                 mycenaean=kind == HORSE))
        if kind == PAWN:
            self.progress = True
        if move.promotion:
            self.promote(move.target, move.promotion)
        self.highlight = [move.origin, move.target]
        return text

    def promote(self, sq: int, letter: str) -> None:
        seat = self.mover
        kind = {"R": ROOK, "B": BISHOP}.get(letter) or (HORSE if self.armies[seat] == "mycenae" else KNIGHT)
        self.board[sq] = piece(seat, kind)
        if kind == HORSE:  # a new, empty Mycenaean knight
            self.put_horse_cargo(sq, (), ())
        self.events.append(event("promotion", seat=seat, square=NAMES[sq], piece=letter, mycenaean=kind == HORSE))

    def own_knight(self, sq: int, action: str) -> None:
        code = self.board[sq]
        if code & 7 != HORSE:
            raise IllegalMoveError(Text("There is no Mycenaean knight on {square}", square=NAMES[sq]))
        if code >> 3 != self.mover:
            raise IllegalMoveError(Text("Only its owner may load the knight on {square}", square=NAMES[sq])
                                   if action == "load" else
                                   Text("Only its owner may burn the knight on {square}", square=NAMES[sq]))

    def check_load(self, move: Load) -> int | None:
        """Validate a load; returns the other player whose pieces it names (a request), or None."""
        self.own_knight(move.knight, "load")
        others = set()
        for sq in move.squares:
            code = self.board[sq]
            if sq not in NEIGHBOURS[move.knight]:
                raise IllegalMoveError(Text("{square} is not next to the knight on {knight}", square=NAMES[sq],
                                            knight=NAMES[move.knight]))
            if not code:
                raise IllegalMoveError(Text("There is no piece on {square}", square=NAMES[sq]))
            if code & 7 in (KNIGHT, HORSE):
                raise IllegalMoveError(Text("Knights cannot carry knights"))
            if code >> 3 != self.mover:
                others.add(code >> 3)
        if not others:
            return None
        if len(others) > 1:
            raise IllegalMoveError(Text("A load may name the pieces of one other player only"))
        if str(move) in self.refused:
            raise IllegalMoveError(Text("That request was refused this turn"))
        return others.pop()

    def load(self, move: Load) -> str:
        codes = [self.board[sq] for sq in move.squares]
        for sq in move.squares:
            self.board[sq] = 0
        self.cargo[move.knight] = tuple(sorted(self.cargo[move.knight] + tuple(codes)))
        self.known[move.knight] = tuple(sorted(self.known[move.knight] + tuple(codes)))
        text = str(move)
        self.events.append(event("load", seat=self.mover, corner=self.seat_name(self.mover), move=text,
                                 knight=NAMES[move.knight],
                                 pieces=[{"square": NAMES[sq], "owner": c >> 3, "type": LETTER[c & 7]}
                                         for sq, c in zip(move.squares, codes)]))
        self.highlight = [move.knight, *move.squares]
        return text

    def unload(self, move: Unload) -> str:
        self.check_unload(move)
        seat, knight = self.mover, move.knight
        for sq, letter in move.placements:
            code = piece(seat, CARRIED_BY_LETTER[letter])
            self.remove_carried(knight, code)
            self.board[sq] = code
        text = str(move)
        self.events.append(event("unload", seat=seat, corner=self.seat_name(seat), move=text, knight=NAMES[knight],
                                 pieces=[{"square": NAMES[sq], "owner": seat, "type": letter}
                                         for sq, letter in move.placements]))
        self.highlight = [knight, *(sq for sq, _ in move.placements)]
        return text

    def check_unload(self, move: Unload) -> None:
        seat, knight = self.mover, move.knight
        if self.board[knight] & 7 != HORSE:
            raise IllegalMoveError(Text("There is no Mycenaean knight on {square}", square=NAMES[knight]))
        inside = self.cargo[knight]
        mine = [c for c in inside if c >> 3 == seat]
        if not mine:  # says nothing about another player's secret: only seat's own pieces count
            raise IllegalMoveError(Text("The knight on {square} carries none of your pieces", square=NAMES[knight]))
        for sq, letter in move.placements:
            if sq not in NEIGHBOURS[knight]:
                raise IllegalMoveError(Text("{square} is not next to the knight on {knight}", square=NAMES[sq],
                                            knight=NAMES[knight]))
            if self.board[sq]:
                raise IllegalMoveError(Text("{square} is not empty (unloading never captures)", square=NAMES[sq]))
            if letter == "P" and ROW[self.corners[seat]][sq] == 7:
                raise IllegalMoveError(Text("A pawn may not be unloaded onto its promotion edge"))
        left = list(mine)
        for _, letter in move.placements:
            code = piece(seat, CARRIED_BY_LETTER[letter])
            if code not in left:
                raise IllegalMoveError(Text("The knight on {square} does not carry that many of your pieces of type "
                                            "{letter}", square=NAMES[knight], letter=letter))
            left.remove(code)

    def check_burn(self, move: Burn) -> None:
        self.own_knight(move.knight, "burn")
        if not self.cargo[move.knight]:
            raise IllegalMoveError(Text("Only a knight that carries something can burn"))
        if _burn_kills_own_king(self, self.mover, move.knight):
            raise IllegalMoveError(Text("That burn would destroy your own king"))

    def burn(self, move: Burn) -> str:
        self.check_burn(move)
        knight = move.knight
        victims = _burn_victims(self.board, knight)
        text = str(move)
        self.events.append(event("burn", seat=self.mover, corner=self.seat_name(self.mover), move=text,
                                 knight=NAMES[knight]))
        destroyed = [self.remove(sq, "burnt") for sq in victims]
        self.events.append(event("destroyed", seat=self.mover, knight=NAMES[knight], pieces=destroyed))
        self.progress = True
        self.highlight = victims
        return text


def _without(codes: tuple[int, ...], code: int) -> tuple[int, ...]:
    i = codes.index(code)
    return codes[:i] + codes[i + 1 :]


def _reowned(codes: tuple[int, ...], seat: int, heir: int) -> tuple[int, ...]:
    if not any(c >> 3 == seat for c in codes):
        return codes
    return tuple(sorted(piece(heir, c & 7) if c >> 3 == seat else c for c in codes))
