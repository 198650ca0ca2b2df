"""What lies just either side of each side of an outline, for choosing a card to teach from
(:mod:`vision.card_capture`): whether the outline steps to the table there (a whole card does
on every side) and whether paper of the card's colour lies beyond it (a card touching it).
"""

from __future__ import annotations

import numpy as np

from vision.card_checks import side_colours

#: Depths (share of the outline's size) of the samples either side of a side: a few, and the
#: median taken, so a thin printed line beside the card is one sample, not a step.
_DEPTHS = (0.03, 0.05, 0.07)
#: Samples along each side (its ends left out: a rounded corner is neither card nor table).
_ALONG = np.linspace(0.12, 0.88, 16)
#: Depths (share of the outline's size) outside it where paper beside it is looked for:
#: beyond the card's own edge and its shadow.
_BESIDE_DEPTHS = (0.06, 0.1, 0.14)
#: Paper beside a card is within this (summed Lab) of the card's own paper colour.
PAPER_NEAR = 15.0
#: Two Lab colours differ (a step between card and table) at this summed distance.
STEP = 20.0


def _beside(lab: np.ndarray, quad: np.ndarray, depths: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Colours (Lab, the median over ``depths``) at ``_ALONG`` along each side of ``quad``,
    ``depths`` (shares of its size; negative: inside) off it: 4 x len(_ALONG) x 3, and which
    of those lie wholly in the picture (4 x len(_ALONG))."""
    colours, ok = side_colours(lab, quad, depths, _ALONG)
    return np.sort(colours, axis=2)[:, :, len(depths) // 2], ok.all(axis=2)


def side_steps(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """For each side of ``quad`` (TL-TR, TR-BR, BR-BL, BL-TL once ordered), the share of its
    length where the colour just inside differs from just outside (0..1; NaN for a side whose
    samples fall mostly out of the picture).

    A whole card lying on a table has a step on every side; an outline that is only part of a
    card (the rest under an object) has one side across the card's own paper: no step there.
    """
    inside, ok_in = _beside(lab, quad, tuple(-d for d in _DEPTHS))
    outside, ok_out = _beside(lab, quad, _DEPTHS)
    ok = ok_in & ok_out
    stepped = np.abs(inside - outside).sum(axis=2) >= STEP
    shares = np.full(4, np.nan)
    for k in range(4):
        if ok[k].sum() >= len(_ALONG) // 2:
            shares[k] = float(stepped[k][ok[k]].mean())
    return shares


def paper_beside_sides(lab: np.ndarray, quad: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """For each side of ``quad``, the share of its length along which, a little outside it,
    lies paper of the colour ``paper`` (Lab): a second card touching it, the card going on, or
    a table as light as the card (0..1 each)."""
    outside, ok = _beside(lab, quad, _BESIDE_DEPTHS)
    near = (np.abs(outside - paper).sum(axis=2) <= PAPER_NEAR) & ok
    return np.asarray(near.sum(axis=1) / np.maximum(ok.sum(axis=1), 1))
