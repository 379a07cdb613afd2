"""The rating chart picture (renderers/rating_chart.py), checked by properties: size, colours, every history length."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from renderers.common import BACKGROUND, SKY_BLUE, YELLOW
from renderers.rating_chart import HEIGHT, WIDTH, rating_chart

START = 1767225600.0  # 1 Jan 2026, UTC


def history(n: int, seed: int = 1) -> list[tuple[float, int]]:
    rng = random.Random(seed)
    points, t, r = [(START, 1500)], START, 1500.0
    for _ in range(n):
        t += rng.random() * 2 * 86400
        r += rng.gauss(0, 25)
        points.append((t, round(r)))
    return points


def picture(points, title="Alexandra · Epaminondas") -> Image.Image:
    img = Image.open(io.BytesIO(rating_chart(points, title=title)))
    assert img.format == "PNG" and img.size == (WIDTH, HEIGHT)
    return img.convert("RGB")


def near(colour, target, tolerance=30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))


def count(img: Image.Image, target) -> int:
    return sum(n for n, colour in img.getcolors(maxcolors=WIDTH * HEIGHT) if near(colour, target))


@pytest.mark.parametrize("n", [0, 1, 4, 39, 41, 300, 1000])
def test_every_history_length_draws_the_line_and_the_current_rating(n):
    img = picture(history(n))
    assert img.getpixel((2, 2)) == BACKGROUND
    assert count(img, YELLOW) > 100  # the current rating: the headline number and the last dot
    if n:
        assert count(img, SKY_BLUE) > 200


def test_a_single_point_is_a_dot_in_the_middle_of_the_plot():
    img = picture([(START, 1523)])
    dot = [(x, y) for y in range(100, HEIGHT - 60) for x in range(WIDTH) if near(img.getpixel((x, y)), YELLOW)]
    assert dot
    xs = sorted(x for x, _ in dot)
    assert WIDTH * 0.45 < xs[len(xs) // 2] < WIDTH * 0.65 and xs[-1] - xs[0] < 20


def test_no_history_says_so_without_failing():
    img = picture([])
    assert count(img, SKY_BLUE) == 0


def test_a_long_title_is_shortened_not_overflowing():
    img = picture(history(3), title="A member with a remarkably long display name · Epaminondas")
    assert img.size == (WIDTH, HEIGHT)
