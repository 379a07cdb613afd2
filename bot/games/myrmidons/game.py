"""The Myrmidons engine: the contract methods, the view, dump/load, text board and narration."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Sequence

from bot.engine.base import (
    JSON, Choices, Event, GameInfo, IllegalMoveError, OptionSpec, Outcome, TwoSeatGame, event, seeded_rng,
)
from bot.engine.grid import DIRECTION_NAMES
from bot.engine.text import Text
from .army import ARMY_SIZE, BY_CODE, COMMANDER_CODE, canonical_army
from .board import (
    ARMY_CHOICES,
    CELLS,
    EMPTY,
    FILES,
    HOME_RANK,
    HOME_SQUARES,
    LINE_TO,
    MEMORY_CHOICES,
    NAMES,
    PER_SEAT,
    Piece,
    RANKS,
    SEAT_LETTERS,
    SEAT_NAMES,
    owner_of,
    piece_index,
)
from .notation import Army, Deploy, Order, Step, is_setup_move, parse_move
from .picker import _deploy_choices, _draft_choices, _order_choices, _step_choices, unseen_pieces
from .rules import (
    _Action,
    _piece_values,
    check_order,
    check_step,
    deployments,
    draft_moves,
    orders,
    single_moves,
    start_of_turn,
    winner_after_action,
)
from .posterior import likelihood
from .sampling import sample_state
from .state import State, initial_state

# --- metadata ------------------------------------------------------------------------------------------------

INFO = GameInfo(
    key="myrmidons",
    title="Myrmidons",
    min_players=2,
    max_players=2,
    hidden_information=True,
    summary=(
        "Two armies of six myrmidons on a 6 by 7 board. Every piece looks alike to the opponent, but each has its "
        "own sword, shield and movement; one of them is the weak Commander. Deploy your army in secret on your "
        "home row, then each turn move one myrmidon in a straight line, or give an order: the Commander and "
        "friends next to it march together in one direction. Ending on an enemy starts a fight that reveals both "
        "pieces: a sword at least as high as the shield removes the defender, otherwise the attacker is thrown "
        "back. Win by eliminating the enemy Commander or four enemy pieces, or by starting your turn with a piece "
        "on the enemy's home row."
    ),
    options=(
        OptionSpec(
            "army",
            Text("standard: both use the default army; draft: each secretly picks 5 of the 19 types; "
                 "random: 5 types drawn at random, the same for both"),
            "standard",
            ARMY_CHOICES,
        ),
        OptionSpec("memory", Text("on: pieces revealed by a fight turn face down again after it"), "off",
                   MEMORY_CHOICES),
    ),
    seat_names=SEAT_NAMES,
)

# --- the game ------------------------------------------------------------------------------------------------


class MyrmidonsGame(TwoSeatGame):
    info = INFO

    def new_state(self, num_players: int, seed: int, options: JSON | None = None) -> State:
        if num_players != 2:
            raise ValueError("Myrmidons is for 2 players")
        options = options or {}
        army = options.get("army", "standard")
        if army not in ARMY_CHOICES:
            raise ValueError(f"army must be one of {', '.join(ARMY_CHOICES)}")
        memory = options.get("memory", "off")
        memory = {"on": True, "off": False, True: True, False: False}.get(memory)
        if memory is None:
            raise ValueError("memory must be on or off")
        return initial_state(seed, army, memory)

    def to_act(self, state: State) -> list[int]:
        if state.outcome is not None:
            return []
        if state.in_setup():
            return [seat for seat in (0, 1) if not state.deployed(seat)]
        return [state.turn]

    def legal_moves(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.in_setup():
            army = state.armies[seat]
            return list(draft_moves() if army is None else deployments(army))
        return [str(m) for m in single_moves(state, seat)] + [str(o) for o in orders(state, seat)]

    def clear_caches(self) -> None:
        deployments.cache_clear()
        draft_moves.cache_clear()

    def is_private_move(self, move: str) -> bool:
        return is_setup_move(move)

    def preview(self, state: State, seat: int, move: str) -> dict | None:
        """The picker's picture before Confirm. A fight is learnt only by committing to it (its result and the
        defender's values), so moves with a fight get none; and the deployment that completes the setup is shown
        as still in setup, because the first player it draws must not be known while the player can still
        change her mind."""
        new_state, events = self.apply(state, seat, move)
        if any(ev["type"] == "fight" for ev in events):
            return None
        view = self.view(new_state, seat)
        if is_setup_move(move) and view["phase"] != "setup":
            view.update(phase="setup", to_act=[], turn=None, first_player=None)
        return view

    def apply(self, state: State, seat: int, move: str) -> tuple[State, list[Event]]:
        parsed = parse_move(move)
        checked = self._check(state, seat, parsed)
        if isinstance(parsed, Army):
            return self._choose_army(state, seat, parsed)
        if isinstance(parsed, Deploy):
            return self._deploy(state, seat, parsed)
        if isinstance(parsed, Step):
            return self._act(state, seat, "move", None, checked, str(parsed))
        return self._act(state, seat, "order", parsed.direction, checked, str(parsed))

    def canonical(self, state: State, seat: int, text: str) -> str:
        parsed = parse_move(text)
        self._check(state, seat, parsed)
        return str(parsed)

    def _check(self, state: State, seat: int, parsed: Army | Deploy | Step | Order) -> tuple[tuple[int, int], ...]:
        """Raise IllegalMoveError unless `seat` may play `parsed` now; a move's or order's (from, to) items."""
        if state.outcome is not None:
            raise IllegalMoveError(Text("The game is over"))
        if seat not in self.to_act(state):
            if state.in_setup() and state.deployed(seat):
                raise IllegalMoveError(Text("Your deployment is final: wait for your opponent to deploy"))
            raise IllegalMoveError(Text("It is not your turn"))
        if isinstance(parsed, Army):
            self._check_army(state, seat, parsed)
            return ()
        if isinstance(parsed, Deploy):
            self._check_deploy(state, seat, parsed)
            return ()
        if state.in_setup():
            raise IllegalMoveError(Text("Deploy your army first"))
        if isinstance(parsed, Step):
            check_step(state, seat, parsed)
            return ((parsed.src, parsed.dst),)
        return check_order(state, seat, parsed)

    @staticmethod
    def _check_army(state: State, seat: int, move: Army) -> None:
        if state.army_option != "draft" or not state.in_setup():
            raise IllegalMoveError(Text("Armies are only chosen at the start of a draft game"))
        if state.armies[seat] is not None:
            raise IllegalMoveError(Text("You have already chosen your army"))
        if COMMANDER_CODE in move.types:
            raise IllegalMoveError(Text("The Commander is always in your army: choose 5 other types"))
        if len(set(move.types)) != len(move.types):
            raise IllegalMoveError(Text("Choose 5 different types"))
        if len(move.types) != ARMY_SIZE:
            raise IllegalMoveError(Text("Choose exactly {count} types (you chose {chosen})", count=ARMY_SIZE,
                                        chosen=len(move.types)))

    @staticmethod
    def _check_deploy(state: State, seat: int, move: Deploy) -> None:
        if not state.in_setup():
            raise IllegalMoveError(Text("The armies are already deployed"))
        army = state.armies[seat]
        if army is None:
            raise IllegalMoveError(Text("Choose your army first (army followed by 5 types)"))
        expected = sorted((COMMANDER_CODE, *army))
        if sorted(move.codes) != expected:
            raise IllegalMoveError(Text(
                "Deploy each of your {count} pieces once, files a to f: {expected} (you wrote {written})",
                count=PER_SEAT, expected=", ".join(expected), written=", ".join(move.codes)))

    def _choose_army(self, state: State, seat: int, move: Army) -> tuple[State, list[Event]]:
        army = canonical_army(move.types)
        armies = tuple(army if s == seat else a for s, a in enumerate(state.armies))
        new = replace(state, armies=armies, ply=state.ply + 1)
        return new, [
            event("army", [seat], seat=seat, move=str(move), types=[BY_CODE[c].to_json() for c in army]),
            event("army_chosen", None, seat=seat),
        ]

    def _deploy(self, state: State, seat: int, move: Deploy) -> tuple[State, list[Event]]:
        pieces, board, squares = list(state.pieces), list(state.board), list(state.squares)
        for number, (code, sq) in enumerate(zip(move.codes, HOME_SQUARES[seat]), start=1):
            index = piece_index(seat, number)
            pieces[index] = Piece(seat, number, BY_CODE[code])
            board[sq], squares[index] = index, sq
        new = replace(
            state, pieces=tuple(pieces), board=tuple(board), squares=tuple(squares), ply=state.ply + 1
        )
        events = [
            event("deploy", [seat], seat=seat, move=str(move),
                  squares={NAMES[sq]: code for code, sq in zip(move.codes, HOME_SQUARES[seat])}),
            event("deployed", None, seat=seat),
        ]
        if new.deployed(1 - seat):
            # Drawn only now, so nothing public could tell who starts before both armies stood.
            first = seeded_rng(state.seed, "first player").randrange(2)
            new = replace(new, first=first, turn=first)
            events.append(event("start", None, first=first))
        return new, events

    def _act(
        self, state: State, seat: int, kind: str, direction: int | None, items: Sequence[tuple[int, int]], text: str
    ) -> tuple[State, list[Event]]:
        action = _Action.start(state, seat)
        travelled = list(state.travelled or (0,) * len(state.pieces))
        actions = list(state.actions or (0,) * len(state.pieces))
        attacks = list(state.attacks or (0,) * len(state.pieces))
        for src, dst in items:  # from the board before the action: every participant starts on its own square
            index = state.board[src]
            travelled[index] = max(travelled[index], LINE_TO[(src, dst)][1])
            actions[index] += 1
        for src, dst in items:
            action.march(src, dst)
        report = action.report(kind, direction)
        for fight in report["fights"]:
            attacker = fight["attacker"]["id"]
            attacks[piece_index(SEAT_LETTERS.index(attacker[0]), int(attacker[1:]))] += 1
        new = replace(
            state,
            board=tuple(action.board),
            squares=tuple(action.squares),
            revealed=tuple(action.revealed),
            travelled=tuple(travelled),
            actions=tuple(actions),
            attacks=tuple(attacks),
            turn=1 - seat,
            ply=state.ply + 1,
            last_move=text,
            report=report,
        )
        events = self._action_events(state, seat, kind, text, report)
        outcome = winner_after_action(new, seat, action.eliminated) or start_of_turn(new, 1 - seat)
        if outcome is not None:
            new = replace(new, outcome=outcome, turn=EMPTY)
            events.append(event("win", None, winners=list(outcome.winners), reason=outcome.reason))
        return new, events

    @staticmethod
    def _action_events(state: State, seat: int, kind: str, text: str, report: JSON) -> list[Event]:
        if kind == "move":
            events = [event("move", None, seat=seat, move=text, **report["paths"][0])]
        else:
            events = [event("order", None, seat=seat, move=text, direction=report["direction"],
                            participants=report["paths"])]
        for fight in report["fights"]:
            events.append(event("fight", None, seat=seat, **fight))
        for fight in report["fights"]:
            if fight["result"] == "win":
                loser = fight["defender"]
                events.append(event("eliminate", None, piece=loser["id"], owner=loser["owner"],
                                    square=fight["square"], by=fight["attacker"]["id"], name=loser["name"],
                                    commander=loser["commander"]))
        return events

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    # --- leaving, standings, sampling --------------------------------------------------------------------------

    def in_secret_setup(self, state: State) -> bool:
        return state.outcome is None and state.in_setup()

    def eliminate(self, state: State, seat: int, reason: str) -> tuple[State, list[Event]]:
        """Leaving ends the game at any time, during the secret setup too; nothing hidden is shown."""
        self.check_can_leave(state, seat)
        outcome = Outcome((1 - seat,), reason)
        new = replace(state, outcome=outcome, turn=EMPTY, left=seat)
        return new, [event("out", None, seat=seat, reason=reason),
                     event("win", None, winners=[1 - seat], reason=reason)]

    def sample_state(self, view: JSON, rng: random.Random, *, players_habits: bool = False) -> State:
        return sample_state(view, rng, players_habits=players_habits)

    def likelihood(self, view: JSON, state: State) -> float:
        return likelihood(view, state)

    # --- view ------------------------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> JSON:
        return self._view(state, viewer, reveal=False)

    def revealed_view(self, state: State) -> JSON:
        """Every army and every value, face up: the reveal once the match is over (a match never shows it
        before; a view stays what its viewer may know, even after the end)."""
        return self._view(state, None, reveal=True)

    def _view(self, state: State, viewer: int | None, *, reveal: bool) -> JSON:
        over = state.outcome is not None

        def sees(index: int) -> bool:
            return reveal or state.revealed[index] or owner_of(index) == viewer

        def piece_json(index: int) -> JSON:
            piece = state.piece(index)
            data = {"id": piece.id, "owner": piece.owner, "revealed": state.revealed[index], "known": sees(index),
                    "travelled": state.travelled[index] if state.travelled else 0,  # public: the moves showed it
                    "actions": state.actions[index] if state.actions else 0,
                    "attacks": state.attacks[index] if state.attacks else 0}
            if sees(index):
                return {**data, **_piece_values(piece)}
            return {**data, "commander": None, "code": None, "name": None, "sword": None, "shield": None, "move": None}

        cells = {
            NAMES[sq]: {"square": NAMES[sq], **piece_json(index)}
            for index, sq in enumerate(state.squares)
            if sq != EMPTY
        }
        eliminated_pieces = [
            piece_json(i) for i, p in enumerate(state.pieces) if p is not None and state.squares[i] == EMPTY
        ]
        own_commander = state.commander(viewer) if viewer is not None else EMPTY
        return {
            "game": INFO.key,
            "num_players": 2,
            "viewer": viewer,
            "to_act": self.to_act(state),
            "last_move": state.last_move,
            "ply": state.ply,
            "outcome": state.outcome.to_json() if state.outcome is not None else None,
            "seat_names": list(SEAT_NAMES),
            "files": FILES,
            "ranks": RANKS,
            "home_ranks": [r + 1 for r in HOME_RANK],
            "options": {"army": state.army_option, "memory": "on" if state.memory else "off"},
            "phase": "over" if over else "setup" if state.in_setup() else "play",
            "turn": None if state.turn == EMPTY else state.turn,
            "first_player": None if state.first == EMPTY else state.first,
            "setup": [
                {"army_chosen": state.armies[s] is not None, "deployed": state.deployed(s)} for s in (0, 1)
            ],
            "cells": cells,
            "eliminated": [state.losses(0), state.losses(1)],
            "eliminated_pieces": eliminated_pieces,
            "armies": [self._army_json(state, s, viewer, reveal) for s in (0, 1)],
            "undeployed": self._undeployed(state, viewer),
            "commander": (
                NAMES[state.squares[own_commander]]
                if own_commander != EMPTY and state.squares[own_commander] != EMPTY
                else None
            ),
            "last_action": state.report,
            "left": state.left,
        }

    @staticmethod
    def _army_json(state: State, seat: int, viewer: int | None, reveal: bool = False) -> list[JSON] | None:
        """A seat's army (Commander first) when the viewer may know it: her own, or an army both share."""
        army = state.armies[seat]
        known = reveal or seat == viewer or state.army_option != "draft"
        if army is None or not known:
            return None
        return [BY_CODE[c].to_json() for c in (COMMANDER_CODE, *army)]

    @staticmethod
    def _undeployed(state: State, viewer: int | None) -> list[JSON]:
        army = None if viewer is None else state.armies[viewer]
        if viewer is None or not state.in_setup() or state.deployed(viewer) or army is None:
            return []
        return [BY_CODE[c].to_json() for c in (COMMANDER_CODE, *army)]

    # --- dump / load -----------------------------------------------------------------------------------------

    def dump(self, state: State) -> JSON:
        return {
            **self.stamp(),
            "seed": state.seed,
            "army_option": state.army_option,
            "memory": state.memory,
            "armies": [None if a is None else list(a) for a in state.armies],
            "pieces": [None if p is None else p.kind.code for p in state.pieces],
            "squares": [None if sq == EMPTY else NAMES[sq] for sq in state.squares],
            "revealed": list(state.revealed),
            "turn": state.turn,
            "first": state.first,
            "ply": state.ply,
            "last_move": state.last_move,
            "report": state.report,
            "outcome": state.outcome.to_json() if state.outcome else None,
            "left": state.left,
            "travelled": list(state.travelled),
            "actions": list(state.actions),
            "attacks": list(state.attacks),
        }

    def load(self, data: JSON) -> State:
        self.check_stamp(data)
        pieces = tuple(
            None if code is None else Piece(owner_of(i), i % PER_SEAT + 1, BY_CODE[code])
            for i, code in enumerate(data["pieces"])
        )
        squares = tuple(EMPTY if name is None else NAMES.index(name) for name in data["squares"])
        board = [EMPTY] * CELLS
        for index, sq in enumerate(squares):
            if sq != EMPTY:
                board[sq] = index
        return State(
            seed=data["seed"],
            army_option=data["army_option"],
            memory=data["memory"],
            armies=tuple(None if a is None else tuple(a) for a in data["armies"]),
            pieces=pieces,
            board=tuple(board),
            squares=squares,
            revealed=tuple(data["revealed"]),
            turn=data["turn"],
            first=data["first"],
            ply=data["ply"],
            last_move=data["last_move"],
            report=data["report"],
            outcome=Outcome.from_json(data["outcome"]),
            left=data.get("left"),  # older dumps have no "left": nobody left
            travelled=tuple(data.get("travelled") or ()),  # older dumps recorded none: counted from here on
            actions=tuple(data.get("actions") or ()),
            attacks=tuple(data.get("attacks") or ()),
        )

    # --- text board ------------------------------------------------------------------------------------------

    def render_text(self, view: JSON) -> str:
        lines = []
        for rank in range(RANKS, 0, -1):
            row = []
            for file in range(FILES):
                cell = view["cells"].get(f"{chr(ord('a') + file)}{rank}")
                row.append(_cell_text(cell))
            lines.append(f"{rank} " + " ".join(row))
        lines.append("  " + " ".join(f"{chr(ord('a') + f):^5}" for f in range(FILES)))
        lines.append(f"eliminated: South {view['eliminated'][0]}, North {view['eliminated'][1]}")
        if view["phase"] == "setup":
            status = ", ".join(
                f"{SEAT_NAMES[s]} {'deployed' if st['deployed'] else 'deploying'}" for s, st in enumerate(view["setup"])
            )
            lines.append(f"setup: {status}")
            if view["undeployed"]:
                lines.append("to deploy: " + ", ".join(f"{t['name']} {t['code']}" for t in view["undeployed"]))
        elif view["phase"] == "play":
            lines.append(f"{SEAT_NAMES[view['turn']]} to move")
        action = view["last_action"]
        if action:
            lines.append(f"last: {view['last_move']}")
            for fight in action["fights"]:
                lines.append("  " + _fight_text(fight))
        if view["outcome"]:
            lines.append(f"over: {view['outcome']['reason']}")
        return "\n".join(lines)

    # --- narration -------------------------------------------------------------------------------------------

    def describe(self, ev: Event) -> str | None:
        kind = ev["type"]
        if kind == "army_chosen":
            return Text("{side} has chosen an army.", side=Text(SEAT_NAMES[ev["seat"]]))
        if kind == "army":
            return Text("Your army: {types}", types=", ".join(f"{t['name']} {t['code']}" for t in ev["types"]))
        if kind == "deployed":
            return Text("{side} has deployed.", side=Text(SEAT_NAMES[ev["seat"]]))
        if kind == "deploy":
            return Text("You deployed {pieces}",
                        pieces=", ".join(f"{sq} {BY_CODE[c].name}" for sq, c in ev["squares"].items()))
        if kind == "start":
            return Text("Both armies stand ready. {side} moves first.", side=Text(SEAT_NAMES[ev["first"]]))
        if kind == "move":
            return Text("{side}: {move}", side=Text(SEAT_NAMES[ev["seat"]]), move=ev["move"])
        if kind == "order":
            return Text("{side} gives an order: {move}", side=Text(SEAT_NAMES[ev["seat"]]), move=ev["move"])
        if kind == "fight":
            return _fight_text(ev)
        if kind == "eliminate":
            # by its name, as the fight said it (events stored before they named it give its id, "S4")
            piece = Text("Commander") if ev.get("commander") else ev.get("name", ev["piece"])
            return Text("{side}'s {piece} on {square} is eliminated.", side=Text(SEAT_NAMES[ev["owner"]]),
                        piece=piece, square=ev["square"])
        if kind == "win":
            return Text("{reason}.", reason=ev["reason"])
        return None

    # --- picker ----------------------------------------------------------------------------------------------

    def move_steps(self, move: str) -> tuple[str, ...]:
        parsed = parse_move(move)
        if isinstance(parsed, (Army, Deploy)):
            return tuple(canonical_army(parsed.types)) if isinstance(parsed, Army) else parsed.codes
        if isinstance(parsed, Step):
            return (NAMES[parsed.src], NAMES[parsed.dst])
        items = tuple(f"{NAMES[a]}-{NAMES[b]}" for a, b in parsed.front_to_back())
        return ("order", DIRECTION_NAMES[parsed.direction], *items)

    def step_prompt(self, chosen: Sequence[str]) -> str:
        if not chosen:
            return Text("Choose a myrmidon to move, or give an order")
        if chosen[0] == "order":
            if len(chosen) == 1:
                return Text("Order: which direction?")
            return Text("Add a participant and its distance (the Commander moves 1)")
        return Text("Move {square} to", square=chosen[0])

    def choices(self, state: State, seat: int, chosen: Sequence[str] = ()) -> Choices:
        chosen = tuple(chosen)
        if seat not in self.to_act(state):
            return Choices(prompt=Text("It is not your turn"))
        if state.in_setup():
            army = state.armies[seat]
            if army is None:
                return _draft_choices(chosen)
            return _deploy_choices(seat, army, chosen)
        if chosen and chosen[0] == "order":
            return _order_choices(state, seat, chosen)
        return _step_choices(state, seat, chosen)

    def choices_seen_by(self, state: State, seat: int, chosen: Sequence[str], viewer: int | None) -> Choices:
        """The picker for a seat whose face-down pieces `viewer` can't see (`unseen_pieces`); an army she can't
        know is not deployed by her (its types would be a random draw)."""
        if seat == viewer:
            return self.choices(state, seat, chosen)
        if state.in_setup() and state.armies[seat] is not None and state.army_option == "draft":
            return Choices(prompt=Text("This army was drafted in secret, so its deployment can't be chosen here."))
        return self.choices(unseen_pieces(state, seat), seat, chosen)



def _cell_text(cell: JSON | None) -> str:
    if cell is None:
        return "  .  "
    letter = SEAT_LETTERS[cell["owner"]]
    if not cell["known"]:
        return f"{letter} ???"
    if cell["commander"]:
        return f"{letter} Cmd"
    return f"{letter}{cell['sword']}{cell['shield']}{cell['move']}" + ("*" if cell["revealed"] else " ")


def fighter_text(piece: JSON) -> Text:
    """A piece in a fight, in words: whose it is, its name, and its values said out ("North's Messenger (sword 1,
    shield 3, move 5)"), not its code."""
    side = Text(SEAT_NAMES[piece["owner"]])
    if piece["commander"]:
        return Text("{side}'s Commander", side=side)
    return Text("{side}'s {piece} (sword {sword}, shield {shield}, move {move})", side=side, piece=piece["name"],
                sword=piece["sword"], shield=piece["shield"], move=piece["move"])


def _fight_text(fight: JSON) -> str:
    """The result comes before the defender's values: a menu that cuts the line (Explore's outcomes) still shows
    who won."""
    attacker, defender = fighter_text(fight["attacker"]), fighter_text(fight["defender"])
    if fight["result"] == "win":
        return Text("Fight on {square}: {attacker} beats {defender}.", square=fight["square"], attacker=attacker,
                    defender=defender)
    return Text("Fight on {square}: {attacker} is repelled by {defender}, back to {end}.", square=fight["square"],
                attacker=attacker, defender=defender, end=fight["attacker_end"])


GAME = MyrmidonsGame()
