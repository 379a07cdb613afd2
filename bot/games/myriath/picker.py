"""The step-by-step move picker: tile kind → start intersection → path and caps.

A placement can be picked from either of its ends (the start a player has in mind is usually the end that
touches); the finished move is always the canonical text. Steps that would offer more than PICKER_LIMIT options
are split: the start into file then rank, the path-and-caps into path then caps. Tokens:

    ("2AW", "c3", "NE:A.Wr")          few starts, few paths
    ("2AW", "c", "c3", "NE", "A.Wr")  many starts (file first), many paths
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.base import Choices, PickerOption
from bot.engine.text import Text, join
from . import geometry as geo

PICKER_LIMIT = 25
_NOTHING = Choices(prompt=Text("That choice is no longer available: start again"), options=[])


@dataclass(frozen=True)
class _Writing:
    start: int
    rest: str  # "NE:A.Wr" ("" for the octagon)
    placement: geo.Placement

    @property
    def path(self) -> str:
        return self.rest.split(":")[0]

    @property
    def caps(self) -> str:
        return self.rest.split(":")[1]


def picker_step(state, seat: int, chosen: tuple[str, ...], legal: list[int]) -> Choices:
    if state.over or seat != state.to_move:
        return Choices(prompt=Text("It is not your turn"), options=[])
    if not legal:
        return Choices(prompt=Text("No placement is possible: you must pass"), options=[], move="pass")
    placements = geo.catalogue().placements
    legal_placements = [placements[pid] for pid in legal]
    if not chosen:
        return _kind_step(state, seat, legal_placements)
    kind, rest = chosen[0], chosen[1:]
    writings = [
        _Writing(start, text, pl) for pl in legal_placements if pl.kind == kind for start, text in pl.writings
    ]
    if not writings:
        return _NOTHING
    return _start_steps(kind, writings, rest)


def _kind_step(state, seat: int, legal: list[geo.Placement]) -> Choices:
    counts: dict[str, int] = {}
    for pl in legal:
        counts[pl.kind] = counts.get(pl.kind, 0) + 1
    supply = state.supplies[seat]
    options = [
        PickerOption(
            label=kind.name,
            value=kind.key,
            description=Text("{left} left · {count} placement", plural="{left} left · {count} placements",
                             left=supply[i], count=counts[kind.key]),
        )
        for i, kind in enumerate(geo.KINDS.values())
        if kind.key in counts
    ]
    return Choices(prompt=Text("Choose a tile"), options=options)


def _start_steps(kind: str, writings: list[_Writing], rest: tuple[str, ...]) -> Choices:
    starts = sorted({w.start for w in writings})
    name = geo.KINDS[kind].name
    ring = geo.KINDS[kind].ring
    if len(starts) > PICKER_LIMIT:  # too many at once: the file first, then the intersection in that file
        if not rest:
            files = sorted({_file(p) for p in starts})
            options = [PickerOption(label=Text("file {file}", file=f), value=f) for f in files]
            prompt = (Text("{tile}: choose the file of the lower-left corner of the square", tile=name) if ring
                      else Text("{tile}: choose the file of an end intersection", tile=name))
            return Choices(prompt=prompt, options=options)
        file_token, rest = rest[0], rest[1:]
        starts = [p for p in starts if _file(p) == file_token]
    if not rest:
        return _start_options(Text("{tile}: choose the lower-left corner of the square", tile=name) if ring
                              else Text("{tile}: choose an end intersection", tile=name), starts, writings)
    from_start = [w for w in writings if w.start in starts and geo.POINT_NAMES[w.start] == rest[0]]
    if not from_start:
        return _NOTHING
    return _path_steps(from_start, rest[1:])


def _start_options(prompt: str, starts: list[int], writings: list[_Writing]) -> Choices:
    counts = {p: 0 for p in starts}
    for w in writings:
        if w.start in counts:
            counts[w.start] += 1
    options = []
    for p in starts:
        name = geo.POINT_NAMES[p]
        options.append(PickerOption(label=name, value=name, description=Text("{count} way", plural="{count} ways",
                                                                                     count=counts[p])))
    return Choices(prompt=prompt, options=options)


def _path_steps(from_start: list[_Writing], rest: tuple[str, ...]) -> Choices:
    start_name = geo.POINT_NAMES[from_start[0].start]
    if from_start[0].placement.ring:  # the octagon: its corner says everything
        notation = from_start[0].placement.notation
        return Choices(prompt=Text("Place the octagon {move}?", move=notation), move=notation)
    if len(from_start) <= PICKER_LIMIT:
        if not rest:
            options = [_final_option(w) for w in from_start]
            return Choices(prompt=Text("From {point}: choose the path and caps", point=start_name), options=options)
        return _complete([w for w in from_start if w.rest == rest[0]], rest[1:])
    if not rest:
        paths = list(dict.fromkeys(w.path for w in from_start))
        options = [PickerOption(label=f"{start_name}{p}", value=p, description=_route(from_start[0].start, p))
                   for p in paths]
        return Choices(prompt=Text("From {point}: choose the path", point=start_name), options=options)
    along = [w for w in from_start if w.path == rest[0]]
    if not along:
        return _NOTHING
    if len(rest) == 1:
        options = [PickerOption(label=w.caps, value=w.caps, description=_caps_words(w)) for w in along]
        return Choices(prompt=Text("{path}: choose the caps", path=f"{start_name}{rest[0]}"), options=options)
    return _complete([w for w in along if w.caps == rest[1]], rest[2:])


def _complete(matching: list[_Writing], rest: tuple[str, ...]) -> Choices:
    if len(matching) != 1 or rest:
        return _NOTHING
    pl = matching[0].placement
    return Choices(prompt=Text("Place {move}?", move=pl.notation), move=pl.notation)


def _final_option(w: _Writing) -> PickerOption:
    label = f"{geo.POINT_NAMES[w.start]}{w.rest}"
    return PickerOption(label=label, value=w.rest, description=join([_route(w.start, w.path), _caps_words(w)], " · "))


def _route(start: int, path: str) -> str:
    # ignore: a legal move's path stays on the board, so none of its points is None
    return "→".join(geo.POINT_NAMES[p] for p in geo.path_points(start, path))  # type: ignore[index]


_CAP_WORDS = {"A": Text("arrow"), "Wl": Text("whole edge left"), "Wr": Text("whole edge right")}


def _caps_words(w: _Writing) -> Text:
    first, last = w.caps.split(".")
    points = geo.path_points(w.start, w.path)
    end = points[-1]
    assert end is not None  # a legal move's path stays on the board
    return Text("{cap} at {point}, {other_cap} at {other_point}", cap=_CAP_WORDS[first],
                point=geo.POINT_NAMES[w.start], other_cap=_CAP_WORDS[last], other_point=geo.POINT_NAMES[end])


def _file(p: int) -> str:
    return geo.POINT_NAMES[p][0]
