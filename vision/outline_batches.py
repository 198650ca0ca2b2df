"""Hundreds of candidate outlines at once: the thorough and the die-cut searches' bookkeeping.

A settle frame's thorough search proposes several hundred outlines from corners of straight
edges, and the die-cut search over a thousand. Judged one at a time in Python
(:func:`vision.card_checks.order_quad`, :func:`vision.card_checks.card_shaped`, a comparison
with every outline seen before), the bookkeeping cost more than the looking: on 7 recorded
settle frames of a taught deck the thorough search took 330-350 ms of CPU a frame, 140-175 ms
with these batches and :func:`vision.card_lines.edge_support`'s pairing by angle (side by
side, the same outlines). Here the same answers come in one set of numpy calls, or by comparing
an outline only with those lying near it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.card_checks import ASPECT_MAX, ASPECT_MIN, MAX_AREA_SHARE, MIN_AREA_SHARE, card_shaped, order_quad

#: Fewer quads than this are judged one at a time (see :func:`card_shaped_many`).
FEW = 16


def order_quads(quads: np.ndarray) -> np.ndarray:
    """:func:`vision.card_checks.order_quad` of each of ``quads`` (Q x 4 x 2): the same
    corners in the same order, float32."""
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    if not len(quads):
        return quads
    points = quads.astype(np.float64)
    centre = points.mean(axis=1, keepdims=True)
    angle = np.arctan2(points[..., 1] - centre[..., 1], points[..., 0] - centre[..., 0])
    # Clockwise in image coordinates; ties keep the corners' own order, as sorted() does.
    order = np.argsort(angle, axis=1, kind="stable")
    rows = np.arange(len(quads))[:, None]
    turn = np.arange(4)[None, :]
    sorted_points = points[rows, order]
    first = ((sorted_points[:, 0] - sorted_points[:, 1]) ** 2).sum(axis=1)
    second = ((sorted_points[:, 1] - sorted_points[:, 2]) ** 2).sum(axis=1)
    # The first edge a short one (the top) ...
    order = np.where((first > second)[:, None], order[rows, (turn + 1) % 4], order)
    sums = points.sum(axis=2)
    # ... starting nearer the image's top left of the two portrait orders.
    flip = sums[rows[:, 0], order[:, 0]] > sums[rows[:, 0], order[:, 2]]
    order = np.where(flip[:, None], order[rows, (turn + 2) % 4], order)
    return quads[rows, order]


def card_shaped_many(
    quads: np.ndarray, image_area: float, aspect: tuple[float, float] = (ASPECT_MIN, ASPECT_MAX)
) -> np.ndarray:
    """:func:`vision.card_checks.card_shaped` of each of ``quads`` (Q x 4 x 2): a bool per
    quad. The measures are numpy's over all at once; the convexity test, OpenCV's as there,
    only for the quads that pass them."""
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    if len(quads) < FEW:
        # numpy's overhead on a handful costs more than card_shaped one at a time (0.2 ms for
        # one or two quads against 0.02 ms each; even at about 16).
        return np.array([card_shaped(quad, image_area, aspect) for quad in quads], bool)
    points = quads.astype(np.float64)
    x, y = points[..., 0], points[..., 1]
    area = np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)) / 2
    ok = (MIN_AREA_SHARE * image_area <= area) & (area <= MAX_AREA_SHARE * image_area)
    q = order_quads(quads).astype(np.float64)
    edges = np.roll(q, -1, axis=1) - q
    sides = np.hypot(edges[..., 0], edges[..., 1])
    short, long_ = (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2
    ratio = short / np.maximum(long_, 1.0)
    ok &= (aspect[0] <= ratio) & (ratio <= aspect[1])
    # Opposite sides of similar length (perspective within reason), corners not too sharp.
    ok &= np.minimum(sides[:, 0], sides[:, 2]) >= 0.6 * np.maximum(sides[:, 0], sides[:, 2])
    ok &= np.minimum(sides[:, 1], sides[:, 3]) >= 0.6 * np.maximum(sides[:, 1], sides[:, 3])
    before = np.roll(q, 1, axis=1) - q  # corner i's edge back to corner i - 1
    after = np.roll(q, -1, axis=1) - q
    cos = (before * after).sum(axis=2) / (np.roll(sides, 1, axis=1) * sides + 1e-6)
    ok &= (np.abs(cos) <= 0.45).all(axis=1)  # corners between ~63 and ~117 degrees
    for k in np.flatnonzero(ok):
        ok[k] = cv2.isContourConvex(quads[k].reshape(4, 1, 2).astype(np.int32))
    return ok


class SeenOutlines:
    """Outlines already looked at: the same card comes out of many masks and corners.

    Comparing each outline with every one seen before took over a third of a thorough
    search's time under cProfile (a settle frame of a taught deck: several hundred outlines).
    Two outlines alike have their centres within the reach too (the centre is the corners'
    mean), so only outlines whose centres lie in the neighbouring cells of a grid are
    compared: the same answers."""

    #: The grid's cell (px): the reach of outlines up to ten times its size is found among
    #: the 3 x 3 cells round a centre; a larger reach looks at every outline seen.
    CELL = 32.0

    def __init__(self) -> None:
        # Plain lists: a cell holds a few outlines, and numpy's per-call overhead on arrays
        # this small cost more than the comparisons.
        self._cells: dict[tuple[int, int], list[tuple[float, float, list[list[float]], float]]] = {}
        self._largest = 0.0

    def first_time(self, quad: np.ndarray, ordered: np.ndarray | None = None) -> bool:
        """False when an outline with every corner within a tenth of its size was seen.
        ``ordered``: ``quad``'s :func:`vision.card_checks.order_quad`, when known."""
        q = order_quad(quad) if ordered is None else ordered
        size = math.sqrt(max(1.0, cv2.contourArea(q)))
        corners = q.tolist()
        # Either portrait order (0 or 180 degrees) may have been chosen for a near square.
        turned = corners[2:] + corners[:2]
        cx = sum(x for x, _y in corners) / 4
        cy = sum(y for _x, y in corners) / 4
        cell = (math.floor(cx / self.CELL), math.floor(cy / self.CELL))
        if 0.1 * max(self._largest, size) <= self.CELL:
            near = (self._cells.get((cell[0] + i, cell[1] + j), ()) for i in (-1, 0, 1) for j in (-1, 0, 1))
        else:
            near = iter(self._cells.values())
        for others in near:
            for ox, oy, other, other_size in others:
                reach = 0.1 * max(other_size, size)
                if abs(ox - cx) >= reach or abs(oy - cy) >= reach:
                    continue  # the centres lie apart: some corner does too
                if max(map(math.dist, other, corners)) < reach or max(map(math.dist, other, turned)) < reach:
                    return False
        self._cells.setdefault(cell, []).append((cx, cy, corners, size))
        self._largest = max(self._largest, size)
        return True


__all__ = ["SeenOutlines", "card_shaped_many", "order_quads"]
