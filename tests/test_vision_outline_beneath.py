"""A card whose own outline is found, partly under a card named over it: what shows of it is the
outline minus that card, and it is named from that part (never from the other card's face).
And a card of a row of overlapping cards in one outline, lying off level: named by its
features, though a guess at the row's end is cut off its corners."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.test_covered_faces import lay
from vision.card_checks import iou
from vision.card_outlines import CardOutline
from vision.enrolled import EnrolledDeck
from vision.outline_beneath import part_beneath
from vision.taught_scene import SYNTHETIC_SEEDS, synthetic_face

GAME = "bandit"
IDS = ["cherry", "plum", "bell", "seven"]
#: The card beneath (TL TR BR BL of the upright face) and the card over it: the same size,
#: moved right by 60 % of the card's width and down a little, turned 4 degrees.
UNDER = np.float32([[120, 80], [250, 92], [238, 272], [106, 259]])


def over_card(share: float = 0.6, turn: float = 4.0) -> np.ndarray:
    centre = UNDER.mean(axis=0)
    angle = np.radians(turn)
    rotation = np.float32([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    moved = (UNDER - centre) @ rotation.T + centre
    return (moved + (UNDER[1] - UNDER[0]) * share + np.float32([0, 12])).astype(np.float32)


def shown_mask(polygon: np.ndarray, shape: tuple[int, int] = (360, 460)) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(polygon).astype(np.int32)], 1)
    return mask


def test_what_shows_of_an_outline_is_it_minus_the_card_named_over_it() -> None:
    over = over_card()
    # A card found by its face is said to show near its keypoints only: its whole corners hide.
    centre = over.mean(axis=0)
    near_keypoints = (centre + (over - centre) * 0.6).astype(np.float32)
    part = part_beneath(UNDER, [(over, near_keypoints)])
    assert part is not None
    truth = shown_mask(UNDER) & ~shown_mask(over).astype(bool)
    found = shown_mask(part[0]).astype(bool)
    assert (found & truth).sum() / (found | truth).sum() > 0.85


def test_an_outline_no_card_of_its_size_lies_across_has_no_part_beneath() -> None:
    over = over_card()
    assert part_beneath(UNDER, []) is None
    assert part_beneath(UNDER, [(over_card(2.0), over_card(2.0))]) is None  # lying beside it
    centre = over.mean(axis=0)
    small = (centre + (over - centre) * 0.5).astype(np.float32)
    assert part_beneath(UNDER, [(small, small)]) is None  # no card of this deck's size
    assert part_beneath(UNDER, [(UNDER + 2, UNDER + 2)]) is None  # the same card named
    assert part_beneath(UNDER, [(over_card(0.1), over_card(0.1))]) is None  # too little shows


def scene(under_face: np.ndarray) -> np.ndarray:
    """``under_face`` at UNDER with a taught seven over most of it."""
    rng = np.random.default_rng(7)
    frame = cv2.GaussianBlur(rng.normal(90, 25, (360, 460, 3)).clip(0, 255).astype(np.uint8), (0, 0), 2.0)
    lay(frame, under_face, UNDER)
    lay(frame, synthetic_face(13), over_card())
    return (frame + rng.normal(0, 3, frame.shape)).clip(0, 255).astype(np.uint8)


@pytest.fixture()
def reader_outlines(monkeypatch: pytest.MonkeyPatch) -> None:
    """The outline search finds the card on top whole and the card beneath's outline, unsure
    (as on real tables, where its edges run on under the card on top), nothing else; neither the
    face search nor the strip beside the card on top finds it (only its outline names it here)."""
    import vision.die_cut_reading as die_cut_reading
    import vision.face_search as face_search
    import vision.taught_reader as taught_reader

    def outlines(frame: np.ndarray, *_args: object, **_kwargs: object) -> list[CardOutline]:
        return [CardOutline(over_card(), True, True), CardOutline(UNDER.copy(), False, True)]

    monkeypatch.setattr(die_cut_reading, "find_card_candidates", outlines)
    monkeypatch.setattr(face_search.FaceSearch, "search", lambda self, *args, **kwargs: [])
    monkeypatch.setattr(taught_reader, "cards_beneath", lambda *args, **kwargs: [])


def taught(folder: Path) -> EnrolledDeck:
    deck = EnrolledDeck(GAME, folder)
    for seed, card_id in zip(SYNTHETIC_SEEDS, IDS, strict=True):
        deck.keep(card_id, synthetic_face(seed))
    return deck


@pytest.mark.usefixtures("reader_outlines")
def test_the_reader_names_a_card_by_its_outline_where_a_named_card_lies_over_it(tmp_path: Path) -> None:
    from vision.reader import CardReader

    reader = CardReader(GAME, use_mat=False, enrolled=taught(tmp_path))
    cards = reader.read(scene(synthetic_face(11))).cards
    named = {card.card_id: card for card in cards if card.card_id}
    assert sorted(named) == ["plum", "seven"]
    assert iou(np.array(named["plum"].corners, np.float32), UNDER) > 0.9 and named["plum"].visible


@pytest.mark.usefixtures("reader_outlines")
def test_a_card_never_taught_under_a_named_card_is_not_named(tmp_path: Path) -> None:
    from vision.reader import CardReader

    reader = CardReader(GAME, use_mat=False, enrolled=taught(tmp_path))
    cards = reader.read(scene(synthetic_face(77))).cards
    assert sorted(card.card_id for card in cards if card.card_id) == ["seven"]


def test_a_card_of_a_row_lying_off_level_is_named_by_its_features(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two cards overlapping in a row, one lower and turned: their one outline is no card, and a
    guess at its end is cut off the card's corners (its thumbnail says nothing); the feature
    stage finds the taught card inside it."""
    import vision.die_cut_reading as die_cut_reading
    import vision.face_search as face_search
    from vision.reader import CardReader

    rng = np.random.default_rng(9)
    frame = cv2.GaussianBlur(rng.normal(90, 25, (360, 460, 3)).clip(0, 255).astype(np.uint8), (0, 0), 2.0)
    lay(frame, synthetic_face(77), UNDER)  # never taught
    over = over_card(0.65, 8.0) + np.float32([0, 30])
    lay(frame, synthetic_face(11), over)
    row = cv2.boxPoints(cv2.minAreaRect(np.concatenate([UNDER, over]))).astype(np.float32)
    monkeypatch.setattr(
        die_cut_reading, "find_card_candidates", lambda *args, **kwargs: [CardOutline(row, True, True)]
    )
    monkeypatch.setattr(face_search.FaceSearch, "search", lambda self, *args, **kwargs: [])
    reader = CardReader(GAME, use_mat=False, enrolled=taught(tmp_path))
    cards = reader.read(frame).cards
    assert [card.card_id for card in cards if card.card_id] == ["plum"]
    plum = next(card for card in cards if card.card_id)
    assert iou(np.array(plum.corners, np.float32), over) > 0.8
