"""Which outline beside the card to teach counts as a second card (:func:`vision.card_capture._rival`)."""

from __future__ import annotations

import numpy as np

from vision.card_capture import _Looked, _rival
from vision.card_outlines import CardOutline

CARD_PAPER = (236.0, 127.0, 130.0)  # a card's light, nearly colourless paper (Lab)
WOOD = (156.0, 137.0, 158.0)  # a beam's end beside a card on the development photos
SHADED_CARD = (110.0, 128.0, 131.0)  # the card's paper in deep shade: darker, the same tint
GREEN_LABEL = (132.0, 84.0, 156.0)  # a mint box's label: no card's paper


def looked(paper: tuple[float, float, float], sure: bool) -> _Looked:
    quad = np.float32([[0, 0], [63, 0], [63, 88], [0, 88]])
    return _Looked(
        CardOutline(quad, sure, True), 63 * 88.0, 63 / 88, 2 if sure else 1, np.float32(paper), 0.4, 0,
        np.ones(4), 1.0,
    )


def test_a_patch_of_another_tint_beside_a_card_is_no_second_card() -> None:
    assert not _rival(looked(WOOD, False), looked(CARD_PAPER, True), False)


def test_a_second_card_in_shade_is_still_one() -> None:
    assert _rival(looked(SHADED_CARD, False), looked(CARD_PAPER, True), False)


def test_beside_a_thing_of_no_card_paper_any_card_shaped_patch_counts() -> None:
    """What was taken for the card is not of a card's paper (a green label): it says nothing
    of the deck's paper, so a light card-shaped patch beside it is still a second card."""
    assert _rival(looked(CARD_PAPER, False), looked(GREEN_LABEL, True), False)
    assert _rival(looked(WOOD, False), looked(GREEN_LABEL, True), False)
