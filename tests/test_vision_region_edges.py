"""Straight edges looked for only round the regions no outline took (vision.region_edges)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_lines import edge_support
from vision.region_edges import HALVE_FROM, REGION_LEAST, edges_in_boxes, inside_shares, untaken_boxes

#: The smallest card's area in these 300 x 400 test pictures.
MIN_AREA = 400.0


def picture(value: int = 200, size: tuple[int, int] = (120, 90)) -> tuple[np.ndarray, np.ndarray]:
    """A 300 x 400 lightness picture: a table at 80 with one rectangle of ``value``; and the
    rectangle's contour."""
    lightness = np.full((300, 400), 80, np.uint8)
    w, h = size
    corners = np.array([[100, 80], [100 + w, 80], [100 + w, 80 + h], [100, 80 + h]], np.int32)
    cv2.fillConvexPoly(lightness, corners, value)
    return lightness, corners.reshape(-1, 1, 2)


def regions_of(contour: np.ndarray) -> list[tuple[np.ndarray, float]]:
    return [(contour, cv2.contourArea(cv2.convexHull(contour)))]


def test_a_paper_region_no_outline_took_gets_a_box_round_it() -> None:
    lightness, contour = picture()
    chroma = np.zeros_like(lightness)
    boxes, within, free = untaken_boxes(regions_of(contour), [], MIN_AREA, lightness, chroma)
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert x0 < 100 and y0 < 80 and x1 > 220 and y1 > 170  # with a margin for the card's sides
    assert within[120, 150] and not within[20, 20] and free.all()


def test_a_region_an_outline_took_is_not_looked_at_again() -> None:
    lightness, contour = picture()
    taken = [contour.reshape(4, 2).astype(np.float32)]
    chroma = np.zeros_like(lightness)
    boxes, _within, free = untaken_boxes(regions_of(contour), taken, MIN_AREA, lightness, chroma)
    assert boxes == [] and not free[120, 150]


@pytest.mark.parametrize(
    ("value", "colour", "size"),
    [
        (50, 0, (120, 90)),  # darker than the table: a shadow, no card's paper
        (200, 120, (120, 90)),  # strongly coloured: no card's paper
        (200, 0, (int(REGION_LEAST * MIN_AREA) // 60 - 2, 60)),  # smaller than a card or a few
    ],
)
def test_regions_that_are_no_cards_paper_get_no_box(value: int, colour: int, size: tuple[int, int]) -> None:
    lightness, contour = picture(value, size)
    chroma = np.full_like(lightness, colour)
    boxes, _within, _free = untaken_boxes(regions_of(contour), [], MIN_AREA, lightness, chroma)
    assert boxes == []


@pytest.mark.parametrize("side", [HALVE_FROM - 40, HALVE_FROM + 60])
def test_the_edges_in_a_box_lie_where_the_rectangles_sides_are(side: int) -> None:
    """Found at full size or, in a large box, at half size: mapped back to the picture's pixels."""
    lightness, contour = picture(size=(side, side + 20))
    quad = contour.reshape(4, 2).astype(np.float32)
    box = (90, 70, 100 + side + 10, 80 + side + 30)
    segments = edges_in_boxes(cv2.GaussianBlur(lightness, (3, 3), 0), [box], 20.0)
    # Every side covered by segments lying along it (within the support's tolerance).
    assert (edge_support(quad - 0.5, segments) > 0.8).all()
    assert np.all(segments[:, [0, 2]] >= box[0]) and np.all(segments[:, [1, 3]] >= box[1])


def test_the_share_of_a_quad_inside_a_mask() -> None:
    mask = np.zeros((100, 100), np.uint8)
    mask[:, :50] = 255
    inside = np.array([[10, 10], [40, 10], [40, 40], [10, 40]], np.float32)
    across = np.array([[30, 10], [70, 10], [70, 40], [30, 40]], np.float32)
    shares = inside_shares(np.stack([inside, across]), mask)
    assert shares[0] == 1.0 and 0.4 <= shares[1] <= 0.6
