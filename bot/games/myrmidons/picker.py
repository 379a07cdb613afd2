"""The Myrmidons step-by-step move picker: draft, deployment, single move, order."""

from __future__ import annotations

from bot.engine.base import Choices, PickerOption
from bot.engine.grid import DIRECTION_NAMES
from .army import ARMY_SIZE, BY_CODE, COMMANDER_CODE, TYPE_CODES, TYPES, MyrmidonType
from .board import EMPTY, HOME_SQUARES, LINE_TO, NAMES
from .notation import _pair, army_move, deploy_move
from .rules import orders, single_moves
from .state import State

def _type_label(t: MyrmidonType) -> str:
    return f"{t.name} ({t.code})" if not t.is_commander else "Commander (1/1/1)"


def _draft_choices(chosen: tuple[str, ...]) -> Choices:
    if len(chosen) >= ARMY_SIZE:
        valid = len(chosen) == len(set(chosen)) == ARMY_SIZE and set(chosen) <= set(TYPE_CODES)
        return Choices(prompt="Your army", move=army_move(chosen) if valid else None)
    options = [
        PickerOption(label=_type_label(t), value=t.code, description=f"sword {t.sword}, shield {t.shield}, move {t.move}")
        for t in TYPES
        if t.code not in chosen
    ]
    return Choices(prompt=f"Choose type {len(chosen) + 1} of {ARMY_SIZE} for your army", options=options)


def _deploy_choices(seat: int, army: tuple[str, ...], chosen: tuple[str, ...]) -> Choices:
    remaining = [c for c in (COMMANDER_CODE, *army)]
    for code in chosen:
        if code not in remaining:
            return Choices(prompt="That piece is already placed")
        remaining.remove(code)
    if not remaining:
        return Choices(prompt="Your deployment", move=deploy_move(chosen))
    square = NAMES[HOME_SQUARES[seat][len(chosen)]]
    options = [PickerOption(label=f"{square}: {_type_label(BY_CODE[c])}", value=c) for c in remaining]
    return Choices(prompt=f"Which piece stands on {square}?", options=options)


def _step_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    moves = single_moves(state, seat)
    prompt = "Choose a myrmidon to move, or give an order" if not chosen else f"Move {chosen[0]} to"
    if not chosen:
        options = []
        for src in dict.fromkeys(m.src for m in moves):
            kind = state.pieces[state.board[src]].kind
            options.append(PickerOption(label=f"{NAMES[src]}: {_type_label(kind)}", value=NAMES[src]))
        if orders(state, seat):
            options.append(PickerOption(label="Give an order with the Commander", value="order"))
        return Choices(prompt=prompt, options=options)
    if len(chosen) == 1:
        options = []
        for m in moves:
            if NAMES[m.src] == chosen[0]:
                attack = state.board[m.dst] != EMPTY
                label = f"{NAMES[m.dst]} (attack)" if attack else NAMES[m.dst]
                options.append(PickerOption(label=label, value=NAMES[m.dst]))
        return Choices(prompt=prompt, options=options)
    move = f"{chosen[0]}-{chosen[1]}" if len(chosen) == 2 else None
    legal = move is not None and any(str(m) == move for m in moves)
    return Choices(prompt=prompt, move=move if legal else None)


def _order_choices(state: State, seat: int, chosen: tuple[str, ...]) -> Choices:
    every = orders(state, seat)
    if len(chosen) == 1:
        names = dict.fromkeys(DIRECTION_NAMES[o.direction] for o in every)
        return Choices(prompt="Order: which direction?", options=[PickerOption(label=n, value=n) for n in names])
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
    prompt = "Add a participant and its distance (the Commander moves 1)"
    if complete:
        prompt = "Confirm the order, or add another participant"
    return Choices(prompt=prompt, options=options, move=complete)


def _participant_option(state: State, token: str) -> PickerOption:
    src, dst = _pair(token)
    distance = LINE_TO[(src, dst)][1]
    kind = state.pieces[state.board[src]].kind
    attack = " (attack)" if state.board[dst] != EMPTY else ""
    label = f"{NAMES[src]} {kind.name} → {NAMES[dst]}, {distance} square{'s' if distance > 1 else ''}{attack}"
    return PickerOption(label=label, value=token)
