"""A taught picture laid over a frame by a face's keypoints: where the card shows, and where it
lines up best within the keypoints' own error (:mod:`vision.face_search`).

A homography from a card's keypoints places it to about a frame pixel: a small card (a camera
farther away, fewer pixels a card) or a soft one (a webcam: fewer, vaguer keypoints) is then a
pixel or two of the taught picture off, and its print's detail correlates below the aligned
comparison's acceptance (dev at 0.6x: the right card 0.75-0.87 as placed, 0.83-0.96 lined up).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.aligned_compare import detail, same_softness
from vision.face_features import FEATURE_H, FEATURE_W, card_rect

#: Where the straightened view correlates with the taught picture at least this much (windows
#: of ``AGREE_WINDOW`` px at half the feature scale), the card shows; elsewhere it is covered.
AGREE = 0.3
AGREE_WINDOW = 11
#: Grey variance below this in a window: plain paper (or plain table).
PLAIN_VAR = 40.0
#: How far (frame px) keypoints may place a card off: a taught picture is lined up within it.
KEYPOINT_PX = 1.0
#: ... and never further than this (feature px; a card under 50 px across says too little).
MAX_SHIFT = 3
#: Fewer pixels compared than this: not lined up.
_MIN_PX = 200


def in_card(polygon: np.ndarray, to_card: np.ndarray) -> np.ndarray:
    """A frame polygon as a mask of the taught picture's frame (feature scale)."""
    outline = cv2.perspectiveTransform(np.asarray(polygon, np.float64).reshape(-1, 1, 2), to_card)
    mask = np.zeros((FEATURE_H, FEATURE_W), np.uint8)
    cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], 255)
    return mask


def agreeing(
    reference: np.ndarray, view: np.ndarray, visible: np.ndarray, homography: np.ndarray
) -> np.ndarray:
    """The part of ``visible`` (frame polygon) where the straightened ``view`` looks like the
    taught picture: what shows of a card, less what a hand or an unknown card covers. Only
    where the card is reported (a named card was compared in full before)."""
    seen = in_card(visible, np.linalg.inv(homography))
    half = (FEATURE_W // 2, FEATURE_H // 2)
    a = cv2.resize(reference, half, interpolation=cv2.INTER_AREA).astype(np.float32)
    b = cv2.resize(view, half, interpolation=cv2.INTER_AREA).astype(np.float32)
    window = (AGREE_WINDOW, AGREE_WINDOW)
    mean_a, mean_b = cv2.blur(a, window), cv2.blur(b, window)
    var_a = np.maximum(cv2.blur(a * a, window) - mean_a**2, 0)
    var_b = np.maximum(cv2.blur(b * b, window) - mean_b**2, 0)
    cov = cv2.blur(a * b, window) - mean_a * mean_b
    plain_a, plain_b = var_a < PLAIN_VAR, var_b < PLAIN_VAR
    # Plain paper against plain paper agrees; print against print must correlate.
    agree = np.where(plain_a | plain_b, plain_a & plain_b, cov / np.sqrt(var_a * var_b + 1e-6) >= AGREE)
    agree = cv2.resize(agree.astype(np.uint8) * 255, (FEATURE_W, FEATURE_H), interpolation=cv2.INTER_NEAREST)
    contours, _ = cv2.findContours(agree & seen, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return visible
    largest = max(contours, key=cv2.contourArea).reshape(-1, 1, 2).astype(np.float64)
    return cv2.perspectiveTransform(largest, homography).reshape(-1, 2).astype(np.float32)


def reach(to_card: np.ndarray) -> int:
    """How many feature px ``KEYPOINT_PX`` frame px are on the card ``to_card`` (frame ->
    taught picture) straightens (at most ``MAX_SHIFT``)."""
    corners = cv2.perspectiveTransform(card_rect().reshape(-1, 1, 2), np.linalg.inv(to_card)).reshape(4, 2)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    short = max(1e-6, float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2))
    return min(MAX_SHIFT, math.ceil(KEYPOINT_PX * FEATURE_W / short - 1e-6))


def lined_up(
    reference: np.ndarray, view: np.ndarray, seen: np.ndarray, to_card: np.ndarray
) -> np.ndarray | None:
    """The move (3x3, taught picture px) that lines ``view`` (the frame straightened by
    ``to_card``) up with the taught picture ``reference``: the whole px shift within
    :func:`reach` at which their print's detail, at one softness, correlates best over ``seen``
    (a mask); None when that is where they lie already."""
    t = reach(to_card)
    shows = seen > 0
    inner = np.zeros_like(shows)
    inner[t:-t, t:-t] = shows[t:-t, t:-t]
    if t < 1 or int(inner.sum()) < _MIN_PX:
        return None
    a, b = same_softness(reference, view, shows)
    da = detail(a)[inner]
    da = (da - da.mean()) / (float(da.std()) + 1e-6)
    db_all = detail(b)
    best, move = -2.0, (0, 0)
    for dy in range(-t, t + 1):
        for dx in range(-t, t + 1):
            db = np.roll(db_all, (-dy, -dx), axis=(0, 1))[inner]
            correlation = float((da * (db - db.mean())).mean() / (float(db.std()) + 1e-6))
            if correlation > best:
                best, move = correlation, (dx, dy)
    if move == (0, 0):
        return None
    return np.array([[1.0, 0.0, -move[0]], [0.0, 1.0, -move[1]], [0.0, 0.0, 1.0]])
