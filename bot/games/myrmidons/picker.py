"""The Myrmidons step-by-step move picker: draft, deployment, single move, order."""

from __future__ import annotations

from bot.engine.base import Choices, PickerOption
from bot.engine.grid import DIRECTION_NAMES
from bot.engine.text import Text, join
from .army import ARMY_SIZE, BY_CODE, COMMANDER_CODE, TYPE_CODES, TYPES, MyrmidonType
from .board import EMPTY, HOME_SQUARES, LINE_TO, NAMES
from .notation import _pair, army_move, deploy_move
from .rules import orders, single_moves
from .state import State

def _type_label(t: MyrmidonType) -> str:
    return f"{t.name} ({t.code})" if not t.is_commander else "Commander (1/1/1)"  # type names stay as they are


def _draft_choices(chosen: tuple[str, ...]) -> Choices:
    if len(chosen) >= ARMY_SIZE:
        valid = len(chosen) == len(set(chosen)) == ARMY_SIZE and set(chosen) <= set(TYPE_CODES)
        return Choices(prompt=Text("Your army"), move=army_move(chosen) if valid else None)
    options = [
        PickerOption(label=_type_label(t), value=t.code,
                     description=Text("sword {sword}, shield {shield}, move {move}", sword=t.sword, shield=t.shield,
                                      move=t.move))
        for t in TYPES
        if t.code not in chosen
    ]
    return Choices(prompt=Text("Choose type {number} of {count} for your army", number=len(chosen) + 1,
                               count=ARMY_SIZE), options=options)


def _deploy_choices(seat: int, army: tuple[str, ...], chosen: tuple[str, ...]) -> Choices:
    remaining = [c for c in (COMMANDER_CODE, *army)]
    for code in chosen:
        if code not in remaining:
            return Choices(prompt=Text("That piece is already placed"))
        remaining.remove(code)
    if not remaining:
        return Choices(prompt=Text("Your deployment"), move=deploy_move(chosen))
    square = NAMES[HOME_SQUARES[seat][len(chosen)]]
    options = [PickerOption(label=f"{square}: {_type_label(BY_CODE[c])}", value=c) for c in remaining]
    return Choices(prompt=Text("Which piece stands on {square}?", square=square), options=options)


def _step_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    moves = single_moves(state, seat)
    prompt = (Text("Choose a myrmidon to move, or give an order") if not chosen
              else Text("Move {square} to", square=chosen[0]))
    if not chosen:
        options = []
        for src in dict.fromkeys(m.src for m in moves):
            kind = state.piece(state.board[src]).kind
            options.append(PickerOption(label=f"{NAMES[src]}: {_type_label(kind)}", value=NAMES[src]))
        if orders(state, seat):
            options.append(PickerOption(label=Text("Give an order with the Commander"), value="order"))
        return Choices(prompt=prompt, options=options)
    if len(chosen) == 1:
        options = []
        for m in moves:
            if NAMES[m.src] == chosen[0]:
                attack = state.board[m.dst] != EMPTY
                label = Text("{square} (attack)", square=NAMES[m.dst]) if attack else NAMES[m.dst]
                options.append(PickerOption(label=label, value=NAMES[m.dst]))
        return Choices(prompt=prompt, options=options)
    move = f"{chosen[0]}-{chosen[1]}" if len(chosen) == 2 else None
    legal = move is not None and any(str(m) == move for m in moves)
    return Choices(prompt=prompt, move=move if legal else None)


def _order_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    every = orders(state, seat)
    if len(chosen) == 1:
        names = dict.fromkeys(DIRECTION_NAMES[o.direction] for o in every)
        return Choices(prompt=Text("Order: which direction?"), options=[PickerOption(label=n, value=n) for n in names])
    direction = chosen[1]
    picked = set(chosen[2:])
    # Participants may be picked in any order: offer every item of a legal order holding all picked so far.
    fitting = [
        (o, items)
        for o in every
        if DIRECTION_NAMES[o.direction] == direction
        and picked <= (items := {f"{NAMES[a]}-{NAMES[b]}" for a, b in o.items})
    ]
    complete = next((str(o) for o, items in fitting if items == picked), None)
    offered: dict[str, None] = {}
    for o, items in fitting:
        for a, b in o.items:
            token = f"{NAMES[a]}-{NAMES[b]}"
            if token not in picked:
                offered.setdefault(token)
    options = [_participant_option(state, token) for token in sorted(offered)]
    prompt = Text("Add a participant and its distance (the Commander moves 1)")
    if complete:
        prompt = Text("Confirm the order, or add another participant")
    return Choices(prompt=prompt, options=options, move=complete)


def _participant_option(state: State, token: str) -> PickerOption:
    src, dst = _pair(token)
    distance = LINE_TO[(src, dst)][1]
    kind = state.piece(state.board[src]).kind
    steps = (Text("{count} squares", count=distance) if distance > 1 else Text("1 square"))
    label = join([f"{NAMES[src]} {kind.name} → {NAMES[dst]}", steps], ", ")
    if state.board[dst] != EMPTY:
        label = Text("{move} (attack)", move=label)
    return PickerOption(label=label, value=token)
