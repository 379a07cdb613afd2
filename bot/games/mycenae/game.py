"""The Mycenae engine: the contract methods, the view, dump/load, text board and narration."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Sequence

from bot.engine.base import JSON, Choices, Event, Game, GameInfo, IllegalMoveError, OptionSpec, Outcome, PickerOption, event
from bot.engine.text import N_, Text, join
from .board import (
    ARMY_CHOICES,
    CARRIED,
    CARRIED_BY_LETTER,
    CORNERS,
    DEFAULT_ARMIES,
    HORSE,
    HORSE_SQUARES,
    LETTER,
    NAMES,
    PIECE_WORD,
    SETUP_CARGO,
    piece,
)
from .moves import _cargo_moves, _turn_moves, clear_caches
from .notation import Answer, Burn, CargoSetup, Load, Move, PieceMove, Unload, parse_load, parse_move
from .picker import _cargo_choices, _move_families, _starts_with_command, _take, _turn_choices
from .posterior import likelihood
from .sampling import sample_state
from .state import State, _army_options, _home_board, _horses, _position_digest
from .turn import _Work, _pieces_json, knockout_text

FIFTY_MOVES = Text("fifty-move rule: 50 moves by every player without a capture, burn or pawn move")

# --- metadata ---------------------------------------------------------------------------------------------------

INFO = GameInfo(
    key="mycenae",
    title="Mycenae",
    min_players=2,
    max_players=4,
    hidden_information=True,
    summary=(
        "Corner chess for two to four players on an 8×8 board: no check, capture the king. The Mycenae army starts "
        "hidden inside three Mycenaean knights that cannot capture but carry pieces: each turn move a piece, load "
        "adjacent pieces into a knight, unload them around it, or burn a loaded knight to destroy it, its cargo and "
        "everything orthogonally next to it. Nobody but its owner knows what a knight carries. The last king wins."
    ),
    options=(
        OptionSpec(
            key="armies",
            description=Text("Each player's army: mycenae (hidden cargo in three knights) or plain (K, R, B, N, "
                             "4 pawns)"),
            default=DEFAULT_ARMIES,
            choices=ARMY_CHOICES,
            per_seat=True,
        ),
    ),
    seat_names=("a1", "h8"),
)

# --- the game ---------------------------------------------------------------------------------------------------


class Mycenae(Game):
    info = INFO
    RULES_VERSION = 1

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if not INFO.min_players <= num_players <= INFO.max_players:
            raise ValueError("Mycenae is for two to four players")
        armies = _army_options(num_players, options)
        board = _home_board(num_players, armies)
        horses: dict[int, tuple[int, ...]] = {sq: () for sq in _horses(board)}
        waiting = tuple(s for s in range(num_players) if armies[s] == "mycenae")
        out = (False,) * num_players
        history = () if waiting else (_position_digest(board, horses, 0, out),)
        return State(num_players, armies, bytes(board), horses, dict(horses), out, waiting=waiting, history=history,
                     sealed=tuple(horses))

    def to_act(self, state: State) -> list[int]:
        if state.outcome is not None:
            return []
        if state.waiting:
            return list(state.waiting)
        if state.pending:
            return [state.pending[1]]
        return [state.turn]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.waiting:
            return list(_cargo_moves(state.corners[seat]))
        if state.pending:
            return ["consent", "refuse"]
        return _turn_moves(state, seat)

    def clear_caches(self) -> None:
        clear_caches()

    def is_private_move(self, move: str) -> bool:
        return move.strip().lower().startswith("cargo")

    def parse(self, text: str) -> Move:
        return parse_move(text)

    # --- apply ---

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list[Event]]:
        parsed = self._parsed_for(state, seat, move)
        if isinstance(parsed, CargoSetup):
            return self._apply_cargo(state, seat, parsed)
        if isinstance(parsed, Answer):
            return self._apply_answer(state, seat, parsed)
        work = _Work(state, seat)
        if isinstance(parsed, PieceMove):
            text = work.piece_move(parsed)
        elif isinstance(parsed, Load):
            asked = work.check_load(parsed)
            if asked is not None:
                return self._request(state, seat, asked, str(parsed))
            text = work.load(parsed)
        elif isinstance(parsed, Unload):
            text = work.unload(parsed)
        else:
            text = work.burn(parsed)
        return self._end_turn(state, work, text)

    def canonical(self, state: State, seat: int, text: str) -> str:
        """The move as `apply` would log it (letters and squares in notation order, a capture written with '-'
        as 'x'), checked as `apply` checks it but without playing it."""
        parsed = self._parsed_for(state, seat, text)
        if isinstance(parsed, CargoSetup):
            return self._cargo_loads(state, seat, parsed)[0]
        if isinstance(parsed, Answer):
            return str(parsed)
        work = _Work(state, seat)
        if isinstance(parsed, PieceMove):
            return str(work.check_piece_move(parsed))
        if isinstance(parsed, Load):
            work.check_load(parsed)
        elif isinstance(parsed, Unload):
            work.check_unload(parsed)
        else:
            work.check_burn(parsed)
        return str(parsed)

    def _parsed_for(self, state: State, seat: int, text: str) -> Move:
        """The parsed move, once the checks that do not depend on its details have passed."""
        if state.outcome is not None:
            raise IllegalMoveError(Text("The game is over"))
        parsed = parse_move(text)
        if seat not in self.to_act(state):
            if state.waiting and 0 <= seat < state.num_players and state.armies[seat] == "mycenae":
                raise IllegalMoveError(Text("You have chosen your cargo; wait for the others"))
            raise IllegalMoveError(Text("It is not your turn"))
        if state.waiting:
            if not isinstance(parsed, CargoSetup):
                raise IllegalMoveError(Text("First choose what your knights carry (cargo b2:K,P d2:R,B c1:B,P,P)"))
            return parsed
        if isinstance(parsed, CargoSetup):
            raise IllegalMoveError(Text("The cargo was chosen before the first move"))
        if state.pending:
            if not isinstance(parsed, Answer):
                raise IllegalMoveError(Text("Answer the request first: consent or refuse"))
            return parsed
        if isinstance(parsed, Answer):
            raise IllegalMoveError(Text("There is no request to answer"))
        return parsed

    def _apply_cargo(self, state: State, seat: int, move: CargoSetup) -> tuple[State, list[Event]]:
        text, loads = self._cargo_loads(state, seat, move)
        order = HORSE_SQUARES[state.corners[seat]]
        cargo = dict(state.cargo)
        for sq in order:
            cargo[sq] = tuple(sorted(piece(seat, CARRIED_BY_LETTER[letter]) for letter in loads.get(sq, ())))
        waiting = tuple(s for s in state.waiting if s != seat)
        history = () if waiting else (_position_digest(state.board, cargo, state.turn, state.out),)
        events = [event("cargo", visible_to=[seat], seat=seat, move=text,
                        cargo={NAMES[sq]: list(loads[sq]) for sq in order if sq in loads})]
        return replace(state, cargo=cargo, waiting=waiting, ply=state.ply + 1, history=history), events

    @staticmethod
    def _cargo_loads(state: State, seat: int, move: CargoSetup) -> tuple[str, dict[int, tuple[str, ...]]]:
        """The canonical text of a cargo choice and what it puts in each knight, or why it is not one."""
        order = HORSE_SQUARES[state.corners[seat]]
        loads: dict[int, tuple[str, ...]] = {}
        for sq, letters in move.loads:
            if sq not in order:
                raise IllegalMoveError(Text("Your knights start on {squares}",
                                            squares=", ".join(NAMES[s] for s in order)))
            if sq in loads:
                raise IllegalMoveError(Text("{square} is listed twice", square=NAMES[sq]))
            loads[sq] = letters
        if sorted(letter for letters in loads.values() for letter in letters) != sorted("KRBBPPP"):
            raise IllegalMoveError(Text("Spread exactly K, R, B, B, P, P, P over your knights"))
        text = "cargo " + " ".join(f"{NAMES[sq]}:{','.join(loads[sq])}" for sq in order if sq in loads)
        return text, loads

    def _request(self, state: State, seat: int, asked: int, text: str) -> tuple[State, list[Event]]:
        load = parse_load(text)
        ev = event("request", seat=seat, corner=CORNERS[state.corners[seat]].name, asked=asked,
                   asked_corner=CORNERS[state.corners[asked]].name, move=text,
                   knight=NAMES[load.knight], squares=[NAMES[sq] for sq in load.squares])
        return replace(state, pending=(seat, asked, text), ply=state.ply + 1, last_move=text,
                        last_squares=(load.knight, *load.squares), last_mover=seat), [ev]

    def _apply_answer(self, state: State, seat: int, answer: Answer) -> tuple[State, list[Event]]:
        assert state.pending is not None  # an answer is legal only while a request waits for it
        requester, _, text = state.pending
        if answer.consent:
            work = _Work(replace(state, pending=None), requester)
            work.events.append(event("consent", seat=seat, corner=work.seat_name(seat), requester=requester,
                                     move=text))
            work.load(parse_load(text))
            return self._end_turn(state, work, "consent")
        work = _Work(replace(state, pending=None, refused=state.refused + (text,)), seat)
        work.events.append(event("refuse", seat=seat, corner=work.seat_name(seat), requester=requester,
                                 move=text))
        turn = work.start_turn(requester)  # the requester acts again (and is out if nothing is left to her)
        refused = work.refused if turn == requester else ()
        return self._freeze(state, work, "refuse", turn, state.quiet, state.history, refused), work.events

    def _end_turn(self, state: State, work: _Work, text: str) -> tuple[State, list[Event]]:
        work.settle()
        turn = state.turn
        if work.outcome is None:
            work.refused = ()
            turn = work.start_turn(work.next_seat(work.mover))
        quiet = 0 if work.progress else state.quiet + 1
        history = () if work.irreversible else state.history
        if work.outcome is None:
            digest = _position_digest(work.board, work.cargo, turn, work.out)
            history += (digest,)
            if quiet >= 50 * len(work.active()):
                self._draw(work, FIFTY_MOVES)
            elif history.count(digest) >= 3:
                self._draw(work, Text("threefold repetition"))
        return self._freeze(state, work, text, turn, quiet, history), work.events

    @staticmethod
    def _draw(work: _Work, reason: str) -> None:
        work.outcome = Outcome((), reason)
        work.events.append(event("game_over", winners=[], reason=reason))

    @staticmethod
    def _freeze(state: State, work: _Work, text: str, turn: int, quiet: int, history: tuple[str, ...],
                refused: tuple[str, ...] = ()) -> State:
        return State(
            state.num_players, state.armies, bytes(work.board), work.cargo, work.known, tuple(work.out),
            turn=turn, refused=refused, ply=work.ply, quiet=quiet, history=history, last_move=text,
            last_squares=tuple(work.highlight) if work.highlight else state.last_squares,
            last_mover=work.mover, revealed=tuple(work.revealed), outcome=work.outcome,
            sealed=tuple(sorted(work.sealed)), out_order=tuple(work.out_order), hops=work.hops,
        )

    # --- end check ---

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    # --- leaving, standings, sampling ---

    def in_secret_setup(self, state: State) -> bool:
        return state.outcome is None and bool(state.waiting)

    def in_play(self, state: State) -> list[int]:
        return [] if state.outcome is not None else [s for s in range(state.num_players) if not state.out[s]]

    def eliminate(self, state: State, seat: int, reason: str) -> tuple[State, list[Event]]:
        """`seat` leaves at any time (see `_Work.leave`). A request to or from her is cancelled: if she asked,
        the turn passes on; if she was asked, the requester acts again. A request between two others stands,
        unless her leaving knocked one of them out."""
        if seat not in self.in_play(state):
            raise IllegalMoveError(Text("The game is over") if state.outcome else
                                   Text("Seat {seat} is not in the game", seat=seat))
        work = _Work(state, seat)
        waiting = tuple(s for s in state.waiting if s != seat)
        work.leave(seat, reason, in_setup=bool(state.waiting))
        pending = state.pending
        if pending and (seat in pending[:2] or work.out[pending[0]] or work.out[pending[1]]):
            work.events.append(event("cancelled", seat=pending[0], corner=work.seat_name(pending[0]),
                                     move=pending[2]))
            pending = None
        turn, refused = state.turn, state.refused
        history: tuple[str, ...] = ()
        if work.outcome is None:
            if turn == seat:  # her turn, or her request: the next player moves
                turn, refused = work.next_seat(seat), ()
            if not waiting and not pending:
                turn = work.start_turn(turn)
                refused = refused if turn == state.turn else ()
        if work.outcome is None and not waiting:
            history = (_position_digest(work.board, work.cargo, turn, work.out),)  # pieces left: nothing repeats
            if state.quiet >= 50 * len(work.active()):
                self._draw(work, FIFTY_MOVES)
        new_state = replace(
            state, board=bytes(work.board), cargo=work.cargo, known=work.known, out=tuple(work.out),
            waiting=waiting if work.outcome is None else (), turn=turn,
            pending=pending if work.outcome is None else None, refused=refused, ply=work.ply, history=history,
            revealed=tuple(work.revealed), outcome=work.outcome, sealed=tuple(sorted(work.sealed)),
            out_order=tuple(work.out_order), hops=work.hops,
        )
        return new_state, work.events

    def standings(self, state: State) -> list[list[int]]:
        """Winners (for a draw: everyone still in), then the others, the last to go out first. Seats out in a
        state saved before the order was kept went out before all the others, together."""
        if state.outcome is None:
            return [self.in_play(state)]
        top = list(state.outcome.winners) or [s for s in range(state.num_players) if not state.out[s]]
        ordered = [[s] for s in reversed(state.out_order) if s not in top]
        unordered = [s for s in range(state.num_players) if state.out[s] and s not in state.out_order + tuple(top)]
        return [top] + ordered + ([unordered] if unordered else [])

    def sample_state(self, view: JSON, rng: random.Random) -> State:
        return sample_state(view, rng)

    def likelihood(self, view: JSON, state: State) -> float:
        return likelihood(view, state)

    # --- view ---

    def view(self, state: State, viewer: int | None) -> JSON:
        return self._view(state, viewer, reveal=False)

    def revealed_view(self, state: State) -> JSON:
        """Every knight's cargo shown, for everyone: the reveal once the match is over."""
        return self._view(state, None, reveal=True)

    def _view(self, state: State, viewer: int | None, *, reveal: bool) -> JSON:
        corners = state.corners
        seat_names = [CORNERS[c].name for c in corners]
        board = [
            {"square": NAMES[sq], "owner": code >> 3, "type": LETTER[code & 7], "mycenaean": code & 7 == HORSE}
            for sq, code in enumerate(state.board) if code
        ]
        own_cargo = {
            NAMES[sq]: _pieces_json(codes) for sq, codes in sorted(state.cargo.items())
            if reveal or (viewer is not None and state.board[sq] >> 3 == viewer)
        }
        pending = None
        if state.pending:
            requester, asked, text = state.pending
            load = parse_load(text)
            pending = {"requester": requester, "asked": asked, "move": text, "knight": NAMES[load.knight],
                       "squares": [NAMES[sq] for sq in load.squares]}
        active = sum(1 for o in state.out if not o)
        return {
            "game": INFO.key,
            "num_players": state.num_players,
            "viewer": viewer,
            "to_act": self.to_act(state),
            "last_move": state.last_move,
            "last_squares": [NAMES[sq] for sq in state.last_squares],
            "ply": state.ply,
            "outcome": state.outcome.to_json() if state.outcome else None,
            "seat_names": seat_names,
            "corners": seat_names,
            "armies": list(state.armies),
            "pawn_forward": [list(CORNERS[c].forward) for c in corners],
            "promotions": [
                {"R": "Rook", "B": "Bishop", "N": "Mycenaean knight (empty)" if army == "mycenae" else "Knight"}
                for army in state.armies
            ],
            "board": board,
            "cargo": own_cargo,
            "known_cargo": {NAMES[sq]: _pieces_json(codes) for sq, codes in sorted(state.known.items())},
            "revealed": [dict(r) for r in state.revealed],
            "out": [s for s in range(state.num_players) if state.out[s]],
            "turn": None if state.waiting or state.outcome else state.turn,
            "setup": {
                "waiting": list(state.waiting),
                "pieces": [LETTER[k] for k in SETUP_CARGO],
                "knights": {str(s): [NAMES[sq] for sq in HORSE_SQUARES[corners[s]]]
                            for s in range(state.num_players) if state.armies[s] == "mycenae"},
            },
            "pending": pending,
            "refused": list(state.refused),
            "quiet_turns": state.quiet,
            "quiet_limit": 50 * active,
            "out_order": list(state.out_order),
            "last_mover": state.last_mover,
            # Public facts anyone who watched every move knows (loads, unloads and destructions are public), kept
            # here so a view alone says what is still unseen: which knights may hold unseen pieces, which unseen
            # pieces each player has in all, and how often the current position has occurred.
            "sealed": [NAMES[sq] for sq in state.sealed],
            "unseen": [_unseen_letters(state, s) for s in range(state.num_players)],
            "repetitions": state.history.count(state.history[-1]) if state.history else 0,
            # How many times each Mycenaean knight has moved (public: everyone watched it).
            "knight_moves": {NAMES[sq]: count for sq, count in sorted(state.hops.items())},
        }

    # --- dump / load ---

    def dump(self, state: State) -> JSON:
        return {
            **self.stamp(),
            "num_players": state.num_players,
            "armies": list(state.armies),
            "board": state.board.hex(),
            "cargo": [[sq, list(codes)] for sq, codes in sorted(state.cargo.items())],
            "known": [[sq, list(codes)] for sq, codes in sorted(state.known.items())],
            "out": list(state.out),
            "waiting": list(state.waiting),
            "turn": state.turn,
            "pending": list(state.pending) if state.pending else None,
            "refused": list(state.refused),
            "ply": state.ply,
            "quiet": state.quiet,
            "history": list(state.history),
            "last_move": state.last_move,
            "last_squares": list(state.last_squares),
            "last_mover": state.last_mover,
            "revealed": [dict(r) for r in state.revealed],
            "outcome": state.outcome.to_json() if state.outcome else None,
            "sealed": list(state.sealed),
            "out_order": list(state.out_order),
            "hops": [[sq, count] for sq, count in sorted(state.hops.items())],
        }

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        return State(
            num_players=data["num_players"],
            armies=tuple(data["armies"]),
            board=bytes.fromhex(data["board"]),
            cargo={sq: tuple(codes) for sq, codes in data["cargo"]},
            known={sq: tuple(codes) for sq, codes in data["known"]},
            out=tuple(data["out"]),
            waiting=tuple(data["waiting"]),
            turn=data["turn"],
            pending=tuple(data["pending"]) if data["pending"] else None,
            refused=tuple(data["refused"]),
            ply=data["ply"],
            quiet=data["quiet"],
            history=tuple(data["history"]),
            last_move=data["last_move"],
            last_squares=tuple(data["last_squares"]),
            last_mover=data["last_mover"],
            revealed=tuple(dict(r) for r in data["revealed"]),
            outcome=Outcome.from_json(data["outcome"]),
            # Older dumps: any knight may hold unseen pieces, and the order of going out was not kept.
            sealed=tuple(data.get("sealed", _horses(bytes.fromhex(data["board"])))),
            out_order=tuple(data.get("out_order", ())),
            hops={sq: count for sq, count in data.get("hops", ())},  # older dumps: counted from here on
        )

    # --- the move picker ---

    def move_steps(self, move: str) -> tuple[str, ...]:
        m = parse_move(move)
        if isinstance(m, PieceMove):
            return (NAMES[m.origin], NAMES[m.target]) + ((m.promotion,) if m.promotion else ())
        if isinstance(m, Load):
            return (NAMES[m.knight], "load", *(NAMES[sq] for sq in m.squares))
        if isinstance(m, Unload):
            return (NAMES[m.knight], "unload", *(t for sq, letter in m.placements for t in (letter, NAMES[sq])))
        if isinstance(m, Burn):
            return (NAMES[m.knight], "burn")
        if isinstance(m, CargoSetup):
            where: dict[str, list[str]] = {}
            for sq, letters in m.loads:
                for letter in letters:
                    where.setdefault(letter, []).append(NAMES[sq])
            return tuple(where[LETTER[k]].pop(0) for k in SETUP_CARGO)
        return (str(m),)

    def choices(self, state: State, seat: int, chosen: Sequence[str] = ()) -> Choices:
        chosen = tuple(chosen)
        if seat not in self.to_act(state):
            return Choices(Text("It is not your turn"))
        if state.waiting:
            return _cargo_choices(state, seat, chosen)
        if state.pending:
            if not chosen:
                requester = CORNERS[state.corners[state.pending[0]]].name
                return Choices(Text("{corner} asks: {move}", corner=requester, move=state.pending[2]), [
                    PickerOption(Text("Consent"), "consent", Text("Let the pieces be loaded")),
                    PickerOption(Text("Refuse"), "refuse", Text("Nothing moves; they act again")),
                ])
            ok = len(chosen) == 1 and chosen[0] in ("consent", "refuse")
            return Choices(Text("Confirm"), move=chosen[0] if ok else None)
        return _turn_choices(state, seat, chosen)

    def choices_seen_by(self, state: State, seat: int, chosen: Sequence[str], viewer: int | None) -> Choices:
        if seat == viewer:
            return self.choices(state, seat, chosen)
        return self.choices(_unseen_cargo(state, seat), seat, chosen)

    def matching_moves(self, state: State, seat: int, typed: str, limit: int = 25) -> list[str]:
        """Autocomplete: moves starting with what was typed (unloads found branch by branch, never all listed),
        then moves containing it."""
        if seat not in self.to_act(state) or state.waiting or state.pending:
            return super().matching_moves(state, seat, typed, limit)
        typed = " ".join(typed.strip().lower().split())
        found: list[str] = []
        for family in _move_families(state, seat):
            if callable(family):
                found.extend(_take(family(typed), limit - len(found)))
            else:
                found.extend(m for m in family if m.lower().startswith(typed))
            if len(found) >= limit:
                return found[:limit]
        if not typed or _starts_with_command(typed):
            return found[:limit]  # no move has a command word anywhere but at its start ("load" aside)
        starts = set(found)
        for m in _turn_moves(state, seat):  # e.g. "K@e5" typed: unload lists are cached for the next keystroke
            if typed in m.lower() and m not in starts:
                found.append(m)
                if len(found) >= limit:
                    break
        return found[:limit]

    # --- text board ---

    def render_text(self, view: JSON) -> str:
        cells = {p["square"]: f"{p['owner']}{'M' if p['mycenaean'] else p['type']}" for p in view["board"]}
        lines = []
        for rank in range(8, 0, -1):
            row = " ".join(cells.get(f"{f}{rank}", " .") for f in "abcdefgh")
            lines.append(f"{rank} {row}")
        lines.append("   " + "  ".join("abcdefgh"))
        names = view["seat_names"]
        lines.append("seats: " + ", ".join(f"{s}={n} ({a})" for s, (n, a) in enumerate(zip(names, view["armies"]))))
        if view["setup"]["waiting"]:
            lines.append(f"choosing cargo: {view['setup']['waiting']}")
        for sq, pieces in view["cargo"].items():
            lines.append(f"your knight {sq} carries: {_pieces_text(pieces) or 'nothing'}")
        for sq, pieces in view["known_cargo"].items():
            if pieces:
                lines.append(f"seen loaded into {sq}: {_pieces_text(pieces)}")
        if view["pending"]:
            p = view["pending"]
            lines.append(f"{names[p['requester']]} asks {names[p['asked']]}: {p['move']}")
        if view["out"]:
            lines.append(f"out: {', '.join(names[s] for s in view['out'])}")
        lines.append(f"last move: {view['last_move']}   to act: {view['to_act']}   "
                     f"quiet turns {view['quiet_turns']}/{view['quiet_limit']}")
        return "\n".join(lines)

    # --- narration ---

    def describe(self, ev: Event) -> str | None:
        kind = ev["type"]
        if kind in ("move", "load", "unload", "burn"):
            return None  # the move itself: whoever narrates a move already names it
        if kind == "capture":
            kind = HORSE if ev["mycenaean"] else "KRBNP".index(ev["piece"]) + 1
            return Text("{square}: {corner}'s {piece} is captured", square=ev["square"], corner=ev["victim_corner"],
                        piece=PIECE_WORD[kind])
        if kind == "promotion":
            if ev["mycenaean"]:
                return Text("{square} promotes to a Mycenaean knight", square=ev["square"])
            return Text("{square} promotes to {piece}", square=ev["square"], piece=ev["piece"])
        if kind == "destroyed":
            return Text("burnt: {pieces}", pieces=_placed_text(ev["pieces"]) or Text("nothing else"))
        if kind == "cargo_destroyed":
            return Text("the knight on {square} carried {pieces}", square=ev["square"],
                        pieces=_pieces_text(ev["pieces"]) or Text("nothing"))
        if kind == "removed":
            return Text("removed: {pieces}", pieces=_placed_text(ev["pieces"]))
        if kind == "out":
            return Text("{out} and is out", out=knockout_text(ev["reason"], ev["corner"]))
        if kind in _NARRATION:
            return Text(_NARRATION[kind], **{k: v for k, v in ev.items() if "{" + k + "}" in _NARRATION[kind]})
        return None


# The events whose narration is their own fields in a sentence.
_NARRATION = {
    "request": N_("{corner} asks {asked_corner} to consent: {move}"),
    "cancelled": N_("{corner}'s request is cancelled: {move}"),
    "consent": N_("{corner} consents"),
    "refuse": N_("{corner} refuses"),
    "takeover": N_("{corner} takes over the pieces of {taken_corner}"),
    "game_over": N_("game over: {reason}"),
}


def _unseen_codes(state: State, seat: int) -> list[int]:
    """The pieces of `seat` inside knights that nobody but `seat` has seen go in, in K R B P order."""
    unseen = []
    for sq in state.sealed:
        hidden = list(state.cargo[sq])
        for code in state.known[sq]:
            hidden.remove(code)
        unseen += [code for code in hidden if code >> 3 == seat]
    return sorted(unseen, key=lambda c: CARRIED.index(c & 7))


def _unseen_letters(state: State, seat: int) -> list[str]:
    return [LETTER[code & 7] for code in _unseen_codes(state, seat)]


def _unseen_cargo(state: State, seat: int) -> State:
    """`state` as someone who can't see into `seat`'s setup knights may reckon its picker: each of them holds
    what the public saw go in and every piece of `seat` still unseen. So an unload offers any of those (Explore
    plays it where the draw allows it), and a burn that may take her own King along is not offered."""
    unseen = tuple(_unseen_codes(state, seat))
    cargo = dict(state.cargo)
    for sq in state.sealed:
        if state.board[sq] >> 3 == seat:
            cargo[sq] = tuple(sorted(state.known[sq] + unseen))
    return replace(state, cargo=cargo)


_ONE = {"K": Text("a king"), "R": Text("a rook"), "B": Text("a bishop"), "N": Text("a knight"), "P": Text("a pawn")}
_SOME = {"K": N_("{count} kings"), "R": N_("{count} rooks"), "B": N_("{count} bishops"), "N": N_("{count} knights"),
         "P": N_("{count} pawns")}
_ON = {"K": N_("the king on {square}"), "R": N_("the rook on {square}"), "B": N_("the bishop on {square}"),
       "N": N_("the knight on {square}"), "P": N_("the pawn on {square}"), "M": N_("the Mycenaean knight on {square}")}


def _pieces_text(pieces: Sequence[JSON]) -> Text | str:
    """'a king, 2 bishops and a pawn' (carried pieces, in the notation's K R B P order)."""
    counts: dict[str, int] = {}
    for p in pieces:
        counts[p["type"]] = counts.get(p["type"], 0) + 1
    words = [_ONE[t] if n == 1 else Text(_SOME[t], count=n) for t, n in counts.items()]
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return Text("{pieces} and {last}", pieces=join(words[:-1], ", "), last=words[-1])


def _placed_text(pieces: Sequence[JSON]) -> Text | str:
    """'the Mycenaean knight on d2, the pawn on e3' (pieces that stood on the board)."""
    if not pieces:
        return ""
    return join([Text(_ON["M" if p.get("mycenaean") else p["type"]], square=p["square"]) for p in pieces], ", ")


GAME = Mycenae()
