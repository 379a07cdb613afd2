"""The Myrmidons step-by-step move picker: draft, deployment, single move, order."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.base import Choices, PickerOption
from bot.engine.grid import DIRECTION_NAMES
from bot.engine.text import Text, join
from .army import ARMY_SIZE, BY_CODE, COMMANDER, COMMANDER_CODE, TYPE_CODES, TYPES, MyrmidonType
from .board import EMPTY, HOME_SQUARES, LINE_TO, NAMES, PER_SEAT
from .notation import Order, _pair, army_move, deploy_move
from .rules import orders, single_moves
from .state import State

# A face-down piece in a position where its type is a random draw (an Explore sandbox): as fast as any type, so
# the picker offers every square a piece there might reach, and named as hidden, never by the drawn type.
UNSEEN = MyrmidonType("?", "hidden myrmidon", 0, 0, max(t.move for t in TYPES))


def _type_label(t: MyrmidonType) -> str:
    if t is UNSEEN:
        return Text("hidden myrmidon")
    return f"{t.name} ({t.code})" if not t.is_commander else "Commander (1/1/1)"  # type names stay as they are


def unseen_pieces(state: State, seat: int) -> State:
    """`state` with `seat`'s face-down pieces as UNSEEN: what a picker may offer for them to someone who can't see
    them. Her Commander, unless revealed, is among them: `_orders` then offers the orders of every piece that may
    be it."""
    pieces = list(state.pieces)
    for index in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
        piece = pieces[index]
        if piece is not None and not state.revealed[index]:
            pieces[index] = replace(piece, kind=UNSEEN)
    return replace(state, pieces=tuple(pieces))


def _orders(state: State, seat: int) -> list[Order]:
    """The orders of `seat`; where her Commander is among her UNSEEN pieces, those of every unseen piece that may
    be it (one that never went more than a square), each order once."""
    if state.commander(seat) != EMPTY or not any(p is not None and p.kind is UNSEEN
                                                 for p in state.pieces[seat * PER_SEAT:(seat + 1) * PER_SEAT]):
        return orders(state, seat)
    found: dict[str, Order] = {}
    for index in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
        piece = state.pieces[index]
        travelled = state.travelled[index] if state.travelled else 0
        if piece is None or piece.kind is not UNSEEN or state.squares[index] == EMPTY or travelled > 1:
            continue
        pieces = list(state.pieces)
        pieces[index] = replace(piece, kind=COMMANDER)
        for order in orders(replace(state, pieces=tuple(pieces)), seat):
            found.setdefault(str(order), order)
    return list(found.values())


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
            options.append(PickerOption(label=join([NAMES[src], _type_label(kind)], ": "), value=NAMES[src]))
        if _orders(state, seat):
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
    every = _orders(state, seat)
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
    steps = Text("{count} square", plural="{count} squares", count=distance)
    name = _type_label(kind) if kind is UNSEEN else kind.name
    label = join([join([NAMES[src], name, "→", NAMES[dst]], " "), steps], ", ")
    if state.board[dst] != EMPTY:
        label = Text("{move} (attack)", move=label)
    return PickerOption(label=label, value=token)
