"""A coloured border printed round a card's light centre: the card goes on to the border's edge.

The outline searches look for light paper; on a card printed with a coloured band round a white
centre (many published decks) they outline the centre, and the band looks like table. Taught
that way, the cut-out loses what is printed on the band (the corner numbers that tell a three
from a four: the ``realcards.other_decks`` bench read look-alikes of the bordered deck wrongly,
and never-taught ones as taught). A band of one even colour, the same all round, that ends on a
straight step at about the same distance beyond every side of the outline is printed on the
card: a table does not end parallel to a card's sides at one distance all round.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

#: The rectified card's size and the margin looked at beyond every side (a border up to 20 %
#: of the card's width; published decks print 3-8 mm on a 63 mm card).
_W, _H, _MARGIN = 100, 140, 20
#: The outline's corners (TL TR BR BL) in that rectified view.
_TARGET = np.float32(
    [[_MARGIN, _MARGIN], [_MARGIN + _W, _MARGIN], [_MARGIN + _W, _MARGIN + _H], [_MARGIN, _MARGIN + _H]]
)
#: Along a side only its middle is used (rounded corners, the index's disc reaching the band).
_MIDDLE = (0.2, 0.8)
#: A row of the band: within this Lab distance of the band's colour, and even along the side
#: (median absolute deviation of L under this).
BAND_MATCH = 14.0
BAND_EVEN = 8.0
#: The band differs from the centre's paper at least this much (that is why the search stopped).
BAND_FROM_PAPER = 25.0
#: The four sides' bands differ at most this much (Lab, lightness counted half).
SIDES_ALIKE = 16.0
#: Where it ends the table differs from the band at least this much.
END_STEP = 18.0
#: The band's width on the four sides within this share of their mean (a tilted card narrows
#: the far side a little), and at least this many rectified pixels.
WIDTH_SPREAD = 0.35
MIN_WIDTH = 4


def _rows(lab: np.ndarray) -> np.ndarray:
    """Per outward row of one side's strip (rows x columns x 3, row 0 next to the outline):
    the median colour of the middle of the row, and the L channel's deviation along it."""
    lo, hi = (int(f * lab.shape[1]) for f in _MIDDLE)
    middle = lab[:, lo:hi].astype(np.float32)
    colour = np.median(middle, axis=1)
    spread = np.median(np.abs(middle[:, :, 0] - colour[:, None, 0]), axis=1)
    return np.concatenate([colour, spread[:, None]], axis=1)


def _strips(lab: np.ndarray) -> list[np.ndarray]:
    """The four strips beyond the sides of the rectified view, each turned so row 0 touches
    the outline and rows go outward."""
    m = _MARGIN
    top = lab[:m, m : m + _W][::-1]
    bottom = lab[m + _H :, m : m + _W]
    left = lab[m : m + _H, :m][:, ::-1].transpose(1, 0, 2)
    right = lab[m : m + _H, m + _W :].transpose(1, 0, 2)
    return [top, right, bottom, left]


def border_widths(colour: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The width of a printed border beyond each side of ``quad`` (TL TR BR BL, in rectified
    pixels: the card ``_W`` wide), or None when there is no such border."""
    m = _MARGIN
    to_view = cv2.getPerspectiveTransform(np.float32(quad), _TARGET)
    view = cv2.warpPerspective(colour, to_view, (_W + 2 * m, _H + 2 * m), flags=cv2.INTER_AREA)
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    rows = [_rows(strip) for strip in _strips(lab)]
    # The paper inside the outline: just inside its sides (the middle holds the art).
    inner = lab[m + 2 : m + _H - 2, m + 2 : m + _W - 2]
    paper = np.median(
        np.concatenate([inner[:4, 10:-10].reshape(-1, 3), inner[-4:, 10:-10].reshape(-1, 3)]), axis=0
    )
    widths, bands = [], []
    for r in rows:
        # Rows 0 and 1 may mix the centre and the band (the outline lies on the blurred step):
        # the band is read from row 2 on, each side's own (the light over a card is not even).
        band = np.median(r[2:6, :3], axis=0)
        inside = (np.linalg.norm(r[2:, :3] - band, axis=1) <= BAND_MATCH) & (r[2:, 3] <= BAND_EVEN)
        width = 2 + (int(np.argmin(inside)) if not inside.all() else len(inside))
        if width < MIN_WIDTH or width + 3 > len(r):
            return None  # no band, or one going on past the margin (a table of that colour)
        if np.linalg.norm(r[width + 1 : width + 4, :3].mean(axis=0) - band) < END_STEP:
            return None
        if np.linalg.norm(band - paper) < BAND_FROM_PAPER:
            return None
        widths.append(width)
        bands.append(band)
    # One printed colour all round: the sides' bands alike (lightness counted half: the light
    # falls off across a card, its colour does not change).
    weighted = np.float32(bands) * np.float32([0.5, 1.0, 1.0])
    if np.any(np.linalg.norm(weighted - np.median(weighted, axis=0), axis=1) > SIDES_ALIKE):
        return None
    found = np.float32(widths)
    if np.any(np.abs(found - found.mean()) > WIDTH_SPREAD * found.mean() + 1):
        return None
    return found


def to_border_edge(colour: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (TL TR BR BL of a card held portrait) moved out to the edge of a border
    printed round it, if there is one (:func:`border_widths`); else ``quad`` itself."""
    widths = border_widths(colour, quad)
    if widths is None:
        return quad
    m = _MARGIN
    top, right, bottom, left = (float(w) for w in widths)
    back = cv2.getPerspectiveTransform(_TARGET, np.float32(quad))
    wider = np.float32(
        [
            [m - left, m - top],
            [m + _W + right, m - top],
            [m + _W + right, m + _H + bottom],
            [m - left, m + _H + bottom],
        ]
    )
    return cv2.perspectiveTransform(wider[None], back)[0].astype(np.float32)


def named_by_border(
    deck: Any, frame: np.ndarray, quad: np.ndarray, match: Any, size: Any
) -> tuple[np.ndarray, Any]:
    """An outline no taught face was named in, read again out to the edge of a border printed
    round it (a card taught whole, outlined in play by its white centre): (the card's outline,
    its match) when that names it, else (``quad``, ``match``) as they were. ``deck`` is an
    :class:`vision.enrolled.EnrolledDeck`; ``size`` the view's card size for its identify."""
    if frame.ndim != 3:
        return quad, match
    wider = to_border_edge(frame, quad)
    h, w = frame.shape[:2]
    if wider is quad or wider.min() < 0 or wider[:, 0].max() >= w or wider[:, 1].max() >= h:
        return quad, match
    named = deck.identify(frame, wider, True, thorough=True, size=size)
    return (wider, named) if named.card_id is not None else (quad, match)
