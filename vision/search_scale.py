"""The scales at which :mod:`vision.face_search` looks at a frame.

A frame is searched for taught faces at its own size, or smaller when it is large (its long side
at most ``SEARCH_SIDE``: SIFT's cost goes with the pixels, and a camera frame's cards stay large
enough there). A frame whose cards are small (a webcam far from the table, a low-resolution
camera) is then searched again, *enlarged* until its cards are ``MIN_SEARCH_CARD_PX`` wide,
where the first search found nothing (:func:`vision.small_faces.search_faces`). The taught
pictures were described at the feature scale (``FEATURE_W`` = 150 px wide, doubled by SIFT's
first octave); in a card of half that or less the taught picture's finer keypoints (a corner
index, a pip's tip) fall at scales under SIFT's finest, and too few of them match. Enlarging
adds no detail, but SIFT then looks at the card's finest blobs at the scale the taught ones
were found at. The first search stands as it was: a card it finds at the frame's own size is
never lost to the enlarged one (IMG_2638's large cards were, searched enlarged only).

Measured on the dev part of ``shared/realcards`` (``companion bench realcards``), read at 0.6x
(cards 27-135 px wide): 159 -> 168 of 185 right; webcam-like copies 165 -> 166; the photos as
they are unchanged (180); no wrong id, no new phantom outline.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Frames are searched with their long side at most this (px): a 1280x720 camera frame costs
#: half as much (SIFT's cost goes with the pixels) and its cards stay 70+ px wide.
SEARCH_SIDE = 960
#: A frame whose whole cards are narrower than this (short side, frame px) is searched again
#: enlarged until they are this wide (two thirds of the feature scale's ``FEATURE_W``).
MIN_SEARCH_CARD_PX = 100.0
#: ... by at most this factor (a card a quarter of the feature scale has little left to find;
#: the search's cost grows with the square of it).
MAX_ENLARGE = 2.0
#: Without a whole card's outline to measure (every card covered or touching another), a frame
#: with a long side under this (px, a VGA webcam's) is searched again enlarged to it: cards in
#: such a frame are small whatever the framing.
SMALL_FRAME_SIDE = 640


def search_scale(shape: tuple[int, ...]) -> float:
    """The factor a frame of ``shape`` is first searched at (below 1 for a large frame)."""
    return min(1.0, SEARCH_SIDE / max(shape[:2]))


def enlarged_scale(shape: tuple[int, ...], card_short: float | None) -> float | None:
    """The factor a frame of ``shape`` is searched at again, enlarged, because its cards are
    small (``card_short``: a whole card's short side in frame px, None when unknown); None when
    they are not (never past ``SEARCH_SIDE`` nor ``MAX_ENLARGE``)."""
    longest = max(shape[:2])
    wanted = SMALL_FRAME_SIDE / longest if card_short is None else MIN_SEARCH_CARD_PX / max(card_short, 1.0)
    scale = min(wanted, MAX_ENLARGE, SEARCH_SIDE / longest)
    return scale if scale > 1.0 else None


def search_copy(grey: np.ndarray, scale: float) -> np.ndarray:
    """``grey`` resized by ``scale`` (area average down, cubic up; itself at 1)."""
    if scale == 1.0:
        return grey
    smooth = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_CUBIC
    return cv2.resize(grey, None, fx=scale, fy=scale, interpolation=smooth)
