"""A cable or a pencil lying across a card is left out of the aligned comparison, and nothing
else is: the right card agrees again, print a look-alike has more still differs."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.feature_faces import evened, grey_face
from tests.things_on_cards import cable_across, read_with
from vision import aligned_compare
from vision.aligned_compare import compare_aligned
from vision.face_features import FEATURE_H, FEATURE_W, VERIFY_BLOCK, VERIFY_SCORE
from vision.lying_across import MOST_HIDDEN, WIDEST, lying_across
from vision.taught_scene import SYNTHETIC_IDS, SYNTHETIC_SEEDS, renumbered, synthetic_face

#: Where :func:`synthetic_face`'s look-alike has its pip more, at the feature scale.
PIP, PIP_RADIUS = (75, 105), 10
EVERYWHERE = np.ones((FEATURE_H, FEATURE_W), bool)


def with_cable(
    grey: np.ndarray, start: tuple[int, int], end: tuple[int, int], width: int = 9, shade: int = 25
) -> np.ndarray:
    """``grey`` with a dark cable from ``start`` to ``end`` (beyond the picture: across it)."""
    out = grey.copy()
    cv2.line(out, start, end, shade, width, cv2.LINE_AA)
    return out


def agrees(result: tuple[float, float]) -> bool:
    score, block = result
    return score >= VERIFY_SCORE and block <= VERIFY_BLOCK


#: Cables clear of the look-alike's middle pip: aslant, level (below the pip),
#: and steep (from the top edge to the left edge).
CABLES = [((-10, 20), (160, 95)), ((-10, 160), (160, 160)), ((40, -10), (-10, 120))]


@pytest.mark.parametrize("seed", SYNTHETIC_SEEDS[:3])
@pytest.mark.parametrize(("start", "end"), CABLES)
def test_a_cable_across_the_right_card_is_left_out_and_the_card_agrees(
    seed: int, start: tuple[int, int], end: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    taught = evened(grey_face(seed))
    view = with_cable(taught, start, end)
    hidden = lying_across(taught, view, EVERYWHERE)
    assert hidden is not None
    cable = with_cable(np.zeros_like(taught), start, end, shade=255) > 0
    assert hidden[cable].mean() > 0.7  # the cable is left out ...
    assert hidden.mean() < 2.5 * cable.mean()  # ... and not much more
    assert agrees(compare_aligned(taught, np.eye(3), view))
    # Compared with the cable in, the card does not agree: leaving it out is what names it.
    monkeypatch.setattr(aligned_compare, "lying_across", lambda *_args: None)
    assert not agrees(compare_aligned(taught, np.eye(3), view))


@pytest.mark.parametrize("seed", SYNTHETIC_SEEDS[:3])
@pytest.mark.parametrize(("start", "end"), CABLES)
def test_a_look_alikes_pip_beside_a_cable_is_not_left_out(
    seed: int, start: tuple[int, int], end: tuple[int, int]
) -> None:
    """Only the cable is left out: the pip a look-alike has more stays compared."""
    taught = evened(grey_face(seed))
    hidden = lying_across(taught, with_cable(evened(grey_face(seed, changed=True)), start, end), EVERYWHERE)
    assert hidden is not None
    pip = np.zeros(taught.shape, np.uint8)
    cv2.circle(pip, PIP, PIP_RADIUS, 1, -1)
    assert not hidden[pip > 0].any()


def test_dark_print_inside_the_card_is_not_lying_across() -> None:
    """A look-alike's long dark stroke that stays inside the card's margin is print."""
    taught = evened(grey_face(SYNTHETIC_SEEDS[0]))
    view = with_cable(taught, (20, 30), (130, 180), width=6)
    assert lying_across(taught, view, EVERYWHERE) is None


def test_something_wider_than_a_cable_is_not_lying_across() -> None:
    """A band of shadow or a ruler across the card hides more than a cable: nothing is left out."""
    taught = evened(grey_face(SYNTHETIC_SEEDS[0]))
    view = with_cable(taught, (-10, 60), (160, 60), width=2 * WIDEST)
    assert lying_across(taught, view, EVERYWHERE) is None


def test_a_dark_strip_along_the_cards_border_is_not_lying_across() -> None:
    """Table seen inside an outline a little too large runs along the border, not across."""
    taught = evened(grey_face(SYNTHETIC_SEEDS[0]))
    view = taught.copy()
    view[:, :5] = 25
    assert lying_across(taught, view, EVERYWHERE) is None


def test_a_card_under_more_cables_than_it_shows_is_not_excused() -> None:
    taught = evened(grey_face(SYNTHETIC_SEEDS[0]))
    view = taught.copy()
    for y in range(15, FEATURE_H, 22):
        view = with_cable(view, (-10, y - 10), (160, y + 10), width=11)
    hidden = lying_across(taught, view, EVERYWHERE)
    assert hidden is None or hidden.mean() <= MOST_HIDDEN
    assert not agrees(compare_aligned(taught, np.eye(3), view))


@pytest.mark.parametrize("seed", [510, 513, 514, 517])
def test_a_taught_card_under_a_cable_laid_aslant_is_named_and_a_look_alike_never(
    tmp_path: Path, seed: int
) -> None:
    """End to end: a cable across the card at 35 degrees to its long side (a corner index under
    it on one side), read from the frame by the reader."""

    def cable(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
        return cable_across(frame, corners, 35, 0.06)

    taught = synthetic_face(SYNTHETIC_SEEDS[0])
    assert read_with(tmp_path / "taught", taught, seed, cable) == [SYNTHETIC_IDS[0]]
    twin = renumbered(SYNTHETIC_SEEDS[0], "77")
    assert read_with(tmp_path / "twin", twin, seed, cable) in ([None], [])
