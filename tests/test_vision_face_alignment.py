"""Whole-card thumbnails lined up before their blocks are judged: an outline a pixel off still
names its card; a look-alike stays unidentified."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.enrolled import EnrolledDeck
from vision.face_match import (
    LOOK_W,
    MAX_BLOCK,
    FaceMatcher,
    aligned_block,
    rectify,
    signature,
    worst_block,
)
from vision.taught_scene import synthetic_face

#: Pixels of a 200 px wide face per look px (the scale the thumbnails are cut at).
LOOK_PX = 200 / LOOK_W


def ace() -> np.ndarray:
    """A sparse face, 200 x 280: one diamond in the middle and an index in two corners (the
    kind whose one pip edge decides a block)."""
    face = np.full((280, 200, 3), (232, 236, 238), np.uint8)
    diamond = np.int32([[100, 112], [122, 140], [100, 168], [78, 140]])
    cv2.fillPoly(face, [diamond], (40, 40, 170), cv2.LINE_AA)
    cv2.putText(face, "A", (14, 40), cv2.FONT_HERSHEY_DUPLEX, 1.0, (40, 40, 170), 2, cv2.LINE_AA)
    return np.ascontiguousarray(np.minimum(face, face[::-1, ::-1]))


def seen_off(face: np.ndarray, look_px: float) -> np.ndarray:
    """``face`` as a soft camera's outline cuts it: moved ``look_px`` look px left and down, blurred."""
    move = np.float32([[1, 0, -look_px * LOOK_PX], [0, 1, look_px * LOOK_PX]])
    h, w = face.shape[:2]
    moved = cv2.warpAffine(face, move, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(moved, (0, 0), 2.0)


def test_a_sparse_face_cut_a_pixel_off_is_named_once_lined_up() -> None:
    matcher = FaceMatcher()
    matcher.add("any", ace())
    matcher.add("plum", synthetic_face(11))
    view = seen_off(ace(), 1.25)
    assert worst_block(signature(view), signature(ace())) > MAX_BLOCK  # as cut, its pip's block fails
    assert matcher.match(view).card_id is None  # the thumbnails as cut refuse it ...
    found = matcher.lined_up(view, matcher.match(view))
    assert found.card_id == "any" and found.block <= MAX_BLOCK / 2  # ... lined up, they name it
    assert found.confidence >= 0.8


def test_a_whole_card_no_other_stage_names_is_named_by_its_thumbnail_lined_up(tmp_path: Path) -> None:
    deck = EnrolledDeck("bandit", tmp_path)
    deck.keep("any", ace())
    deck.keep("plum", synthetic_face(11))
    # A card 72 px wide (a webcam's view), its outline 1.5 look px off: too soft for the features.
    table = np.full((300, 270, 3), (40, 70, 110), np.uint8)
    table[100:201, 100:172] = cv2.resize(seen_off(ace(), 1.5), (72, 101), interpolation=cv2.INTER_AREA)
    outline = np.float32([[100, 100], [171, 100], [171, 200], [100, 200]])
    assert deck.matcher.match(rectify(table, outline)).card_id is None
    found = deck.identify(table, outline)
    assert found.card_id == "any" and found.method == "thumbnail"


def test_a_card_a_pixel_off_warns_of_the_face_it_would_be_taken_for() -> None:
    matcher = FaceMatcher()
    matcher.add("any", ace())
    assert [face for face, _score in matcher.look_alikes("plum", seen_off(ace(), 1.25))] == ["any"]


@pytest.mark.parametrize("seed", [10, 11, 12])
def test_lining_up_does_not_hide_a_look_alikes_other_middle(seed: int) -> None:
    twin = seen_off(synthetic_face(seed, changed=True), 0.0)  # one pip more in the middle
    taught = signature(synthetic_face(seed))
    assert aligned_block(twin, taught) > 1.0  # lined up, the differing block still differs widely
    matcher = FaceMatcher()
    matcher.add("cherry", synthetic_face(seed))
    matcher.add("plum", ace())
    assert matcher.lined_up(twin, matcher.match(twin)).card_id is None
