"""Cards in a fan beneath a card: several strips side by side beside one of its sides.

Fanned out, a hand shows the card on top whole and of each card beneath a strip, one beside
the other (dev IMG_2648: an ace on top, the strips of a ten and of a queen beside it). From the
card on top the paper beside it runs on across all the strips to the last card's outer edge,
deeper than one strip (:data:`vision.side_strips.STRIP_MAX`): :func:`vision.card_beneath.
cards_beneath` takes no card there. The strips' inner edges lie inside that paper: where a
card lies on the next, its edge runs along the strip as a thin dark line (the shadow of the
card's thickness) or a step where it crosses the other's print, from one end of the strips to
the other, nearly parallel to the card on top's side (the fan turns each card a little). The
seam finder (:mod:`vision.card_seams`) finds such lines in the strips' region; each one is
the outer edge of a card beneath, the last card's is the paper's end. What shows of each is
its card minus the cards over it; naming it is the part comparison's (an index must show).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_beneath import Beneath, visible_part
from vision.card_checks import iou, order_quad
from vision.card_seams import find_seams, seam_ends
from vision.kept_answers import KeptAnswers
from vision.side_strips import paper_colour, side_strip

#: The deepest the paper beside a card on top may run for a fan: two strips and a bit (a
#: third card beneath shows as a third strip, looked at from the second's card).
FAN_MAX = 1.3
#: A seam is an inner edge when it runs within this |cos| of the card on top's side (about 11
#: degrees: a fan that shows strips this narrow turns each card a few degrees from the next).
_ALONG_COS = 0.98
#: The strips' region is looked at without this share of its length at either end: there the
#: fan's cards end at different heights, round their corners, and the table shows.
_END_INSET = 0.05


def _foot(point: np.ndarray, start: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """The point of the line (``start``, unit ``direction``) nearest ``point``."""
    return start + direction * float((point - start) @ direction)


def fanned_cards(
    frame: np.ndarray,
    tops: list[np.ndarray],
    plain: list[Beneath],
    grey: np.ndarray | None = None,
    kept: KeptAnswers | None = None,
) -> list[Beneath]:
    """The cards beneath the cards ``tops`` (4 x 2 each, found whole) in a BGR ``frame``:
    ``plain``, the cards :func:`vision.card_beneath.cards_beneath` found beside them, then the
    cards of strips side by side beside a side (see the module's docstring), the one nearest
    the card on top first. A card of ``plain`` may be a fan's last card placed from both
    strips (less deep than ``STRIP_MAX``), or found from a card beside it (more surely): it
    stays first, and a card of the fan in its place is compared only when it is not named
    (dev IMG_2655: an ace found beside a king, the king's strip beside a ten). ``kept``: see
    :func:`vision.side_strips.side_strip`."""
    found: list[Beneath] = []
    ordered = [order_quad(quad) for quad in tops]
    if grey is None:  # the reader passes the frame's grey copy it made once
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for quad in ordered:
        paper = paper_colour(frame, quad, kept)
        for side in range(4):
            deep = side_strip(frame, quad, side, paper, FAN_MAX, kept)
            if deep is None:
                continue
            last = order_quad(deep)
            if any(iou(last, other) > 0.5 for other in [b.card for b in found] + ordered):
                continue
            found += _cards_in_strips(grey, quad, side, deep, ordered)
    return plain + found


def _cards_in_strips(
    grey: np.ndarray, quad: np.ndarray, side: int, deep: np.ndarray, tops: list[np.ndarray]
) -> list[Beneath]:
    """The cards whose strips lie between the side ``side`` of ``quad`` and the outer edge of
    ``deep`` (the last card, as :func:`vision.side_strips.side_strip` placed it: its first
    two corners on that edge)."""
    p, r = quad[side], quad[(side + 1) % 4]
    along = (r - p) / max(float(np.linalg.norm(r - p)), 1e-6)
    e0, e1 = deep[0], deep[1]
    if abs(float((e1 - e0) @ along)) < _ALONG_COS * float(np.linalg.norm(e1 - e0)):
        return []  # a card turned against the card on top (its corner beside it): no fan's strips
    f0, f1 = e0 + (e1 - e0) * _END_INSET, e1 + (e0 - e1) * _END_INSET
    region = np.array([f0, f1, _foot(f1, p, along), _foot(f0, p, along)], np.float32)
    seams = []
    for seam in find_seams(grey, region):
        start, end = seam_ends(region, seam)
        way = (end - start) / max(float(np.linalg.norm(end - start)), 1e-6)
        if abs(float(way @ along)) >= _ALONG_COS:
            seams.append((start, end))
    if not seams:
        return []
    depth = float(np.linalg.norm(deep[3] - deep[0]))
    length = float(np.linalg.norm(e1 - e0))
    inward = (deep[3] - deep[0]) / max(depth, 1e-6)
    # Nearest the card on top first: the card just beneath it, then each under the last.
    seams.sort(key=lambda ends: -float(((ends[0] + ends[1]) / 2 - e0) @ inward))
    cards = []
    for start, end in seams:
        edge = (end - start) / max(float(np.linalg.norm(end - start)), 1e-6)
        if float(edge @ (e1 - e0)) < 0:
            start, end, edge = end, start, -edge
        middle = (start + end) / 2
        # As long as the last card (one deck), about the middle of its edge in view; lying
        # towards the card on top, as deep as the last card.
        a, b = middle - edge * length / 2, middle + edge * length / 2
        normal = np.array([-edge[1], edge[0]], np.float32)
        if float(normal @ inward) < 0:
            normal = -normal
        cards.append(np.array([a, b, b + normal * depth, a + normal * depth], np.float32))
    cards.append(deep.astype(np.float32))
    found = []
    over = list(tops)
    for card in cards:
        shown = visible_part(order_quad(card), over)
        if shown is not None:
            found.append(Beneath(order_quad(card), *shown))
        over.append(order_quad(card))
    return found


__all__ = ["FAN_MAX", "fanned_cards"]
