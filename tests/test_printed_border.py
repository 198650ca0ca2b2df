"""A coloured border printed round a card's white centre is taught with the card
(:mod:`vision.printed_border`): the outline searches stop at the centre's edge."""

from __future__ import annotations

import numpy as np


def _card_on_table(band: tuple[int, int, int] | None, table: int = 70) -> tuple[np.ndarray, np.ndarray]:
    """A 120 x 168 card (white centre, a 12 px band of ``band`` round it, or none) on a plain
    table, and the outline of its white part."""
    import cv2

    image = np.full((400, 320, 3), table, np.uint8)
    cv2.rectangle(image, (100, 116), (219, 283), (235, 238, 238), -1)
    if band is not None:
        cv2.rectangle(image, (88, 104), (231, 295), band, -1)
        cv2.rectangle(image, (100, 116), (219, 283), (235, 238, 238), -1)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    return image, np.float32([[100, 116], [220, 116], [220, 284], [100, 284]])


def test_a_printed_border_takes_the_outline_to_the_cards_edge() -> None:
    from vision.printed_border import to_border_edge

    image, centre = _card_on_table((60, 60, 190))
    edge = to_border_edge(image, centre)
    assert np.allclose(edge, [[88, 104], [232, 104], [232, 296], [88, 296]], atol=3)


def test_a_plain_card_keeps_its_outline() -> None:
    from vision.printed_border import to_border_edge

    image, card = _card_on_table(None)
    assert np.array_equal(to_border_edge(image, card), card)
