"""Whether a taught corner index's print is print in a view of a card too.

The face search names a card where a taught picture lines up with it; what decides between a
taught face and an untaught look-alike (the same art, another rank) is the corner index. Its
detail correlated by chance with a look-alike's plain corner once the taught picture was cut a
few pixels off its card (the zone then takes in the card's edge or the table, which the
look-alike shows at the same place): with pictures cut 4 px off, a look-alike with plain
corners was named in 5 of 96 scenes. The print itself cannot agree by chance: where the taught
index is ink, a plain corner is paper.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["ink_shown"]


def _levels(values: np.ndarray) -> tuple[float, float]:
    """The paper's and the print's grey levels of a card picture's pixels."""
    return float(np.percentile(values, 75)), float(np.percentile(values, 5))


def ink_shown(reference: np.ndarray, view: np.ndarray, shows: np.ndarray, zone: tuple[slice, slice]) -> float:
    """The share of ``reference``'s print (pixels darker than its paper by half the step to its
    print) in ``zone`` that is print in ``view`` too, within a pixel (both grey, aligned, at
    one softness; ``shows``: where ``view`` shows the card, boolean). 1.0 when nothing is
    printed there in ``reference``."""
    paper_a, ink_a = _levels(reference[shows])
    paper_b, ink_b = _levels(view[shows])
    printed = (reference[zone] < paper_a - 0.5 * max(paper_a - ink_a, 1.0)) & shows[zone]
    if not printed.any():
        return 1.0
    # Within a pixel: the darkest of each pixel's 3 x 3 neighbours (an alignment a pixel off).
    darkest = cv2.erode(view.astype(np.float32), np.ones((3, 3), np.uint8))[zone]
    return float((darkest[printed] < paper_b - 0.5 * max(paper_b - ink_b, 1.0)).mean())
