"""The paper bands inside a card's edge, every side of many outlines at once, as one at a time."""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_checks import card_paper, card_papers
from vision.paper_bands import EVEN_SHARE, median_rows, side_papers
from vision.taught_scene import lay_out, synthetic_face


def one_band_at_a_time(bands: list[np.ndarray]) -> tuple[float, np.ndarray]:
    """A side's paper as it was looked for one band at a time (the reference): the first band,
    whole or split at its lightness step, that is even; else the evenest."""

    def near(pieces: tuple[np.ndarray, ...]) -> tuple[float, np.ndarray]:
        medians = [median_rows(piece) for piece in pieces]
        pairs = zip(pieces, medians, strict=True)
        close = sum(int((np.abs(p - m).sum(axis=1) <= 30).sum()) for p, m in pairs)
        return close / sum(len(p) for p in pieces), medians[int(np.argmax([len(p) for p in pieces]))]

    found: list[tuple[float, np.ndarray]] = []
    for band in bands:
        found.append(near((band,)))
        if found[-1][0] >= EVEN_SHARE:
            return found[-1]
        n = len(band)
        cum = np.cumsum(band[:, 0])
        k = np.arange(4, n - 3)
        left, right = cum[k - 1] / k, (cum[-1] - cum[k - 1]) / (n - k)
        split = int(k[np.argmax(k * (n - k) * (left - right) ** 2)])
        found.append(near((band[:split], band[split:])))
        if found[-1][0] >= EVEN_SHARE:
            return found[-1]
    return max(found, key=lambda item: item[0])


def test_every_side_of_many_cards_is_judged_as_one_band_at_a_time() -> None:
    rng = np.random.default_rng(5)
    cards = np.full((40, 56, 40, 3), (200, 128, 128), np.float32)
    cards += rng.normal(0, 6, cards.shape).astype(np.float32)
    # Shade across some cards (a side split by a shadow's edge), table in the outer bands of
    # others, and a few cards of noise (no side even).
    cards[:10, :, 18:, 0] -= 80
    cards[10:20, :2] = rng.uniform(0, 255, (10, 2, 40, 3))
    cards[20:25] = rng.uniform(0, 255, (5, 56, 40, 3))
    cards = np.round(cards).astype(np.float32)
    shares, papers = side_papers(cards)
    insets = (1, 2, 3)
    for card, share, paper in zip(cards, shares, papers, strict=True):
        expected = [
            one_band_at_a_time([card[i, 8:-8] for i in insets]),
            one_band_at_a_time([card[-1 - i, 8:-8] for i in insets]),
            one_band_at_a_time([card[10:-10, i] for i in insets]),
            one_band_at_a_time([card[10:-10, -1 - i] for i in insets]),
        ]
        assert share.tolist() == [s for s, _p in expected]
        assert np.array_equal(paper, np.array([p for _s, p in expected]))
    assert (shares[:10] >= EVEN_SHARE).all() and (shares[20:25] < EVEN_SHARE).any()


def test_many_outlines_papers_are_each_outlines_paper() -> None:
    faces = [synthetic_face(k) for k in range(5)]
    scene = lay_out(faces, 61)
    lab = cv2.cvtColor(scene.frame(), cv2.COLOR_BGR2LAB)
    rng = np.random.default_rng(62)
    quads = [
        (placed.corners + rng.normal(0, 3, (4, 2))).astype(np.float32)
        for placed in scene.all_placed()
        for _ in range(4)
    ]
    for covered in (False, True):
        together = card_papers(lab, quads, covered)
        for quad, (evidence, paper) in zip(quads, together, strict=True):
            alone = card_paper(lab, quad, covered)
            assert evidence == alone[0] and np.array_equal(paper, alone[1])
    assert {evidence for evidence, _paper in card_papers(lab, quads)} >= {2}
    assert card_papers(lab, []) == []
