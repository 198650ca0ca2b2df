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

import numpy as np

from vision.card_checks import ASPECT_MAX, card_shaped, order_quad
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
    q = order_quad(outline)
    found: list[np.ndarray] = []
    # The row runs along the outline's long side (portrait order: the sides tl-bl, tr-br).
    for tl, tr, br, bl in (q, q[[3, 0, 1, 2]]) if pair_like(q) else (q,):
        width = float(np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
        height = float(np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
        for card_along, card_across in ((width / CARD_RATIO, width), (width * CARD_RATIO, width)):
            # card_along: the card's size along the row; card_across must be the outline's width.
            if not (card_along * _ROW_LONGER <= height and card_across <= width * 1.01):
                continue
            share = card_along / height
            top = np.array([tl, tr, tr + (br - tr) * share, tl + (bl - tl) * share], np.float32)
            bottom = np.array([bl + (tl - bl) * share, br + (tr - br) * share, br, bl], np.float32)
            found += [order_quad(top), order_quad(bottom)]
    return found


__all__ = ["PAIR_ASPECT", "PAIR_CARD_SHARE", "cards_within", "pair_like", "pair_shaped"]
