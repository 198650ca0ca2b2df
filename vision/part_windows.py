"""The window check of a part of a card (:mod:`vision.part_match`): the part and the picture
it was named as agree window by window over what shows, not only as a whole. A strip whose
index agrees but whose pips or art differ somewhere (another face of the same index, a
neighbour's print taken for the card's) is refused here."""

from __future__ import annotations

import cv2
import numpy as np

#: Window side and its own further shift in working px; a window counts when this share of it
#: shows (an index by the card's edge or by the covering card often shows only in part).
PART_BLOCK_PX = 4
PART_BLOCK_SHIFT = 1
PART_BLOCK_COVER = 0.4
#: The least contrast (light-normalised brightness) the window check divides by, see
#: worst_window; a page of pips has about 0.2.
BLOCK_MIN_SPREAD = 0.12
#: Quantiles whose levels the window check maps a part's onto its picture's (worst_window).
TONE_LEVELS = np.linspace(0.0, 1.0, 33)


def worst_window(
    image: np.ndarray, mask: np.ndarray, picture: np.ndarray, shift: tuple[int, int]
) -> float:
    """The largest mean difference over any visible window (``PART_BLOCK_PX`` square, sliding)
    of the query (working size, with its mask) moved by ``shift`` and a picture, both z-scored
    over the visible pixels, each window at its own best further shift of up to
    ``PART_BLOCK_SHIFT`` px (what is left of the corners' error bends the card's image a
    little, differently across it), in standard deviations.

    The lesser of the query as it is and with its levels mapped onto the picture's (the same
    ``TONE_LEVELS`` quantiles over what shows: any monotone tone curve undone). Another camera's
    curve moves print against paper unevenly: IMG_2664's ace strip, flat curve, 0.89 as it is,
    0.38 mapped (0.46 as taken). Not mapped alone: where what shows holds more than the card (a
    neighbour's edge, a shadow), mapping bends the card's levels (IMG_2655's ace: 0.75, 0.83)."""
    dx, dy = shift
    h, w = image.shape
    s = max(abs(dx), abs(dy)) + PART_BLOCK_SHIFT
    padded = np.pad(image, s, mode="edge")
    padded_mask = np.pad(mask, s)
    ref = picture.reshape(h, w)
    m = padded_mask[s + dy : s + dy + h, s + dx : s + dx + w].astype(bool)
    if not m.any():
        return float("inf")
    seen = padded[s + dy : s + dy + h, s + dx : s + dx + w][m]
    # Strictly rising, for np.interp: a level shared by many pixels (blank paper) spreads a hair.
    levels = np.quantile(seen, TONE_LEVELS) + np.arange(len(TONE_LEVELS)) * 1e-6
    mapped = np.interp(padded, levels, np.quantile(ref[m], TONE_LEVELS)).astype(np.float32)
    return min(_worst_window(query, s, ref, m, shift) for query in (padded, mapped))


def _worst_window(
    padded: np.ndarray, s: int, ref: np.ndarray, m: np.ndarray, shift: tuple[int, int]
) -> float:
    """:func:`worst_window` for one query padded by ``s`` (``m``: what shows, at ``shift``)."""
    t = PART_BLOCK_SHIFT
    dx, dy = shift
    h, w = ref.shape
    # In units of the part's contrast, but never of less than BLOCK_MIN_SPREAD: a sparse part
    # (one index on paper) would otherwise have its paper's noise and the index's edges, a
    # pixel off, weigh as much as print against paper.
    ref = (ref - float(ref[m].mean())) / max(float(ref[m].std()), BLOCK_MIN_SPREAD)
    q = padded[s + dy : s + dy + h, s + dx : s + dx + w][m]
    query = (padded - float(q.mean())) / max(float(q.std()), BLOCK_MIN_SPREAD)
    weight = m.astype(np.float32)
    window = (PART_BLOCK_PX, PART_BLOCK_PX)
    cover = cv2.boxFilter(weight, -1, window, normalize=True, borderType=cv2.BORDER_CONSTANT)
    best = np.full((h, w), np.inf, np.float32)
    for ty in range(-t, t + 1):
        for tx in range(-t, t + 1):
            y0, x0 = s + dy + ty, s + dx + tx
            diff = np.abs(query[y0 : y0 + h, x0 : x0 + w] - ref).astype(np.float32) * weight
            local = cv2.boxFilter(diff, -1, window, normalize=True, borderType=cv2.BORDER_CONSTANT)
            best = np.minimum(best, local)
    counted = m & (cover >= PART_BLOCK_COVER)
    if not counted.any():
        return float("inf")
    return float((best[counted] / cover[counted]).max())
