"""Where things are on a printed card, in millimetres (portrait, origin top-left).

The card is poker size, 63 x 88 mm. A dark frame band runs round the edge so the white
inside is a clean rectangle on any table colour (light or dark). Two copies of the card's
marker sit in opposite corners, the second turned 180 degrees, so the card reads the same
either way up and one finger or one glare spot cannot hide both.
"""

from __future__ import annotations

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


def card_corners_mm() -> np.ndarray:
    """The card's outline, TL, TR, BR, BL."""
    return np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]], dtype=np.float32)


def marker_corners_mm() -> list[np.ndarray]:
    """Both markers' corners in the marker's own order (its TL, TR, BR, BL), on the card.

    The first sits upright top-left; the second bottom-right, turned 180 degrees, so its own
    top-left corner is the one nearest the card's bottom-right corner.
    """
    a = MARKER_INSET_MM
    b = a + MARKER_MM
    first = np.array([[a, a], [b, a], [b, b], [a, b]], dtype=np.float32)
    second = np.array([[CARD_W_MM - x, CARD_H_MM - y] for x, y in first], dtype=np.float32)
    return [first, second]


def card_from_marker(marker_px: np.ndarray) -> np.ndarray:
    """The card outline in the image (4x2, card order as seen from this marker) from one marker.

    The marker is a plane square on the card, so its four corners fix the card plane's
    homography; the card corners follow (either marker gives the card, up to a 180-degree turn).
    """
    homography = cv2_homography(marker_corners_mm()[0], marker_px)
    return transform(homography, card_corners_mm())


def cv2_homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The exact homography through four point pairs."""
    import cv2

    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))


def transform(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to Nx2 points."""
    pts = np.hstack([points.astype(np.float64), np.ones((len(points), 1))]) @ homography.T
    return (pts[:, :2] / pts[:, 2:3]).astype(np.float32)
