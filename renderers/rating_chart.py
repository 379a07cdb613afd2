"""A member's rating over time, for the profile: `rating_chart(points, *, title) -> PNG bytes`.

Pure Pillow in the boards' look (dark background, DejaVu, the Okabe-Ito sky blue). The picture is 800 x 500: Discord
shows it about 390 points wide on a phone, where the 26 px labels still read at ~13 pt.

Games are spaced evenly along the x axis rather than by date: a member often plays a burst of games in one evening
and then nothing for a week, and a time axis would squeeze the burst into a vertical smear exactly where the rating
moved most. Dates label the first and last game (and a few in between) instead.
"""

from __future__ import annotations

import math
from datetime import datetime, timezone
from typing import Sequence

from PIL import Image, ImageDraw

from .common import N_, BACKGROUND, PANEL, SKY_BLUE, TEXT, TEXT_DIM, YELLOW, blend, draw_text, fit_text, font, say
from .png import encode_png

WIDTH, HEIGHT = 800, 500
SCALE = 2  # drawn at twice the size and reduced once: smooth line and text edges
REFERENCE = 1500  # everyone's starting rating, drawn as a dashed guide when in range
MIN_SPAN = 100  # the y axis covers at least this many points, so a flat or single-point history is not magnified
DOTS_UP_TO = 40  # with more games than this, dots would merge into a blur: the line alone reads better

GRID = blend(BACKGROUND, TEXT_DIM, 0.18)
AREA = blend(BACKGROUND, SKY_BLUE, 0.16)

Point = tuple[float, float]  # (unix time, displayed rating)


def rating_chart(points: Sequence[Point], *, title: str) -> bytes:
    """PNG of the rating history (oldest first). No points gives a picture that says so."""
    s = SCALE
    img = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(img)
    pad = 28 * s
    header = 78 * s
    draw_text(img, (pad, 22 * s), fit_text(title, font(30 * s, bold=True), (WIDTH - 300) * s), font(30 * s, bold=True),
              TEXT, "lt")
    if not points:
        draw.text((WIDTH * s // 2, (HEIGHT + 40) * s // 2), say("No rated games yet"), font=font(28 * s), fill=TEXT_DIM,
                  anchor="mm")
        return _finish(img)

    ratings = [float(r) for _, r in points]
    _draw_headline(draw, ratings, _date_label([t for t, _ in points])(points[0][0]), pad)

    left, right = pad + 70 * s, WIDTH * s - pad  # room for the y labels on the left
    top, bottom = header + 12 * s, HEIGHT * s - 56 * s  # room for the date labels below
    draw.rounded_rectangle((left, top, right, bottom), radius=10 * s, fill=blend(BACKGROUND, PANEL, 0.6))
    low, high, step = _y_range(ratings)

    def y_of(rating: float) -> float:
        return bottom - (rating - low) / (high - low) * (bottom - top)

    def x_of(index: int) -> float:
        inner = 18 * s  # keep the first and last dots off the frame
        if len(points) == 1:
            return (left + right) / 2
        return left + inner + index / (len(points) - 1) * (right - left - 2 * inner)

    line = [(x_of(i), y_of(r)) for i, r in enumerate(ratings)]
    if len(line) > 1:  # the area first: grid lines and the 1500 guide stay visible through it
        draw.polygon([(line[0][0], bottom)] + line + [(line[-1][0], bottom)], fill=AREA)

    label_font = font(22 * s)
    value = math.ceil(low / step) * step
    while value <= high:
        y = y_of(value)
        if value == REFERENCE:
            _dashed(draw, left, right, y, fill=blend(BACKGROUND, TEXT_DIM, 0.55), width=2 * s)
        else:
            draw.line((left, y, right, y), fill=GRID, width=s)
        draw.text((left - 12 * s, y), str(int(value)), font=label_font, fill=TEXT_DIM, anchor="rm")
        value += step

    if len(line) > 1:
        draw.line(line, fill=SKY_BLUE, width=4 * s, joint="curve")
    if len(line) <= DOTS_UP_TO:
        r = 5 * s
        for x, y in line[:-1]:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=SKY_BLUE, outline=BACKGROUND, width=s)
    x, y = line[-1]
    r = 8 * s  # the current rating: a bigger, yellow dot, a shape as well as a colour
    draw.ellipse((x - r, y - r, x + r, y + r), fill=YELLOW, outline=BACKGROUND, width=2 * s)

    _draw_dates(draw, [t for t, _ in points], x_of, bottom + 28 * s, left, right)
    return _finish(img)


def _finish(img: Image.Image) -> bytes:
    return encode_png(img.reduce(SCALE))


def _draw_headline(draw: ImageDraw.ImageDraw, ratings: list[float], since: str, pad: int) -> None:
    """Top right: the current rating, and how far it moved since the first point."""
    s = SCALE
    right = WIDTH * s - pad
    current = round(ratings[-1])
    draw.text((right, 18 * s), str(current), font=font(36 * s, bold=True), fill=YELLOW, anchor="rt")
    if len(ratings) > 1:
        detail = say("{change} since {date}", change=f"{current - round(ratings[0]):+d}", date=since)
        draw.text((right, 60 * s), detail, font=font(20 * s), fill=TEXT_DIM, anchor="rt")


def _y_range(ratings: list[float]) -> tuple[float, float, float]:
    """Axis bounds on round numbers with 3-6 grid lines, at least MIN_SPAN tall, centred on the data."""
    low, high = min(ratings), max(ratings)
    if high - low < MIN_SPAN:
        middle = (low + high) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    span = high - low
    step = next(step for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000) if span / step <= 5)
    low = math.floor((low - step * 0.25) / step) * step  # a little air above and below the line
    high = math.ceil((high + step * 0.25) / step) * step
    return low, high, step


def _dashed(draw: ImageDraw.ImageDraw, x0: float, x1: float, y: float, *, fill, width: int) -> None:
    dash = 10 * SCALE
    x = x0
    while x < x1:
        draw.line((x, y, min(x + dash, x1), y), fill=fill, width=width)
        x += 2 * dash


def _draw_dates(draw, times: list[float], x_of, y: float, left: float, right: float) -> None:
    """Dates under the first and last game, and under up to two games between when they fit without overlapping."""
    fnt = font(22 * SCALE)
    label = _date_label(times)
    n = len(times)
    placed: list[tuple[float, float]] = []  # (left edge, right edge) of the labels drawn so far

    def place(i: int, *, required: bool) -> None:
        text = label(times[i])
        w = draw.textlength(text, font=fnt)
        x = min(max(x_of(i), left + w / 2), right - w / 2)  # end labels stay inside the picture
        gap = 16 * SCALE
        if not required and any(x - w / 2 < b + gap and x + w / 2 > a - gap for a, b in placed):
            return
        draw.text((x, y), text, font=fnt, fill=TEXT_DIM, anchor="mm")
        placed.append((x - w / 2, x + w / 2))

    place(0, required=True)
    if n > 1:
        place(n - 1, required=True)
    for i in sorted({round((n - 1) / 3), round(2 * (n - 1) / 3)} - {0, n - 1}) if n >= 4 else ():
        place(i, required=False)


def _date_label(times: list[float]):
    """'14:05' when every game was on one day, '3 Mar' within a year, 'Mar 2026' beyond, '3 Mar 2026' for a single
    point (UTC: the picture is the same for every viewer)."""
    first, last = (datetime.fromtimestamp(t, timezone.utc) for t in (min(times), max(times)))
    if len(times) == 1:
        return lambda t: (lambda d: f"{d.day} {_month(d)} {d.year}")(datetime.fromtimestamp(t, timezone.utc))
    if first.date() == last.date():
        return lambda t: datetime.fromtimestamp(t, timezone.utc).strftime("%H:%M")
    if first.year == last.year:
        return lambda t: (lambda d: f"{d.day} {_month(d)}")(datetime.fromtimestamp(t, timezone.utc))
    return lambda t: (lambda d: f"{_month(d)} {d.year}")(datetime.fromtimestamp(t, timezone.utc))


MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"), N_("Aug"), N_("Sep"), N_("Oct"),
          N_("Nov"), N_("Dec"))


def _month(day: datetime) -> str:
    """The month's short name in the picture's language (the C locale's %b would be English everywhere)."""
    return say(MONTHS[day.month - 1])
