"""A card found by its keypoints, placed a frame pixel off (a small or soft card's keypoints
place it no better): the aligned comparison lines the taught picture up within that error, so
the right card agrees, and a look-alike still does not."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.face_features import FEATURE_H, FEATURE_W, VERIFY_BLOCK, VERIFY_SCORE, card_rect
from vision.face_placing import MAX_SHIFT, lined_up, reach
from vision.face_search import FaceSearch
from vision.taught_scene import synthetic_face, teach_synthetic_faces

#: Where the small card lies in the frame (TL TR BR BL): about 52 x 74 px, a card at 0.6x.
SMALL = np.float32([[60, 40], [112, 44], [108, 118], [55, 114]])


def small_frame(face: np.ndarray) -> np.ndarray:
    """``face`` laid small at SMALL on a plain grey table, as a softer camera sees it."""
    frame = np.full((180, 180, 3), 95, np.uint8)
    h, w = face.shape[:2]
    source = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    homography = cv2.getPerspectiveTransform(source, SMALL)
    warped = cv2.warpPerspective(face, homography, (180, 180), flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), homography, (180, 180)) > 128
    frame[inside] = warped[inside]
    noise = np.random.default_rng(2).normal(0.0, 3.0, frame.shape)
    return (cv2.GaussianBlur(frame.astype(np.float32), (0, 0), 0.8) + noise).clip(0, 255).astype(np.uint8)


def placed_off(dx: float, dy: float) -> np.ndarray:
    """The homography taught picture (feature px) -> frame putting the card ``dx, dy`` frame px
    off where it lies."""
    return cv2.getPerspectiveTransform(card_rect(), SMALL + np.float32([dx, dy]))


def test_a_small_cards_reach_is_a_frame_pixel_in_feature_px() -> None:
    to_card = np.linalg.inv(placed_off(0, 0))
    assert reach(to_card) == min(MAX_SHIFT, int(np.ceil(FEATURE_W / 53)))
    big = cv2.getPerspectiveTransform(card_rect(), SMALL * 3)
    assert reach(np.linalg.inv(big)) == 1


def test_a_card_placed_a_pixel_off_is_lined_up_and_agrees(tmp_path: Path) -> None:
    deck = teach_synthetic_faces(tmp_path)
    search = FaceSearch(deck.features)
    ref = next(r for r in range(len(deck.features._refs)) if deck.features.face_of(r) == "plum")
    grey = cv2.cvtColor(small_frame(synthetic_face(11)), cv2.COLOR_BGR2GRAY)
    off = placed_off(1.2, -1.0)
    # As placed, the taught picture's print lies over the card's 2-3 feature px off.
    to_card = np.linalg.inv(off)
    view = search.matcher.normalised(cv2.warpPerspective(grey, to_card, (FEATURE_W, FEATURE_H)))
    seen = np.full((FEATURE_H, FEATURE_W), 255, np.uint8)
    assert lined_up(search.matcher.reference_grey(ref), view, seen, to_card) is not None
    score, block, _view = search._compare(ref, off, grey, SMALL)
    assert score >= VERIFY_SCORE and block <= VERIFY_BLOCK


def test_a_look_alike_placed_a_pixel_off_still_does_not_agree(tmp_path: Path) -> None:
    deck = teach_synthetic_faces(tmp_path)
    search = FaceSearch(deck.features)
    ref = next(r for r in range(len(deck.features._refs)) if deck.features.face_of(r) == "plum")
    grey = cv2.cvtColor(small_frame(synthetic_face(11, changed=True)), cv2.COLOR_BGR2GRAY)
    score, block, _view = search._compare(ref, placed_off(1.2, -1.0), grey, SMALL)
    assert not (score >= VERIFY_SCORE and block <= VERIFY_BLOCK)
