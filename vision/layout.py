"""Where things are on a printed card, in millimetres (portrait, origin top-left).

The card is poker size, 63 x 88 mm. A dark frame band runs round the edge so the white
inside is a clean rectangle on any table colour (light or dark). Two copies of the card's
marker sit in opposite corners, the second turned 180 degrees, so the card reads the same
either way up and one finger or one glare spot cannot hide both.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

CARD_W_MM = 63.0
CARD_H_MM = 88.0
#: Dark band round the edge of the printed face (also a bleed for imprecise cutting).
FRAME_MM = 2.5
#: One marker cell; the marker is 6 cells (4 data + 1 border each side) = 19.2 mm.
CELL_MM = 3.2
MARKER_MM = 6 * CELL_MM
#: White quiet zone between the frame and the marker (one cell).
MARKER_INSET_MM = FRAME_MM + CELL_MM

#: Print resolution of card images: 12 px/mm is about 305 dpi.
PRINT_PX_PER_MM = 12


@lru_cache(maxsize=1)
def card_corners_mm() -> np.ndarray:
    """The card's outline, TL, TR, BR, BL (shared, read-only)."""
    return _frozen(
        np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]], dtype=np.float32)
    )


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


@lru_cache(maxsize=1)
def marker_corners_mm() -> list[np.ndarray]:
    """Both markers' corners in the marker's own order (its TL, TR, BR, BL), on the card.

    The first sits upright top-left; the second bottom-right, turned 180 degrees, so its own
    top-left corner is the one nearest the card's bottom-right corner.
    """
    a = MARKER_INSET_MM
    b = a + MARKER_MM
    first = np.array([[a, a], [b, a], [b, b], [a, b]], dtype=np.float32)
    second = np.array([[CARD_W_MM - x, CARD_H_MM - y] for x, y in first], dtype=np.float32)
    return [_frozen(first), _frozen(second)]


def _marker_frame(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A marker's centre and its x and y axes per millimetre of card, from its four corners."""
    p0, p1, p2, p3 = quad.astype(np.float64)
    u = ((p1 - p0) + (p2 - p3)) / (2 * MARKER_MM)
    v = ((p3 - p0) + (p2 - p1)) / (2 * MARKER_MM)
    return (p0 + p1 + p2 + p3) / 4, u, v


def _from_marker(quad: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    """Card points (mm) in the image, by the affine frame of the card's first marker at ``quad``
    (float64: ``_one_marker_weights`` derives exact weights from it)."""
    centre, u, v = _marker_frame(quad)
    offset = points_mm.astype(np.float64) - _FIRST_CENTRE
    return centre + offset[:, :1] * u + offset[:, 1:] * v


def card_from_markers(quads: list[np.ndarray]) -> np.ndarray:
    """The card outline in the image from one or both of its markers (corners in marker order).

    Both markers: an 8-point homography, exact under perspective. One marker: the affine frame
    of its square, because a homography through one small square, extrapolated to the whole
    card, amplifies a pixel of corner error into a card-sized wobble.
    """
    import cv2

    if len(quads) >= 2:
        # Two corners of each marker, spread over the whole card: an exact 4-point homography
        # (findHomography's refinement costs 40x more for no gain here).
        dst = np.vstack([quads[0][:2], quads[1][:2]]).astype(np.float32)
        return transform(cv2.getPerspectiveTransform(_PAIR_SOURCE, dst), card_corners_mm())
    return (_CARD_FROM_ONE @ quads[0].astype(np.float64)).astype(np.float32)


_FIRST_CENTRE = marker_corners_mm()[0].mean(axis=0).astype(np.float64)
#: Card mm of the two corners of each marker that ``card_from_markers`` maps.
_PAIR_SOURCE = np.vstack([marker_corners_mm()[0][:2], marker_corners_mm()[1][:2]]).astype(np.float32)


def _one_marker_weights() -> np.ndarray:
    """The card's corners as fixed mixes of one marker's corners (4 x 4).

    The affine frame of ``_from_marker`` is linear in the marker's corners, so it is worked out
    once, from the four unit "markers", instead of per card.
    """
    columns = []
    for corner in range(4):
        unit = np.zeros((4, 2), np.float64)
        unit[corner, 0] = 1.0
        columns.append(_from_marker(unit, card_corners_mm())[:, 0])
    return np.stack(columns, axis=1)


def transform(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to Nx2 points (float32 out)."""
    import cv2

    moved = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), homography)
    return moved.reshape(-1, 2).astype(np.float32)


_CARD_FROM_ONE = _one_marker_weights()
