"""A card whose own outline was found, lying partly under a card named over it.

A card slid half under another often still shows most of itself, and the outline search finds
its outline all the same: its edges run on to where the card on top crosses them, and the
search closes the outline under it (dev IMG_2669: a nine under a jack; IMG_2659: an ace under a
king). Compared whole, that outline fails: part of it shows the other card's face. But a card
named whole, or found by its face, shows where it lies: where its shown part crosses the
outline it is on top there, and what shows of the card beneath is the outline minus it. That
part is compared with the taught faces as a covered card's strip is
(:meth:`vision.enrolled.EnrolledDeck.identify_covered`: a corner index must show and agree).

Cards of one deck are one size: an outline much larger or smaller than the card named over it
is no card of that deck (a row of cards in one outline is looked into otherwise, see
:func:`vision.card_rows.cards_within`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_beneath import visible_part
from vision.card_checks import iou, order_quad

#: The outline's area against the named card's: one deck's cards, within perspective and the
#: outline's own error.
SAME_SIZE = (0.7, 1.4)
#: The named cards cover at least this share of the outline (less: a corner touching it, or
#: the two outlines a few pixels off along a shared edge) ...
MIN_COVERED = 0.05
#: ... and at most this share (more: too little of the card beneath shows to be named; the
#: part comparison refuses less than this anyway).
MAX_COVERED = 0.75


def covered_share(outline: np.ndarray, shown: list[np.ndarray]) -> float:
    """The share of ``outline`` (4 x 2) that the polygons ``shown`` cover."""
    q = order_quad(outline)
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 1
    offset = np.array([x0, y0], np.float32)
    inside = np.zeros((int(y1 - y0), int(x1 - x0)), np.uint8)
    cv2.fillPoly(inside, [np.round(q - offset).astype(np.int32)], 1)
    over = np.zeros_like(inside)
    for polygon in shown:
        cv2.fillPoly(over, [np.round(np.asarray(polygon, np.float32) - offset).astype(np.int32)], 1)
    return float((inside & over).sum()) / max(1.0, float(inside.sum()))


def part_beneath(
    outline: np.ndarray, named: list[tuple[np.ndarray, np.ndarray]]
) -> tuple[np.ndarray, np.ndarray] | None:
    """What shows of the card whose outline is ``outline`` (4 x 2) with the ``named`` cards
    (each: where it lies, 4 x 2, and the polygon of what shows of it) lying over it: the
    largest piece left and its main part (as :func:`vision.card_beneath.visible_part`), or None
    when no named card of its size lies across it (see the module's docstring)."""
    area = float(cv2.contourArea(order_quad(outline)))
    over = [
        (card, shown)
        for card, shown in named
        if iou(card, outline) < 0.5
        and SAME_SIZE[0] <= area / max(1.0, float(cv2.contourArea(order_quad(card)))) <= SAME_SIZE[1]
        and covered_share(outline, [shown]) > 0
    ]
    if not over or not MIN_COVERED <= covered_share(outline, [shown for _card, shown in over]) <= MAX_COVERED:
        return None
    # Where a named card's shown part crosses the outline it lies on top, and all of it does:
    # a card found by its face is said to show only near its matched keypoints (its index
    # corner, far from them, would otherwise count as the card beneath's: dev IMG_2669).
    return visible_part(order_quad(outline), [order_quad(card) for card, _shown in over])


__all__ = ["part_beneath"]
