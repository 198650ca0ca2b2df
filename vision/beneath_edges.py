"""Where a card beneath lies, to a pixel: its sides moved onto its own edges where they show.

:func:`vision.card_beneath.cards_beneath` places a card beneath by the rays that follow its
strip's paper out to the table; where print is bridged or a light table's specks pass for paper
(dev IMG_2660: beige carpet) the outer edge comes out a few pixels off, enough for the corner
index to miss the taught one's. The card's own edges are the strongest steps near its sides
(:func:`vision.card_checks.refine`), but only where they show: near a card on top, a step is
that card's edge.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_checks import REFINE_ALONG, refine_in_frame

#: A side with at least this many profiles clear of the cards on top is fitted where it shows
#: (:func:`vision.card_checks.refine` fits a side through 6 clear steps or more; 6 of its 16
#: profiles span a quarter of the side at least). Fewer, and it is laid parallel to the side
#: opposite it. That prior is only as good as the card looks rectangular: a phone held at a
#: slant, or a bent card, shows opposite sides several degrees apart (dev IMG_2681: a nine whose
#: top side shows for 7 profiles, its bottom side 9 degrees steeper; laid parallel to it, the top
#: was 9 px off where the ten covers it and the part match missed the nine).
FITTED_FROM = 6


def on_its_edges(frame: np.ndarray, card: np.ndarray, covering: list[np.ndarray]) -> np.ndarray:
    """``card`` (ordered) with its sides moved onto the card's own edges where they show
    (:func:`vision.card_checks.refine`, looking only across the parts of a side that no card on
    top hides or comes near: the edges there are the covering card's, and pull it askew). A
    side hidden under a card on top (too little of it shows to fit it, see ``FITTED_FROM``) is
    laid parallel to the side opposite it, as deep from it as before (a card keeps its size
    and shape)."""
    # A profile across a side reaches this far (refine's reach): within it of a card on top,
    # it may cross that card's edge.
    reach = max(3.0, 0.08 * float(np.sqrt(cv2.contourArea(card))))
    seen = np.ones((4, len(REFINE_ALONG)), bool)
    for i in range(4):
        for k, t in enumerate(REFINE_ALONG.tolist()):
            spot = card[i] + (card[(i + 1) % 4] - card[i]) * t
            spot = (float(spot[0]), float(spot[1]))
            seen[i, k] = all(cv2.pointPolygonTest(c.reshape(-1, 1, 2), spot, True) < -reach for c in covering)
    hidden = (seen.sum(axis=1) < FITTED_FROM).tolist()
    placed = refine_in_frame(frame, card, seen=seen)
    lines = [(placed[k], placed[(k + 1) % 4] - placed[k]) for k in range(4)]
    for i in range(4):
        j = (i + 2) % 4
        if hidden[i] and not hidden[j]:
            side = card[(j + 1) % 4] - card[j]
            normal = np.array([side[1], -side[0]], np.float32) / max(float(np.linalg.norm(side)), 1e-6)
            depth = float(((card[i] + card[(i + 1) % 4]) / 2 - card[j]) @ normal)
            start, direction = lines[j]
            lines[i] = (start + _unit_normal(direction) * depth * _sign(normal, direction), direction)
    corners = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        det = float(d2[0] * d1[1] - d1[0] * d2[1])
        if abs(det) < 1e-6:
            return card
        t = float(d2[0] * (p2[1] - p1[1]) - d2[1] * (p2[0] - p1[0])) / det
        corners.append(p1 + d1 * t)
    return np.array(corners, np.float32)


def _unit_normal(direction: np.ndarray) -> np.ndarray:
    """The unit normal (dy, -dx) of a direction."""
    return np.array([direction[1], -direction[0]], np.float32) / max(float(np.linalg.norm(direction)), 1e-6)


def _sign(normal: np.ndarray, direction: np.ndarray) -> float:
    """+1 when ``direction``'s unit normal points the way of ``normal``, else -1."""
    return 1.0 if float(_unit_normal(direction) @ normal) >= 0 else -1.0


__all__ = ["on_its_edges"]
