"""Where a camera frame changed: its small copy, in blocks.

A frame is judged by a small copy of it (``STILL_SIZE`` blocks, each the mean of its pixels):
sensor noise averages out there, a card laid, moved or taken away does not. The taught-card
reader (:mod:`vision.taught_reader`) uses the blocks to tell a still table from a moving one,
to look again only where something changed, and to tell which cards a change touched.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: A frame is still when no block of its small copy changed by more than this (grey levels).
STILL_LEVELS = 8.0
STILL_SIZE = (64, 36)
#: Around what changed, this many blocks of the small copy are searched too (a card reaching
#: beyond the change: 6 blocks are 120 px of a 1280 px frame).
CHANGE_REACH = 6


def changed_box(blocks: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The box (frame px) round every changed block of the small copy, grown by
    ``CHANGE_REACH`` blocks; None when none changed."""
    ys, xs = np.nonzero(blocks)
    if not len(xs):
        return None
    bw, bh = shape[1] / STILL_SIZE[0], shape[0] / STILL_SIZE[1]
    x0, x1 = max(0, xs.min() - CHANGE_REACH), min(STILL_SIZE[0], xs.max() + 1 + CHANGE_REACH)
    y0, y1 = max(0, ys.min() - CHANGE_REACH), min(STILL_SIZE[1], ys.max() + 1 + CHANGE_REACH)
    return int(x0 * bw), int(y0 * bh), int(np.ceil(x1 * bw)), int(np.ceil(y1 * bh))


def covered_blocks(polygons: list[np.ndarray], shape: tuple[int, ...], edge: bool = True) -> np.ndarray:
    """Blocks of the small copy that ``polygons`` (frame px) explain: inside one, or (``edge``)
    on its edge (a card's edge block holds a strip of table: too little to hide another card)."""
    scale = np.float32([STILL_SIZE[0] / shape[1], STILL_SIZE[1] / shape[0]])
    inside = np.zeros((STILL_SIZE[1], STILL_SIZE[0]), np.uint8)
    for polygon in polygons:
        cv2.fillPoly(inside, [np.round(np.asarray(polygon, np.float32) * scale).astype(np.int32)], 1)
    return (cv2.dilate(inside, np.ones((3, 3), np.uint8)) if edge else inside) > 0


def box_blocks(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> np.ndarray:
    """Blocks of the small copy wholly inside ``box`` (x0, y0, x1, y1 frame px)."""
    bw, bh = shape[1] / STILL_SIZE[0], shape[0] / STILL_SIZE[1]
    blocks = np.zeros((STILL_SIZE[1], STILL_SIZE[0]), bool)
    x0, y0 = max(0, math.ceil(box[0] / bw)), max(0, math.ceil(box[1] / bh))
    x1, y1 = min(STILL_SIZE[0], math.floor(box[2] / bw)), min(STILL_SIZE[1], math.floor(box[3] / bh))
    blocks[y0:y1, x0:x1] = True
    return blocks


def small_copy(grey: np.ndarray) -> np.ndarray:
    """The frame's small copy (``STILL_SIZE`` blocks, int16) that changes are judged on: sensor
    noise averages out in it, a card laid or moved does not."""
    return cv2.resize(grey, STILL_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)


def changed_blocks(small: np.ndarray, last: np.ndarray | None) -> np.ndarray | None:
    """Blocks of a small copy that changed by a clear step (more than ``STILL_LEVELS``) since
    ``last``; None when there is no ``last`` to compare with."""
    return None if last is None else np.abs(small - last) > STILL_LEVELS


class StillFrames:
    """Tells whether a frame shows the same scene as the last one that was read in full."""

    def __init__(self) -> None:
        self._last: np.ndarray | None = None

    def unchanged(self, small: np.ndarray) -> bool:
        """True when a frame's small copy (:func:`small_copy`) differs from the last *changed*
        frame's nowhere by a clear step (sensor noise averages out in it); else remembers it as
        the new last."""
        last = self._last
        if last is not None and last.shape == small.shape and not changed_blocks(small, last).any():
            return True
        self._last = small
        return False

    def forget(self) -> None:
        """The next frame is read in full whatever it shows."""
        self._last = None
