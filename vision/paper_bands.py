"""The paper band just inside a card's edge, all sides of many outlines at once.

:func:`vision.card_checks.card_paper` looks at an outline flattened to 40 x 56 px and asks of
each side whether a band along it is even (one paper colour), taking the first of three bands
(outermost first) that is, whole or split once where its lightness steps (a shadow's edge
across the card). Numpy's overhead on one band's two dozen samples cost more than the work
(~24 calls of it an outline): here every band of every outline is looked at in one set of
calls, with the same values as one band at a time.
"""

from __future__ import annotations

import numpy as np

#: A side's band is even when this share of it lies within a small colour distance of its paper.
EVEN_SHARE = 0.6
#: A sample is near its piece's paper within this summed Lab distance.
_NEAR = 30


def median_rows(rows: np.ndarray) -> np.ndarray:
    """``np.median(rows, axis=0)`` of a float32 array (the same values, without np.median's
    overhead, which dominated on the few dozen rows of a card's band)."""
    ordered = np.sort(rows, axis=0)
    n = len(ordered)
    middle: np.ndarray = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    return middle


def _masked_medians(bands: np.ndarray, inside: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The median (per channel) of each band's samples where ``inside`` (B x n), ``counts``
    of them (B), as :func:`median_rows` of those samples alone gives it."""
    ordered = np.sort(np.where(inside[:, :, None], bands, np.inf), axis=1)  # theirs first, in order
    upper = np.take_along_axis(ordered, (counts // 2)[:, None, None], axis=1)[:, 0]
    lower = np.take_along_axis(ordered, np.maximum(counts // 2 - 1, 0)[:, None, None], axis=1)[:, 0]
    return np.where((counts % 2 == 1)[:, None], upper, (lower + upper) / 2)


def _band_papers(bands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For bands (B x n x 3 Lab, float32, n even) taken whole and split at their lightness step:
    the share of samples near their piece's median (B x 2: whole, split) and the paper (B x 2 x
    3: the whole band's median; the split's longer piece's, the first when equal). A band even
    whole is not split (its split is never looked at: share 0)."""
    count, n = len(bands), bands.shape[1]
    ordered = np.sort(bands, axis=1)
    whole = (ordered[:, n // 2 - 1] + ordered[:, n // 2]) / 2
    near_whole = (np.abs(bands - whole[:, None]).sum(axis=2) <= _NEAR).sum(axis=1)
    shares = np.zeros((count, 2))
    shares[:, 0] = near_whole / n
    papers = np.stack([whole, whole], axis=1)
    uneven = np.flatnonzero(shares[:, 0] < EVEN_SHARE)
    if not len(uneven):
        return shares, papers
    bands = bands[uneven]
    # The split that best explains the lightness as two flat pieces (Otsu along the band).
    cum = np.cumsum(bands[:, :, 0], axis=1)
    k = np.arange(4, n - 3)
    left, right = cum[:, k - 1] / k, (cum[:, -1:] - cum[:, k - 1]) / (n - k)
    split = k[np.argmax(k * (n - k) * (left - right) ** 2, axis=1)]
    first = np.arange(n)[None, :] < split[:, None]
    heads = _masked_medians(bands, first, split)
    tails = _masked_medians(bands, ~first, n - split)
    piece = np.where(first[:, :, None], heads[:, None], tails[:, None])
    shares[uneven, 1] = (np.abs(bands - piece).sum(axis=2) <= _NEAR).sum(axis=1) / n
    papers[uneven, 1] = np.where((split >= n - split)[:, None], heads, tails)
    return shares, papers


def side_papers(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How evenly coloured each side's band is (Q x 4) and its paper (Q x 4 x 3), of cards
    flattened to 56 x 40 (Q x 56 x 40 x 3 Lab, float32); sides top, bottom, left, right.

    Per side: the first of its bands 1, 2 and 3 px in (outermost first), each whole, then
    split, whose share is at least ``EVEN_SHARE``; when none is, the evenest (the first of
    equals). The corners, where indices sit, are left out."""
    insets = [1, 2, 3]
    outer = [-1 - i for i in insets]
    count = len(cards)
    shares, papers = [], []
    # Top and bottom bands are 24 samples long, left and right 36: one batch each.
    for bands in (
        np.concatenate([cards[:, insets, 8:-8], cards[:, outer, 8:-8]], axis=1),
        np.concatenate([cards[:, 10:-10, insets], cards[:, 10:-10, outer]], axis=2).transpose(0, 2, 1, 3),
    ):
        share, paper = _band_papers(np.ascontiguousarray(bands).reshape(count * 6, -1, 3))
        # Per side, candidates in the order looked at: band 1 whole, split, band 2 whole, ...
        shares.append(share.reshape(count, 2, 6))
        papers.append(paper.reshape(count, 2, 6, 3))
    share = np.concatenate(shares, axis=1)  # Q x 4 x 6
    paper = np.concatenate(papers, axis=1)
    even = share >= EVEN_SHARE
    chosen = np.where(even.any(axis=2), even.argmax(axis=2), share.argmax(axis=2))
    return (
        np.take_along_axis(share, chosen[:, :, None], axis=2)[:, :, 0],
        np.take_along_axis(paper, chosen[:, :, None, None], axis=2)[:, :, 0],
    )
