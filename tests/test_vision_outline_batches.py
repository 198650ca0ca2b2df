"""The outline searches' bookkeeping in bulk gives the answers of one outline at a time."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.card_checks import card_shaped, order_quad
from vision.card_lines import edge_support
from vision.outline_batches import SeenOutlines, card_shaped_many, order_quads


def _quads(count: int, seed: int) -> np.ndarray:
    """Card-like quads of any size, turn, corner order and direction, some far from a card's
    shape (large corner noise)."""
    rng = np.random.default_rng(seed)
    quads = []
    for _ in range(count):
        w, h = rng.uniform(10, 300, 2)
        a = rng.uniform(0, math.pi)
        turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        box = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) @ turn.T
        box += rng.normal(0, rng.choice([0.3, 4.0, 25.0]), (4, 2)) + rng.uniform(0, 500, 2)
        box = np.roll(box, int(rng.integers(4)), axis=0)
        quads.append(box if rng.random() < 0.5 else box[::-1])
    return np.array(quads, np.float32)


def test_order_quads_orders_each_quad_as_order_quad_does() -> None:
    quads = _quads(3000, 1)
    ordered = order_quads(quads)
    assert all(np.array_equal(order_quad(q), o) for q, o in zip(quads, ordered, strict=True))
    assert order_quads(np.zeros((0, 4, 2), np.float32)).shape == (0, 4, 2)


def test_card_shaped_many_agrees_with_card_shaped() -> None:
    quads = _quads(3000, 2)
    for area in (150_000.0, 20_000.0):
        expected = [card_shaped(q, area) for q in quads]
        assert card_shaped_many(quads, area).tolist() == expected
        assert 0 < sum(expected) < len(expected)  # both answers occur
    # A bow-tie (not convex) passes every measure but the convexity test.
    bow_tie = np.array([[[0, 0], [60, 84], [60, 0], [0, 84]]], np.float32)
    assert card_shaped_many(bow_tie, 150_000.0).tolist() == [card_shaped(bow_tie[0], 150_000.0)] == [False]


def _first_times_compared_with_all(quads: np.ndarray) -> list[bool]:
    """Which of ``quads`` is seen for the first time, each compared with every one before."""
    seen: list[tuple[list[list[float]], float]] = []
    answers = []
    for quad in quads:
        q = order_quad(quad)
        size = math.sqrt(max(1.0, cv2.contourArea(q)))
        corners = q.tolist()
        turned = corners[2:] + corners[:2]
        alike = any(
            max(map(math.dist, other, corners)) < 0.1 * max(other_size, size)
            or max(map(math.dist, other, turned)) < 0.1 * max(other_size, size)
            for other, other_size in seen
        )
        if not alike:
            seen.append((corners, size))
        answers.append(not alike)
    return answers


def test_seen_outlines_finds_the_outlines_alike_that_comparing_with_all_finds() -> None:
    rng = np.random.default_rng(3)
    base = _quads(150, 4)
    # Each outline again a few times, a few pixels off (as many masks and corners propose it);
    # then very large ones (a reach beyond the grid's cell: from then on, all are compared).
    again = base[rng.integers(len(base), size=600)] + rng.normal(0, 3.0, (600, 4, 2)).astype(np.float32)
    near = np.concatenate([base, again])
    large = _quads(40, 5) * 6
    quads = np.concatenate([near[rng.permutation(len(near))], large, large + 40.0, again[:50]])
    seen = SeenOutlines()
    answers = [seen.first_time(q) for q in quads]
    assert answers == _first_times_compared_with_all(quads)
    assert 0 < sum(answers) < len(answers)


def _edge_support_pair_by_pair(quads: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """edge_support as its definition reads: every side against every segment."""
    support = np.zeros(quads.shape[:2])
    for qi, quad in enumerate(quads.astype(np.float64)):
        for k in range(4):
            start, end = quad[k], quad[(k + 1) % 4]
            length = float(np.linalg.norm(end - start)) + 1e-6
            e = (end - start) / length
            n = np.array([-e[1], e[0]])
            tolerance = max(2.0, 0.03 * length)
            covered = 0.0
            for x0, y0, x1, y1 in segments.astype(np.float64):
                p0, p1 = np.array([x0, y0]), np.array([x1, y1])
                unit = (p1 - p0) / (np.linalg.norm(p1 - p0) + 1e-6)
                if abs(float(e @ unit)) < 0.99:
                    continue
                if abs(float((p0 - start) @ n)) > tolerance or abs(float((p1 - start) @ n)) > tolerance:
                    continue
                t0, t1 = float((p0 - start) @ e), float((p1 - start) @ e)
                low, high = (min(max(t, 0.0), length) for t in sorted((t0, t1)))
                covered += high - low
            support[qi, k] = min(covered, length) / length
    return support


def test_edge_support_measures_each_side_against_the_segments_along_it() -> None:
    rng = np.random.default_rng(6)
    quads = _quads(60, 7)
    # Segments along the quads' sides (some a little off, turned or short) and at random.
    sides = []
    for quad in quads[:40]:
        for k in range(4):
            a, b = quad[k], quad[(k + 1) % 4]
            s, t = sorted(rng.uniform(-0.2, 1.2, 2))
            off = rng.normal(0, 2.0, 2)
            sides.append(np.concatenate([a + (b - a) * s + off, a + (b - a) * t + off]))
    noise = rng.uniform(0, 500, (150, 4))
    segments = np.concatenate([np.array(sides), noise]).astype(np.float32)
    measured = edge_support(quads, segments)
    expected = _edge_support_pair_by_pair(quads, segments)
    assert np.allclose(measured, expected, atol=1e-4)
    assert (measured > 0.5).sum() > 40 and (measured == 0).sum() > 20
    assert np.allclose(edge_support(quads[0], segments), expected[0], atol=1e-4)
