"""Whole cards on real tables that the outline search used to miss: a card a little lighter than a
smooth table (its border's step judged against the table's own texture), and a card whose paper
region is cut into by its print or by strands of table (looked for within the region's hull)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_checks import border_contrast
from vision.region_edges import untaken_boxes

#: A card's outline in the 300 x 400 test pictures (portrait, 90 x 126 px).
CARD = np.float32([[150, 90], [240, 90], [240, 216], [150, 216]])


def card_on(table: np.ndarray, step: int) -> np.ndarray:
    """A Lab picture of a plain card ``step`` lighter than ``table`` (grey lightness, 300 x 400)."""
    grey = table.astype(np.int16)
    inside = np.zeros(table.shape, np.uint8)
    cv2.fillConvexPoly(inside, CARD.astype(np.int32), 1)
    grey = np.where(inside > 0, 200, grey - step).clip(0, 255).astype(np.uint8)
    return cv2.cvtColor(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), cv2.COLOR_BGR2LAB)


def smooth_table() -> np.ndarray:
    """A smooth table (a folder, a lacquered tray): lightness within a level or two."""
    rng = np.random.default_rng(5)
    return np.full((300, 400), 200, np.uint8) + rng.integers(0, 2, (300, 400)).astype(np.uint8)


def carpet() -> np.ndarray:
    """A carpet: tufts a few pixels across, lightness varying by +-30."""
    rng = np.random.default_rng(6)
    tufts = rng.integers(-30, 31, (75, 100)).astype(np.int16)
    table = 200 + cv2.resize(tufts, (400, 300), interpolation=cv2.INTER_NEAREST)
    return table.clip(0, 255).astype(np.uint8)


def test_a_card_a_little_lighter_than_a_smooth_table_shows_its_border() -> None:
    """Dev IMG_2579: a jack on a manila folder steps by 15-20 (summed Lab) on three sides, the
    folder varies by 2-3: a clear border, although under the step a textured table needs."""
    assert border_contrast(card_on(smooth_table(), 14), CARD) >= 0.9


@pytest.mark.parametrize("step", [0, 6])
def test_no_border_where_the_table_is_as_light_as_the_card_or_nearly(step: int) -> None:
    assert border_contrast(card_on(smooth_table(), step), CARD) == 0.0


def test_on_carpet_the_same_small_step_is_no_border() -> None:
    """A step that is clear on a smooth table is lost in carpet's tufts: not enough there."""
    assert border_contrast(card_on(carpet(), 14), CARD) < 0.6


def test_a_card_whose_paper_region_is_cut_into_lies_within_the_region_looked_at() -> None:
    """Dev IMG_2574's nine on tiles: the card's paper region is a C (its print reaches the
    border on one side, grout lines join it): the straight edges found round it must be able
    to propose the whole card, so the region's extent is its hull, not the C alone."""
    lightness = np.full((300, 400), 80, np.uint8)
    cv2.fillConvexPoly(lightness, CARD.astype(np.int32), 220)
    lightness[120:190, 170:241] = 60  # the print, open to the right-hand side
    paper = cv2.compare(lightness, 150, cv2.CMP_GT)
    contours, _h = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    regions = [(c, cv2.contourArea(cv2.convexHull(c))) for c in contours]
    boxes, within, _free = untaken_boxes(regions, [], 400.0, lightness, np.zeros_like(lightness))
    assert len(boxes) == 1
    assert within[155, 200] and within[155, 235]  # the card's middle and its print's side
    assert not within[20, 20]
