"""Thin things lying across a card (a cable, a charger's lead, a pencil): where they cover it,
in a view aligned with a taught picture, so the aligned comparison leaves them out.

A black cable across a card adds strong edges its taught picture lacks: laid over the card,
the right picture no longer agrees (realcards, a jack under two cables: 0.72 against the 0.88
it needs). What lies across a card is told from what a look-alike prints more (a pip, an index)
by three things together, each measured against the taught picture warped onto the view:

- **darker** than the taught picture there (``DARKER`` grey levels, after evening out the
  two pictures' brightness): something on top of the print; a look-alike's pip is darker too,
  hence the next two;
- **thin**: no wider than ``WIDEST`` px at the feature scale (a pip or a patch of shadow is
  wider, and stays compared even where a cable crosses it);
- **across**: straight pieces of it, chained, reach the card's edge at points at least
  ``SPAN`` of its short side apart and pass at least ``WIDEST`` px inside it: it came from the
  table and goes back to it, while a look-alike's print lies inside the card's margin (and a
  strip of table inside an outline a little too large runs along the edge, not across).

Only a card compared whole is looked at (``WHOLE``; on a part of one, the edge of what covers
it is no cable), and at most ``MOST_HIDDEN`` of it is ever left out: a card under more is not
vouched for by what little shows. The stages that compare this way still check the card's
corner index against the named face's: a look-alike of another number differs there. One with
the same index and a pip more that the cable lies right over is not told apart (a pip under a
cable is out of view); real decks number their cards. Something lying across a card that no
stage names this way is looked at once more by :mod:`vision.occluded`.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Grey levels by which a thing on top is darker than the taught picture's print there.
DARKER = 40.0
#: The widest thing taken as lying across (px at the feature scale, 150 px a card's width: a
#: cable or a pencil up to about 7 mm on a card).
WIDEST = 17
#: Its points on the compared part's border span at least this share of the part's short side.
SPAN = 0.6
#: Straight pieces of it (Hough segments) are at least this share of the short side long, with
#: gaps (where it crosses print as dark as itself) up to ``GAP`` of it.
PIECE = 0.3
GAP = 0.2
#: Only a card compared whole is looked at: at least this share of the view.
WHOLE = 0.8
#: Never more than this share of the compared part left out.
MOST_HIDDEN = 0.3
#: Pixels of the compared part's border band (where a thing across enters or leaves it).
_BORDER = 8


def lying_across(reference: np.ndarray, view: np.ndarray, compared: np.ndarray) -> np.ndarray | None:
    """Where thin things lying across the card cover ``view`` (boolean, ``view``'s shape), or
    None when nothing does (or more than ``MOST_HIDDEN`` of it would be left out).

    ``reference``: the taught picture warped onto ``view`` (grey, both evened out alike);
    ``compared``: the part of ``view`` both show (boolean)."""
    inner = cv2.erode(compared.astype(np.uint8), np.ones((5, 5), np.uint8))
    _x, _y, width, height = cv2.boundingRect(inner)
    # A card in view whole (or nearly): on a part of one, the edges of what covers it and a
    # fit only as good as the part make dark differences along the part's border of their own.
    if cv2.countNonZero(inner) < WHOLE * view.shape[0] * view.shape[1]:
        return None
    short = min(width, height)
    # Evened out alike (the brightness of every third pixel either way), then compared a little
    # blurred: a pixel's misplacement is no darkening.
    some = inner[::3, ::3] > 0
    gain = float(np.median(view[::3, ::3][some])) / max(1.0, float(np.median(reference[::3, ::3][some])))
    expected = cv2.GaussianBlur(reference.astype(np.float32) * gain, (0, 0), 1.5)
    seen = cv2.GaussianBlur(view.astype(np.float32), (0, 0), 1.5)
    dark = cv2.bitwise_and(((expected - seen) > DARKER).astype(np.uint8) * 255, inner * 255)
    if cv2.countNonZero(dark) < 2 * short:  # not even one thing across: the common case, cheap
        return None
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (WIDEST, WIDEST))
    wide = cv2.dilate(cv2.morphologyEx(dark, cv2.MORPH_OPEN, disc), np.ones((3, 3), np.uint8))
    thin = cv2.subtract(dark, wide)
    pieces = cv2.HoughLinesP(
        thin,
        2,
        np.pi / 90,
        int(0.5 * PIECE * short),
        minLineLength=int(PIECE * short),
        maxLineGap=int(GAP * short),
    )
    if pieces is None:
        return None
    along = np.zeros(view.shape[:2], np.uint8)
    for x0, y0, x1, y1 in pieces.reshape(-1, 4):
        cv2.line(along, (int(x0), int(y0)), (int(x1), int(y1)), 255, WIDEST + 4)
    along &= inner * 255
    count, labels = cv2.connectedComponents(along, connectivity=8)
    # How far each pixel lies inside the compared part (from the card's edge).
    inside = cv2.distanceTransform(np.pad(inner, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    across = np.zeros(count, bool)
    for label in range(1, count):
        # Where the thing itself is (not the band drawn along its pieces, wider than it).
        ys, xs = np.nonzero((labels == label) & (thin > 0))
        if len(ys) == 0:
            continue
        depth = inside[ys, xs]
        on_border = depth <= _BORDER
        # Across the card, not along its border (a strip of table inside an outline a little
        # too large, the shadow along the edge of a card lying over it): it passes deeper in.
        if on_border.any() and depth.max() >= WIDEST:
            across[label] = float(np.hypot(np.ptp(ys[on_border]), np.ptp(xs[on_border]))) >= SPAN * short
    if not across[1:].any():
        return None
    # The thin dark pixels along those pieces, and their soft edges (a cable's shadow). Not what
    # is wider: a look-alike's pip a cable lies over stays compared where it sticks out.
    hidden = across[labels] & (cv2.dilate(thin, np.ones((5, 5), np.uint8)) > 0)
    hidden = cv2.dilate(hidden.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    if hidden[compared].mean() > MOST_HIDDEN:
        return None
    return hidden
