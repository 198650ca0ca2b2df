"""The outline search at the frame's border: a card with three corners in view (a five-sided
region) gets its outline, and a side along the border is not pulled in onto the card's print.

Synthetic and deterministic: a card lies on a textured table partly beyond the frame's right
border (the frame is cut out of a larger table, as in tests/test_vision_frame_cut.py).
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.test_vision_frame_cut import cut_scene
from vision.card_checks import refine
from vision.card_outlines import find_card_candidates
from vision.frame_cut import completed_cards, cut_card_shaped, off_border_profiles, past_border_quad
from vision.taught_scene import synthetic_face

#: A card turned 45 degrees, its TR corner (x ~494) beyond a 400 px wide frame's right border:
#: three corners in view, the part in view five-sided.
TURNED = np.float32([[317, 30], [494, 207], [366.7, 334.3], [189.7, 157.3]])


def _region(points: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The outer contour of ``points`` (a polygon, px) filled and cut to a frame of ``shape``."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 255)
    contours, _h = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(contours, key=cv2.contourArea)


def test_a_five_sided_region_on_the_border_is_the_card_beyond_it() -> None:
    contour = _region(TURNED, (360, 400))
    quad = past_border_quad(contour, (360, 400))
    assert quad is not None
    # Each corner of the card, the one beyond the border too, within a few px.
    assert all(np.linalg.norm(quad - corner, axis=1).min() < 4.0 for corner in TURNED)
    # With three corners in view the outline is the card (frame_cut takes it as it is).
    assert len(completed_cards(quad, (360, 400))) == 1
    # The search hands over the hull it keeps for each region: the same card from it.
    handed = past_border_quad(contour, (360, 400), cv2.convexHull(contour))
    assert handed is not None and np.array_equal(handed, quad)


def test_regions_not_cut_to_five_sides_by_the_border_are_not_completed() -> None:
    inside = TURNED - np.float32([100, 0])  # the whole card in view: four sides
    assert past_border_quad(_region(inside, (360, 400)), (360, 400)) is None
    # A five-sided region away from the border (a card with a corner torn off, a patch of
    # table) has no side on it: no corner to complete.
    pentagon = np.float32([[150, 60], [260, 80], [300, 200], [200, 300], [120, 200]])
    assert past_border_quad(_region(pentagon, (360, 400)), (360, 400)) is None


def test_a_card_with_three_corners_in_view_gets_its_outline() -> None:
    frame = cut_scene(synthetic_face(11), TURNED)
    found = [o for o in find_card_candidates(frame) if o.quad[:, 0].max() > 400]
    assert len(found) == 1 and not found[0].whole
    assert all(np.linalg.norm(found[0].quad - corner, axis=1).min() < 8.0 for corner in TURNED)


def _printed_near_the_border() -> tuple[np.ndarray, np.ndarray]:
    """A light card reaching past a 200 px frame's right border, a dark bar printed on it 6 px
    inside the border (a column of pips), and its outline with the right side on the border."""
    frame = np.full((240, 200), 60, np.uint8)
    frame[40:200, 80:] = 220
    frame[60:180, 186:192] = 90
    return frame, np.float32([[80, 40], [199, 40], [199, 199], [80, 199]])


def test_a_side_along_the_border_stays_on_it_when_placed() -> None:
    frame, quad = _printed_near_the_border()
    seen = off_border_profiles([quad], frame.shape, 1.0)[0]
    assert seen.sum(axis=1).tolist().count(0) == 1  # one side on the border, its profiles unused
    placed = refine(frame, quad, seen=seen)
    assert placed[:, 0].max() > 197  # still on the border
    # Without it the side is pulled in onto the print: what the seen profiles prevent.
    assert refine(frame, quad)[:, 0].max() < 195


def test_a_card_with_print_near_the_border_is_not_taken_as_whole() -> None:
    """A card cut by the border whose print runs parallel to it a few px in: its outline keeps
    to the border (cut), never the print's edge taken for a card's side in view (whole)."""
    face = synthetic_face(12)
    card = np.float32([[250, 100], [430, 100], [430, 350], [250, 350]]) - np.float32([0, 60])
    scene = cut_scene(face, card)
    # A column of dark print on the card 8 px inside the border, the length of its side.
    scene[70:260, 388:394] = (40, 40, 170)
    found = [o for o in find_card_candidates(scene) if o.quad[:, 0].min() > 230 and o.quad[:, 0].min() < 270]
    assert found and all(o.quad[:, 0].max() > 396 and not o.whole for o in found)


def test_a_corner_alone_in_view_is_a_cut_card_whatever_its_aspect() -> None:
    """A card's corner in a frame's corner region, cut to a strip 40 x 110 px (an aspect no card
    has): the smallest card reaching as far is a card, so it is kept as a cut card's part."""
    shape, area = (340, 400), 340.0 * 400.0
    strip = np.float32([[359, 229], [399, 229], [399, 339], [360, 339]])
    assert cut_card_shaped(strip, shape, area)
    # Its corner not square (no card's), or the smallest card reaching as far as it shows
    # larger than any card in view: no card's part.
    skewed = np.float32([[330, 229], [399, 229], [399, 339], [372, 339]])
    assert not cut_card_shaped(skewed, shape, area)
    patch = np.float32([[60, 20], [399, 20], [399, 339], [60, 339]])
    assert not cut_card_shaped(patch, shape, area)
