"""Cards lying beneath a card: the strip of a fanned or overlapped card that shows beside it.

Players fan a pair, slide a card half over another, or drop one on the pile: the card on top
shows whole, and of the card beneath only a strip along one of its sides (often no more than
its corner index and a column of pips). The strip's own outline is no card's shape, so the
outline search does not find it; but the card on top tells a lot about it. Cards of one deck
are one size, so the card beneath is as large as the card on top; its outer edge is where the
paper beside the card on top ends; and it lies along that edge for a whole side's length.

:func:`cards_beneath` looks outward from each side of every card found whole for the paper
of a strip ending on a straight line a card's side long (:mod:`vision.side_strips`): the outer
edge of a card beneath. The card is placed along it, as deep as the card on top, and what shows
of it is that card minus every card found whole. Nothing here names the card: its visible part
is handed on, with the whole card's corners, to be compared with the taught faces.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.beneath_edges import on_its_edges
from vision.card_checks import iou, order_quad
from vision.kept_answers import KeptAnswers
from vision.side_strips import STRIP_MAX, STRIP_MIN, is_paper, lab_at, paper_colour, side_strip

#: The main part of what shows: what is left opened by this share of its thickest place.
_MAIN_SHARE = 0.5
#: ... when the opening takes away at most this share of it (else what shows is one piece).
_WEDGE_SHARE = 0.25
#: ... and when what shows is not one convex piece (its area this share of its hull's or less).
_CONVEX_SHARE = 0.92
#: What shows is told as a polygon this share of the card's size from the pixels' outline (the
#: opening leaves steps along a slanting side; they are no part of the card's shape).
_OUTLINE_PX = 0.015
#: Slivers thinner than this share of the card's size are not part of what shows.
_SLIVER = 0.07
#: The border check: samples this share of the card's size inside and outside its sides, at
#: least this many of them where no card on top hides the side; paper on this share of the
#: inner ones, something else on this share of the outer ones.
_BORDER_INSET = 0.035
_BORDER_SAMPLES = 8
_BORDER_PAPER, _BORDER_OFF_PAPER = 0.75, 0.6


@dataclass(frozen=True)
class Beneath:
    """A card beneath a card found whole: ``card`` its corners (4 x 2, TL TR BR BL portrait, as
    :func:`vision.card_checks.order_quad`), ``visible`` the polygon (N x 2) of what shows of it,
    ``main`` the main part of that (without a corner sticking out past the card on top's end:
    where the card is said to lie), all in frame pixels."""

    card: np.ndarray
    visible: np.ndarray
    main: np.ndarray


def visible_part(card: np.ndarray, covering: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """What shows of ``card`` with the ``covering`` cards over it: the largest piece left, and
    its main part (without the corners or wedges much thinner than its thickest place), as
    polygons (N x 2 float32, frame px); None when too little shows."""
    x0, y0 = np.floor(card.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(card.max(axis=0)).astype(int) + 2
    offset = np.array([x0, y0], np.float32)
    mask = np.zeros((int(y1 - y0), int(x1 - x0)), np.uint8)
    cv2.fillPoly(mask, [np.round(card - offset).astype(np.int32)], 255)
    area = float(np.count_nonzero(mask))
    for quad in covering:
        cv2.fillPoly(mask, [np.round(quad - offset).astype(np.int32)], 0)
    # A sliver along the card on top's edge (where the two outlines are a few pixels apart) is
    # no part that shows: opened away.
    width = max(3, int(_SLIVER * np.sqrt(area)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (width, width)))
    pieces, _hierarchy = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not pieces:
        return None
    piece = max(pieces, key=cv2.contourArea)
    if cv2.contourArea(piece) < STRIP_MIN * 0.8 * area:
        return None
    one = np.zeros_like(mask)
    cv2.drawContours(one, [piece], -1, 255, -1)
    # The main part: opened by half its own thickness (a corner of the card sticking out past
    # the card on top's end is a thin wedge beside the strip).
    thickness = float(cv2.distanceTransform(one, cv2.DIST_L2, 3).max()) * 2
    width = max(3, int(_MAIN_SHARE * thickness) | 1)
    main = cv2.morphologyEx(one, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (width, width)))
    cores, _hierarchy = cv2.findContours(main, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    core = max(cores, key=cv2.contourArea) if cores else piece
    piece_area = cv2.contourArea(piece)
    if cv2.contourArea(core) < (
        1 - _WEDGE_SHARE
    ) * piece_area or piece_area >= _CONVEX_SHARE * cv2.contourArea(cv2.convexHull(piece)):
        core = piece  # no wedge beside a strip: what shows is one convex piece (a turned card)
    return tuple(  # type: ignore[return-value]
        cv2.approxPolyDP(c, _OUTLINE_PX * np.sqrt(area), True).reshape(-1, 2).astype(np.float32) + offset
        for c in (piece, core)
    )


def cards_beneath(
    frame: np.ndarray,
    tops: list[np.ndarray],
    strip_max: float = STRIP_MAX,
    partly: list[np.ndarray] | tuple[()] = (),
    kept: KeptAnswers | None = None,
) -> list[Beneath]:
    """Cards lying beneath the cards ``tops`` (4 x 2 corners each, found whole) in a BGR
    ``frame``: for each side of each, a card whose strip shows beside it (see the module's
    docstring). A card beneath two cards on top is reported once. ``strip_max``: the deepest
    strip (share of the card's depth) taken as one card beneath; teaching, where any paper
    ending on a straight edge beside the card is a reason to refuse, looks deeper (a fan).

    ``partly``: cards found partly covered (their whole corners): in a fan every card but the
    last lies on the next one, so the strip beside a covered card's free side is a card beneath
    it too (dev IMG_2655: an ace's strip beside a king's, the king under a ten; from the ten
    the paper of both strips is too deep for one card). Only their free sides are looked
    beyond: a side whose middle lies under another card has no strip beside it in view.
    ``kept``: answers of earlier looks at a table still beside these cards (see
    :func:`vision.side_strips.side_strip`)."""
    if not tops and not partly:
        return []
    found: list[Beneath] = []
    ordered = [order_quad(quad) for quad in tops]
    covered = [order_quad(quad) for quad in partly]
    covering = ordered + covered
    for k, quad in enumerate(covering):
        paper = paper_colour(frame, quad, kept)
        others = covering[:k] + covering[k + 1 :]
        for side in range(4):
            if k >= len(ordered) and _under_another((quad[side] + quad[(side + 1) % 4]) / 2, others):
                continue
            strip = side_strip(frame, quad, side, paper, strip_max, kept)
            if strip is None:
                continue
            card = order_quad(strip)
            if any(iou(card, other.card) > 0.5 for other in found):
                continue
            if any(iou(card, top) > 0.6 for top in covering):
                continue  # a card beside, found on its own
            if not _border_shows(frame, card, covering, paper):
                continue
            # The rays place the outer edge where the paper ends, a few pixels off where print
            # bridges or a light table's specks extend it (dev IMG_2660: 8 px out on beige
            # carpet); the card's own edges are the strongest steps near the sides that show
            # (a hidden side would be pulled onto the edge of the card over it).
            card = on_its_edges(frame, card, covering)
            shown = visible_part(card, covering)
            if shown is not None:
                found.append(Beneath(card, *shown))
    return found


def _border_shows(frame: np.ndarray, card: np.ndarray, tops: list[np.ndarray], paper: np.ndarray) -> bool:
    """Whether the card's sides, where no card on top hides them, are a card's edge: blank
    paper just inside (a card's border), and something else just outside. A card placed
    wrongly runs a side across the table or across the card on top's face."""
    q = order_quad(card)
    centre = q.mean(axis=0)
    size = float(np.sqrt(max(1.0, cv2.contourArea(q))))
    ts = np.linspace(0.08, 0.92, 16, dtype=np.float32)[:, None]
    points = np.concatenate([q[i] + (q[(i + 1) % 4] - q[i]) * ts for i in range(4)])
    outward = points - centre
    outward /= np.linalg.norm(outward, axis=1, keepdims=True) + 1e-6
    # Only what shows: a point hidden by a card on top (with a margin) says nothing.
    margin = 0.04 * size
    shown = np.array(
        [
            all(
                cv2.pointPolygonTest(top.reshape(-1, 1, 2), (float(x), float(y)), True) < -margin
                for top in tops
            )
            for x, y in points
        ]
    )
    inside = points - outward * (_BORDER_INSET * size)
    outside = points + outward * (_BORDER_INSET * size)
    h, w = frame.shape[:2]
    shown &= (outside[:, 0] >= 0) & (outside[:, 0] <= w - 1) & (outside[:, 1] >= 0) & (outside[:, 1] <= h - 1)
    if shown.sum() < _BORDER_SAMPLES:
        return False
    lab, _in_frame = lab_at(frame, np.concatenate([inside[shown], outside[shown]]).astype(np.float32))
    paper_there = is_paper(lab, paper)
    count = int(shown.sum())
    return bool(
        paper_there[:count].mean() >= _BORDER_PAPER and (~paper_there[count:]).mean() >= _BORDER_OFF_PAPER
    )


def strip_share(beneath: Beneath) -> float:
    """The share of the card beneath that shows."""
    return float(
        cv2.contourArea(beneath.visible.astype(np.float32)) / max(1.0, cv2.contourArea(beneath.card))
    )


def _under_another(point: np.ndarray, cards: list[np.ndarray]) -> bool:
    """Whether ``point`` lies inside any of ``cards``."""
    spot = (float(point[0]), float(point[1]))
    return any(cv2.pointPolygonTest(card.reshape(-1, 1, 2), spot, False) >= 0 for card in cards)


__all__ = ["Beneath", "cards_beneath", "strip_share", "visible_part"]
