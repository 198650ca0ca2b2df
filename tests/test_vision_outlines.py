"""Card outlines on tables: every card found once, the whole card or flagged as not whole."""

from __future__ import annotations

import numpy as np
import pytest

from companion.errors import UserError
from vision.card_outlines import CardOutline, find_card_candidates
from vision.enrolled import capture_card
from vision.taught_scene import lay_out, scene_style, synthetic_face


def one_card(seed: int, table: str = "wood") -> tuple[np.ndarray, np.ndarray]:
    """A frame with one synthetic card and that card's true corners."""
    scene = lay_out([synthetic_face(seed)], seed, style=scene_style(seed, table, card_px=150, tilt=8))
    frame = scene.frame()
    return frame, next(iter(scene.all_placed())).corners


def near(outline: CardOutline, corners: np.ndarray, tolerance: float = 8.0) -> bool:
    return bool(np.linalg.norm(outline.quad.mean(axis=0) - corners.mean(axis=0)) < tolerance)


def test_a_card_in_full_view_is_one_whole_sure_outline() -> None:
    frame, corners = one_card(31)
    found = find_card_candidates(frame)
    assert len(found) == 1 and near(found[0], corners)
    assert found[0].sure and found[0].whole


def test_a_card_cut_by_the_frames_edge_is_found_but_not_whole_and_is_not_taught() -> None:
    frame, corners = one_card(32)
    # Cut the frame through the card, a quarter of the way in from its left-most corner.
    left, right = corners[:, 0].min(), corners[:, 0].max()
    cut = int(left + 0.25 * (right - left))
    cropped = np.ascontiguousarray(frame[:, cut:])
    found = find_card_candidates(cropped)
    assert len(found) == 1 and not found[0].whole
    with pytest.raises(UserError, match="cut by the picture's edge"):
        capture_card(cropped)
