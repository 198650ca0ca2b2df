"""A card the camera clipped white (a lamp right above it, a sun patch, a camera metering a dark
table): the aligned comparison compares the taught picture as the camera clipped the view, so
the right card agrees again and a look-alike still does not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.feature_faces import evened, grey_face
from vision.aligned_compare import CLIPPED_SHARE, as_clipped, clipped_pixels, compare_aligned
from vision.face_features import FEATURE_H, FEATURE_W, VERIFY_BLOCK, VERIFY_SCORE
from vision.rough_camera import exposed

#: Half a stop over, as the realcards bench's bright copies (``--light bright``).
HALF_A_STOP = 0.5


def pale_face(extra_pip: bool = False) -> np.ndarray:
    """A grey face at the feature scale whose art is mostly pale print (a face card's yellows),
    with a dark corner index; ``extra_pip``: a look-alike with a dark pip more."""
    face = np.full((FEATURE_H, FEATURE_W), 228, np.uint8)
    for k in range(12):
        cv2.rectangle(face, (14, 36 + 12 * k), (136, 41 + 12 * k), 182, -1)
    for k in range(10):
        cv2.line(face, (14 + 12 * k, 36), (14 + 12 * k, 176), 205, 2)
    cv2.putText(face, "K", (6, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 30, 2)
    if extra_pip:
        cv2.circle(face, (40, 170), 10, 40, -1)
    return face


def over(grey: np.ndarray, stops: float) -> np.ndarray:
    """``grey`` exposed ``stops`` over without sensor noise: light levels clip at white."""
    return exposed(grey, stops, 0, shot_noise=0.0)


def agrees(result: tuple[float, float]) -> bool:
    score, block = result
    return score >= VERIFY_SCORE and block <= VERIFY_BLOCK


def test_a_card_whose_pale_print_the_camera_clipped_agrees_when_compared_as_clipped() -> None:
    taught = pale_face()
    view = over(taught, HALF_A_STOP)  # the pale print is as white as the paper now
    assert clipped_pixels(view).mean() > 0.9
    assert not agrees(compare_aligned(taught, np.eye(3), view))
    assert agrees(compare_aligned(taught, np.eye(3), view, clipped=clipped_pixels(view)))


def test_a_look_alikes_dark_print_is_never_clipped_away() -> None:
    """A look-alike's pip where the view shows clipped paper is print, not light the camera lost:
    the taught picture keeps it, and the card is refused as without clipping."""
    view = over(pale_face(), HALF_A_STOP)
    look_alike = pale_face(extra_pip=True)
    assert not agrees(compare_aligned(look_alike, np.eye(3), view, clipped=clipped_pixels(view)))


@pytest.mark.parametrize("seed", [10, 11, 12])
@pytest.mark.parametrize("stops", [HALF_A_STOP, 0.8])
def test_clipped_cards_agree_with_their_face_and_not_with_a_look_alike(seed: int, stops: float) -> None:
    """Made-up faces seen over-exposed (evened out as the feature stage does): compared as
    clipped, each agrees with its own face and not with its look-alike (one pip more or less)."""
    for shown, taught, right in ((False, False, True), (False, True, False), (True, False, False)):
        raw = over(grey_face(seed, shown), stops)
        view, reference = evened(raw), evened(grey_face(seed, taught))
        assert agrees(compare_aligned(reference, np.eye(3), view, clipped=clipped_pixels(raw))) is right


def test_a_view_the_camera_hardly_clipped_is_compared_as_it_is() -> None:
    reference = grey_face(10)
    clipped = np.zeros(reference.shape, bool)
    clipped[: int(0.9 * CLIPPED_SHARE * reference.shape[0])] = True  # a band of glare
    assert as_clipped(reference, clipped, np.ones(reference.shape, bool)) is reference
    clipped[: int(1.2 * CLIPPED_SHARE * reference.shape[0])] = True
    assert as_clipped(reference, clipped, np.ones(reference.shape, bool)) is not reference


def test_the_clipped_pixels_are_the_white_ones_of_a_colour_or_grey_picture() -> None:
    picture = np.zeros((4, 4, 3), np.uint8)
    picture[0, 0] = 255
    picture[1, 1] = (255, 255, 200)  # one channel below white: not clipped in grey
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    assert clipped_pixels(picture).tolist() == clipped_pixels(grey).tolist()
    assert int(clipped_pixels(picture).sum()) == 1
