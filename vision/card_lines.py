"""Card outlines from straight edges: where two long straight steps meet at a corner.

A card's border is four long straight steps between card and table. Region masks (see
:mod:`vision.card_outlines`) lose a card whose paper joins light specks of carpet, whose art
reaches its edge, or that lies on a table as light as itself; its straight edges are still
there. Line segments (OpenCV's LSD) of at least a few millimetres of card are paired where two
of them, about square to each other, end near one point: a corner. Each corner proposes the
card lying along both its edges: as long as the edges are seen, and, where one edge is cut
short (covered, or shorter in view), as long as a card's shape makes it. The proposals are
checked afterwards like every other outline (border contrast, ink, paper band).
"""

from __future__ import annotations

import cv2
import numpy as np

#: A card's short side / long side (63 x 88 mm).
CARD_RATIO = 63 / 88
#: Two edges meet at a corner when their directions are this square to each other (|cos|).
SQUARE_COS = 0.42
#: A segment lies along a side within about 8 degrees (|cos| >= 0.99); pairs are looked for
#: within this angle (radians), a little wider, then checked exactly.
ALONG_WINDOW = 0.15

_LSD = cv2.createLineSegmentDetector(cv2.LSD_REFINE_NONE)


def straight_edges(grey: np.ndarray, shortest: float) -> np.ndarray:
    """Line segments (N x 4: x0, y0, x1, y1) at least ``shortest`` px long in ``grey``."""
    found = _LSD.detect(grey)[0]
    if found is None:
        return np.zeros((0, 4), np.float32)
    segments = found.reshape(-1, 4).astype(np.float32)
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    return segments[lengths >= shortest]


def corner_quads(segments: np.ndarray, shortest_side: float, limit: int = 400) -> list[np.ndarray]:
    """Card-shaped quadrilaterals proposed by pairs of segments meeting at a corner (4 x 2
    float32 each, corner first)."""
    n = len(segments)
    if n < 2:
        return []
    p0, p1 = segments[:, :2], segments[:, 2:]
    lengths = np.linalg.norm(p1 - p0, axis=1)
    d = (p1 - p0) / lengths[:, None]
    i, j = np.triu_indices(n, 1)
    cos = np.abs(np.einsum("ij,ij->i", d[i], d[j]))
    keep = cos <= SQUARE_COS
    i, j = i[keep], j[keep]
    if len(i) == 0:
        return []
    di, dj = d[i], d[j]
    cross = di[:, 0] * dj[:, 1] - di[:, 1] * dj[:, 0]
    delta = p0[j] - p0[i]
    t = (delta[:, 0] * dj[:, 1] - delta[:, 1] * dj[:, 0]) / cross
    s = (delta[:, 0] * di[:, 1] - delta[:, 1] * di[:, 0]) / cross
    li, lj = lengths[i], lengths[j]
    # Rounded corners and the detector stop an edge short of the corner: allow a gap.
    gap = 3.0 + 0.2 * np.minimum(li, lj)
    near_i0, near_i1 = np.abs(t) <= gap, np.abs(t - li) <= gap
    near_j0, near_j1 = np.abs(s) <= gap, np.abs(s - lj) <= gap
    ok = (near_i0 | near_i1) & (near_j0 | near_j1)
    corner = p0[i] + di * t[:, None]
    # From the corner along each edge, away from it: its direction and how far it is seen.
    u = np.where(near_i0[:, None], di, -di)
    a = np.where(near_i0, li - t, t)
    v = np.where(near_j0[:, None], dj, -dj)
    b = np.where(near_j0, lj - s, s)
    ok &= (a >= shortest_side * 0.5) & (b >= shortest_side * 0.5)
    order = np.argsort(-(a * b)[ok])[:limit]
    # The sizes of each corner's cards, in the order proposed (the searches keep the first of
    # outlines alike); the quads are then made all in one go, in float32 as one at a time.
    picked: list[int] = []
    widths: list[float] = []
    heights: list[float] = []
    for k in np.flatnonzero(ok)[order].tolist():
        aa, bb = float(a[k]), float(b[k])
        sizes = {(aa, bb)}
        # One edge seen whole, the other cut short (covered, or out of view): complete the
        # card's shape, the whole edge taken as the short side or as the long one.
        if bb < aa / CARD_RATIO:
            sizes.add((aa, aa / CARD_RATIO))
        if bb < aa * CARD_RATIO:
            sizes.add((aa, aa * CARD_RATIO))
        if aa < bb / CARD_RATIO:
            sizes.add((bb / CARD_RATIO, bb))
        if aa < bb * CARD_RATIO:
            sizes.add((bb * CARD_RATIO, bb))
        for side_a, side_b in sizes:
            picked.append(k)
            widths.append(side_a)
            heights.append(side_b)
    if not picked:
        return []
    x, along_u, along_v = corner[picked], u[picked], v[picked]
    side_u = along_u * np.array(widths, along_u.dtype)[:, None]
    side_v = along_v * np.array(heights, along_v.dtype)[:, None]
    return list(np.stack([x, x + side_u, x + side_u + side_v, x + side_v], axis=1).astype(np.float32))


def edge_support(quads: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """For each side of each quad (Q x 4 x 2, corners in order; or one 4 x 2 quad), the share
    of its length that line segments lying along it cover (0..1; Q x 4, or 4): a card's side is
    one long straight step; the side of an outline through art or texture is not. Segments
    overlapping each other along one side count once as far as they overlap the longest."""
    single = quads.ndim == 2
    quads = quads.reshape(-1, 4, 2).astype(np.float32)
    support = np.zeros(quads.shape[:2], np.float32)
    if len(segments) == 0 or len(quads) == 0:
        return support[0] if single else support
    p0, p1 = segments[:, :2].astype(np.float64), segments[:, 2:].astype(np.float64)
    seg_dir = p1 - p0
    seg_unit = seg_dir / (np.linalg.norm(seg_dir, axis=1, keepdims=True) + 1e-6)
    starts = quads.astype(np.float64)
    sides = np.roll(starts, -1, axis=1) - starts  # Q x 4 x 2
    lengths = np.linalg.norm(sides, axis=2) + 1e-6
    e = sides / lengths[..., None]
    tolerance = np.maximum(2.0, 0.03 * lengths)
    # The pairs of a side and a segment lying along it (within ~8 degrees), found by angle: a
    # thorough search measures a thousand outlines against a few hundred segments, and only a
    # few in a hundred pairs lie along each other. Each side's pairs are the segments whose
    # angle lies within ALONG_WINDOW of its own (the sorted angles, repeated a half turn below
    # and above: a side at 179 degrees lies along a segment at 1), checked exactly after.
    ex, ey = e[..., 0].reshape(-1), e[..., 1].reshape(-1)
    ux, uy = seg_unit[:, 0], seg_unit[:, 1]
    seg_angle = np.arctan2(uy, ux) % np.pi
    order = np.argsort(seg_angle)
    angles = np.concatenate([seg_angle[order] - np.pi, seg_angle[order], seg_angle[order] + np.pi])
    side_angle = np.arctan2(ey, ex) % np.pi
    first = np.searchsorted(angles, side_angle - ALONG_WINDOW, "left")
    counts = np.searchsorted(angles, side_angle + ALONG_WINDOW, "right") - first
    side = np.repeat(np.arange(len(ex)), counts)
    seg = np.tile(order, 3)[np.arange(len(side)) - np.repeat(np.cumsum(counts) - counts - first, counts)]
    along = np.abs(ex[side] * ux[seg] + ey[side] * uy[seg]) >= 0.99
    side, seg = side[along], seg[along]
    # How far off the side the segment's ends are, and where along it they lie.
    sx, sy = starts[..., 0].reshape(-1)[side], starts[..., 1].reshape(-1)[side]
    nx, ny = -ey[side], ex[side]
    tolerance2 = tolerance.reshape(-1)[side]
    near = np.abs((p0[seg, 0] - sx) * nx + (p0[seg, 1] - sy) * ny) <= tolerance2
    near &= np.abs((p1[seg, 0] - sx) * nx + (p1[seg, 1] - sy) * ny) <= tolerance2
    side, seg, sx, sy = side[near], seg[near], sx[near], sy[near]
    t0 = (p0[seg, 0] - sx) * ex[side] + (p0[seg, 1] - sy) * ey[side]
    t1 = (p1[seg, 0] - sx) * ex[side] + (p1[seg, 1] - sy) * ey[side]
    length2 = lengths.reshape(-1)[side]
    covered_by = np.clip(np.maximum(t0, t1), 0, length2) - np.clip(np.minimum(t0, t1), 0, length2)
    covered = np.bincount(side, weights=covered_by, minlength=len(ex)).reshape(quads.shape[:2])
    # Overlapping pieces of one edge (the detector splits a long edge): the longest, plus the
    # others' length beyond it, bounded by the side's length.
    support = (np.minimum(covered, lengths) / lengths).astype(np.float32)
    return support[0] if single else support
