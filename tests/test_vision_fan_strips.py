"""A fan: the strips of two cards side by side beside the card on top (vision.fan_strips)."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.card_beneath import cards_beneath
from vision.card_checks import iou
from vision.enrolled import EnrolledDeck
from vision.fan_strips import fanned_cards
from vision.reader import CardReader
from vision.taught_scene import synthetic_face, teach_synthetic_faces


def card_at(cx: float, cy: float, angle: float, w: float = 150.0, h: float = 210.0) -> np.ndarray:
    """The corners of a card ``w`` x ``h`` px centred at (cx, cy), turned ``angle`` degrees."""
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return np.float32([[cx + x * c - y * s, cy + x * s + y * c] for x, y in corners])


def fan(faces: list[int], step: float, turn: float, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """A 1280 x 720 frame of a green table with the made-up ``faces`` fanned out, each ``step``
    px beside the one before and turned ``turn`` degrees more, the last on top; each card's
    edge casts a thin shadow on what lies beneath (its thickness). The frame and the corners."""
    rng = np.random.default_rng(seed)
    frame = np.empty((720, 1280, 3), np.float32)
    frame[:] = (60, 90, 50)
    frame += rng.normal(0, 6, frame.shape)
    cards = []
    for k, face in enumerate(faces):
        quad = card_at(560 + k * step, 360 + 2 * k, 4 + k * turn)
        art = synthetic_face(face).astype(np.float32)
        high, wide = art.shape[:2]
        flat = np.float32([[0, 0], [wide, 0], [wide, high], [0, high]])
        homography = cv2.getPerspectiveTransform(flat, quad)
        warped = cv2.warpPerspective(art, homography, (1280, 720))
        mask = cv2.warpPerspective(np.ones((high, wide), np.float32), homography, (1280, 720))[..., None]
        frame = frame * (1 - mask) + warped * mask
        cv2.polylines(frame, [np.round(quad).astype(np.int32)], True, (120, 120, 120), 1, cv2.LINE_AA)
        cards.append(quad)
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    return np.clip(frame, 0, 255).astype(np.uint8), cards


@pytest.mark.parametrize(
    ("seed", "step", "turn"), [(1, 60.0, 2.0), (2, 55.0, 3.0), (3, -60.0, -2.0), (4, 65.0, 0.0)]
)
def test_the_strips_of_a_fan_are_told_apart(seed: int, step: float, turn: float) -> None:
    frame, (last, middle, top) = fan([13, 11, 12], step, turn, seed)

    plain = cards_beneath(frame, [top])
    found = fanned_cards(frame, [top], plain)[len(plain) :]

    assert len(found) == 2
    assert iou(found[0].card, middle) > 0.8 and iou(found[1].card, last) > 0.9


def test_a_card_with_one_strip_beside_it_is_no_fan() -> None:
    frame, (under, top) = fan([13, 12], 60.0, 2.0, 5)
    plain = cards_beneath(frame, [top])

    found = fanned_cards(frame, [top], plain)

    assert len(found) == 1 and found[0] is plain[0] and iou(found[0].card, under) > 0.85


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> EnrolledDeck:
    """Four made-up faces (SYNTHETIC_SEEDS), each taught from a whole photo of it on a wood table."""
    return teach_synthetic_faces(Path(tmp_path_factory.mktemp("store")))


@pytest.mark.parametrize(("seed", "step", "turn"), [(1, 60.0, 2.0), (4, 65.0, 0.0)])
def test_the_reader_names_each_card_of_a_fan_by_its_strip(
    deck: EnrolledDeck, seed: int, step: float, turn: float
) -> None:
    frame, _cards = fan([13, 11, 14], step, turn, seed)

    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(frame).cards

    assert sorted(str(c.card_id) for c in cards) == ["bell", "plum", "seven"]


def test_a_strip_of_a_face_never_taught_in_a_fan_is_not_named(deck: EnrolledDeck) -> None:
    frame, _cards = fan([13, 77, 14], 60.0, 2.0, 1)

    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(frame).cards

    assert {c.card_id for c in cards if c.card_id} <= {"bell", "seven"}
