"""Placing an outline's sides on the card's edges: many outlines at once, as one at a time."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import card_outlines
from vision.card_checks import (
    border_contrast,
    border_contrasts,
    refine,
    refine_in_frame,
    refine_many,
    refine_many_in_frame,
)
from vision.card_outlines import find_card_candidates
from vision.enrolled import EnrolledDeck
from vision.reader import CardReader
from vision.taught_scene import lay_out, scene_style, synthetic_face, teach_synthetic_faces


def five_cards(seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """A frame of five made-up cards, of two sizes, and their true corners."""
    faces = [synthetic_face(seed + k) for k in range(5)]
    scene = lay_out(faces, seed, style=scene_style(seed, "wood", card_px=120, tilt=12))
    frame = scene.frame()
    return frame, [placed.corners.astype(np.float32) for placed in scene.all_placed()]


def loose(corners: list[np.ndarray], seed: int) -> list[np.ndarray]:
    """The outlines a few pixels off, and a copy of each shrunk to another size (so the
    profiles across their sides are of different lengths)."""
    rng = np.random.default_rng(seed)
    moved = [c + rng.normal(0, 2.5, (4, 2)).astype(np.float32) for c in corners]
    return moved + [np.float32(0.6) * c for c in moved]


@pytest.mark.parametrize("reach", [0.08, 0.025])
def test_many_outlines_are_placed_as_one_at_a_time(reach: float) -> None:
    frame, corners = five_cards(40)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
    quads = loose(corners, 41)
    # One image for all, and each quad in an image of its own (the same pictures).
    images = [grey] * 5 + [small] * 5
    together = refine_many(images, quads, reach)
    for image, quad, placed in zip(images, quads, together, strict=True):
        assert np.array_equal(placed, refine(image, quad, reach))
    # One image shared by all (the outline search's): one remap for every outline.
    for quad, placed in zip(quads[:5], refine_many([grey] * 5, quads[:5], reach), strict=True):
        assert np.array_equal(placed, refine(grey, quad, reach))
    # More outlines than one remap takes (the thorough search's corner proposals on a photo).
    many = refine_many([grey] * 600, quads[:5] * 120, reach)
    assert all(np.array_equal(placed, refine(grey, quads[k % 5], reach)) for k, placed in enumerate(many))
    in_frame = refine_many_in_frame(frame, quads[:5], reach)
    for quad, placed in zip(quads[:5], in_frame, strict=True):
        assert np.array_equal(placed, refine_in_frame(frame, quad, reach))


def test_the_borders_of_many_outlines_are_judged_as_one_at_a_time() -> None:
    """``border_contrasts`` gives each outline's ``border_contrast``: outlines near, larger and
    smaller than the cards, and the frame cut through the first card (sides past its edge
    give no evidence; cards wholly past it none at all)."""
    frame, corners = five_cards(46)
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
    cut = np.ascontiguousarray(lab[:, : int(corners[0][:, 0].mean())])
    rng = np.random.default_rng(48)
    quads = [
        ((c - c.mean(0)) * np.float32(rng.uniform(0.9, 1.15)) + c.mean(0) + rng.normal(0, 3, (4, 2)))
        .astype(np.float32)
        for c in corners
        for _ in range(6)
    ]
    contrasts = border_contrasts(cut, quads)
    assert contrasts == [border_contrast(cut, quad) for quad in quads]
    assert 0.0 in contrasts and 1.0 in contrasts and any(0.0 < c < 1.0 for c in contrasts)
    assert border_contrasts(lab, []) == []


def test_a_short_profile_carried_on_beside_a_longer_one_looks_only_at_its_own_samples() -> None:
    """Outlines of other sizes are placed together, each profile padded to the longest: a
    white strip beyond the small card's reach (inside the padding) must not turn which way
    its side's step is looked for."""
    image = np.full((400, 400), 120, np.uint8)
    image[100:240, 100:200] = 200
    image[150:360, 220:370] = 200
    image[100:240, 70:88] = 255
    small = np.float32([[101, 102], [198, 99], [199, 238], [100, 239]])
    large = np.float32([[221, 152], [368, 151], [369, 358], [220, 359]])
    together = refine_many([image] * 2, [small, large])
    assert np.array_equal(together[0], refine(image, small))
    assert np.array_equal(together[1], refine(image, large))


def test_placed_sides_lie_on_the_cards_edges() -> None:
    frame, corners = five_cards(42)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for true, placed in zip(corners, refine_many([grey] * 5, loose(corners, 43)[:5]), strict=True):
        error = np.linalg.norm(true[:, None] - placed[None], axis=2).min(axis=1).max()
        assert error < 2.0


def test_the_outline_search_places_its_outlines_sides_in_one_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search hands its outlines to ``refine_many`` together, and finds what it finds
    placing them one at a time."""
    frame, corners = five_cards(44)
    batches: list[int] = []

    def recording(
        images: list[np.ndarray], quads: list[np.ndarray], share: float = 0.08, seens: list | None = None
    ) -> list[np.ndarray]:
        batches.append(len(quads))
        return refine_many(images, quads, share, seens)

    def one_at_a_time(
        images: list[np.ndarray], quads: list[np.ndarray], share: float = 0.08, seens: list | None = None
    ) -> list[np.ndarray]:
        seens = seens or [None] * len(quads)
        return [refine(im, quad, share, seen) for im, quad, seen in zip(images, quads, seens, strict=True)]

    monkeypatch.setattr(card_outlines, "refine_many", recording)
    together = find_card_candidates(frame)
    assert len([o for o in together if o.sure]) == 5 and max(batches) >= 3
    # The outlines of the masks' regions are all judged in the first batch, ahead of the
    # region split in between (one at a time before: batches of 4 and 2 on this frame).
    assert batches[0] == sum(batches)
    monkeypatch.setattr(card_outlines, "refine_many", one_at_a_time)
    apart = find_card_candidates(frame)
    assert len(apart) == len(together)
    for a, b in zip(apart, together, strict=True):
        assert np.array_equal(a.quad, b.quad) and (a.sure, a.whole) == (b.sure, b.whole)


def test_the_thorough_search_weighs_its_outlines_straight_edges_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The straight-edge support of the outlines judged together is measured in one go (the
    thorough search judges dozens), with the same outlines found as one at a time."""
    frame, _corners = five_cards(44)
    calls: list[int] = []
    measure = card_outlines._support_in_view

    def recording(quads: np.ndarray, segments: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        calls.append(quads.ndim)
        return measure(quads, segments, shape)

    def one_at_a_time(quads: np.ndarray, segments: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        return np.array([measure(quad, segments, shape) for quad in quads.reshape(-1, 4, 2)])

    monkeypatch.setattr(card_outlines, "_support_in_view", recording)
    together = find_card_candidates(frame, thorough=True)
    assert len([o for o in together if o.sure]) == 5 and calls and 2 not in calls
    monkeypatch.setattr(card_outlines, "_support_in_view", one_at_a_time)
    apart = find_card_candidates(frame, thorough=True)
    assert len(apart) == len(together)
    for a, b in zip(apart, together, strict=True):
        assert np.array_equal(a.quad, b.quad) and (a.sure, a.whole) == (b.sure, b.whole)


def test_a_frame_is_made_small_once_for_the_still_checks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The reader makes the frame's small copy once; the taught cards use that one."""
    from vision import reader, taught_reader

    teach_synthetic_faces(tmp_path)
    cards = CardReader("bandit", use_mat=False, enrolled=EnrolledDeck("bandit", tmp_path))
    made: list[tuple[int, ...]] = []

    def counting(grey: np.ndarray) -> np.ndarray:
        made.append(grey.shape)
        return cv2.resize(grey, (64, 36), interpolation=cv2.INTER_AREA).astype(np.int16)

    monkeypatch.setattr(reader, "small_copy", counting)
    monkeypatch.setattr(taught_reader, "small_copy", counting)
    frame, _corners = five_cards(45)
    for _ in range(3):
        cards.read(frame)
    assert len(made) == 3
