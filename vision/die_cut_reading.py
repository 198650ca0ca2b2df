"""Reading a taught deck whose faces are not white paper: outlines found by their die-cut edge.

The paper searches (:mod:`vision.card_outlines`) find cards by their light, nearly colourless
paper; a deck printed with full-bleed art or dark faces has none, and they miss most of its
cards (the other-decks figure: 60 of 63 dark cards missed). When the taught faces say the
deck is printed so (:func:`prints_off_paper`: its taught cut-outs' rims are not light paper),
the thorough search (a reader's first frame, the frame in which the table settles) adds the
outlines the die-cut search (:mod:`vision.die_cut`) finds. They are never sure: they count
only when a taught face names them through the reader's whole safe path, so they add no
phantoms. A deck on white paper is read exactly as before (and at the same cost).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.card_checks import (
    MIN_AREA_SHARE,
    PAPER_CHROMA,
    PAPER_LIGHT,
    card_paper,
    inside_share,
    iou,
    light_paper,
    order_quad,
)
from vision.card_outlines import EDGE_MARGIN, CardOutline, find_card_candidates
from vision.die_cut import die_cut_cards
from vision.frame_cut import corners_in_view

__all__ = ["CardOutline", "deck_outlines", "prints_off_paper", "rim_paper"]

#: The rim of a cut-out looked at: this band (shares of its width) in from each edge, past
#: the rounded corners' table and the cut's own pixel of table.
RIM_BAND = (0.03, 0.08)
#: A taught face is printed on light paper when its rim is that on this share or more (a
#: pinochle card's white rim: nearly all of it; a full-bleed face's light index discs: 0.2).
PAPER_RIM = 0.5
#: An outline found by the paper searches this much inside a die-cut card, of this share of
#: its area, is a frame printed on the face (a dark face's frame line: 0.85 of the card).
WITHIN_SHARE = 0.95
FRAME_AREA = (0.6, 0.97)


def rim_paper(cutout: np.ndarray) -> float:
    """The share of a taught cut-out's rim (BGR) that is light, nearly colourless paper."""
    if cutout.ndim != 3:
        return 1.0
    lab = cv2.cvtColor(cutout, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    near, far = (max(1, round(share * w)) for share in RIM_BAND)
    ring = np.ones((h, w), bool)
    ring[far : h - far, far : w - far] = False
    ring[:near] = ring[h - near :] = False
    ring[:, :near] = ring[:, w - near :] = False
    rim = lab[ring]
    chroma = np.abs(rim[:, 1] - 128) + np.abs(rim[:, 2] - 128)
    return float(((rim[:, 0] >= PAPER_LIGHT) & (chroma <= PAPER_CHROMA)).mean())


def prints_off_paper(deck: Any) -> bool:
    """Whether the faces taught in ``deck`` (an :class:`vision.enrolled.EnrolledDeck`, which
    keeps each picture's :func:`rim_paper` as it loads or is taught it) are printed without a
    light paper rim (full-bleed art, a dark face, a coloured border): the median picture's rim
    is not light paper. A deck is printed one way; a white card taught in shade or warm light
    has a rim darker than light paper (5 of the 119 pinochle pictures: any one of them turned
    the search on for that deck, and 3 webcam-like reads were lost)."""
    shares = [share for group in deck.rim_papers.values() for share in group]
    return bool(shares) and float(np.median(shares)) < PAPER_RIM


def deck_outlines(
    frame: np.ndarray,
    deck: Any,
    thorough: bool = False,
    region: tuple[int, int, int, int] | None = None,
    work: np.ndarray | None = None,
    grey: np.ndarray | None = None,
) -> list[CardOutline]:
    """:func:`vision.card_outlines.find_card_candidates` for a reader of ``deck``; in the
    thorough search of a deck printed off paper (:func:`prints_off_paper`), with the die-cut
    search's cards lying wholly in ``region`` (frame px) that it did not find, as unsure
    outlines."""
    found = find_card_candidates(frame, thorough=thorough, region=region, work=work, grey=grey)
    if not thorough or frame.ndim != 3 or not prints_off_paper(deck):
        return found
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = (0, 0, w, h) if region is None else region
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))
    if min(x1 - x0, y1 - y0) < 16:
        return found
    # Card sizes as the whole frame's (a card is no smaller for lying in a changed part).
    least = MIN_AREA_SHARE * w * h / ((x1 - x0) * (y1 - y0))
    margin = max(1.0, EDGE_MARGIN * min(h, w))
    for card in die_cut_cards(frame[y0:y1, x0:x1], min(least, 0.5)):
        quad = (card.quad + np.float32([x0, y0])).astype(np.float32)
        whole = all(corners_in_view(quad, frame.shape, margin))
        # An outline lying within the card, most of it: a frame printed on the face (a dark
        # face's frame line, a full-bleed face's panel) taken for its edge; the card's edge is
        # the die-cut one (the reader's thumbnail of the frame is no taught face's).
        within = [k for k, other in enumerate(found) if _printed_within(frame, other.quad, quad)]
        for k in within:
            found[k] = CardOutline(quad, found[k].sure, whole and found[k].whole)
        if not within and not any(iou(quad, other.quad) > 0.5 for other in found):
            found.append(CardOutline(quad, False, whole))
    return found


def _printed_within(frame: np.ndarray, inner: np.ndarray, card: np.ndarray) -> bool:
    """Whether ``inner`` lies within ``card`` (``WITHIN_SHARE``), covering ``FRAME_AREA``, not
    of light paper: a light centre inside a coloured border is the paper searches' (the border
    is looked out to when it is named, :func:`vision.printed_border.named_by_border`; taking
    the whole card in its place named 3 bordered look-alikes wrongly in 24 photos)."""
    share = cv2.contourArea(inner) / max(1.0, cv2.contourArea(card))
    if not (FRAME_AREA[0] <= share < FRAME_AREA[1] and inside_share(inner, card) >= WITHIN_SHARE):
        return False
    x, y, w, h = cv2.boundingRect(np.round(card).astype(np.int32))
    x, y = max(0, x), max(0, y)
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y : y + h, x : x + w]), cv2.COLOR_BGR2LAB)
    return not light_paper(card_paper(lab, order_quad(inner - np.float32([x, y])))[1])
