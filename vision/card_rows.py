"""Several cards in one outline: a row of cards, and two cards side by side.

Cards that touch or overlap make one light region. When they lie one way (a pair slid apart,
a fan), its outline is as wide as a card and longer than one: :func:`cards_within` proposes a
card at either end of it, each to be named whole by its taught face.

Two cards side by side, one partly over the other, make one region as high as a card and from
one to two cards wide. A card's short side is 0.72 of its long side (63 x 88 mm); perspective
and a loose outline widen that to :data:`vision.card_checks.ASPECT_MAX` (0.92). The pair's
outline is a card's shape when they overlap little, a landscape card's when they overlap half,
and nearly square (short / long above 0.92) when they overlap by a third of a card or less
(dev IMG_2687: a ten of hearts beside an ace of diamonds, 0.99; IMG_2616: a jack's strip beside
a ten, 0.98). Such an outline is no card's: the card checks refuse it, and neither card was
found. :func:`pair_shaped` keeps it as a maybe-card (a taught face must name what is in it),
looked into as a row either way (it has no long side).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.card_checks import ASPECT_MAX, REFINE_ALONG, card_shaped, iou, order_quad, refine_in_frame
from vision.card_lines import CARD_RATIO

#: Short side / long side of a pair's outline: above one card's (perspective included) up to
#: square (a pair wider than high is ordered the other way round, the same band).
PAIR_ASPECT = (ASPECT_MAX, 1.0)
#: A card of a pair is this share of the pair's outline at least (two cards overlapping a
#: third of a card or less: each is half of the outline or more, perspective allowed for).
PAIR_CARD_SHARE = 0.4
#: An outline holds a row of cards when it is this much longer than one card along the row.
_ROW_LONGER = 1.15


def pair_shaped(quad: np.ndarray, image_area: float) -> bool:
    """Whether ``quad`` is the outline of two cards side by side, overlapping (see the
    module's docstring): square corners, opposite sides alike, a nearly square shape, and
    as large as a card at least."""
    return card_shaped(quad, image_area, PAIR_ASPECT)


def pair_like(quad: np.ndarray) -> bool:
    """Whether ``quad`` (4 x 2) is squarer than a card: its short sides / long sides above
    ``PAIR_ASPECT``'s low end (a pair's outline, see :func:`pair_shaped`)."""
    q = order_quad(quad)
    short = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2]))
    long_ = float(np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[0] - q[3]))
    return short > PAIR_ASPECT[0] * long_


def cards_within(outline: np.ndarray) -> list[np.ndarray]:
    """Where whole cards may lie inside ``outline`` (4 x 2) if it holds several cards in a row
    (a pair or a fan of cards lying one way, their union one outline): a card as high as the
    row at each of its two ends, whichever way the row runs. Nothing when the outline is no
    longer than one card. Each is 4 x 2, ordered as :func:`vision.card_checks.order_quad`.
    An outline of one card gives guesses smaller than
    itself (cards lying across it): naming one of them needs its taught face to agree with it
    whole, which part of a card does not. A nearly square outline (two cards side by side)
    has no long side: rows either way."""
    return [end.card for end in _row_ends(outline)]


def placed_within(frame: np.ndarray, outline: np.ndarray) -> list[list[np.ndarray]]:
    """The cards of :func:`cards_within`, each as the quads to look into in turn: placed on its
    own edges where they show (:func:`on_its_own_edges`), then, when that differs, the row's
    guess moved onto the strongest steps near it (where the row's corners are no corners of
    its end cards, dev IMG_2674: a ten lying askew beside an upright ace, the strip follows
    the wrong lines, and the feature stage finds the card inside the larger guess)."""
    placed = []
    for end in _row_ends(outline):
        own = on_its_own_edges(frame, end)
        whole = order_quad(refine_in_frame(frame, end.card))
        placed.append([own] if iou(own, whole) > _SAME_PLACE else [own, whole])
    return placed


#: Two placings of a card this alike (IoU) are one: it is looked into once.
_SAME_PLACE = 0.95


def on_its_own_edges(frame: np.ndarray, end: _RowEnd) -> np.ndarray:
    """The card at one end of a row (see :func:`cards_within`), placed on its own edges.

    The row's two sides join a corner of one end card to a corner of the other: where the two
    cards do not lie level (dev IMG_2687: the ten's end 15 px lower than the ace's), a card cut
    from the row lies askew, its far corners 5-10 px off, and the thumbnails refuse it (an ace's
    few pips land in other blocks). Only near its own end are the row's sides the card's own
    edges: along the strip of the row that the other end card does not reach (half a card deep
    at most; in a longer row a card between them may). That strip is moved onto the steps to
    the table (:func:`vision.card_checks.refine_in_frame`; its inner side is no edge and stays),
    and the card runs on along its own sides, as long as a card: its far end is then a few
    pixels off at most, and the feature stage finds the card inside it."""
    strip = order_quad(end.strip)
    # The strip's inner side, after ordering: the one whose middle is nearest the inner one's.
    middles = (strip + strip[[1, 2, 3, 0]]) / 2
    inner = int(np.argmin(np.linalg.norm(middles - (end.strip[2] + end.strip[3]) / 2, axis=1)))
    seen = np.ones((4, len(REFINE_ALONG)), bool)
    seen[inner] = False
    moved = refine_in_frame(frame, strip, seen=seen)
    # The outer side (opposite the inner one), and the card's sides running on from its ends.
    first = (inner + 2) % 4
    a, b = moved[first], moved[(first + 1) % 4]
    along_a, along_b = moved[(first + 3) % 4] - a, moved[(first + 2) % 4] - b
    length_a, length_b = float(np.linalg.norm(along_a)), float(np.linalg.norm(along_b))
    if min(length_a, length_b) < 1.0:
        return end.card
    far_a, far_b = a + along_a * (end.length / length_a), b + along_b * (end.length / length_b)
    return order_quad(np.array([a, b, far_b, far_a], np.float32))


@dataclass(frozen=True)
class _RowEnd:
    """A card at one end of a row: ``card`` its corners (ordered), ``strip`` the part of the
    row only it covers (outer side first: corners 0-1 the row's end, 2-3 inside the row),
    ``length`` the card's size along the row (px)."""

    card: np.ndarray
    strip: np.ndarray
    length: float


#: The strip of a row that only its end card covers is at most this share of that card.
_STRIP_MAX = 0.5


def _row_ends(outline: np.ndarray) -> list[_RowEnd]:
    """The cards at either end of ``outline`` if it is a row (see :func:`cards_within`), in
    its order: per way the row may run and per way a card may stand in it, the two ends."""
    q = order_quad(outline)
    found: list[_RowEnd] = []
    # The row runs along the outline's long side (portrait order: the sides tl-bl, tr-br).
    for tl, tr, br, bl in (q, q[[3, 0, 1, 2]]) if pair_like(q) else (q,):
        width = float(np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
        height = float(np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
        for card_along, card_across in ((width / CARD_RATIO, width), (width * CARD_RATIO, width)):
            # card_along: the card's size along the row; card_across must be the outline's width.
            if not (card_along * _ROW_LONGER <= height and card_across <= width * 1.01):
                continue
            share = card_along / height
            own = min(1.0 - share, _STRIP_MAX * share)
            for a, b, c, d in ((tl, tr, br, bl), (br, bl, tl, tr)):
                # a-b the row's end; a-d and b-c its sides, running along it.
                card = np.array([a, b, b + (c - b) * share, a + (d - a) * share], np.float32)
                strip = np.array([a, b, b + (c - b) * own, a + (d - a) * own], np.float32)
                found.append(_RowEnd(order_quad(card), strip, card_along))
    return found


__all__ = [
    "PAIR_ASPECT",
    "PAIR_CARD_SHARE",
    "cards_within",
    "on_its_own_edges",
    "pair_like",
    "pair_shaped",
    "placed_within",
]
