"""Which outline beside the card to teach counts as a second card (:func:`vision.card_capture._rival`)."""

from __future__ import annotations

import numpy as np

from vision.card_capture import _Looked, _rival
from vision.card_outlines import CardOutline

CARD_PAPER = (236.0, 127.0, 130.0)  # a card's light, nearly colourless paper (Lab)
WOOD = (156.0, 137.0, 158.0)  # a beam's end beside a card on the development photos
SHADED_CARD = (110.0, 128.0, 131.0)  # the card's paper in deep shade: darker, the same tint
GREEN_LABEL = (132.0, 84.0, 156.0)  # a mint box's label: no card's paper


def looked(
    paper: tuple[float, float, float],
    sure: bool,
    size: tuple[int, int] = (63, 88),
    evidence: int | None = None,
) -> _Looked:
    w, h = size
    quad = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return _Looked(
        CardOutline(quad, sure, True), float(w * h), min(w, h) / max(w, h),
        (2 if sure else 1) if evidence is None else evidence, np.float32(paper), 0.4, 0, np.ones(4), 1.0,
    )


#: Two cards of the deck overlapping side by side (a fifth of one under the other): one
#: outline 1.6 times a card's area, nearly square, an even band of the card's paper all round.
PAIR = (100, 88)


def test_a_patch_of_another_tint_beside_a_card_is_no_second_card() -> None:
    assert not _rival(looked(WOOD, False), looked(CARD_PAPER, True), False)


def test_a_second_card_in_shade_is_still_one() -> None:
    assert _rival(looked(SHADED_CARD, False), looked(CARD_PAPER, True), False)


def test_beside_a_thing_of_no_card_paper_any_card_shaped_patch_counts() -> None:
    """What was taken for the card is not of a card's paper (a green label): it says nothing
    of the deck's paper, so a light card-shaped patch beside it is still a second card."""
    assert _rival(looked(CARD_PAPER, False), looked(GREEN_LABEL, True), False)
    assert _rival(looked(WOOD, False), looked(GREEN_LABEL, True), False)


def test_two_cards_overlapping_beside_the_card_are_a_second_card() -> None:
    """Squarer than a card, so no card's shape, yet cards: the deck's paper all round."""
    assert _rival(looked(CARD_PAPER, False, PAIR, evidence=2), looked(CARD_PAPER, True), False)


def test_a_square_thing_without_the_cards_paper_band_is_no_pair_of_cards() -> None:
    """Without an even band all round (a patterned box), or of another tint (wood), it is not."""
    assert not _rival(looked(CARD_PAPER, False, PAIR, evidence=1), looked(CARD_PAPER, True), False)
    assert not _rival(looked(WOOD, False, PAIR, evidence=2), looked(CARD_PAPER, True), False)
