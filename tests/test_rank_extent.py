"""Where a corner index prints its rank (vision.rank_extent): a two-digit rank reaches past the
narrow zone a covered card's quarter strip shows, a one-character rank stays inside it, and the
suit beneath the rank and a pip beside it are not part of it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.part_match import FINE_H, FINE_W, INDEX_H, INDEX_W, INDEX_WIDE_W, index_image
from vision.rank_extent import rank_extent

ZONE = (slice(0, round(INDEX_H * FINE_H)), slice(0, round(INDEX_WIDE_W * FINE_W)))
NARROW = round(INDEX_W * FINE_W)


def card_with(index: str, extra: bool = False, suit: bool = False) -> np.ndarray:
    """A blank card, 200 x 280, with ``index`` at its top left; ``extra``: a large pip beside
    it that runs on past the index zone (as pinochle's nines and tens print one); ``suit``: a
    small suit symbol beneath the rank."""
    card = np.full((280, 200, 3), (232, 236, 238), np.uint8)
    cv2.putText(card, index, (16, 38), cv2.FONT_HERSHEY_DUPLEX, 0.9, (30, 30, 160), 2, cv2.LINE_AA)
    if extra:
        cv2.circle(card, (62, 60), 20, (40, 40, 40), -1, cv2.LINE_AA)
    if suit:
        cv2.circle(card, (24, 52), 7, (30, 30, 160), -1, cv2.LINE_AA)
    return card


def reach(card: np.ndarray) -> int | None:
    """How far across the card (fine px from its side) the rank reaches."""
    extent = rank_extent(index_image(card)[ZONE])
    return None if extent is None else extent[2]


def test_a_two_digit_index_reaches_past_the_narrow_zone_and_one_digit_does_not() -> None:
    two, one = reach(card_with("19")), reach(card_with("7"))
    assert two is not None and one is not None
    assert one <= NARROW < two


def test_a_pip_beside_the_index_is_not_part_of_it() -> None:
    alone, beside = reach(card_with("9")), reach(card_with("9", extra=True))
    assert alone is not None and alone <= NARROW
    assert beside is not None and abs(beside - alone) <= 2 and beside <= NARROW


def test_a_blank_corner_has_no_reach() -> None:
    assert reach(np.full((280, 200, 3), 230, np.uint8)) is None


def test_the_suit_beneath_the_rank_is_not_part_of_it() -> None:
    alone, suited = (rank_extent(index_image(card_with("9", suit=s))[ZONE]) for s in (False, True))
    assert alone is not None and suited is not None
    assert all(abs(a - b) <= 2 for a, b in zip(alone, suited, strict=True))


def test_a_soft_thin_rank_beside_a_solid_pip_is_found_whole() -> None:
    """A webcam's picture: the rank's thin strokes soft and light, a solid pip beside them much
    darker. Judged by the pip's darkness the "10" showed as a piece of its "0" (or not at all),
    and a covered nine was named a ten by the pip beside its index."""
    sharp = rank_extent(index_image(card_with("10"))[ZONE])
    card = np.full((280, 200, 3), (232, 236, 238), np.uint8)
    cv2.putText(card, "10", (16, 38), cv2.FONT_HERSHEY_DUPLEX, 0.9, (160, 160, 160), 1, cv2.LINE_AA)
    cv2.circle(card, (66, 50), 16, (30, 30, 30), -1, cv2.LINE_AA)
    soft = rank_extent(index_image(cv2.GaussianBlur(card, (0, 0), 1.2))[ZONE])
    assert sharp is not None and soft is not None
    assert abs(soft[0] - sharp[0]) <= 2 and abs(soft[2] - sharp[2]) <= 3, (soft, sharp)
