"""Small cards (a low-resolution camera, a webcam far from the table) are searched for by their
faces in the frame enlarged too; large frames and large cards are searched as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.enrolled import EnrolledDeck
from vision.face_search import FaceSearch
from vision.search_scale import (
    MAX_ENLARGE,
    MIN_SEARCH_CARD_PX,
    SEARCH_SIDE,
    SMALL_FRAME_SIDE,
    enlarged_scale,
)
from vision.simulated import SimulatedTable
from vision.small_faces import search_faces
from vision.taught_scene import scene_style, synthetic_face, teach_synthetic_faces

GAME = "bandit"


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> EnrolledDeck:
    """Four made-up faces (seeds 10-13: the scenes lay face 12 as the bell; the feature search
    does not compare their corner indices, "34" and "33" alike in the index zone), each taught
    from a whole photo of it on a wood table."""
    return teach_synthetic_faces(tmp_path_factory.mktemp("store"), (10, 11, 12, 13))


def test_a_frame_of_small_cards_is_searched_again_enlarged_until_they_are_wide_enough() -> None:
    scale = enlarged_scale((302, 227), 50.0)
    assert scale == pytest.approx(MIN_SEARCH_CARD_PX / 50.0)
    assert enlarged_scale((302, 227), 20.0) == pytest.approx(MAX_ENLARGE)  # never more than this


def test_large_cards_and_large_frames_are_not_searched_again() -> None:
    assert enlarged_scale((504, 378), 1.2 * MIN_SEARCH_CARD_PX) is None
    # A camera frame past SEARCH_SIDE is already searched shrunk: never enlarged past it.
    assert enlarged_scale((720, 1280), 0.5 * MIN_SEARCH_CARD_PX) is None
    assert enlarged_scale((720, SEARCH_SIDE), 0.5 * MIN_SEARCH_CARD_PX) is None


def test_without_a_card_to_measure_only_a_frame_smaller_than_a_webcams_is_enlarged() -> None:
    assert enlarged_scale((400, 300), None) == pytest.approx(SMALL_FRAME_SIDE / 400)
    assert enlarged_scale((480, SMALL_FRAME_SIDE), None) is None


def overlapped(seed: int, shrink: float) -> np.ndarray:
    """Two taught cards (plum under bell, 160 px wide) on felt, the frame shrunk by ``shrink``."""
    scene = SimulatedTable(GAME, seed=seed, mat=False, style=scene_style(seed, "felt", card_px=160, tilt=10))
    x, y = scene.centre
    scene.place_art(synthetic_face(11), (x, y), 8.0, label="under")
    scene.place_art(synthetic_face(12), (x + 38.0, y + 6.0), 14.0, label="over")
    small = cv2.resize(scene.frame(), None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)


def test_cards_a_third_of_the_feature_scale_wide_are_found_in_the_frame_enlarged(deck: EnrolledDeck) -> None:
    """Cards 53 px wide (a 1280x720 view shrunk to 427x240): the taught faces' finer keypoints
    fall under SIFT's finest scale; searched at the frame's own size, 2 of 16 were found
    (measured), enlarged too, 11. Only the cards laid are ever named."""
    search = FaceSearch(deck.features)
    alone, both = [], []
    for seed in range(30, 38):
        grey = overlapped(seed, 1 / 3)
        alone += [f.card_id for f in search.search(grey)]
        both += [f.card_id for f in search_faces(search, grey, [], [], None, 160 / 3)]
    assert set(both) <= {"plum", "bell"}
    assert len(both) >= len(alone) + 6


def test_cards_found_at_the_frames_own_size_stay_found_and_are_not_found_twice(deck: EnrolledDeck) -> None:
    search = FaceSearch(deck.features)
    for seed in range(30, 34):
        grey = overlapped(seed, 0.5)
        first = search.search(grey)
        found = search_faces(search, grey, [], [], None, 80.0)
        assert [f.card_id for f in found[: len(first)]] == [f.card_id for f in first]
        assert len({f.card_id for f in found}) == len(found)


def test_what_was_explained_is_not_searched_again_enlarged(deck: EnrolledDeck) -> None:
    grey = overlapped(31, 1 / 3)
    h, w = grey.shape
    everything = [np.float32([[0, 0], [w, 0], [w, h], [0, h]])]
    assert search_faces(FaceSearch(deck.features), grey, everything, [], None, 160 / 3) == []
