"""Two cards side by side in one nearly square outline (vision.card_rows)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.card_checks import card_shaped, iou, order_quad, refine_in_frame
from vision.card_outlines import find_card_candidates
from vision.card_rows import cards_within, pair_like, pair_shaped, placed_within
from vision.enrolled import EnrolledDeck, capture_card
from vision.reader import CardReader
from vision.simulated import SimulatedTable
from vision.taught_scene import lay_out, scene_style, synthetic_face


def test_a_square_outline_is_a_pair_not_a_card() -> None:
    square = np.float32([[100, 100], [300, 100], [300, 290], [100, 290]])
    card = np.float32([[100, 100], [243, 100], [243, 300], [100, 300]])
    assert pair_shaped(square, 1e6) and pair_like(square) and not card_shaped(square, 1e6)
    assert not pair_shaped(card, 1e6) and not pair_like(card) and card_shaped(card, 1e6)


def test_a_pair_is_looked_into_either_way() -> None:
    """A square outline has no long side: the cards standing at its left and right ends are
    proposed as well as those lying at its top and bottom."""
    square = np.float32([[100, 100], [300, 100], [300, 300], [100, 300]])
    standing = [c for c in cards_within(square) if float(np.ptp(c[:, 0])) < float(np.ptp(c[:, 1]))]
    assert len(standing) == 2
    for card, x in zip(sorted(standing, key=lambda c: float(c[:, 0].mean())), (100, 300), strict=True):
        assert abs(float(np.ptp(card[:, 0])) - 200 * 63 / 88) < 1 and abs(float(np.ptp(card[:, 1])) - 200) < 1
        assert x in (round(float(card[:, 0].min())), round(float(card[:, 0].max())))


@pytest.mark.parametrize(("seed", "kind", "shift"), [(62, "felt", -26.0)])
def test_two_cards_side_by_side_give_one_maybe_card_outline_with_each_card_at_an_end(
    seed: int, kind: str, shift: float
) -> None:
    """Cards 63 mm wide, 88 mm high, 26 mm apart: their union is 89 x 88 mm, no card's shape.
    The search keeps it, never sure (a taught face must name a card in it), and the cards at
    its ends are where the two cards lie."""
    scene = SimulatedTable("bandit", seed=seed, mat=False, style=scene_style(seed, kind, card_px=150, tilt=8))
    x, y = scene.centre
    scene.place_art(synthetic_face(13), (x, y), 4.0, label="under")
    scene.place_art(synthetic_face(12), (x + shift, y + 3.0), 4.0, label="over")
    frame = scene.frame()
    cards = [p.corners for p in scene.loose]
    mask = np.zeros(frame.shape[:2], np.uint8)
    for card in cards:
        cv2.fillConvexPoly(mask, np.round(card).astype(np.int32), 255)
    points = cv2.findNonZero(mask)
    assert points is not None
    union = cv2.boxPoints(cv2.minAreaRect(points)).astype(np.float32)

    outlines = [o for o in find_card_candidates(frame, thorough=True) if iou(o.quad, union) > 0.85]

    assert len(outlines) == 1 and not outlines[0].sure and outlines[0].whole
    guesses = cards_within(outlines[0].quad)
    for card in cards:
        assert max(iou(guess, card) for guess in guesses) > 0.8


def sparse_face() -> np.ndarray:
    """An ace-like face, 200 x 280: bare paper but for one pip and two corner indices (the
    thumbnails of such a face move blocks when its outline is a few pixels off)."""
    face = np.full((280, 200, 3), (232, 236, 238), np.uint8)
    cv2.fillPoly(
        face, [np.int32([[100, 115], [122, 140], [100, 165], [78, 140]])], (40, 40, 200), cv2.LINE_AA
    )
    for _turn in range(2):
        cv2.putText(face, "A", (14, 40), cv2.FONT_HERSHEY_DUPLEX, 1.0, (40, 40, 200), 2, cv2.LINE_AA)
        face = face[::-1, ::-1].copy()
    return face


def uneven_pair(seed: int, kind: str) -> SimulatedTable:
    """A sparse card lying over another side by side, 30 mm apart, its end 6 mm past the other's
    (dev IMG_2687: an ace beside a ten, the ten's end 15 px lower): one nearly square outline
    whose two sides along the row join a corner of each card."""
    scene = SimulatedTable("bandit", seed=seed, mat=False, style=scene_style(seed, kind, card_px=150, tilt=8))
    x, y = scene.centre
    scene.place_art(synthetic_face(11), (x, y), 2.0, label="under")
    scene.place_art(sparse_face(), (x + 30.0, y - 6.0), 0.0, label="over")
    return scene


@pytest.mark.parametrize(("seed", "kind"), [(61, "wood"), (62, "felt"), (63, "dark"), (64, "wood")])
def test_a_card_at_a_rows_end_is_placed_on_its_own_edges_when_the_ends_are_uneven(
    seed: int, kind: str
) -> None:
    """The row's guess cut from the outline lies 20-25 px off the card on top at its far
    corners (the outline's sides join the two cards' corners); placed on its own edges where
    they show, the card is within a few pixels."""
    scene = uneven_pair(seed, kind)
    frame = scene.frame()
    over = order_quad(next(p.corners for p in scene.loose if p.printed.card_id == "over"))
    rows = [o.quad for o in find_card_candidates(frame, thorough=True) if pair_like(o.quad)]
    assert len(rows) == 1
    long_side = float(np.linalg.norm(over[0] - over[3]))

    def off(quad: np.ndarray) -> float:
        return float(np.linalg.norm(order_quad(quad) - over, axis=1).max())

    placings = placed_within(frame, rows[0])
    assert len(placings) == len(cards_within(rows[0]))
    assert min(off(p[0]) for p in placings) < 0.035 * long_side
    # The row's guesses as they were looked into before (moved onto the strongest steps whole).
    assert min(off(refine_in_frame(frame, guess)) for guess in cards_within(rows[0])) > 0.08 * long_side


def test_the_reader_names_a_sparse_card_at_a_rows_uneven_end_and_the_card_beneath(tmp_path: Path) -> None:
    """Read whole, the ace-like card on top of an uneven pair is named only when placed on its
    own edges; the card beneath is then found by its strip beside it."""
    deck = EnrolledDeck("bandit", tmp_path)
    faces = (("any", sparse_face()), ("plum", synthetic_face(11)), ("bell", synthetic_face(14)))
    for i, (card_id, art) in enumerate(faces):
        photo = lay_out([art], 200 + i, style=scene_style(200 + i, "wood", 150, 8)).frame()
        deck.keep(card_id, capture_card(photo).cutout)
    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(uneven_pair(63, "dark").frame()).cards
    assert sorted(c.card_id for c in cards if c.card_id) == ["any", "plum"]
