"""The rank alone of a taught face against what shows of a card (vision.part_match.rank_score):
what a strip found by its face must agree with (vision.enrolled.EnrolledDeck.vouches)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.part_match import FINE_H, FINE_W, INDEX_ACCEPT, PartMatcher, part_mask
from vision.taught_scene import renumbered, synthetic_face, synthetic_index


def fine(card: np.ndarray) -> np.ndarray:
    return cv2.resize(card, (FINE_W, FINE_H), interpolation=cv2.INTER_AREA)


def strip_mask(share: float) -> np.ndarray:
    """The left ``share`` of the card shows (its top-left corner index with it)."""
    w = share * FINE_W
    return part_mask(np.float32([[0, 0], [w, 0], [w, FINE_H], [0, FINE_H]]))


def test_a_taught_faces_rank_agrees_and_another_number_with_its_art_does_not() -> None:
    seed = next(s for s in range(40) if len(synthetic_index(s)) == 2)
    matcher = PartMatcher()
    matcher.add("taught", fine(synthetic_face(seed)))
    index = synthetic_index(seed)
    other = index[0] + ("7" if index[1] != "7" else "1")
    mask = strip_mask(0.45)
    right = matcher.rank_score(fine(synthetic_face(seed)), mask, "taught")
    look_alike = matcher.rank_score(fine(renumbered(seed, other)), mask, "taught")
    assert right is not None and right >= INDEX_ACCEPT
    assert look_alike is not None and look_alike < INDEX_ACCEPT, (index, other, look_alike)


def test_no_rank_score_for_a_face_not_taught_or_a_strip_without_the_rank() -> None:
    matcher = PartMatcher()
    matcher.add("taught", fine(synthetic_face(3)))
    assert matcher.rank_score(fine(synthetic_face(3)), strip_mask(0.45), "other") is None
    # The middle of the card shows, neither corner's index: the rank says nothing there.
    middle = part_mask(np.float32([[60, 0], [120, 0], [120, FINE_H], [60, FINE_H]]))
    assert matcher.rank_score(fine(synthetic_face(3)), middle, "taught") is None
