"""The outline search's paper map (vision.outline_regions.paper_map): lightness, and how far
each pixel's colour is from neutral, for every colour a Lab image can hold."""

from __future__ import annotations

import numpy as np

from vision.outline_regions import paper_map


def test_colour_difference_is_three_times_the_distance_from_neutral_clipped() -> None:
    """Every (a, b) pair: the channel is min(3 (|a - 128| + |b - 128|), 255), and the lightness
    is the L channel unchanged (the masks' thresholds were tuned on these values)."""
    a, b = np.meshgrid(np.arange(256), np.arange(256))
    lightness = (a + 3 * b) % 256
    lab = np.dstack([lightness, a, b]).astype(np.uint8)
    light, chroma = paper_map(lab)
    expected = np.minimum(3 * (np.abs(a - 128) + np.abs(b - 128)), 255)
    assert chroma.dtype == np.uint8 and light.dtype == np.uint8
    assert np.array_equal(chroma, expected)
    assert np.array_equal(light, lightness)


def test_paper_map_of_a_strided_image_is_the_same() -> None:
    """A part of a bigger image (a region of the frame looked at alone) gives the same maps."""
    rng = np.random.default_rng(5)
    lab = rng.integers(0, 256, (60, 90, 3), dtype=np.uint8)
    part = lab[7:50, 11:80]
    light, chroma = paper_map(part)
    whole_light, whole_chroma = paper_map(np.ascontiguousarray(part))
    assert np.array_equal(light, whole_light) and np.array_equal(chroma, whole_chroma)
