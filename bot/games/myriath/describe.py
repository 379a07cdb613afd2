"""Myriath in words: tiles placed and in supply, every tile by its move, each seat's supply by kind."""

from __future__ import annotations

from bot.games.describing import Describer, Player, View
from bot.i18n import t, tn


def last_move(lang: str, view: View) -> tuple[int | None, str]:
    tiles = view.get("tiles") or []
    last = next((tile for tile in reversed(tiles) if tile["move"] == view.get("last_move")), None)
    return (last["owner"] if last else None), ""


def pieces(lang: str, view: View) -> list[list[str]]:
    tiles: list[list[str]] = [[] for _ in range(view["num_players"])]
    for tile in view.get("tiles") or []:
        tiles[tile["owner"]].append(tile["move"])
    return tiles


def material(lang: str, view: View) -> list[str]:
    return [tn(lang, "{count} tile placed, {left} in supply", "{count} tiles placed, {left} in supply", len(placed),
               left=sum(supply.values()))
            for placed, supply in zip(pieces(lang, view), view["supplies"])]


def extras(lang: str, view: View, player: Player) -> list[str]:
    kinds = {kind["key"]: kind["name"] for kind in view.get("tile_kinds") or []}
    lines = []
    for seat, supply in enumerate(view["supplies"]):
        left = ", ".join(f"{count} × {kinds.get(key, key)} ({key})" for key, count in supply.items() if count)
        lines.append(t(lang, "{player} has in supply: {tiles}.", player=player(seat), tiles=left or t(lang, "none")))
    return lines


DESCRIBER = Describer(pieces=pieces, last_move=last_move, material=material, extras=extras)
