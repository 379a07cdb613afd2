"""A league's standings as a picture: `standings_picture(title, subtitle, divisions) -> PNG bytes`.

Pure Pillow in the boards' look (dark background, DejaVu). 800 px wide with 26 px text: on a phone (~390 points)
the rows still read at ~13 pt, as the rating chart's labels do. Each division is a table of rank, player, points, Sonneborn-Berger, games, wins and
rating; the leader's row is marked in yellow, so the picture reads the same in greyscale (the rank also says it).
In a league whose next season promotes and relegates, a triangle left of the rank marks each row in those zones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from PIL import Image, ImageDraw

from .common import (
    N_, BACKGROUND, PANEL, SKY_BLUE, TEXT, TEXT_DIM, VERMILLION, YELLOW, blend, draw_text, fit_text, font, say,
)
from .png import encode_png

WIDTH = 800
PAD = 24
ROW = 44
TITLE_HEIGHT = 118
HEADING_HEIGHT = 48
MAX_ROWS = 120  # a division never has more (40 players); a guard for the picture's height

# column: (header, right edge or left edge, alignment)
COLUMNS = (("#", 60, "r"), (N_("player"), 80, "l"), (N_("pts"), 478, "r"), (N_("SB"), 570, "r"), (N_("G"), 622, "r"),
           (N_("W"), 674, "r"), (N_("rating"), WIDTH - PAD, "r"))
NAME_WIDTH = 478 - 80 - 74  # the player column ends well before the points


@dataclass(frozen=True)
class Row:
    rank: int
    name: str
    points: str
    sonneborn_berger: str
    games: int
    wins: int
    rating: int
    left: bool = False  # left the league: greyed
    zone: str | None = None  # "up": promoted, "down": relegated when the next season opens (a triangle that way)


@dataclass(frozen=True)
class Division:
    heading: str | None  # None for a league of one division
    rows: Sequence[Row]


def _zone_mark(draw: ImageDraw.ImageDraw, middle: int, up: bool) -> None:
    """A row's promotion (a sky-blue triangle pointing up) or relegation mark (vermillion, pointing down), left of
    its rank: the shape tells them apart in greyscale too."""
    left, right, half = PAD // 2 + 4, PAD // 2 + 20, 7
    tip, base = (middle - half, middle + half) if up else (middle + half, middle - half)
    draw.polygon([((left + right) // 2, tip), (left, base), (right, base)], fill=SKY_BLUE if up else VERMILLION)


def standings_picture(title: str, subtitle: str, legend: str, divisions: Sequence[Division]) -> bytes:
    """`subtitle`: what the league is; `legend`: how it is ranked (one line each under the title)."""
    rows = sum(min(len(d.rows), MAX_ROWS) for d in divisions)
    height = TITLE_HEIGHT + sum(HEADING_HEIGHT + (HEADING_HEIGHT if d.heading else 0) for d in divisions) \
        + rows * ROW + PAD
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    bold, regular, small = font(32, bold=True), font(26), font(20)
    draw_text(img, (PAD, 20), fit_text(title, bold, WIDTH - 2 * PAD), bold, TEXT, "lt")
    draw.text((PAD, 62), fit_text(subtitle, small, WIDTH - 2 * PAD), font=small, fill=TEXT_DIM, anchor="lt")
    draw.text((PAD, 88), fit_text(legend, small, WIDTH - 2 * PAD), font=small, fill=TEXT_DIM, anchor="lt")
    y = TITLE_HEIGHT
    for division in divisions:
        if division.heading:
            draw.text((PAD, y + 14), division.heading, font=font(26, bold=True), fill=TEXT, anchor="lt")
            y += HEADING_HEIGHT
        for header, x, align in COLUMNS:
            draw.text((x, y + 34), say(header), font=small, fill=TEXT_DIM, anchor="rs" if align == "r" else "ls")
        y += HEADING_HEIGHT
        for i, row in enumerate(division.rows[:MAX_ROWS]):
            if i % 2 == 0:
                draw.rectangle((PAD // 2, y, WIDTH - PAD // 2, y + ROW - 1), fill=blend(BACKGROUND, PANEL, 0.7))
            leader = row.rank == 1
            colour = TEXT_DIM if row.left else (YELLOW if leader else TEXT)
            fnt = font(26, bold=True) if leader else regular
            name = row.name + (" (left)" if row.left else "")
            cells = (str(row.rank), fit_text(name, fnt, NAME_WIDTH), row.points, row.sonneborn_berger,
                     str(row.games), str(row.wins), str(row.rating))
            for (_, x, align), text in zip(COLUMNS, cells):  # draw_text: names in any script (fallback fonts)
                draw_text(img, (x, y + ROW // 2), text, fnt, colour, "rm" if align == "r" else "lm")
            if row.zone:
                _zone_mark(draw, y + ROW // 2, row.zone == "up")
            y += ROW
    return encode_png(img)
