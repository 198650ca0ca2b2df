"""Straight edges looked for only inside the regions no outline took, for the plain search.

The plain outline search (:mod:`vision.card_outlines`, every new frame) takes cards from the
regions of its masks. On carpet a card's paper joins light specks at its border (the region
is no quadrilateral), and cards lying over each other make one region (no part of it is one
card): the card is lost although its four straight sides are plainly there. The straight-edge
search of the thorough search (:mod:`vision.card_lines`) finds those cards, but over the whole
frame it costs several times the plain search. Here it runs only in small crops: round the
paper-like regions, a card or a few in size, that the outlines taken leave uncovered.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_lines import straight_edges

__all__ = ["REGION_LEAST", "edges_in_boxes", "inside_shares", "untaken_boxes"]

#: A region looked at is at least this many times the smallest card (a card with specks
#: attached, or a few cards; smaller regions on the development photos were table texture).
REGION_LEAST = 5.0
#: ... and at most this share of the view (larger ones were the table itself).
REGION_MOST = 0.35
#: Its area is at least this share of its convex hull's (less: a web of texture strands).
REGION_FILL = 0.5
#: Paper: its mean lightness is this much above a band round it ...
LIGHTER_BY = 10.0
#: ... and its mean colour difference (``outline_regions.paper_map``) at most this.
MOST_CHROMA = 80.0
#: A crop whose shorter side is at least this many pixels is searched at half size (a card's
#: sides are then still >= 30 px long; the detector's cost goes with the pixels).
HALVE_FROM = 120
#: The band round a region that its lightness is compared with: this many pixels wide.
_MARGIN = 4
_BAND = np.ones((2 * _MARGIN + 1, 2 * _MARGIN + 1), np.uint8)


def _paper_like(inside: np.ndarray, grey: np.ndarray, colour: np.ndarray) -> bool:
    """Whether the region (``inside``: its mask in a crop with a margin round it, of ``grey``
    and ``colour``) is lighter than a band round it and nearly colourless (a card's paper; not
    a shadow, a coloured object or a dark patch of table)."""
    band = cv2.dilate(inside, _BAND) & ~inside
    lighter = cv2.mean(grey, inside)[0] - cv2.mean(grey, band)[0]
    return lighter >= LIGHTER_BY and cv2.mean(colour, inside)[0] <= MOST_CHROMA


def untaken_boxes(
    regions: list[tuple[np.ndarray, float]],
    taken: list[np.ndarray],
    min_area: float,
    lightness: np.ndarray,
    chroma: np.ndarray,
) -> tuple[list[tuple[int, int, int, int]], np.ndarray, np.ndarray]:
    """Boxes (x0, y0, x1, y1) round the paper-like regions (``regions``: contours in
    ``lightness``'s pixels, each with its convex hull's area) of a card or a few in size that
    the outlines ``taken`` leave uncovered by at least ``min_area`` (the smallest card), grown
    by a margin and merged where one mostly lies in another; a mask of those regions; and a
    mask of where no outline taken lies."""
    h, w = lightness.shape[:2]
    boxes: list[list[int]] = []
    within = np.zeros((h, w), np.uint8)
    free = np.full((h, w), 255, np.uint8)  # where no outline taken lies
    for quad in taken:
        cv2.fillConvexPoly(free, np.round(quad).astype(np.int32), 0)
    for contour, hull_area in regions:
        area = cv2.contourArea(contour)
        if not REGION_LEAST * min_area <= area <= REGION_MOST * h * w:
            continue
        x, y, bw, bh = cv2.boundingRect(contour)
        if cv2.countNonZero(free[y : y + bh, x : x + bw]) < min_area:
            continue  # an outline taken covers it (a card found, the region a little larger)
        if area < REGION_FILL * hull_area:
            continue
        # The region drawn once in a crop with a margin for the band round it.
        x0, y0 = max(0, x - _MARGIN), max(0, y - _MARGIN)
        x1, y1 = min(w, x + bw + _MARGIN), min(h, y + bh + _MARGIN)
        inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(inside, [contour - [x0, y0]], -1, 255, -1)
        if cv2.countNonZero(inside & free[y0:y1, x0:x1]) < min_area:
            continue
        if not _paper_like(inside, lightness[y0:y1, x0:x1], chroma[y0:y1, x0:x1]):
            continue
        # The card's sides may lie just outside the region (its paper border eaten by shade).
        pad = max(3, int(0.08 * max(bw, bh)))
        boxes.append([max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)])
        # The card lies within the region's hull, not only its outline: a card's paper region
        # is cut into by its print and by strands of table joined to it (dev IMG_2574's nine on
        # tiles: a C of paper with grout lines, 56-72 % of the card inside the region itself).
        cv2.drawContours(within, [cv2.convexHull(contour)], -1, 255, -1)
    merged: list[list[int]] = []
    for box in sorted(boxes, key=lambda b: -(b[2] - b[0]) * (b[3] - b[1])):
        for other in merged:
            overlap = max(0, min(other[2], box[2]) - max(other[0], box[0])) * max(
                0, min(other[3], box[3]) - max(other[1], box[1])
            )
            if overlap >= 0.5 * (box[2] - box[0]) * (box[3] - box[1]):
                other[:] = [min(other[0], box[0]), min(other[1], box[1])] + [
                    max(other[2], box[2]),
                    max(other[3], box[3]),
                ]
                break
        else:
            merged.append(box)
    return [(b[0], b[1], b[2], b[3]) for b in merged], within, free


def edges_in_boxes(grey: np.ndarray, boxes: list[tuple[int, int, int, int]], shortest: float) -> np.ndarray:
    """Line segments (N x 4, ``grey``'s pixels) at least ``shortest`` long inside ``boxes``."""
    found = [np.zeros((0, 4), np.float32)]
    for x0, y0, x1, y1 in boxes:
        crop = grey[y0:y1, x0:x1]
        if min(crop.shape) >= HALVE_FROM:
            # Area averaging smooths as the blur would; pixel centres map back exactly.
            half = cv2.resize(crop, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            segments = (straight_edges(half, 0.5 * shortest) + 0.5) * 2 - 0.5
        else:
            segments = straight_edges(cv2.GaussianBlur(crop, (3, 3), 0), shortest)
        found.append(segments + np.float32([x0, y0, x0, y0]))
    return np.concatenate(found)


#: Where inside a quad its points are sampled (bilinear weights of its four corners).
_U, _V = np.meshgrid(np.linspace(0.1, 0.9, 5), np.linspace(0.1, 0.9, 5))
_WEIGHTS = np.stack([(1 - _U) * (1 - _V), _U * (1 - _V), _U * _V, (1 - _U) * _V], axis=-1).reshape(-1, 4)


def inside_shares(quads: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """For each quad (Q x 4 x 2), the share of 25 points spread over it that lie in ``mask``."""
    points = np.einsum("pk,qkd->qpd", _WEIGHTS.astype(np.float32), quads)
    x = np.clip(np.round(points[..., 0]).astype(int), 0, mask.shape[1] - 1)
    y = np.clip(np.round(points[..., 1]).astype(int), 0, mask.shape[0] - 1)
    return (mask[y, x] > 0).mean(axis=1)
