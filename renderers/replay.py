"""Animated replay: one GIF frame per move from a match's views, small enough to attach to a Discord message.

    gif = replay_gif(views, player_names=["Alice", "Bob"], renderer=renderer)
    # views: game.view(state, None) for every state; renderer: the game's (bot/games/<game>/renderer.py)

Every frame is the game's own picture (`renderer.draw`), so the replay looks like the boards posted in the
thread, captions included. The views decide what the GIF can show: pass public views (viewer None) and it holds
nothing secret, since the picture of a view never shows more than the view holds.

How it stays small and fast:

- One palette for the whole animation, taken from a sample of its frames, and no dithering: a square that does
  not change keeps exactly the same palette index from frame to frame.
- Frames are written one by one (a 500-move match never holds 500 pictures in memory). After the first, each
  frame stores only the rectangle around what changed since the previous one, with unchanged pixels inside it
  transparent (disposal "leave in place"), so a move costs a few squares and the caption, not a board.
- A frame identical to the previous one (an agreed draw changes no position) lengthens that frame instead.
- Over the limit, the frames get smaller first (down to MIN_SCALE), then moves are skipped at an even stride
  (the first and the final position are always shown); it never fails for being long.
"""

from __future__ import annotations

import io
import math
import struct
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from PIL import Image, ImageChops

from . import BoardRenderer
from .png import Palette, palette_colours

DISCORD_ATTACHMENT_LIMIT = 10 * 1000 * 1000  # bytes: the lowest of Discord's upload limits, in its decimal megabytes
DEFAULT_BUDGET = DISCORD_ATTACHMENT_LIMIT - 250_000  # room for the request around the file
MIN_SCALE = 0.5  # ~490 px boards: coordinates and pieces still readable; below this, skip moves instead
LAST_FRAME_MS = 4000  # the final position stays up long enough to read the result
PALETTE_SAMPLES = 12  # frames whose colours make up the shared palette
TRANSPARENT = 255  # the palette index kept free for "unchanged since the previous frame"


@dataclass(frozen=True)
class GifReport:
    """What `build_replay_gif` made, for logs and docs/performance.md's measurements."""

    data: bytes
    frames: int  # frames in the file (identical neighbours merged)
    moves_shown: int  # views that became a frame
    moves_total: int
    scale: float  # 1.0 = the size of a board post
    size: tuple[int, int]
    attempts: int  # encodings tried before one fitted


Picture = Callable[[int, float], Image.Image]  # (index of a view, scale) -> its RGB picture


class _TooBig(Exception):
    def __init__(self, projected: float):
        self.projected = projected


def frame_duration(count: int) -> int:
    """Milliseconds per move: a short match plays at reading pace, a long one in about two minutes."""
    return max(250, min(1000, 120_000 // max(count, 1)))


def replay_gif(
    views: Sequence[dict],
    player_names: Sequence[str] | None = None,
    *,
    renderer: BoardRenderer,
    frame_ms: int | None = None,
    last_ms: int = LAST_FRAME_MS,
    max_bytes: int = DEFAULT_BUDGET,
) -> bytes:
    """The animated GIF of `views` (one per position, in order: the start, then after each move), drawn by their
    game's `renderer`."""
    return build_replay_gif(views, player_names, renderer=renderer, frame_ms=frame_ms, last_ms=last_ms,
                            max_bytes=max_bytes).data


def build_replay_gif(
    views: Sequence[dict],
    player_names: Sequence[str] | None = None,
    *,
    renderer: BoardRenderer,
    frame_ms: int | None = None,
    last_ms: int = LAST_FRAME_MS,
    max_bytes: int = DEFAULT_BUDGET,
) -> GifReport:
    """`replay_gif` with a report of what it had to give up to fit `max_bytes`."""
    if not views:
        raise ValueError("a replay needs at least one view")
    games = {v["game"] for v in views}
    viewers = {v.get("viewer") for v in views}
    if len(games) > 1 or len(viewers) > 1:
        # Frames for different readers side by side would show one of them what only the other may see.
        raise ValueError("all views of a replay must be of one game and one viewer")
    module = renderer

    def picture(index: int, scale: float) -> Image.Image:
        img = module.draw(views[index], player_names)
        if img.mode != "RGB":
            img = img.convert("RGB")
        if scale < 1:
            size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
            # Hamming: text and edges as crisp as Lanczos at a third of its cost (~11 ms a board)
            img = img.resize(size, Image.Resampling.HAMMING)
        return img

    per_move = frame_ms or frame_duration(len(views))
    scale, stride = _plan(len(views), picture, max_bytes)
    attempts = 0
    while True:
        attempts += 1
        # Past a stride of the whole match only the final position is left to show.
        shown = _shown(len(views), stride) if stride < len(views) else [len(views) - 1]
        try:
            data, frames, size = _encode(shown, picture, scale, per_move, last_ms, max_bytes)
        except _TooBig as too_big:
            if len(shown) == 1:
                raise ValueError(f"{max_bytes} bytes cannot hold even one frame of this game") from None
            ratio = too_big.projected / max_bytes
            if scale > MIN_SCALE:
                scale = max(MIN_SCALE, min(scale * 0.9, scale * (0.9 / ratio) ** (1 / SIZE_EXPONENT)))
            else:
                stride = max(stride + 1, math.ceil(stride * ratio * 1.1))
            continue
        return GifReport(data, frames, len(shown), len(views), scale, size, attempts)


PLAN_PAIRS = 10  # pairs of neighbouring positions encoded to estimate the whole file
SIZE_EXPONENT = 1.2  # bytes ~ scale ** 1.2 when retrying (measured: far from the pixel count's 2)


def _plan(count: int, picture: Picture, max_bytes: int) -> tuple[float, int]:
    """A first guess at (scale, stride), so that a very long match is not encoded whole at a size it cannot fit.

    A few pairs of neighbouring positions are encoded at full size and at MIN_SCALE; the two estimates give how
    the file shrinks with the frame size for this game's pictures. The encoder still checks, and retries."""
    if count <= 2 * PLAN_PAIRS:
        return 1.0, 1
    starts = sorted({round(i * (count - 2) / (PLAN_PAIRS - 1)) for i in range(PLAN_PAIRS)})
    target = 0.8 * max_bytes  # the estimate runs some 15% low on long matches: aim well under the limit
    full = _estimate(count, picture, 1.0, starts)
    if full <= target:
        return 1.0, 1
    smallest = _estimate(count, picture, MIN_SCALE, starts)
    if smallest > target:
        return MIN_SCALE, math.ceil(smallest / target)
    exponent = math.log(full / smallest) / math.log(1 / MIN_SCALE)
    return max(MIN_SCALE, (target / full) ** (1 / exponent)), 1


def _estimate(count: int, picture: Picture, scale: float, starts: Sequence[int]) -> float:
    """Projected bytes of the whole GIF at `scale`: the first frame plus the mean of the sampled moves."""
    pictures = {i: picture(i, scale) for start in starts for i in (start, start + 1)}
    palette = _shared_palette(list(pictures.values()))
    frames = {i: _quantize(img, palette) for i, img in pictures.items()}
    deltas = [len(_lzw_data(_patch(frames[i], frames[i + 1])[1])) + 20 for i in starts]
    return len(_lzw_data(frames[starts[0]])) + 800 + (count - 1) * sum(deltas) / len(deltas)


def _patch(previous: Image.Image, frame: Image.Image) -> tuple[tuple[int, int, int, int] | None, Image.Image]:
    """The rectangle of `frame` that differs from `previous`, with the pixels that did not change transparent
    (long runs of one index compress to almost nothing); (None, frame) when nothing changed."""
    changed = ImageChops.difference(_indices(previous), _indices(frame))
    return _patch_of(changed, frame)


def _patch_of(changed: Image.Image, frame: Image.Image) -> tuple[tuple[int, int, int, int] | None, Image.Image]:
    """_patch, given the difference of the two frames' indices."""
    box = changed.getbbox()
    if box is None:
        return None, frame
    patch = frame.crop(box)
    patch.paste(TRANSPARENT, mask=changed.crop(box).point(lambda v: 255 if v == 0 else 0))
    return box, patch


def _shown(count: int, stride: int) -> list[int]:
    """Every stride-th view, always with the first and the last."""
    shown = list(range(0, count, stride))
    if shown[-1] != count - 1:
        shown.append(count - 1)
    return shown


def _encode(
    shown: Sequence[int], picture: Picture, scale: float, per_move: int, last_ms: int, max_bytes: int
) -> tuple[bytes, int, tuple[int, int]]:
    """Write the GIF frame by frame; raise _TooBig (with a projected size) as soon as it cannot fit."""
    palette = _shared_palette([picture(i, scale) for i in _sample(shown)])
    out = io.BytesIO()
    previous: Image.Image | None = None
    previous_indices: Image.Image | None = None  # kept: each frame's indices are compared twice
    pending: list[Any] = []  # [offset, frame, duration]: written when the next frame is known
    written = 0
    for position, index in enumerate(shown):
        frame = _quantize(picture(index, scale), palette)
        indices = _indices(frame)
        duration = last_ms if position == len(shown) - 1 else per_move
        if previous_indices is None:  # the first frame
            _write_header(out, frame.size, palette)
            pending = [(0, 0), frame, duration]
        else:
            box, patch = _patch_of(ImageChops.difference(previous_indices, indices), frame)
            if box is None:
                pending[2] += duration  # the same picture again: show the previous one longer
                if position == len(shown) - 1:
                    pending[2] = max(pending[2], last_ms)
                continue
            _write_frame(out, *pending, transparent=written > 0)
            written += 1
            pending = [box[:2], patch, duration]
        previous, previous_indices = frame, indices
        size_now = out.tell()
        if size_now > max_bytes or (position >= len(shown) // 3 and position > 10 and
                                    size_now * len(shown) / (position + 1) > 1.5 * max_bytes):
            raise _TooBig(size_now * len(shown) / (position + 1))
    _write_frame(out, *pending, transparent=written > 0)
    written += 1
    out.write(b";")
    if out.tell() > max_bytes:
        raise _TooBig(out.tell())
    assert previous is not None  # there was a frame
    return out.getvalue(), written, previous.size


def _sample(shown: Sequence[int]) -> list[int]:
    if len(shown) <= PALETTE_SAMPLES:
        return list(shown)
    return sorted({shown[round(i * (len(shown) - 1) / (PALETTE_SAMPLES - 1))] for i in range(PALETTE_SAMPLES)})


def _shared_palette(samples: list[Image.Image]) -> Palette:
    """A palette of at most 255 colours for every frame (index 255 stays free for "transparent"), chosen as a
    board PNG's is (renderers/png.py): the sampled frames' flat colours exactly, then shades for their edges."""
    width = max(img.width for img in samples)
    sheet = Image.new("RGB", (width, sum(img.height for img in samples)))
    top = 0
    for img in samples:
        sheet.paste(img, (0, top))
        top += img.height
    return Palette(palette_colours(sheet), size=TRANSPARENT)


def _quantize(img: Image.Image, palette: Palette) -> Image.Image:
    frame = palette.map(img)
    frame.putpalette(_table(palette))  # all 256 entries, as the file's global table (its indices stay < 255)
    return frame


def _table(palette: Palette) -> list[int]:
    """The palette as a full 256-entry colour table: unused entries repeat the first colour."""
    values = [v for c in palette.colours for v in c]
    return values + values[:3] * (256 - len(palette.colours))


def _indices(frame: Image.Image) -> Image.Image:
    """The palette indices of a frame as a greyscale image, so that ImageChops compares indices, not colours."""
    return Image.frombytes("L", frame.size, frame.tobytes())


def _write_header(out: io.BytesIO, size: tuple[int, int], palette: Palette) -> None:
    out.write(b"GIF89a" + struct.pack("<HHBBB", *size, 0xF7, 0, 0))  # global table of 256 colours
    out.write(bytes(_table(palette)))
    out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop for ever


def _write_frame(
    out: io.BytesIO, offset: tuple[int, int], frame: Image.Image, duration: int, *, transparent: bool
) -> None:
    # Graphic control: disposal 1 (leave the frame in place: the next one draws only what changed), the delay in
    # hundredths of a second, and the transparent index for frames that are patches.
    packed = (1 << 2) | (1 if transparent else 0)
    out.write(b"!\xf9\x04" + struct.pack("<BHB", packed, round(duration / 10), TRANSPARENT) + b"\x00")
    out.write(b"," + struct.pack("<HHHHB", *offset, *frame.size, 0))  # no local table, not interlaced
    out.write(_lzw_data(frame))


def _lzw_data(frame: Image.Image) -> bytes:
    """The compressed image data of one frame (code size byte, sub-blocks, terminator), taken from Pillow's own
    single-frame GIF of it: Pillow's encoder is fast C, and its file format is plain to read."""
    buffer = io.BytesIO()
    frame.save(buffer, format="GIF", interlace=False, optimize=False)
    data = buffer.getvalue()
    pos = 13
    if data[10] & 0x80:
        pos += 3 << ((data[10] & 7) + 1)
    while data[pos] == 0x21:  # extensions: label, then sub-blocks up to an empty one
        pos += 2
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    if data[pos] != 0x2C:
        raise ValueError("unexpected GIF layout from the encoder")
    flags = data[pos + 9]
    pos += 10
    if flags & 0x80:
        pos += 3 << ((flags & 7) + 1)
    start = pos
    pos += 1  # LZW minimum code size
    while data[pos]:
        pos += data[pos] + 1
    return data[start : pos + 1]


__all__ = ["DISCORD_ATTACHMENT_LIMIT", "GifReport", "build_replay_gif", "frame_duration", "replay_gif"]

