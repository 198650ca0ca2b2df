"""The strip of paper beside one side of a card: the card beneath whose edge it shows.

Cards of one deck are one size, so a card beneath a card on top is as large as it; its outer
edge is where the paper beside the card on top ends; and it lies along that edge for a whole
side's length. :func:`side_strip` looks outward from one side: rays across it, one every few
pixels along it and past its ends, each following the paper (the colour of the card on top's
border, :func:`paper_colour`, print allowed in short gaps) until the table begins. Where a run
of rays finds paper ending on one straight line a card's side long, that line is the outer edge
of a card beneath, placed along it as deep as the card on top (or, turned against the card on
top, from the corner two such edges make). :mod:`vision.card_beneath` and
:mod:`vision.fan_strips` look beside every side of the cards found whole.

A table that settles after a card was laid changed beside a few sides only: the answers for
the others are kept from the last look (:mod:`vision.kept_answers`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_checks import order_quad
from vision.kept_answers import KeptAnswers, answer_of

#: Rays across each side, as positions along it: past each end by this share of the side (a card
#: beneath may stick out beyond the card on top's end) ...
_REACH_PAST_END = 0.3
#: ... one every this share of the side.
_RAY_STEP = 0.02
#: The frame is read up to this share of the side past each end (the rays, and the ends of a
#: card beneath they found, placed along its edge): where a change makes a kept answer stale.
_READ_PAST_END = 0.55
#: A pixel is paper when its Lab colour is within this distance (L + |a| + |b|) of the card on
#: top's paper (the same deck's paper; shade allowed for lightness below).
_PAPER_DISTANCE = 38.0
#: Paper is near-neutral: |a| + |b| (Lab, about 128) at most this (cream and a warm lamp too).
_NEUTRAL = 36
#: Print on the strip (a pip, the index) may interrupt the paper for this share of the card's
#: short side before the ray calls it the table.
_PRINT_GAP = 0.3
#: A strip is this share of the card's depth at least (a thinner one is the card on top's own
#: edge or shadow) and at most (a deeper one is a card lying beside it, found on its own).
STRIP_MIN, STRIP_MAX = 0.07, 0.8
#: The rays' end points must lie on one line within this share of the card's short side.
_LINE_TOLERANCE = 0.035
#: The run of rays finding the strip is a card's side long within this share.
_LENGTH_TOLERANCE = 0.12
#: Rays on the edge line: at least this many, and this share of the rays along its span.
_MIN_RAYS, _MIN_ON_LINE = 12, 0.45
#: Each edge of a corner beside the card on top: at least this many rays; the two edges square
#: to each other within this |cos| (perspective and a loose fit).
_MIN_CORNER_RAYS, _SQUARE_COS = 6, 0.3
#: Rays finding paper past the edge line (on most of this share of the card's short side just
#: past it): at most this share of its span.
_MAX_BEYOND, _PAST_EDGE = 0.2, 0.06
#: The edge's rays: the longest run of them with no gap wider than this share of the side.
_EDGE_GAP = 0.08
#: Rays placing a card's end start this share of its length inside it and run as far past;
#: their ends must agree within this share of the card's short side.
_END_REACH, _END_AGREE = 0.12, 0.04
#: When both ends show, the card beneath is placed by them if its length is within these shares
#: of the card on top's (perspective; a card of another size or an end misread is not) and
#: differs from it by more than ``_LENGTH_NOISE`` (the ends are found to a pixel or two each:
#: a smaller difference is theirs, and the card on top's length is the surer one).
_SAME_LENGTH, _LENGTH_NOISE = (0.88, 1.08), 0.03
#: Beyond the strip's end, the table shows for this many pixels at least (a step to the table).
_TABLE_PX = 3


def paper_colour(frame: np.ndarray, quad: np.ndarray, kept: KeptAnswers | None = None) -> np.ndarray:
    """The Lab colour of the card's paper: rings of samples 2-6 % in from its border, the
    lightest near-neutral half of them (a face card's art may come close to its edge, and a
    card named by its face may have corners a few pixels in). ``kept``: see :func:`side_strip`."""
    return answer_of(kept, "paper", quad, quad, lambda: _paper_colour(frame, quad))


def _paper_colour(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    q = order_quad(quad)
    centre = q.mean(axis=0)
    ts = np.linspace(0.15, 0.85, 8, dtype=np.float32)[:, None]
    edge = np.concatenate([q[i] + (q[(i + 1) % 4] - q[i]) * ts for i in range(4)])
    points = np.concatenate([edge + (centre - edge) * inset for inset in (0.02, 0.04, 0.06)])
    h, w = frame.shape[:2]
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
    ring = cv2.cvtColor(np.ascontiguousarray(frame[ys, xs][None]), cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    neutral = ring[np.abs(ring[:, 1] - 128) + np.abs(ring[:, 2] - 128) <= _NEUTRAL]
    if len(neutral) < len(ring) // 6:
        return np.median(ring, axis=0)
    light = neutral[neutral[:, 0] >= np.median(neutral[:, 0])]
    return np.median(light, axis=0)


def is_paper(samples: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Which Lab samples (..., 3) are the card's paper: its colour, lightness down to shade."""
    colour = np.abs(samples[..., 1] - paper[1]) + np.abs(samples[..., 2] - paper[2])
    light = samples[..., 0]
    lightness_off = np.maximum(0.0, paper[0] - light) * 0.5 + np.maximum(0.0, light - paper[0])
    return (colour + lightness_off) <= _PAPER_DISTANCE


def lab_at(frame: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The frame's colour (Lab, float32; black off the frame) at ``points`` (..., 2, frame px,
    interpolated), and which points lie on the frame. Only these samples are converted to Lab,
    not the whole frame."""
    h, w = frame.shape[:2]
    xs, ys = points[..., 0], points[..., 1]
    inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
    grid = points.shape[:-1] if points.ndim == 3 else (points.shape[0], 1)
    samples = cv2.remap(
        frame, xs.reshape(grid).astype(np.float32), ys.reshape(grid).astype(np.float32), cv2.INTER_LINEAR
    )
    return cv2.cvtColor(samples, cv2.COLOR_BGR2LAB).astype(np.float32).reshape(*points.shape[:-1], 3), inside


def _run_lengths(paper: np.ndarray, gap: int) -> tuple[np.ndarray, np.ndarray]:
    """For each ray (rows of ``paper``, samples outward): how far the paper reaches (index of
    its last paper sample + 1, gaps of print up to ``gap`` samples bridged), and whether the
    table then shows for ``_TABLE_PX`` samples (a real end, not the ray's)."""
    rays, n = paper.shape
    index = np.arange(n)
    # The last paper sample at or before each sample, and how long the gap since it is.
    last_paper = np.maximum.accumulate(np.where(paper, index, -1), axis=1)
    broken = (index - last_paper) > gap
    # Where the first gap too long to be print begins (n: none); the paper reaches its start.
    first_break = np.where(broken.any(axis=1), broken.argmax(axis=1), n - 1)
    last = last_paper[np.arange(rays), first_break]
    reach = last + 1
    # The table shows for _TABLE_PX samples past the paper's end (no paper among them).
    padded = np.concatenate([np.zeros((rays, 1), np.int32), np.cumsum(paper, axis=1, dtype=np.int32)], axis=1)
    stop = np.minimum(reach + _TABLE_PX, n)
    after = padded[np.arange(rays), stop] - padded[np.arange(rays), np.minimum(reach, n)]
    ends = (last >= 0) & (stop - reach >= _TABLE_PX) & (after == 0)
    return reach.astype(np.int32), ends


def _paper_rays(
    frame: np.ndarray, base: np.ndarray, normal: np.ndarray, steps: np.ndarray, paper: np.ndarray
) -> int:
    """How many rays (from ``base``, R x 2, along ``normal``) are mostly paper over ``steps``."""
    samples, _inside = lab_at(frame, base[:, None, :] + normal[None, None, :] * steps[None, :, None])
    return int((is_paper(samples, paper).mean(axis=1) >= 0.5).sum())


def side_strip(
    frame: np.ndarray,
    quad: np.ndarray,
    side: int,
    paper: np.ndarray,
    strip_max: float = STRIP_MAX,
    kept: KeptAnswers | None = None,
) -> np.ndarray | None:
    """The corners of a card beneath the card ``quad`` whose strip shows beside its side
    ``side`` (from corner ``side`` to the next), or None; ``strip_max``: see ``STRIP_MAX``.
    Its first two corners lie on the strip's outer edge (of a card turned against the card on
    top, on one of the two edges beside it). ``kept``: the answers of earlier looks at a table
    that has not changed beside this side since (:mod:`vision.kept_answers`)."""
    p, r = quad[side], quad[(side + 1) % 4]
    length = float(np.linalg.norm(r - p))
    direction = (r - p) / max(length, 1e-6)
    normal = np.array([direction[1], -direction[0]], np.float32)
    centre = quad.mean(axis=0)
    if normal @ ((p + r) / 2 - centre) < 0:
        normal = -normal  # outward
    # The card's depth across this side: the mean length of the two sides meeting it.
    depth = float(
        (np.linalg.norm(quad[(side + 2) % 4] - r) + np.linalg.norm(quad[(side + 3) % 4] - quad[side])) / 2
    )
    short = min(length, depth)
    positions = np.arange(-_REACH_PAST_END, 1 + _REACH_PAST_END + 1e-6, _RAY_STEP, dtype=np.float32)
    start = max(2.0, 0.025 * short)  # past the card on top's edge and its shadow
    steps = np.arange(start, strip_max * depth + 2 * _TABLE_PX + 2, 1.0, dtype=np.float32)
    base = p[None, :] + direction[None, :] * (positions[:, None] * length)
    key = (side, *np.round(paper).astype(int).tolist())
    # Most sides have the table beside them: a look at the first few pixels of every ray
    # (where a strip would be paper) settles those for a tenth of the cost.
    near = steps[: max(2, int(STRIP_MIN * depth))]

    def paper_beside() -> bool:
        return _paper_rays(frame, base, normal, near, paper) >= _MIN_CORNER_RAYS

    if not answer_of(kept, ("beside", *key), quad, _beside(p, r, normal, float(near[-1])), paper_beside):
        return None
    geometry = (p, direction, normal, length, depth)
    return answer_of(
        kept,
        ("strip", strip_max, *key),
        quad,
        _beside(p, r, normal, float(steps[-1])),
        lambda: _strip_found(frame, paper, geometry, (positions, base, steps), short, strip_max),
    )


def _beside(p: np.ndarray, r: np.ndarray, normal: np.ndarray, reach: float) -> np.ndarray:
    """The part of the frame the strip beside the side ``p`` - ``r`` is read from: along it and
    past its ends (the rays, and the ends of a card beneath found by them), out to ``reach``."""
    along = (r - p) * _READ_PAST_END
    out = normal * (reach + 2)
    return np.array([p - along, r + along, r + along + out, p - along + out], np.float32)


def _strip_found(
    frame: np.ndarray,
    paper: np.ndarray,
    geometry: tuple[np.ndarray, np.ndarray, np.ndarray, float, float],
    rays: tuple[np.ndarray, np.ndarray, np.ndarray],
    short: float,
    strip_max: float,
) -> np.ndarray | None:
    """:func:`side_strip` once paper shows beside the side: ``geometry`` is the side's start,
    direction, outward normal, length and the card's depth across it; ``rays`` their
    positions along it (shares of its length), their starts and their steps out (px)."""
    p, direction, normal, length, depth = geometry
    positions, base, steps = rays
    start = float(steps[0])
    samples, inside = lab_at(frame, base[:, None, :] + normal[None, None, :] * steps[None, :, None])
    on_paper = is_paper(samples, paper) & inside
    reach, ends = _run_lengths(on_paper, max(1, int(_PRINT_GAP * short)))
    distance = np.where(reach > 0, start + reach - 1, 0.0)
    strip = ends & (distance >= STRIP_MIN * depth) & (distance <= strip_max * depth)
    fit = _edge_line(positions, distance, strip, _LINE_TOLERANCE * short)
    if fit is None:
        # Not one straight edge: a card beneath turned against the card on top shows a corner
        # beside it, two edges meeting.
        return _corner_card(positions, distance, strip, geometry, short)
    line, inliers = fit
    # The edge runs where most rays on the line lie together: a ray or two on it far off (a
    # light fleck of carpet as far out) lengthen no edge.
    on = np.flatnonzero(inliers)
    main = max(np.split(on, np.flatnonzero(np.diff(on) > round(_EDGE_GAP / _RAY_STEP)) + 1), key=len)
    first, last = int(main[0]), int(main[-1])
    span = (positions[last] - positions[first] + _RAY_STEP) * length
    if abs(span - length) > _LENGTH_TOLERANCE * length:
        # Not a side's length: a card turned against the card on top shows a corner, one of
        # whose edges may run along most of the side (a wedge, widening towards the corner).
        return _corner_card(positions, distance, strip, geometry, short)
    # Paper going on past the edge line on many rays: not one straight edge (the table is as
    # light as the paper there, or two cards beneath). Judged just past the line, where paper
    # goes on or stops: a ray's paper bridges print, so on a textured table (carpet) with
    # light flecks its run went on past the card's edge and the card beneath was refused.
    past = steps[None, :] - (np.polyval(line, positions[first : last + 1]) + _LINE_TOLERANCE * short)[:, None]
    band = (past > 0) & (past <= max(_TABLE_PX, _PAST_EDGE * short))
    beyond = (on_paper[first : last + 1] & band).sum(axis=1) >= 0.5 * band.sum(axis=1).clip(1)
    if beyond.mean() > _MAX_BEYOND:
        return None
    # The card beneath is as long as the card on top: its ends from the strip's, about their
    # middle (either end is a ray step or two off).
    middle = float(positions[first] + positions[last] + _RAY_STEP) / 2
    t0, t1 = middle - 0.5, middle + 0.5
    e0 = p + direction * (t0 * length) + normal * float(np.polyval(line, t0))
    e1 = p + direction * (t1 * length) + normal * float(np.polyval(line, t1))
    edge = e1 - e0
    e1 = e0 + edge * (length / max(float(np.linalg.norm(edge)), 1e-6))
    inward = np.array([-edge[1], edge[0]], np.float32) / max(float(np.linalg.norm(edge)), 1e-6)
    if inward @ normal > 0:
        inward = -inward
    # The ends that show (the card's short sides where it sticks out) place it along the edge
    # to a pixel or two; an end under the card on top says nothing.
    narrowest = float(min(np.polyval(line, t0), np.polyval(line, t1), np.polyval(line, middle)))
    shift0, shift1 = _end_shift(frame, paper, (e0, e1), inward, narrowest, short)
    along = (e1 - e0) / length
    scale = 1 + (shift1 - shift0) / length if shift0 is not None and shift1 is not None else 0.0
    if _SAME_LENGTH[0] <= scale <= _SAME_LENGTH[1] and abs(scale - 1) > _LENGTH_NOISE:
        # Both ends show: they place the card beneath, a little shorter or longer than the card
        # on top under the camera's perspective (its depth in proportion).
        assert shift0 is not None and shift1 is not None
        e0, e1 = e0 + along * shift0, e1 + along * shift1
        depth *= scale
    else:
        shifts = [shift for shift in (shift0, shift1) if shift is not None]
        shift = float(np.mean(shifts)) if shifts else 0.0
        e0, e1 = e0 + along * shift, e1 + along * shift
    card = np.array([e0, e1, e1 + inward * depth, e0 + inward * depth], np.float32)
    return card


def _end_shift(
    frame: np.ndarray,
    paper: np.ndarray,
    edge: tuple[np.ndarray, np.ndarray],
    inward: np.ndarray,
    width: float,
    short: float,
) -> tuple[float | None, float | None]:
    """How far (px, along the edge from its first end to its second) each end of the card
    beneath must move to lie where the strip's paper ends: rays along the edge, a little inside
    the strip, from well inside each end to past it. None for an end that does not show."""
    e0, e1 = edge
    length = float(np.linalg.norm(e1 - e0))
    along = (e1 - e0) / max(length, 1e-6)
    reach = _END_REACH * length
    steps = np.arange(0.0, 2 * reach, 1.0, dtype=np.float32)
    depths = np.array([0.3, 0.6], np.float32) * max(width, 2.0)
    shifts: list[float | None] = []
    for end, way in ((e0, -along), (e1, along)):
        starts = end[None, :] - way[None, :] * reach + inward[None, :] * depths[:, None]
        samples, inside = lab_at(frame, starts[:, None, :] + way[None, None, :] * steps[None, :, None])
        reach_px, ends = _run_lengths(is_paper(samples, paper) & inside, max(1, int(_PRINT_GAP * short)))
        found = (reach_px - reach)[ends & (reach_px > 0)]  # where the paper ends, past the end
        agree = len(found) == len(depths) and float(np.ptp(found)) <= _END_AGREE * short
        shifts.append(float(np.mean(found)) * (1.0 if way @ along > 0 else -1.0) if agree else None)
    return shifts[0], shifts[1]


def _corner_card(
    positions: np.ndarray,
    distance: np.ndarray,
    strip: np.ndarray,
    side: tuple[np.ndarray, np.ndarray, np.ndarray, float, float],
    short: float,
) -> np.ndarray | None:
    """The card beneath whose corner shows beside the side ``side`` (its start, direction,
    outward normal, length, and the card's depth across it): the rays' ends rise to the corner
    on one straight edge and fall from it on another, square to it. The card lies from the
    corner along both edges, its long side along the one nearer the card on top's long side."""
    start, direction, normal, length, depth = side
    on = np.flatnonzero(strip)
    if len(on) < 2 * _MIN_CORNER_RAYS:
        return None
    apex = int(on[np.argmax(distance[on])])
    index = np.arange(len(strip))
    lines = []
    for half in (strip & (index <= apex), strip & (index >= apex)):
        fit = _edge_line(positions, distance, half, _LINE_TOLERANCE * short, _MIN_CORNER_RAYS)
        if fit is None:
            return None
        lines.append(fit[0])
    (b0, a0), (b1, a1) = lines
    if not (b0 > 0 > b1):
        return None  # rising, then falling: a corner pointing away from the card on top
    t = (a1 - a0) / (b0 - b1)
    corner = start + direction * (t * length) + normal * float(a0 + b0 * t)
    # Each edge from the corner towards the card on top (the ends fall back to it).
    arms = [-(direction * length + normal * b0), direction * length + normal * b1]
    arms = [arm / max(float(np.linalg.norm(arm)), 1e-6) for arm in arms]
    if abs(float(arms[0] @ arms[1])) > _SQUARE_COS:
        return None
    long_side, short_side = max(length, depth), min(length, depth)
    # The card on top's long side runs along this side when this side is the longer one.
    top_long = direction if length >= depth else normal
    first_long = abs(float(arms[0] @ top_long)) >= abs(float(arms[1] @ top_long))
    sizes = (long_side, short_side) if first_long else (short_side, long_side)
    card = np.array(
        [
            corner,
            corner + arms[0] * sizes[0],
            corner + arms[0] * sizes[0] + arms[1] * sizes[1],
            corner + arms[1] * sizes[1],
        ],
        np.float32,
    )
    return card


def _edge_line(
    positions: np.ndarray,
    distance: np.ndarray,
    strip: np.ndarray,
    tolerance: float,
    fewest: int | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """The straight outer edge that the rays' ends show: a line (distance against position,
    ``np.polyfit`` degree 1) and the rays on it. Rays stopped short by print (a pip wider than
    the gap) fall below the line and are left out; the rays on it must be most of its span."""
    fewest = _MIN_RAYS if fewest is None else fewest
    inliers = strip.copy()
    line = None
    for _round in range(4):
        if inliers.sum() < fewest:
            return None
        line = np.polyfit(positions[inliers], distance[inliers], 1)
        inliers = strip & (np.abs(np.polyval(line, positions) - distance) <= tolerance)
    if line is None or inliers.sum() < fewest:
        return None
    first, last = np.flatnonzero(inliers)[[0, -1]]
    if inliers[first : last + 1].mean() < _MIN_ON_LINE:
        return None
    return line, inliers


__all__ = ["STRIP_MAX", "STRIP_MIN", "is_paper", "lab_at", "paper_colour", "side_strip"]
