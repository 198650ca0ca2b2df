"""The marker code reader agrees with OpenCV's own identification, and refuses what is no code."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.marker_codes import code_table, decode, detect, outline_detector
from vision.markers import dictionary, marker_image
from vision.reader import CardReader, _detector_parameters, marker_finder
from vision.scenes import make_scene


def opencv_markers(grey: np.ndarray, trusted_only: bool = False) -> dict[int, list[np.ndarray]]:
    """OpenCV's own reading with the full dictionary and the reader's parameters (only what the
    reader's trust check accepts, with ``trusted_only``)."""
    detector = cv2.aruco.ArucoDetector(dictionary(), _detector_parameters(9))
    corners, ids, _rejected = detector.detectMarkers(grey)
    found: dict[int, list[np.ndarray]] = {}
    for quad, marker_id in zip(corners, [] if ids is None else ids.ravel(), strict=True):
        if trusted_only and not CardReader._trustworthy(grey, [quad.reshape(4, 2)], [int(marker_id)])[0]:
            continue
        found.setdefault(int(marker_id), []).append(quad.reshape(4, 2))
    return found


def test_every_code_at_every_turn_is_its_own_entry() -> None:
    table = code_table()
    assert len(table) == 4 * len(dictionary().bytesList)
    assert {turns for _id, turns in table.values()} == {0, 1, 2, 3}


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
@pytest.mark.parametrize("marker_id", [0, 13, 96, 142, 249])
def test_a_turned_marker_reads_with_its_top_left_corner_first(marker_id: int, turns: int) -> None:
    image = np.full((200, 200), 255, np.uint8)
    image[50:110, 70:130] = np.rot90(marker_image(marker_id, 60), turns)
    reference = opencv_markers(image)[marker_id][0]
    corners, ids = detect(marker_finder().full_size, image)
    assert ids == [marker_id]
    assert np.abs(corners[0] - reference).max() < 0.01


def test_agrees_with_opencv_on_simulated_tables() -> None:
    """Every marker OpenCV reads in these scenes is read here with the same id and corners.

    Only markers the reader trusts count: OpenCV sometimes reads the right code through an
    outline bent round a card's printed frame, whose border cells are then half white; the
    reader throws such a reading away whoever decoded it."""
    detector = marker_finder().full_size
    agreed = 0
    for seed in range(40):
        game = ["bandit", "mega-jackpot", "thanks-a-lottery", "jackpot-payout"][seed % 4]
        grey = cv2.cvtColor(make_scene(game, 31000 + seed, seed % 2 == 0, 6).frame(), cv2.COLOR_BGR2GRAY)
        reference = opencv_markers(grey, trusted_only=True)
        corners, ids = detect(detector, grey)
        mine: dict[int, list[np.ndarray]] = {}
        for quad, marker_id in zip(corners, ids, strict=True):
            mine.setdefault(marker_id, []).append(quad)
        for marker_id, quads in reference.items():
            for quad in quads:
                assert any(np.abs(other - quad).max() < 0.5 for other in mine.get(marker_id, [])), (
                    f"seed {31000 + seed}: OpenCV read {marker_id} at {quad.tolist()}, this reader did not"
                )
                agreed += 1
    assert agreed > 300


def test_an_outline_without_a_code_reads_as_nothing() -> None:
    image = np.full((120, 120), 255, np.uint8)
    image[30:90, 30:90] = 0
    image[40:80, 40:80] = 255  # a black frame round a white square: border right, no code
    outline = np.array([[[30, 30], [89, 30], [89, 89], [30, 89]]], np.float32)
    assert decode(image, outline) == ([], [])
    flat = np.full((120, 120), 128, np.uint8)
    assert decode(flat, outline) == ([], [])


def test_two_outlines_of_one_marker_are_one_marker() -> None:
    image = np.full((120, 120), 255, np.uint8)
    image[30:90, 30:90] = marker_image(29, 60)
    outlines = np.array(
        [[[30, 30], [89, 30], [89, 89], [30, 89]], [[31, 31], [88, 31], [88, 88], [31, 88]]], np.float32
    )
    corners, ids = decode(image, outlines)
    assert ids == [29]
    assert len(corners) == 1


def test_the_outline_detector_finds_outlines_for_any_code() -> None:
    """Its one-code dictionary must not stop outlines of other codes from being returned."""
    image = np.full((200, 400), 255, np.uint8)
    for slot, marker_id in enumerate((0, 142, 249)):
        image[60:120, 30 + 120 * slot : 90 + 120 * slot] = marker_image(marker_id, 60)
    corners, ids = detect(outline_detector(_detector_parameters(9)), image)
    assert sorted(ids) == [0, 142, 249]
    assert all(corner.shape == (4, 2) for corner in corners)
