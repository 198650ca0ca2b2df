"""Outlines of a card lying on a table as light as itself, for teaching only.

On a white counter, marble or paper the card and the table differ by a Lab step well below
what the outline searches (:mod:`vision.card_outlines`) take for a card's edge, so they find
nothing. The card still has a faint edge all round (a slight change of shade or tint, often a
soft shadow on a side or two) and its print inside. Here straight edges are looked for at a
lower contrast (OpenCV's LSD with a finer gradient quantisation, in lightness and in the
stretched tint channels), two of them meeting at a corner propose a card
(:func:`vision.card_lines.corner_quads`), its sides are placed on the faint edge nearest them,
and it is kept only with evidence that is hard to fake: a faint edge standing out of its own
surroundings along nearly all of every side, an even blank band of light paper just inside
every side (a card's border), print well inside it, a light table round a good part of it, and
no second edge parallel to it just outside (the outline would be a frame printed on a card).

It costs more than the outline searches and would find a phantom in a busy scene more easily,
so it is asked only when they find nothing in a picture to teach from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.card_checks import (
    FACE_INK,
    INK_STEP,
    TEACH_ASPECT,
    aspect,
    card_paper,
    card_shaped,
    ink_share,
    light_paper,
    order_quad,
)
from vision.card_lines import corner_quads
from vision.frame_cut import corners_in_view

#: Photos larger than this (pixels) are looked at reduced: the faint edges are a few pixels
#: wide at any resolution, and the work grows with the area.
WORK_PIXELS = 200_000
#: LSD's gradient quantisation error bound (OpenCV's default 2.0 misses an edge a few Lab
#: units high; lower still makes JPEG blocks and wood grain into segments).
FAINT_QUANT = 1.0
#: The tint channels (Lab a, b) are stretched this much about neutral before edges are looked
#: for in them: everyday surfaces span about a third of lightness's range in them.
TINT_GAIN = 3.0
#: A side shows the card's edge at a sample when the colour change across it (Lab, two pixels
#: apart) peaks within this many pixels of the side ...
EDGE_TOLERANCE = 1.5
#: ... at least this high (JPEG noise on a plain surface is 1-2 Lab units) ...
EDGE_MIN = 4.0
#: ... and this many times the change typical of its surroundings across the side (the card's
#: blank border inside, the table outside): an edge, not texture.
EDGE_RATIO = 2.0
#: Every side shows the edge at this share of its samples (a covered side, or a side through
#: the table, shows it in patches at most).
EDGE_SHARE = 0.75
#: The table round the card (out to this many times its size) ...
AROUND_GROW = 1.3
#: ... is light (no ink by the card's paper) on at least this share: the method is for a card
#: on a light table; the rest may be print on it, a shadow or the table's edge. A frame
#: printed on a card's face, or a card on a dark table the outline searches could not take
#: (covered, lying on other cards), has print or dark table nearly all round.
LIGHT_AROUND = 1 / 3
#: A frame printed on a card lies within the card's edge by up to this share of its size
#: (a face card's art frame: 6-12 %) ...
FRAME_REACH = 0.2
#: ... and at least this far (nearer is the edge's own blur or shadow) ...
FRAME_GAP = 0.04
#: ... which runs parallel to it along this share of a side at least, on this many sides.
FRAME_SHARE = 0.6
FRAME_SIDES = 2
#: Two outlines are of one thing when this share of the smaller lies inside the larger (two
#: cards of a fan overlap less) ...
SAME_SHARE = 0.8
#: ... and the smaller is at least this share of the larger's area (a card's printed frame
#: round a face card's art is 0.6-0.8 of the card; a card on a postcard about 0.4).
FRAME_AREA = 0.5
#: At most this many proposals are looked at closely (the longest corners first).
PROPOSALS = 300

_LSD = cv2.createLineSegmentDetector(cv2.LSD_REFINE_NONE, 0.8, 0.6, FAINT_QUANT, 22.5, 0, 0.7, 1024)
_ALONG = np.linspace(0.1, 0.9, 24, dtype=np.float32)


def _faint_segments(lab: np.ndarray) -> np.ndarray:
    """Straight edges (N x 4) in each of the Lab channels: on a light table the card may
    differ from it more in tint (a grey-white card on a cream or greenish table) than in
    lightness."""
    channels = [lab[:, :, 0]] + [
        cv2.convertScaleAbs(lab[:, :, c], alpha=TINT_GAIN, beta=128 * (1 - TINT_GAIN)) for c in (1, 2)
    ]
    found = [_LSD.detect(cv2.GaussianBlur(channel, (3, 3), 0))[0] for channel in channels]
    parts = [f.reshape(-1, 4) for f in found if f is not None]
    return np.concatenate(parts).astype(np.float32) if parts else np.zeros((0, 4), np.float32)


def _profiles(lab: np.ndarray, quad: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Colour change across each side of ``quad`` (ordered): 4 x len(_ALONG) x offsets, the
    offsets (px, positive outwards) and the sample points on the sides (4 x len(_ALONG) x 2)."""
    h, w = lab.shape[:2]
    starts = quad.astype(np.float32)
    ends = np.roll(starts, -1, axis=0)
    directions = (ends - starts) / (np.linalg.norm(ends - starts, axis=1, keepdims=True) + 1e-6)
    normals = np.stack([directions[:, 1], -directions[:, 0]], axis=1)
    outward = np.einsum("ij,ij->i", normals, (starts + ends) / 2 - starts.mean(axis=0)) >= 0
    normals[~outward] *= -1
    offsets = np.arange(-reach, reach + 1, 1.0, dtype=np.float32)
    base = starts[:, None, :] + (ends - starts)[:, None, :] * _ALONG[None, :, None]
    points = base[:, :, None, :] + offsets[None, None, :, None] * normals[:, None, None, :]
    xs = np.clip(points[..., 0], 0, w - 1).reshape(4 * len(_ALONG), -1)
    ys = np.clip(points[..., 1], 0, h - 1).reshape(4 * len(_ALONG), -1)
    colours = cv2.remap(lab, xs, ys, cv2.INTER_LINEAR).astype(np.float32)
    change = np.linalg.norm(colours[:, 2:] - colours[:, :-2], axis=2)  # centred on offsets[1:-1]
    return change.reshape(4, len(_ALONG), -1), offsets[1:-1], base


def _place_sides(lab: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """``quad`` with each side moved onto the faint edge nearest it (a proposal's far sides are
    guessed from a card's shape); None when a side finds no edge to lie on."""
    size = math.sqrt(max(1.0, cv2.contourArea(quad)))
    change, offsets, base = _profiles(lab, quad, max(3.0, 0.08 * size))
    lines = []
    for k in range(4):
        best = change[k].argmax(axis=1)
        peak = change[k][np.arange(len(best)), best]
        clear = (peak >= EDGE_MIN) & (peak >= EDGE_RATIO * np.median(change[k], axis=1))
        if clear.sum() < len(best) // 3:
            return None
        ends = np.roll(quad, -1, axis=0)
        direction = (ends[k] - quad[k]) / (np.linalg.norm(ends[k] - quad[k]) + 1e-6)
        normal = np.array([direction[1], -direction[0]], np.float32)
        if np.dot(normal, (quad[k] + ends[k]) / 2 - quad.mean(axis=0)) < 0:
            normal = -normal
        moved = base[k] + offsets[best][:, None] * normal
        vx, vy, x0, y0 = cv2.fitLine(moved[clear], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for k in range(4):
        (p, d), (r, e) = lines[k - 1], lines[k]
        cross = d[0] * e[1] - d[1] * e[0]
        if abs(cross) < 1e-3:
            return None
        t = ((r[0] - p[0]) * e[1] - (r[1] - p[1]) * e[0]) / cross
        corners.append(p + d * t)
    return np.array(corners, np.float32)


def edge_all_round(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """For each side of ``quad`` (ordered), the share of its length along which a colour change
    peaks on the side and stands out of the change across the card's border and the table
    beside it (0..1)."""
    size = math.sqrt(max(1.0, cv2.contourArea(quad)))
    # Far enough either way to see the surroundings beyond the edge's own blur, on a small card too.
    change, offsets, _base = _profiles(lab, quad, max(EDGE_TOLERANCE + 5, 0.06 * size))
    on_side = np.abs(offsets) <= EDGE_TOLERANCE
    peak = change[:, :, on_side].max(axis=2)
    around = np.median(change[:, :, np.abs(offsets) >= EDGE_TOLERANCE + 2], axis=2)
    shown = (peak >= EDGE_MIN) & (peak >= EDGE_RATIO * around)
    return np.asarray(shown.mean(axis=1))


def light_around(lab: np.ndarray, quad: np.ndarray, paper: np.ndarray) -> float:
    """The share of the table round ``quad`` (a ring ``AROUND_GROW`` times its size, its edge
    and shadow left out; only what is in the picture) within ``INK_STEP`` of ``paper``: light."""
    centre = quad.mean(axis=0)
    grown = ((quad - centre) * AROUND_GROW + centre).astype(np.float32)
    size = (52, 72)
    target = np.array([[0, 0], [size[0] - 1, 0], [size[0] - 1, size[1] - 1], [0, size[1] - 1]], np.float32)
    homography = cv2.getPerspectiveTransform(grown, target)
    ring = cv2.warpPerspective(lab, homography, size, flags=cv2.INTER_AREA).astype(np.float32)
    whole = np.full(lab.shape[:2], 255, np.uint8)
    seen = cv2.warpPerspective(whole, homography, size, flags=cv2.INTER_NEAREST)  # in the picture
    inner = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float32), homography).reshape(-1, 2)
    mask = np.full((size[1], size[0]), 255, np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 0)
    mask = cv2.erode(mask, np.ones((3, 3), np.uint8)) & seen
    beside = ring[mask > 0]
    if len(beside) == 0:
        return 0.0
    return float((np.abs(beside - paper).sum(axis=1) <= INK_STEP).mean())


def framed(lab: np.ndarray, quad: np.ndarray) -> bool:
    """Whether a second edge runs parallel to ``quad`` a little outside it on two sides or
    more, at one distance along each: ``quad`` lies (partly) on a frame printed on a card (a
    face card's art), the card's own edge beyond it. A table beside a card seldom has such an
    edge along two of its sides."""
    size = math.sqrt(max(1.0, cv2.contourArea(quad)))
    change, offsets, _base = _profiles(lab, quad, FRAME_REACH * size)
    # Beyond the edge's own blur and shadow.
    beyond = offsets >= max(EDGE_TOLERANCE + 3, FRAME_GAP * size)
    outside = change[:, :, beyond]
    peaks = outside.argmax(axis=2)
    strength = outside.max(axis=2)
    clear = (strength >= EDGE_MIN) & (strength >= EDGE_RATIO * np.median(outside, axis=2))
    sides = 0
    along = np.arange(len(_ALONG), dtype=np.float64)
    for k in range(4):
        if clear[k].sum() < len(_ALONG) // 3:
            continue
        # The frame may run a little askew to the outline (perspective, an outline on the frame
        # along one part of a side): a line through the peaks near their median distance.
        near = clear[k] & (np.abs(peaks[k] - np.median(peaks[k][clear[k]])) <= 2 * EDGE_TOLERANCE + 1)
        if near.sum() >= 2:
            slope, intercept = np.polyfit(along[near], peaks[k][near].astype(np.float64), 1)
            near = clear[k] & (np.abs(peaks[k] - (slope * along + intercept)) <= EDGE_TOLERANCE)
        sides += float(near.mean()) >= FRAME_SHARE
    return sides >= FRAME_SIDES


def _edged(lab: np.ndarray, quad: np.ndarray) -> bool:
    """A card's shape with a faint edge along every side."""
    if not TEACH_ASPECT[0] <= aspect(quad) <= TEACH_ASPECT[1]:
        return False
    return bool(np.all(edge_all_round(lab, quad) >= EDGE_SHARE))


def confirmed(lab: np.ndarray, quad: np.ndarray) -> bool:
    """Whether ``quad`` (ordered) is a whole card by the evidence a light table leaves: a card's
    shape, a faint edge along every side, an even blank band of light paper inside every side
    with print well inside it."""
    if not _edged(lab, quad):
        return False
    evidence, paper = card_paper(lab, quad)
    if evidence < 2 or not light_paper(paper):
        return False
    if ink_share(lab, quad, paper) < FACE_INK or light_around(lab, quad, paper) < LIGHT_AROUND:
        return False
    return not framed(lab, quad)


@dataclass(frozen=True)
class LightTableFinds:
    """What the faint-edge search found (ordered quads, in the picture's pixels)."""

    #: Whole cards, one per card, largest first (:func:`confirmed`).
    cards: list[np.ndarray]
    #: Every card-shaped outline in view with a faint edge all round, confirmed or not: a
    #: second card whose print is too sparse to confirm it still has its edge.
    outlined: list[np.ndarray]


def light_table_cards(colour: np.ndarray, smallest_share: float) -> LightTableFinds:
    """Cards in a BGR picture found by their faint edges, of at least ``smallest_share`` of the
    picture's area (see :class:`LightTableFinds`)."""
    scale = min(1.0, math.sqrt(WORK_PIXELS / (colour.shape[0] * colour.shape[1])))
    small = colour
    if scale < 1.0:
        small = cv2.resize(colour, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    area = float(small.shape[0] * small.shape[1])
    shortest_side = math.sqrt(smallest_share * area)
    segments = _faint_segments(lab)
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    segments = segments[lengths >= 0.4 * shortest_side]
    margin = max(2.0, 0.01 * min(small.shape[:2]))
    kept: list[np.ndarray] = []
    outlined: list[np.ndarray] = []
    tried: list[np.ndarray] = []
    for proposal in corner_quads(segments, shortest_side, limit=PROPOSALS) if len(segments) else []:
        if not card_shaped(proposal, area) or cv2.contourArea(proposal) < smallest_share * area:
            continue
        placed = _place_sides(lab, order_quad(proposal))
        if placed is None or not card_shaped(placed, area):
            continue
        if not all(corners_in_view(placed, small.shape, margin)):
            continue
        placed = order_quad(placed)
        # Many proposals land on the same sides: each outline is looked at once.
        if any(np.abs(placed - other).max() <= 1.0 for other in tried):
            continue
        tried.append(placed)
        if not _edged(lab, placed):
            continue
        outlined.append(placed)
        if confirmed(lab, placed):
            kept.append(placed)
    return LightTableFinds(
        [(q + 0.5) / scale - 0.5 for q in _distinct(kept)], [(q + 0.5) / scale - 0.5 for q in outlined]
    )


def _distinct(quads: list[np.ndarray]) -> list[np.ndarray]:
    """One outline per thing, largest first: of outlines overlapping by most of the smaller,
    the larger (a card round its own printed frame), unless the smaller is much smaller (a
    card lying on a sheet or a tray of card shape: both kept, the picture is not clear)."""
    kept: list[np.ndarray] = []
    for quad in sorted(quads, key=lambda q: -cv2.contourArea(q)):
        area = cv2.contourArea(quad)
        same = False
        for other in kept:
            inter, _ = cv2.intersectConvexConvex(quad, other)
            if inter >= SAME_SHARE * area and area >= FRAME_AREA * cv2.contourArea(other):
                same = True
        if not same:
            kept.append(quad)
    return kept
