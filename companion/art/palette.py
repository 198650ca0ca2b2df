"""The art's plain values and geometry (no NumPy, no OpenCV): what the catalog and the screen
need to know about symbols without drawing them (:mod:`.canvas` draws)."""

from __future__ import annotations

import math

RGB = tuple[int, int, int]
Point = tuple[float, float]

#: The outline colour every symbol shares: a warm near-black, like printed ink.
INK: RGB = (32, 24, 28)
#: Outline width in design units (of 100).
STROKE = 2.6


def star_points(
    center: Point, outer: float, inner: float, spikes: int = 5, turn: float = -90.0
) -> list[Point]:
    """Points of a star polygon (used by wilds, the 'all' token and the jackpot crown)."""
    pts: list[Point] = []
    for i in range(spikes * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(turn + i * 180.0 / spikes)
        pts.append((center[0] + r * math.cos(a), center[1] + r * math.sin(a)))
    return pts


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend two colours: t=0 gives a, t=1 gives b.

    >>> mix((0, 0, 0), (255, 100, 10), 0.5)
    (128, 50, 5)
    """
    return (
        int(round(a[0] + (b[0] - a[0]) * t)),
        int(round(a[1] + (b[1] - a[1]) * t)),
        int(round(a[2] + (b[2] - a[2]) * t)),
    )
