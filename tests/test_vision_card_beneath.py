"""Cards beneath a card: the strip of a fanned or overlapped card beside the card on top is
placed as a whole card, with what shows of it; a lone card or a card beside another has none."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_beneath import cards_beneath, strip_share
from vision.card_checks import iou
from vision.simulated import SimulatedTable
from vision.taught_scene import scene_style, synthetic_face

GAME = "bandit"


def table(seed: int, kind: str = "wood") -> SimulatedTable:
    return SimulatedTable(GAME, seed=seed, mat=False, style=scene_style(seed, kind, card_px=150, tilt=8))


def placed(scene: SimulatedTable, label: str) -> np.ndarray:
    return next(p.corners for p in scene.loose if p.printed.card_id == label)


def shown_part(under: np.ndarray, over: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A mask of what shows of ``under`` with ``over`` on it."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(under).astype(np.int32), 1)
    cv2.fillConvexPoly(mask, np.round(over).astype(np.int32), 0)
    return mask


def mask_iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum()) / max(1.0, float((a | b).sum()))


@pytest.mark.parametrize(
    ("seed", "kind", "shift", "turn"),
    [(41, "wood", 40.0, 0.0), (42, "felt", -45.0, 4.0), (43, "dark", 30.0, -3.0)],
)
def test_a_strip_beside_the_card_on_top_is_the_whole_card_beneath(
    seed: int, kind: str, shift: float, turn: float
) -> None:
    scene = table(seed, kind)
    x, y = scene.centre
    scene.place_art(synthetic_face(seed), (x, y), 10.0, label="under")
    scene.place_art(synthetic_face(seed + 100), (x + shift, y + 3.0), 10.0 + turn, label="over")
    frame = scene.frame()
    under, over = placed(scene, "under"), placed(scene, "over")

    found = cards_beneath(frame, [over])

    assert len(found) == 1
    card = found[0]
    assert iou(card.card, under) > 0.85
    shows = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(shows, [np.round(card.visible).astype(np.int32)], 1)
    assert mask_iou(shows, shown_part(under, over, frame.shape)) > 0.75
    assert 0.1 < strip_share(card) < 0.8


def test_a_card_alone_or_beside_another_has_nothing_beneath() -> None:
    scene = table(44)
    x, y = scene.centre
    scene.place_art(synthetic_face(1), (x, y), 5.0, label="one")
    scene.place_art(synthetic_face(2), (x + 75.0, y), 5.0, label="two")  # a card's width and a gap away
    frame = scene.frame()
    assert cards_beneath(frame, [placed(scene, "one")]) == []
    assert cards_beneath(frame, [placed(scene, "one"), placed(scene, "two")]) == []
